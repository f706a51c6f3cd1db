"""Pendências tells Gestão of the law's lifetime (AR art. 5º): the term ending, the reports due."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from contests.calendar import add_years
from tests.builders import set_policy

pytestmark = pytest.mark.django_db

TITLE = "Vigência das leis e relatórios devidos"


def home(client_for) -> str:
    response = client_for("manager").get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_ar_art5_seeded_term_and_reports():
    policy = set_policy("angra-dos-reis")
    assert (policy.duration_years, policy.monitoring_interval_years, policy.final_report_quarter) == (
        10,
        2,
        1,
    )
    assert (policy.citation_term, policy.citation_prior_editais) == ("art. 5º", "art. 5º §2º")
    santa_maria = set_policy("santa-maria")
    assert (santa_maria.duration_years, santa_maria.monitoring_interval_years) == (None, None)
    assert santa_maria.final_report_quarter is None


def test_ar_art5_without_dates_home_says_the_term_cannot_be_computed(client_for):
    html = home(client_for)
    assert TITLE in html
    assert "A data de vigência da lei não está registrada" in html


def test_ar_art5_term_ending_within_the_lead_time_is_on_the_home(client_for):
    today = timezone.localdate()
    # In force since a day that puts its last day 100 days from today; every report filed is not yet
    # recorded, so the final report (first quarter of the last year, already past) shows overdue too.
    last = today + datetime.timedelta(days=100)
    start = add_years(last + datetime.timedelta(days=1), -10)
    set_policy("angra-dos-reis", publication_date=start, effective_date=start, term_warning_days=365)
    html = home(client_for)
    assert f"A vigência da lei termina em {last:%d/%m/%Y} (art. 5º): faltam 100 dias." in html
    assert "Relatório final (art. 5º) em atraso" in html
    assert reverse("contests:policy_detail", args=["angra-dos-reis"]) in html


def test_ar_art5_term_far_ahead_is_not_on_the_home(client_for):
    today = timezone.localdate()
    set_policy("angra-dos-reis", publication_date=today, effective_date=today, term_warning_days=365)
    html = home(client_for)
    assert "A vigência da lei termina" not in html
    assert "Nenhuma lei perto do fim da vigência nem relatório devido." in html
