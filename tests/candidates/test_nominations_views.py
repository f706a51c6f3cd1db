"""Nomination screens: the access matrix, the call with its preview, the records, and the history."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from candidates.models import AllocationLedger, Nomination
from candidates.services.nominations import nominations_call
from contests.models import VacancyOpening
from tests.access import ROLES, assert_access
from tests.builders import homologate, make_classified_position, make_contest, publish_final


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def position(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, code="ALEG")
    # Homologated 60 days ago: valid today, whatever day the suite runs.
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    publish_final(contest, cast["manager"])
    return position


@pytest.fixture
def nomination(position, cast):
    (first,) = nominations_call(
        position=position,
        count=1,
        act_number="Portaria 1/2026",
        act_date=timezone.localdate(),
        by=cast["clerk"],
    )
    return first


def url(name, position, *extra):
    return reverse(f"candidates:{name}", args=[position.contest.slug, position.pk, *extra])


READERS = {"clerk", "manager", "auditor", "legal"}


@pytest.mark.parametrize("who", ROLES)
def test_list_and_detail_access_matrix(client_for, position, nomination, who):
    assert_access(client_for, who, url("nomination_list", position), READERS)
    assert_access(client_for, who, url("nomination_detail", position, nomination.pk), READERS)


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize(
    "name",
    [
        "nomination_call",
        "nomination_open_vacancies",
        "nomination_took_office",
        "nomination_withdraw",
        "nomination_no_show",
        "nomination_end_of_list",
    ],
)
def test_write_screens_access_matrix(client_for, position, nomination, who, name):
    extra = () if name in ("nomination_call", "nomination_open_vacancies") else (nomination.pk,)
    assert_access(client_for, who, url(name, position, *extra), {"clerk"})


def test_seat_strip_says_kind_and_state_in_words(client_for, position, nomination):
    page = client_for("auditor").get(url("nomination_list", position)).content.decode()
    assert "1ª vaga · Ampla concorrência" in page
    assert "3ª vaga · Reservada a negros" in page
    assert "ocupada" in page and "prevista" in page
    assert 'title="Vaga 1, ampla concorrência: ocupada por' in page


def test_ar_art3_par1_the_seat_strip_explains_a_collision_in_words(client_for, cast):
    from contests.models import Policy

    contest = make_contest(policy=Policy.objects.get(slug="angra-dos-reis"), pcd_percent=5)
    position = make_classified_position(contest, code="AR5")
    page = client_for("auditor").get(url("nomination_list", position)).content.decode()
    assert "4ª vaga · Reservada a pessoas com deficiência" in page
    assert "5ª vaga · Reservada a negros e índios" in page
    assert (
        "A 5ª vaga é reservada a negros e índios (art. 3º §1º); a vaga de pessoa com deficiência passa para a 4ª."
    ) in page


def call_data(**overrides):
    data = {
        "count": "3",
        "act_number": "Portaria 2/2026",
        "act_date": timezone.localdate().strftime("%d/%m/%Y"),
        "gazette_edition": "DOM 1234",
        "gazette_page": "5",
        "notified_gazette": "on",
        "notified_email": "on",
    }
    data.update(overrides)
    return data


def test_call_shows_who_and_why_before_confirming(client_for, position, cast):
    client = client_for("clerk")
    target = url("nomination_call", position)
    preview = client.post(target, {**call_data(), "step": "preview"})
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "3ª vaga · Reservada a negros</strong>: inscrição N2" in text
    # The why line does not repeat the seat shown in bold above it.
    assert '<span class="muted">Reservada a negros; ' in text
    assert '<span class="muted">1ª vaga' not in text and '<span class="muted">3ª vaga' not in text
    assert "N2 é o 1º da lista de negros fora da ampla concorrência" in text
    assert not Nomination.objects.exists()
    version = AllocationLedger.objects.filter(position=position).first()
    assert version is None
    confirm = client.post(target, {**call_data(), "step": "confirm", "version": "0", "previewed": "3"})
    assert confirm.status_code == 302
    rows = list(Nomination.objects.order_by("order"))
    assert [(n.seat, n.registration.number) for n in rows] == [(1, "A"), (2, "N1"), (3, "N2")]
    assert rows[0].office_deadline == timezone.localdate() + datetime.timedelta(days=30)
    # "E-mail" was chosen, but none of them has an address: recorded as not e-mailed (issue 19).
    assert (rows[0].gazette_edition, rows[0].notified_email, rows[0].notified_letter) == (
        "DOM 1234",
        False,
        False,
    )
    history = rows[2].history.first()
    assert history.history_user == cast["clerk"]


def test_confirm_after_someone_else_called_shows_the_new_preview(client_for, position, nomination):
    client = client_for("clerk")
    response = client.post(
        url("nomination_call", position),
        {**call_data(count="1"), "step": "confirm", "version": "0", "previewed": "1"},
    )
    assert response.status_code == 200
    assert "Outra operação foi registrada" in response.content.decode()
    assert Nomination.objects.count() == 1


def test_took_office_withdraw_no_show_end_of_list(client_for, position, nomination, cast):
    client = client_for("clerk")
    today = timezone.localdate().strftime("%d/%m/%Y")
    client.post(url("nomination_took_office", position, nomination.pk), {"date": today})
    nomination.refresh_from_db()
    assert nomination.status == Nomination.Status.TOOK_OFFICE
    assert nomination.history.first().history_user == cast["clerk"]

    (second,) = nominations_call(
        position=position,
        count=1,
        act_number="Portaria 3/2026",
        act_date=timezone.localdate(),
        by=cast["clerk"],
    )
    missing = client.post(url("nomination_withdraw", position, second.pk), {"date": today})
    assert "Termo de desistência assinado" in missing.content.decode()
    upload = SimpleUploadedFile("termo.pdf", b"%PDF-1.4 termo", content_type="application/pdf")
    client.post(url("nomination_withdraw", position, second.pk), {"date": today, "statement": upload})
    second.refresh_from_db()
    assert second.status == Nomination.Status.WITHDRAWN
    download = client.get(url("nomination_statement", position, second.pk))
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == b"%PDF-1.4 termo"
    outsider = Client()
    outsider.force_login(cast["outsider"])
    assert outsider.get(url("nomination_statement", position, second.pk)).status_code == 403

    (third,) = nominations_call(
        position=position,
        count=1,
        act_number="Portaria 4/2026",
        act_date=timezone.localdate(),
        by=cast["clerk"],
    )
    early = client.post(url("nomination_no_show", position, third.pk), {"act_number": "Portaria 5/2026"})
    assert "só pode ser registrado depois" in early.content.decode()
    client.post(
        url("nomination_end_of_list", position, third.pk), {"date": today, "reason": "Pedido escrito"}
    )
    third.refresh_from_db()
    assert third.status == Nomination.Status.END_OF_LIST
    assert "Pedido escrito" in third.end_reason


def test_no_show_after_the_deadline(client_for, position, cast):
    act_date = timezone.localdate() - datetime.timedelta(days=40)
    (late,) = nominations_call(
        position=position,
        count=1,
        act_number="Portaria 9/2026",
        act_date=act_date,
        by=cast["clerk"],
        today=act_date,
    )
    detail = client_for("clerk").get(url("nomination_detail", position, late.pk)).content.decode()
    assert "Não tomou posse" in detail
    client_for("clerk").post(url("nomination_no_show", position, late.pk), {"act_number": "Portaria 10/2026"})
    late.refresh_from_db()
    assert late.status == Nomination.Status.NO_SHOW
    assert "Portaria 10/2026" in late.end_reason


def test_open_vacancies_shows_the_schedule_extending(client_for, position, nomination):
    response = client_for("clerk").post(
        url("nomination_open_vacancies", position),
        {"count": "5", "date": timezone.localdate().strftime("%d/%m/%Y"), "act": "Lei 77/2026"},
        follow=True,
    )
    assert response.redirect_chain == [(url("nomination_open_vacancies", position), 302)]
    text = response.content.decode()
    assert "Como a ordem se estende" in text
    assert "— (vaga nova)" in text
    assert VacancyOpening.objects.filter(position=position, kind="later", count=5).exists()
    assert position.vacancies == 10
    assert AllocationLedger.objects.get(position=position).state["vacancies"] == 10
