"""The nominations' part: each test reproduces a defect the hostile test found."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from candidates.models import Nomination
from candidates.services.nominations import (
    nomination_end_of_list,
    nomination_took_office,
    nomination_withdraw,
    nominations_call,
)
from tests.builders import homologate, make_classified_position, make_contest, publish_final

FAR = datetime.date(9999, 12, 31)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def position(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, code="ALEG")
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    publish_final(contest, cast["manager"])
    return position


def url(name, position, *extra):
    return reverse(f"candidates:{name}", args=[position.contest.slug, position.pk, *extra])


def call_data(**overrides):
    data = {
        "count": "1",
        "act_number": "Portaria 2/2026",
        "act_date": timezone.localdate().strftime("%d/%m/%Y"),
        "notified_gazette": "on",
    }
    data.update(overrides)
    return data


# Defect 2: a gazette date of 31/12/9999 in a call gave 500 (the office deadline overflowed).


def test_call_with_gazette_at_the_end_of_the_calendar_is_refused_by_the_service(position, cast):
    with pytest.raises(ValidationError) as refused:
        nominations_call(
            position=position,
            count=1,
            act_number="Portaria 1/2026",
            act_date=timezone.localdate(),
            gazette_date=FAR,
            by=cast["clerk"],
        )
    assert "gazette_date" in refused.value.error_dict
    assert not Nomination.objects.exists()


def test_call_form_with_far_gazette_date_answers_with_a_message(client_for, position):
    response = client_for("clerk").post(
        url("nomination_call", position),
        {**call_data(gazette_date="31/12/9999"), "step": "confirm", "version": "0", "previewed": "1"},
    )
    assert response.status_code == 200
    # Since defect 1 the form refuses the date before the service sees it; either way a message.
    assert "error-summary" in response.content.decode()
    assert not Nomination.objects.exists()


# Defect 4: unicode digits ("²") passed str.isdigit() and crashed int().


def test_run_comparison_with_a_superscript_digit_is_not_a_500(client_for, position):
    run = position.contest.result_runs.get()
    compare = reverse("candidates:result_compare", args=[position.contest.slug, run.pk])
    response = client_for("auditor").get(compare, {"com": "²"})
    assert response.status_code == 200
    assert response.context["previous"] is None


def test_call_confirmation_with_a_superscript_version_is_not_a_500(client_for, position):
    response = client_for("clerk").post(
        url("nomination_call", position),
        {**call_data(), "step": "confirm", "version": "²", "previewed": "1"},
    )
    # Hidden fields that are not the screen's numbers: the preview again, nothing called.
    assert response.status_code == 200
    assert not Nomination.objects.exists()


def test_call_confirmation_with_a_superscript_previewed_count_shows_the_preview_again(client_for, position):
    response = client_for("clerk").post(
        url("nomination_call", position),
        {**call_data(), "step": "confirm", "version": "0", "previewed": "¹"},
    )
    assert response.status_code == 200
    assert not Nomination.objects.exists()


# Defect 11: an end-of-list request dated 01/01/0001 was stored for an act of 2026.


@pytest.fixture
def nomination(position, cast):
    (first,) = nominations_call(
        position=position,
        count=1,
        act_number="Portaria 1/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=5),
        by=cast["clerk"],
    )
    return first


@pytest.mark.parametrize(
    ("record", "extra"),
    [
        (nomination_end_of_list, {}),
        (nomination_took_office, {}),
        (nomination_withdraw, {"statement_file": SimpleUploadedFile("termo.pdf", b"%PDF-1.4")}),
    ],
)
def test_events_of_a_nomination_cannot_precede_its_act(nomination, cast, record, extra):
    before = nomination.act_date - datetime.timedelta(days=1)
    with pytest.raises(ValidationError) as refused:
        record(nomination=nomination, by=cast["clerk"], date=before, **extra)
    assert "anterior ao ato de nomeação" in refused.value.message_dict["date"][0]
    nomination.refresh_from_db()
    assert nomination.status == Nomination.Status.ACTIVE and nomination.ended_on is None


def test_end_of_list_form_dated_before_the_act_is_refused(client_for, position, nomination):
    response = client_for("clerk").post(
        url("nomination_end_of_list", position, nomination.pk), {"date": "01/01/2000", "reason": "x"}
    )
    assert response.status_code == 200
    assert "anterior ao ato de nomeação" in response.content.decode()
    nomination.refresh_from_db()
    assert nomination.status == Nomination.Status.ACTIVE


# Defect 10: double submission opened the vacancies again.


def open_data(page, **overrides):
    """What the opening form of ``page`` posts (its hidden one-time token included)."""
    form = page.context["form"]
    data = {
        "count": "2",
        "date": timezone.localdate().strftime("%d/%m/%Y"),
        "act": "Lei 9/2026",
        "note": "",
        "form_token": form["form_token"].value(),
    }
    data.update(overrides)
    return data


def test_opening_vacancies_redirects_and_shows_how_the_order_extends(client_for, position):
    client = client_for("clerk")
    target = url("nomination_open_vacancies", position)
    data = open_data(client.get(target))
    assert data["form_token"]
    response = client.post(target, data)
    assert response.status_code == 302
    page = client.get(response.url)
    assert "Como a ordem se estende" in page.content.decode()
    assert position.openings.filter(kind="later").count() == 1
    # Shown once: a reload of the page after the redirect opens nothing and shows no stale table.
    assert "Como a ordem se estende" not in client.get(response.url).content.decode()


def test_the_same_opening_form_submitted_twice_opens_once(client_for, position):
    client = client_for("clerk")
    target = url("nomination_open_vacancies", position)
    data = open_data(client.get(target))
    client.post(target, data)
    again = client.post(target, data, follow=True)
    assert again.status_code == 200
    assert "já tinham sido abertas" in again.content.decode()
    assert position.openings.filter(kind="later").count() == 1
    position.refresh_from_db()
    assert position.vacancies == 7


def test_the_same_later_opening_form_of_the_position_page_submitted_twice_opens_once(client_for, position):
    client = client_for("clerk")
    target = reverse("contests:opening_create", args=[position.contest.slug, position.pk])
    data = open_data(client.get(target))
    first = client.post(target, data)
    second = client.post(target, data)
    assert (first.status_code, second.status_code) == (302, 302)
    assert position.openings.filter(kind="later").count() == 1
