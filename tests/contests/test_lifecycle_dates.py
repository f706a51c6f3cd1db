"""The lifecycle's date rules (contests/lifecycle.py), pure: each test is named after what it pins."""

from __future__ import annotations

import datetime

import pytest

from contests import lifecycle

D = datetime.date
SCHEDULE = lifecycle.Schedule(registration_start=D(2026, 12, 7), registration_end=D(2027, 1, 6))
FINAL = lifecycle.Facts(edital_published_on=D(2026, 11, 30), final_result_published_on=D(2027, 2, 10))
NO_FINAL = lifecycle.Facts(edital_published_on=D(2026, 11, 30))


def test_homologation_before_registrations_open_says_both_dates_and_what_to_do():
    # The case: homologated on 01/12/2026, registrations opening on 07/12/2026.
    text = lifecycle.homologation_date_refusal(D(2026, 12, 1), SCHEDULE, NO_FINAL)
    assert text is not None
    assert text.startswith(
        "A homologação só pode ser registrada depois do fim das inscrições (06/01/2027) e da publicação "
        "do resultado final:"
    )
    assert "a data informada (01/12/2026) não é posterior ao fim das inscrições" in text
    assert "o resultado final ainda não foi publicado" in text
    assert "Listas de classificação" in text  # where to do it


def test_homologation_on_the_last_day_of_registrations_is_refused():
    assert lifecycle.homologation_date_refusal(D(2027, 1, 6), SCHEDULE, FINAL) is not None


def test_homologation_before_the_final_result_is_published_names_the_publication_day():
    text = lifecycle.homologation_date_refusal(D(2027, 2, 9), SCHEDULE, FINAL)
    assert text is not None
    assert "publicado em 10/02/2027, depois da data informada (09/02/2027)" in text


@pytest.mark.parametrize("day", [D(2027, 2, 10), D(2027, 3, 1)])
def test_homologation_on_or_after_the_final_result_and_after_registrations_is_allowed(day):
    assert lifecycle.homologation_date_refusal(day, SCHEDULE, FINAL) is None


def test_homologation_without_a_registration_period_needs_only_the_final_result():
    text = lifecycle.homologation_date_refusal(D(2027, 1, 1), lifecycle.Schedule(), NO_FINAL)
    assert text is not None
    assert text.startswith("A homologação só pode ser registrada depois da publicação do resultado final:")
    assert lifecycle.homologation_date_refusal(D(2027, 3, 1), lifecycle.Schedule(), FINAL) is None


def test_registrations_before_the_period_opens_are_refused_with_the_opening_day():
    text = lifecycle.registrations_refusal(D(2026, 12, 1), SCHEDULE, what="a importação de inscrições")
    assert text is not None
    assert "abrem em 07/12/2026" in text
    assert "a importação de inscrições fica disponível a partir desse dia" in text


@pytest.mark.parametrize("today", [D(2026, 12, 7), D(2027, 1, 6), D(2027, 5, 1)])
def test_registrations_from_the_opening_day_on_are_allowed(today):
    # Scores are imported after the period too: only "before it opens" is refused.
    assert lifecycle.registrations_refusal(today, SCHEDULE, what="x") is None


def test_registrations_without_a_start_date_are_never_refused_by_date():
    assert lifecycle.registrations_refusal(D(2000, 1, 1), lifecycle.Schedule(), what="x") is None


@pytest.mark.parametrize("today", [D(2026, 12, 1), D(2027, 1, 6)])
def test_lists_are_not_computed_until_registrations_end(today):
    text = lifecycle.results_refusal(today, SCHEDULE)
    assert text is not None
    assert "fim das inscrições (06/01/2027)" in text
    assert "a partir de 07/01/2027" in text


def test_lists_are_computed_from_the_day_after_registrations_end():
    assert lifecycle.results_refusal(D(2027, 1, 7), SCHEDULE) is None
    assert lifecycle.results_refusal(D(2000, 1, 1), lifecycle.Schedule()) is None


def test_status_registration_open_is_not_recorded_before_the_period_opens():
    text = lifecycle.status_date_refusal(lifecycle.Status.REGISTRATION, D(2026, 12, 6), SCHEDULE)
    assert text is not None and "07/12/2026" in text
    assert lifecycle.status_date_refusal(lifecycle.Status.REGISTRATION, D(2026, 12, 7), SCHEDULE) is None


def test_status_registration_open_recorded_late_is_allowed_and_the_public_page_says_in_progress():
    assert lifecycle.status_date_refusal(lifecycle.Status.REGISTRATION, D(2027, 1, 7), SCHEDULE) is None


def test_status_in_progress_waits_for_the_end_of_registrations():
    text = lifecycle.status_date_refusal(lifecycle.Status.IN_PROGRESS, D(2027, 1, 6), SCHEDULE)
    assert text is not None and "a partir de 07/01/2027" in text
    assert lifecycle.status_date_refusal(lifecycle.Status.IN_PROGRESS, D(2027, 1, 7), SCHEDULE) is None


@pytest.mark.parametrize("target", [lifecycle.Status.PUBLISHED, lifecycle.Status.CANCELLED])
def test_other_moves_have_no_date_rule(target):
    assert lifecycle.status_date_refusal(target, D(2000, 1, 1), SCHEDULE) is None
