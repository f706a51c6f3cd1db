"""The law's lifetime chart (issue 23): the share of negros among the nominees of each year of the law's life
against the statutory percentage, counted by hand on the built world of ``test_indicators``."""

from __future__ import annotations

import datetime

import pytest

from monitoring import charts, indicators
from monitoring.indicators import YearRow
from tests.monitoring.test_indicators import world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db
D = datetime.date


def _policy_in_force_from(world, day):  # noqa: F811
    policy = world["contest"].policy
    policy.effective_date = day
    policy.save()
    return policy


def test_the_lifetime_counts_every_year_of_the_law_from_its_start(world):  # noqa: F811
    # In force from 01/03/2025: 2025 had no nomination; on 10/06/2026 five seats were called, N1 (open
    # competition, SM art. 4º §3º) and N2 (the reserved seat) among them: 2 negros of 5 nominees.
    policy = _policy_in_force_from(world, D(2025, 3, 1))
    assert indicators.lifetime(policy, D(2026, 12, 31)) == [YearRow(2025, 0, 0), YearRow(2026, 5, 2)]


def test_a_law_without_a_start_has_no_lifetime_and_no_chart(world):  # noqa: F811
    policy = world["contest"].policy
    assert policy.start_date is None
    assert indicators.lifetime(policy, D(2026, 12, 31)) == []
    assert charts.lifetime_chart(policy, D(2026, 12, 31)) is None


def test_the_lifetime_chart_draws_the_statutory_line_and_withholds_a_share_under_five(world):  # noqa: F811
    policy = _policy_in_force_from(world, D(2025, 3, 1))
    chart = charts.lifetime_chart(policy, D(2026, 12, 31))
    assert chart is not None
    assert "Percentual da lei (20%)" in chart.svg
    # The text alternative: one row per year; 2 negros among 5 nominees is a cell under 5, so its share is
    # not given (LGPD art. 11; the report's privacy rule).
    assert chart.columns == ("Ano", "Nomeados", "Negros entre os nomeados")
    assert chart.rows == (("2025", "0", "—"), ("2026", "5", "<5"))
