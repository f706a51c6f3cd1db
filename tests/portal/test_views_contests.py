"""The public portal's contest-level pages: home by state, a contest's page, the fixed pages, the
verification of restricted acts; and how every public page answers (validators, cache, headers).

Plain functions with the test client, anonymous unless said otherwise.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import itertools

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfWriter

from contests.documents.models import Document
from contests.documents.services import document_publish, edital_text_save
from contests.models import Contest, Organization, VacancyOpening
from contests.services import (
    contest_homologate,
    position_create,
    vacancy_opening_create,
    vacancy_opening_update,
)
from portal.pages import SEARCH_CACHE_ALIAS
from tests.builders import final_result, make_contest, make_position, make_world

pytestmark = pytest.mark.django_db
_codes = itertools.count(1)


def make_document(contest, kind=Document.Kind.EDITAL, *, previous=None, subject="", title="Edital nº 1"):
    n = next(_codes)
    pdf = f"%PDF-1.4 documento {n}".encode()
    document = Document(
        contest=contest,
        kind=kind,
        subject=subject,
        title=title,
        version=previous.version + 1 if previous else 1,
        previous=previous,
        rectification_summary="Corrige o cronograma." if previous else "",
        pdf=pdf,
        sha256=hashlib.sha256(pdf).hexdigest(),
        code=f"T{n:03d}-{n:04d}",
        published_at=timezone.now(),
        signer_name="Fulana",
        signer_office="Presidente",
    )
    document.save()
    return document


def publish_document(contest, *, previous=None, title="Edital nº 1"):
    """An edital (or its rectification) published through the service, as a one-page PDF: the publication
    it records moves the public pages on when the transaction commits."""
    writer = PdfWriter()
    writer.add_blank_page(width=72, height=72)
    writer.add_metadata({"/Title": f"documento {next(_codes)}"})
    buffer = io.BytesIO()
    writer.write(buffer)
    return document_publish(
        contest=contest,
        kind=Document.Kind.EDITAL,
        title=title,
        render=lambda stamp: buffer.getvalue(),
        by=None,
        signer_name="Fulana",
        signer_office="Presidente",
        previous=previous,
        summary="Corrige o cronograma." if previous else "",
    )


def published(**overrides) -> Contest:
    return make_contest(**{"status": Contest.Status.IN_PROGRESS, **overrides})


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# Home ---------------------------------------------------------------------------------------------------------


def test_home_groups_published_contests_by_state_and_hides_drafts(client):
    today = timezone.localdate()
    day = datetime.timedelta(days=1)
    open_now = published(
        status=Contest.Status.REGISTRATION,
        title="Inscrições agora",
        edital_date=today - 5 * day,
        registration_start=today - day,
        registration_end=today + 10 * day,
    )
    running = published(title="Provas em curso")
    done = make_contest(
        status=Contest.Status.HOMOLOGATED, homologation_date=datetime.date(2026, 6, 1), title="Já homologado"
    )
    make_contest(title="Rascunho secreto")
    html = text(client.get("/"))
    assert "Rascunho secreto" not in html
    sections = html.split('<h2 id="')
    by_section = {part.split('"', 1)[0]: part for part in sections[1:]}
    assert open_now.title in by_section["registration_open"]
    assert running.title in by_section["in_progress"]
    assert done.title in by_section["concluded"]


def test_home_search_finds_a_contest_without_accents(client):
    published(title="Agente de Saúde da Família")
    published(title="Motorista")
    html = text(client.get("/", {"q": "saude"}))
    assert "Agente de Saúde da Família" in html and "Motorista" not in html
    assert "1 concurso encontrado" in html


# A contest ------------------------------------------------------------------------------------------------------


def test_draft_contest_is_a_404_everywhere(client):
    draft = make_contest()
    make_position(draft)
    assert client.get(reverse("public:contest", args=[draft.slug])).status_code == 404
    assert client.get(reverse("public:contest", args=["nao-existe"])).status_code == 404


def test_contest_page_documents_every_version_but_never_restricted_kinds(client):
    contest = published()
    first = make_document(contest)
    second = make_document(contest, previous=first)
    effects = make_document(
        contest, Document.Kind.PROCEDURE_EFFECTS, subject="p-1", title="Ato de eliminação"
    )
    secret = make_document(contest, Document.Kind.PROCEDURE_ACT, subject="p-2", title="Notificação de Fulana")
    minutes = make_document(contest, Document.Kind.HETERO_MINUTES, subject="s-1", title="Ata da sessão 1")
    html = text(client.get(reverse("public:contest", args=[contest.slug])))
    for shown in (first, second, effects):
        assert shown.code in html
    assert "Corrige o cronograma." in html and "2 versões" in html
    for hidden in (secret, minutes):
        assert hidden.code not in html and hidden.title not in html


def test_contest_page_vacancy_table_with_reserved_counts(client):
    contest = published()
    make_position(contest, vacancies=13, code="ANSI", title="Analista de Sistemas")
    html = text(client.get(reverse("public:contest", args=[contest.slug])))
    row = html.split("ANSI – Analista de Sistemas", 1)[1].split("</tr>", 1)[0]
    cells = [c.split(">", 1)[1].split("</td>")[0] for c in row.split('<td class="num"')[1:]]
    assert cells == ["13", "9", "3", "1"]  # SM: 20% of 13 = 2,6 → 3 racial; PcD 5% of 13 → 1


def vacancy_cells(client, contest, code: str) -> list[str]:
    """The numeric cells of a position's row in the public vacancy table ([] when it is not there)."""
    html = text(client.get(reverse("public:contest", args=[contest.slug])))
    if f"{code} – " not in html:
        return []
    row = html.split(f"{code} – ", 1)[1].split("</tr>", 1)[0]
    return [c.split(">", 1)[1].split("</td>")[0] for c in row.split('<td class="num"')[1:]]


def test_vacancy_table_is_the_published_editals_until_a_rectification(
    client, django_capture_on_commit_callbacks
):
    contest = published(status=Contest.Status.PUBLISHED)  # before registrations: edital vacancies not frozen
    position = make_position(contest, vacancies=13, code="ANSI", title="Analista de Sistemas")
    first = make_document(contest)
    opening = position.openings.get(kind=VacancyOpening.Kind.EDITAL)
    vacancy_opening_update(opening=opening, by=None, data={"count": 5})
    position_create(
        contest=contest, by=None, data={"code": "NOVO", "title": "Cargo novo"}, edital_vacancies=4
    )
    assert vacancy_cells(client, contest, "ANSI") == ["13", "9", "3", "1"]  # as the edital published it
    assert vacancy_cells(client, contest, "NOVO") == []
    with django_capture_on_commit_callbacks(execute=True):
        publish_document(contest, previous=first)  # the rectification publishes the change
    assert vacancy_cells(client, contest, "ANSI") == ["5", "3", "1", "1"]  # 20% of 5 → 1; PcD 5% → 1
    assert vacancy_cells(client, contest, "NOVO") == ["4", "3", "1", "0"]


def test_vacancy_table_shows_an_opening_during_validity_when_recorded(
    client, django_capture_on_commit_callbacks
):
    contest = published()
    position = make_position(contest, vacancies=4, code="ANSI", title="Analista de Sistemas")
    make_document(contest)
    final_result(contest)
    contest_homologate(contest=contest, by=None, date=datetime.date(2026, 6, 1), act="Ato 1")
    assert vacancy_cells(client, contest, "ANSI") == ["4", "3", "1", "0"]
    with django_capture_on_commit_callbacks(execute=True):
        vacancy_opening_create(
            position=position,
            by=None,
            data={
                "kind": VacancyOpening.Kind.LATER,
                "count": 9,
                "date": datetime.date(2026, 7, 1),
                "act": "Lei 9",
            },
        )
    assert vacancy_cells(client, contest, "ANSI") == ["13", "9", "3", "1"]


def test_schedule_is_the_published_editals_not_a_later_edit(client):
    contest = published()
    edital_text_save(contest=contest, by=None, data={"schedule": "10/05/2026 – Prova objetiva"})
    make_document(contest)
    edital_text_save(contest=contest, by=None, data={"schedule": "17/05/2026 – Prova objetiva adiada"})
    html = text(client.get(reverse("public:contest", args=[contest.slug])))
    assert "10/05/2026" in html and "adiada" not in html


# Fixed pages ------------------------------------------------------------------------------------------------


def test_privacy_page_legal_basis_dpo_and_art18_route(client):
    Organization.objects.create(
        name="Câmara de Teste",
        municipality="Teste",
        state="RS",
        dpo_name="Dora Encarregada",
        dpo_email="dpo@camara.example",
        dpo_phone="(55) 3000-0001",
    )
    html = text(client.get(reverse("public:privacy")))
    for words in (
        "art. 7º, II e III",
        "art. 11, II, “a” e “b”",
        "art. 18",
        "Dora Encarregada",
        "dpo@camara.example",
    ):
        assert words in html


def test_accessibility_page_lists_the_access_keys(client):
    html = text(client.get(reverse("public:accessibility")))
    assert "e-MAG" in html and "Alto contraste" in html
    for key in ("1", "2", "3"):
        assert f'accesskey="{key}"' in html


def test_login_page_links_to_the_portal(client):
    html = text(client.get(reverse("login")))
    assert f'href="{reverse("public:home")}"' in html


# Verification of restricted acts ----------------------------------------------------------------------------


def test_restricted_act_is_confirmed_but_neither_titled_nor_served(client):
    contest = published()
    secret = make_document(contest, Document.Kind.PROCEDURE_ACT, subject="p-1", title="Notificação de Fulana")
    html = text(client.get(reverse("public:verify", args=[secret.code])))
    assert "Documento autêntico" in html and "acesso restrito" in html and secret.sha256 in html
    assert "Fulana" not in html and reverse("public:document_pdf", args=[secret.code]) not in html
    assert client.get(reverse("public:document_pdf", args=[secret.code])).status_code == 404
    public = make_document(contest)
    assert client.get(reverse("public:document_pdf", args=[public.code])).status_code == 200


# How every public page answers -------------------------------------------------------------------------------


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def public_urls(world) -> list[str]:
    contest, position, run = world["contest"], world["position"], world["run"]
    args = [contest.slug, run.pk, position.pk, "racial"]
    return [
        reverse("public:home"),
        reverse("public:accessibility"),
        reverse("public:privacy"),
        reverse("public:data_dictionary"),
        reverse("public:contest", args=[contest.slug]),
        reverse("public:run", args=[contest.slug, run.pk]),
        reverse("public:run", args=[contest.slug, run.pk]) + "?q=N1",
        reverse("public:list", args=args),
        reverse("public:list_data", args=[*args, "csv"]),
        reverse("public:list_data", args=[*args, "json"]),
        reverse("public:nominations", args=[contest.slug, position.pk]),
        reverse("public:nominations_data", args=[contest.slug, position.pk, "csv"]),
        reverse("public:nominations_data", args=[contest.slug, position.pk, "json"]),
        reverse("public:verify_home"),
    ]


SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options")


def test_security_headers_on_every_public_response(client, world):
    """The first answer (rendered), the second (replayed from the cache) and a 304 alike."""
    for url in [*public_urls(world), reverse("public:contest", args=["rascunho"])]:
        first = client.get(url)
        second = client.get(url)
        answers = [first, second]
        if first.get("ETag"):
            answers.append(client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]))
            assert answers[-1].status_code == 304, url
        for response in answers:
            for header in SECURITY_HEADERS:
                assert response.get(header), (url, response.status_code, header)
            assert response["X-Content-Type-Options"] == "nosniff"
            assert response["X-Frame-Options"] == "DENY"
            assert "script-src 'self'" in response["Content-Security-Policy"]
            assert "'unsafe-inline'" not in response["Content-Security-Policy"]
        assert second.content == first.content and second.get("ETag") == first.get("ETag")


def test_a_replayed_page_still_refuses_an_unknown_host(client, world):
    url = reverse("public:home")
    assert client.get(url).status_code == 200
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400


def test_every_cached_public_page_has_validators_and_is_public(client, world):
    for url in public_urls(world)[:-1]:  # the verification form is not stored (it answers uploads)
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["ETag"].startswith('"') and response["Last-Modified"], url
        assert response["Cache-Control"].startswith("public, max-age="), url
        assert "Cookie" not in response.get("Vary", ""), url  # anonymous: one copy for everyone


def test_conditional_get_returns_304(client, world):
    url = reverse("public:list", args=[world["contest"].slug, world["run"].pk, world["position"].pk, "geral"])
    first = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"outra"').status_code == 200


def test_a_stored_page_costs_no_query(client, world):
    url = reverse("public:list", args=[world["contest"].slug, world["run"].pk, world["position"].pk, "geral"])
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    assert len(queries) == 0, [q["sql"] for q in queries]


def test_a_publication_makes_the_stored_pages_stale(client, world, cast, django_capture_on_commit_callbacks):
    url = reverse("public:contest", args=[world["contest"].slug])
    before = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        publish_document(world["contest"], title="Edital de convocação")
    after = client.get(url)
    assert after["ETag"] != before["ETag"] and "Edital de convocação" in after.content.decode()


def test_name_lists_say_noindex(client, world):
    contest, position, run = world["contest"], world["position"], world["run"]
    for url in (
        reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"]),
        reverse("public:run", args=[contest.slug, run.pk]),
        reverse("public:nominations", args=[contest.slug, position.pk]),
    ):
        response = client.get(url)
        assert response["X-Robots-Tag"] == "noindex, nofollow"
        assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    assert "X-Robots-Tag" not in client.get(reverse("public:home"))


def test_staff_get_the_public_pages_unstored(client_for, world):
    response = client_for("clerk").get(reverse("public:contest", args=[world["contest"].slug]))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def _stored_entries() -> int:
    from django.core.cache import caches

    return len(caches["public"]._cache)  # type: ignore[attr-defined]  # LocMemCache, the test setting


def test_addresses_anyone_can_vary_add_no_stored_entry(client, world):
    """The whole answer was kept under the raw query string, so ``?x=1``, ``?x=2``… (or a search,
    or a page number past the last) each added an entry; now only the pages' own addresses are stored."""
    contest, position, run = world["contest"], world["position"], world["run"]
    list_url = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    run_url = reverse("public:run", args=[contest.slug, run.pk])
    for url in (list_url, run_url, reverse("public:home"), reverse("public:contest", args=[contest.slug])):
        assert client.get(url).status_code == 200
    before = _stored_entries()
    for n in range(5):
        for url in (
            f"{list_url}?utm={n}",
            f"{list_url}?q=nome{n}",
            f"{list_url}?pagina={n + 50}",
            f"{list_url}?pagina=0{n}",
            f"{run_url}?q=ninguem{n}",
            f"{run_url}?pagina={n + 2}",
            f"{reverse('public:home')}?q=concurso{n}",
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            assert response["ETag"] and response["Cache-Control"].startswith("public"), url
    assert _stored_entries() == before


def test_a_search_that_finds_nobody_is_answered_fresh_each_time(client, world):
    contest, position, run = world["contest"], world["position"], world["run"]
    url = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"]) + "?q=ninguem"
    searches = caches[SEARCH_CACHE_ALIAS]._cache  # LocMemCache, the test setting
    before = len(searches)
    first = client.get(url)
    again = client.get(url)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert "Ninguém encontrado" in again.content.decode()
    assert len(searches) == before  # rendered again each time, never stored
    client.get(url.replace("ninguem", "N1"))
    assert len(searches) > before  # a search that finds somebody is


def test_a_search_that_finds_somebody_is_stored_like_the_list(client, world):
    """On result day everyone searches their own name: rendering each search again saturated the CPUs
    (bench/public_load.py, p95 386 ms); what is stored is bounded by the published names."""
    contest, position, run = world["contest"], world["position"], world["run"]
    url = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"]) + "?q=N1"
    first = client.get(url)
    assert "N1" in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert len(queries) == 0
