"""The candidate's own page: inscription number plus access code, by POST; published data only; the same
answer for an unknown inscription and a wrong code; throttled; a reissued code replaces the old one."""

from __future__ import annotations

import datetime
import types

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from candidates import access
from candidates.models import AccessCodeFailure, ResultRun
from candidates.services import access_throttle
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


@pytest.fixture
def clock(monkeypatch):
    """The page's clock, set by the test: ``clock.at = moment``."""
    clock = types.SimpleNamespace(at=timezone.now())
    monkeypatch.setattr(public, "timezone", types.SimpleNamespace(now=lambda: clock.at))
    return clock


def ask(client, registration, code=None, *, number=None, contest=None, address="203.0.113.7"):
    return client.post(
        URL,
        {
            "contest": (contest or registration.contest).pk,
            "number": number or registration.number,
            "code": access.code_for(registration) if code is None else code,
        },
        REMOTE_ADDR=address,
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


def test_too_many_wrong_codes_on_one_inscription_from_one_address_lock_that_pair(client, world, monkeypatch):
    monkeypatch.setattr(access_throttle, "MAX_PER_PAIR", 3)
    registration = world["registration"]
    for _ in range(3):
        assert ask(client, registration, "ZZZZ-ZZZZ-ZZ").status_code == 200
    locked = ask(client, registration)
    assert locked.status_code == 429
    assert 3590 <= int(locked["Retry-After"]) <= 3600  # the first wrong code leaves the hour's window
    html = locked.content.decode()
    assert "Muitas tentativas sem sucesso a partir deste endereço" in html
    assert "bloqueada por 60 minutos" in html
    assert registration.candidate.display_name not in html
    assert 'name="number"' in html  # the form again, with the message
    # Another inscription from another address is not affected.
    other = world["position"].registrations.get(number="B")
    response = client.post(
        URL,
        {"contest": other.contest.pk, "number": other.number, "code": access.code_for(other)},
        REMOTE_ADDR="198.51.100.9",
    )
    assert other.candidate.display_name in response.content.decode()


def test_n4_the_lock_ends_when_the_oldest_wrong_code_leaves_the_window(client, world, monkeypatch, clock):
    monkeypatch.setattr(access_throttle, "MAX_PER_PAIR", 3)
    registration = world["registration"]
    start = clock.at
    for minutes in (0, 20, 40):
        clock.at = start + datetime.timedelta(minutes=minutes)
        ask(client, registration, "ZZZZ-ZZZZ-ZZ")
    clock.at = start + datetime.timedelta(minutes=50)
    locked = ask(client, registration)
    assert locked.status_code == 429 and locked["Retry-After"] == "600"
    assert "bloqueada por 10 minutos" in locked.content.decode()
    clock.at = start + datetime.timedelta(minutes=60, seconds=1)
    response = ask(client, registration)
    assert response.status_code == 200
    assert registration.candidate.display_name in response.content.decode()


def test_n4_nobody_locks_a_candidate_out(client, world):
    """Issue 25 N4: inscription numbers are public; ten wrong codes from one address locked the candidate
    out of their page for an hour from everywhere. Now the guesser's address is locked for that
    inscription, and the candidate from their own address gets in at once."""
    registration = world["registration"]
    for _ in range(10):
        ask(client, registration, "ZZZZ-ZZZZ-ZZ", address="203.0.113.66")
    assert ask(client, registration, address="203.0.113.66").status_code == 429  # the guesser's address
    response = ask(client, registration, address="198.51.100.20")  # the candidate, at home
    assert response.status_code == 200
    assert registration.candidate.display_name in response.content.decode()


def test_n4_an_inscription_guessed_from_everywhere_spaces_out_the_guessers_tries(client, world, clock):
    """The global slowdown: past SLOW_AFTER wrong codes on one inscription from every address, an address
    that got it wrong waits before its next try, longer as the wrong codes grow; an address that has not
    failed on it, the candidate's, is answered at once. Issue 25 N4: the wait was a sleep in the request
    (up to 5 s, a worker held each time: a flood of tries took every worker); now a try that must wait is
    answered at once, 429 with Retry-After and the wait in words."""
    registration = world["registration"]
    start = clock.at
    for n in range(access_throttle.SLOW_AFTER):  # ten addresses, one wrong code each
        assert ask(client, registration, "ZZZZ-ZZZZ-ZZ", address=f"203.0.113.{n}").status_code == 200
    slowed = ask(client, registration, address="203.0.113.0")  # the right code, from a guesser
    assert slowed.status_code == 429
    assert slowed["Retry-After"] == str(int(access_throttle.SLOW_STEP))
    html = slowed.content.decode()
    assert "Esta inscrição recebeu muitas tentativas com código errado" in html
    assert "aguarde 2 segundos antes de tentar de novo" in html
    assert registration.candidate.display_name not in html
    assert AccessCodeFailure.objects.count() == access_throttle.SLOW_AFTER  # a refused try is not counted
    response = ask(client, registration, address="198.51.100.20")  # the candidate, at home
    assert response.status_code == 200
    assert registration.candidate.display_name in response.content.decode()
    clock.at = start + datetime.timedelta(seconds=2)
    assert (
        registration.candidate.display_name
        in ask(client, registration, address="203.0.113.0").content.decode()
    )
    clock.at = start + datetime.timedelta(seconds=3)
    for n in range(40):  # many more guessers: the spacing grows to SLOW_MAX and no further
        ask(client, registration, "ZZZZ-ZZZZ-ZZ", address=f"198.18.0.{n}")
    again = ask(client, registration, "ZZZZ-ZZZZ-ZZ", address="198.18.0.1")
    assert again.status_code == 429 and again["Retry-After"] == str(int(access_throttle.SLOW_MAX))
    assert "aguarde 1 minuto antes" in again.content.decode()
    response = ask(client, registration, address="198.51.100.21")
    assert registration.candidate.display_name in response.content.decode()


def test_n4_the_counts_are_in_the_database_not_in_a_worker_s_memory(client, world):
    """A worker recycled (its memory, and the per-process cache, gone) forgets none of the wrong codes."""
    registration = world["registration"]
    for _ in range(10):
        ask(client, registration, "ZZZZ-ZZZZ-ZZ", address="203.0.113.66")
    assert AccessCodeFailure.objects.count() == 10
    cache.clear()  # what a recycled worker starts with
    assert ask(client, registration, address="203.0.113.66").status_code == 429
    stored = AccessCodeFailure.objects.values_list("registration_key", "address_key")
    assert all(registration.number not in key and "203.0.113" not in a for key, a in stored)


def test_too_many_wrong_codes_from_one_address_lock_that_address(client, world, monkeypatch):
    monkeypatch.setattr(access_throttle, "MAX_PER_ADDRESS", 4)
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
