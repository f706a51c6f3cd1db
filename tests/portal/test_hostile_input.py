"""Addresses the public types: a NUL byte or an absurd length is answered, never a 500 (PostgreSQL refuses a
NUL byte in a query, so these are read before they reach one)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/publico/minha-inscricao/?concurso=%00",
        "/publico/minha-inscricao/?concurso=" + "x" * 5000,
        "/verificar/%00/",
        "/verificar/%00/documento.pdf",
        "/verificar/" + "A" * 3000 + "/",
    ],
)
def test_a_hostile_address_is_answered_without_a_500(client, url):
    assert client.get(url).status_code in {200, 404}


def test_n5_a_code_with_a_slash_is_a_message_not_an_address_that_cannot_exist(client):
    # ``/verificar/?code=AB/CD`` answered 500 (NoReverseMatch): the code goes into the page's address.
    response = client.get("/verificar/?code=AB/CD")
    assert response.status_code == 200
    assert "Informe o código impresso no documento" in response.content.decode()


@pytest.mark.parametrize("query", ["concurso=%00", "ato=a%00b", "a%00=b%00c&a%00=d"])
def test_n5_nul_bytes_leave_the_query_string_in_one_place_before_any_view_reads_it(rf, query):
    from workspace.middleware import QueryWithoutNulMiddleware

    seen = {}

    def view(request):
        seen.update(request.GET.lists())
        seen["raw"] = request.META["QUERY_STRING"]
        return None

    QueryWithoutNulMiddleware(view)(rf.get(f"/x/?{query}"))
    assert not any("\x00" in key or any("\x00" in value for value in values) for key, values in seen.items())
    assert "%00" not in seen["raw"]


def test_n5_the_nul_middleware_comes_before_the_public_cache_and_the_views(settings):
    middleware = settings.MIDDLEWARE
    assert middleware.index("workspace.middleware.QueryWithoutNulMiddleware") < middleware.index(
        "portal.middleware.PublicPageMiddleware"
    )
