"""Every act's document prints a period's last day with the one count (``notice_documents.period_ends``), in
the unit the law gives the period: business days where it says so (Lei 9.784 art. 62, five business days to
answer a third party's appeal), calendar days otherwise (art. 66 §2º); the same day the case page shows."""

from __future__ import annotations

import datetime

import pytest

from declarations import deadlines
from declarations.calendars import organization_calendar
from declarations.procedure import notice_documents, rules

pytestmark = pytest.mark.django_db
D = datetime.date
POLICY = rules.Policy()


def test_art62_the_answer_to_a_third_partys_appeal_counts_business_days():
    # Notice in effect on Friday 06/03/2026: five business days are 09 to 13/03 (calendar days: 11/03).
    assert notice_documents.period_ends(D(2026, 3, 6), rules.Period.APPEAL_ANSWER, POLICY) == D(2026, 3, 13)
    assert notice_documents.days_text(5, rules.Period.APPEAL_ANSWER) == "5 (cinco) dias úteis"


def test_art66_s2_the_other_periods_count_calendar_days():
    assert notice_documents.period_ends(D(2026, 3, 6), rules.Period.APPEAL, POLICY) == D(2026, 3, 16)
    assert notice_documents.days_text(10, rules.Period.APPEAL) == "10 (dez) dias"
    assert notice_documents.days_text(1) == "1 (um) dia"


@pytest.mark.parametrize("period", list(rules.Period))
def test_art66_each_document_prints_the_last_day_the_case_page_counts(period):
    start = D(2026, 12, 18)  # across the year's end and its holidays
    calendar = organization_calendar([2026, 2027])
    page = rules.PeriodStart(period, start, rules.period_amount(period, POLICY), rules.period_unit(period))
    counted = deadlines.deadline(page.start, page.amount, deadlines.Unit(page.unit), calendar).last_day
    assert notice_documents.period_ends(start, period, POLICY) == counted
