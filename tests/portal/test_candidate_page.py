"""The candidate's own page: inscription number plus access code, by POST; published data only; the same
answer for an unknown inscription and a wrong code; throttled; a reissued code replaces the old one."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from candidates import access
from candidates.models import ResultRun
from candidates.services.access import access_code_reissue
from candidates.services.results import result_run_compute
from contests.models import Contest
from portal.views import candidate as public
from tests.builders import make_classified_position, make_contest, make_world

URL = reverse("public:candidate")


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    candidate = world["registration"].candidate
    candidate.email = "candidata@example.org"
    candidate.phone = "(55) 99999-0000"
    candidate.save()
    return world


def ask(client, registration, code=None, *, number=None, contest=None):
    return client.post(
        URL,
        {
            "contest": (contest or registration.contest).pk,
            "number": number or registration.number,
            "code": access.code_for(registration) if code is None else code,
        },
        REMOTE_ADDR="203.0.113.7",
    )


def test_the_right_code_shows_the_place_in_each_list_and_the_nomination(client, world):
    registration = world["registration"]
    response = ask(client, registration)
    assert response.status_code == 200
    html = response.content.decode()
    assert registration.candidate.display_name in html
    assert "Lista geral (ampla concorrência, cotistas incluídos)" in html
    assert "1º" in html  # "A" heads the general list of the worked example
    nomination = world["nomination"]
    assert nomination.act_number in html
    assert f"até {nomination.office_deadline:%d/%m/%Y}" in html
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives
    assert "noindex" in response["X-Robots-Tag"]


def test_a_racial_candidate_sees_both_lists(client, world):
    registration = world["position"].registrations.get(number="N1")
    html = ask(client, registration).content.decode()
    assert "Lista geral (ampla concorrência, cotistas incluídos)" in html
    assert "Lista reservada a negros" in html


def test_the_page_shows_no_cpf_birth_date_or_contact(client, world):
    registration = world["registration"]
    candidate = registration.candidate
    html = ask(client, registration).content.decode()
    for secret in (
        candidate.cpf,
        candidate.cpf_formatted,
        candidate.email,
        candidate.phone,
        f"{candidate.birth_date:%d/%m/%Y}",
        access.code_for(registration),
    ):
        assert secret not in html


def test_wrong_code_and_unknown_inscription_get_the_same_answer(client, world):
    registration = world["registration"]
    wrong = ask(client, registration, "QWER-TYPA-SD")
    unknown = ask(client, registration, "QWER-TYPA-SD", number="NAO-EXISTE")
    for response in (wrong, unknown):
        assert response.status_code == 200
        html = response.content.decode()
        assert public.REFUSED in html
        assert "QWER-TYPA-SD" not in html  # the refused code is not written back
        assert registration.candidate.display_name not in html


def test_the_code_is_never_taken_from_the_url(client, world):
    registration = world["registration"]
    query = {"contest": registration.contest.pk, "number": registration.number}
    response = client.get(URL, query | {"code": access.code_for(registration)})
    assert response.status_code == 200
    assert registration.candidate.display_name not in response.content.decode()


def test_too_many_wrong_codes_on_one_inscription_lock_it_even_for_the_right_code(client, world, monkeypatch):
    monkeypatch.setattr(public, "MAX_FAILURES_PER_REGISTRATION", 3)
    registration = world["registration"]
    for _ in range(3):
        assert ask(client, registration, "ZZZZ-ZZZZ-ZZ").status_code == 200
    locked = ask(client, registration)
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "Muitas tentativas sem sucesso" in html
    assert registration.candidate.display_name not in html
    # Another inscription from another address is not affected.
    other = world["position"].registrations.get(number="B")
    response = client.post(
        URL,
        {"contest": other.contest.pk, "number": other.number, "code": access.code_for(other)},
        REMOTE_ADDR="198.51.100.9",
    )
    assert other.candidate.display_name in response.content.decode()


def test_too_many_wrong_codes_from_one_address_lock_that_address(client, world, monkeypatch):
    monkeypatch.setattr(public, "MAX_FAILURES_PER_ADDRESS", 4)
    registration = world["registration"]
    for n in range(4):  # four different inscriptions: one guess each
        ask(client, registration, "ZZZZ-ZZZZ-ZZ", number=f"X{n}")
    assert ask(client, registration).status_code == 429
    response = client.post(
        URL,
        {
            "contest": registration.contest.pk,
            "number": registration.number,
            "code": access.code_for(registration),
        },
        REMOTE_ADDR="198.51.100.9",
    )
    assert response.status_code == 200
    assert registration.candidate.display_name in response.content.decode()


def test_a_reissued_code_replaces_the_old_one(client, world, cast):
    registration = world["registration"]
    old = access.code_for(registration)
    registration = access_code_reissue(registration=registration, by=cast["clerk"])
    assert ask(client, registration, old).status_code == 200
    assert public.REFUSED in ask(client, registration, old).content.decode()
    assert registration.candidate.display_name in ask(client, registration).content.decode()


def test_a_draft_contest_is_not_offered_and_shows_nothing(client, db):
    contest = make_contest()  # draft
    registration = make_classified_position(contest).registrations.get(number="A")
    response = ask(client, registration)
    html = response.content.decode()
    assert "Escolha um dos concursos da lista" in html
    assert registration.candidate.display_name not in html
    assert contest.title not in client.get(URL).content.decode()


def test_an_unpublished_run_shows_nothing(client, cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    registration = make_classified_position(contest).registrations.get(number="A")
    run = result_run_compute(contest=contest, by=cast["clerk"])
    assert run.status == ResultRun.Status.DRAFT
    html = ask(client, registration).content.decode()
    assert registration.candidate.display_name in html  # the code is right: their own page opens
    assert "Nenhuma lista de classificação com esta inscrição foi publicada" in html
    assert "1º" not in html
    assert "Cálculo de" not in html


def test_the_form_preselects_a_contest_from_the_link(client, world):
    contest = world["contest"]
    html = client.get(URL, {"concurso": contest.slug}).content.decode()
    assert f'<option value="{contest.pk}" selected>' in html
