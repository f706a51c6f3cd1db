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
