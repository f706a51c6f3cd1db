"""The lifecycle's date rules through the services and pages that take registrations and results (issue
19: imports and results accepted before registrations opened, a homologation before the final result)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from candidates.models import ResultRun
from candidates.services.results import result_run_compute, result_run_publish
from contests import services
from contests.models import Contest
from tests.builders import make_classified_position, make_contest

pytestmark = pytest.mark.django_db


def upcoming() -> Contest:
    """A contest whose registrations open next week and end in a month."""
    today = timezone.localdate()
    return make_contest(
        edital_date=today - datetime.timedelta(days=1),
        registration_start=today + datetime.timedelta(days=7),
        registration_end=today + datetime.timedelta(days=37),
        status=Contest.Status.PUBLISHED,
    )


def test_the_import_page_says_when_registrations_open_and_shows_no_upload(client_for):
    contest = upcoming()
    opens = contest.registration_start
    page = client_for("clerk").get(reverse("candidates:import_upload", args=[contest.slug])).content.decode()
    assert f"As inscrições deste concurso abrem em {opens:%d/%m/%Y}" in page
    assert 'type="file"' not in page


def test_lists_are_not_computed_before_registrations_end(cast):
    contest = upcoming()
    make_classified_position(contest)
    with pytest.raises(ValidationError) as raised:
        result_run_compute(contest=contest, by=cast["clerk"])
    assert "só podem ser calculadas depois do fim das inscrições" in raised.value.messages[0]
    assert not ResultRun.objects.exists()


def test_publishing_the_final_list_records_the_day_the_homologation_is_dated_from(cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    make_classified_position(contest)
    run = result_run_compute(contest=contest, by=cast["clerk"])
    result_run_publish(run=run, kind=ResultRun.Kind.PRELIMINARY, by=cast["manager"])
    assert Contest.objects.get(pk=contest.pk).final_result_published_on is None  # a preliminary list
    today = timezone.localdate()
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(contest=contest, by=cast["manager"], date=today, act="Portaria 1")
    assert "o resultado final ainda não foi publicado" in " ".join(raised.value.messages)
    run = result_run_compute(contest=contest, by=cast["clerk"])
    result_run_publish(run=run, kind=ResultRun.Kind.FINAL, by=cast["manager"])
    assert Contest.objects.get(pk=contest.pk).final_result_published_on == today
    contest = services.contest_homologate(contest=contest, by=cast["manager"], date=today, act="Portaria 1")
    assert contest.homologation_date == today


def test_status_in_progress_waits_for_the_end_of_registrations(cast):
    contest = upcoming()
    with pytest.raises(ValidationError) as raised:
        services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=cast["clerk"])
    assert "pode ser registrada a partir de" in raised.value.messages[0]
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.PUBLISHED
