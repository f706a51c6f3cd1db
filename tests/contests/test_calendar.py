"""Months and years on dates (``contests/calendar.py``): the one count every app uses. No database.

Named after the clause each case pins: Lei 9.784 art. 66 §3º (date to date; the month's last day when it has
no such date) and the calendar's ends (clamped, never an overflow or a None).
"""

from __future__ import annotations

import datetime

import pytest

from contests.calendar import add_months, add_years
from declarations import deadlines
from declarations.procedure.notices import art54_warning, five_years_after

D = datetime.date


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (D(2026, 3, 15), 1, D(2026, 4, 15)),  # date to date
        (D(2026, 3, 15), 0, D(2026, 3, 15)),
        (D(2026, 11, 15), 2, D(2027, 1, 15)),  # across a year
        (D(2026, 6, 1), 24, D(2028, 6, 1)),
        (D(2026, 3, 15), -3, D(2025, 12, 15)),  # backwards
    ],
)
def test_art66_par3_months_run_date_to_date(day, months, expected):
    assert add_months(day, months) == expected


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (D(2026, 1, 31), 1, D(2026, 2, 28)),
        (D(2024, 1, 31), 1, D(2024, 2, 29)),  # leap year
        (D(2026, 3, 31), 1, D(2026, 4, 30)),
        (D(2026, 5, 31), -1, D(2026, 4, 30)),
    ],
)
def test_art66_par3_a_month_without_the_day_ends_on_its_last_day(day, months, expected):
    assert add_months(day, months) == expected


@pytest.mark.parametrize(
    ("day", "years", "expected"),
    [
        (D(2024, 2, 29), 1, D(2025, 2, 28)),
        (D(2024, 2, 29), 4, D(2028, 2, 29)),
        (D(2026, 1, 31), 10, D(2036, 1, 31)),
    ],
)
def test_art66_par3_a_year_is_twelve_months_and_29_february_falls_to_28(day, years, expected):
    assert add_years(day, years) == expected


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (D(9999, 12, 31), 1, D.max),  # past the last day
        (D(9999, 12, 1), 1, D.max),
        (D(9999, 6, 30), 7, D.max),
        (D(9999, 6, 30), 6, D(9999, 12, 30)),  # still inside the calendar: a real date
        (D(9999, 11, 30), 1, D(9999, 12, 30)),
        (D(9990, 1, 1), 120, D.max),
        (D(1, 1, 1), -1, D.min),  # before the first day
        (D(1, 3, 31), -3, D.min),
        (D(1, 3, 31), -2, D(1, 1, 31)),
    ],
)
def test_calendar_end_a_count_past_year_9999_or_before_year_1_is_clamped(day, months, expected):
    assert add_months(day, months) == expected


def test_calendar_end_years_are_clamped_like_months():
    assert add_years(D(9999, 12, 31), 10) == D.max
    assert add_years(D(9995, 2, 28), 5) == D.max
    assert add_years(D(5, 1, 1), -10) == D.min


# The same count in each place that uses it ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (D(2020, 2, 29), D(2025, 2, 28)),
        (D(2021, 7, 10), D(2026, 7, 10)),
        (D(9994, 12, 31), D(9999, 12, 31)),
        (D(9995, 1, 1), D.max),  # near the calendar's end: clamped, no crash
        (D(9999, 12, 31), D.max),
    ],
)
def test_art54_five_years_are_counted_by_the_same_rule(day, expected):
    assert five_years_after(day) == expected


def test_art54_no_warning_and_no_crash_near_the_calendars_end():
    assert art54_warning(D(9998, 3, 1), D(9999, 12, 31)) == ""


def test_art66_par3_a_deadline_in_months_reaching_the_calendars_end_stops_there():
    found = deadlines.deadline(D(9999, 12, 20), 1, deadlines.Unit.MONTHS, deadlines.Calendar())
    assert found.nominal_last_day == found.last_day == D.max  # a Friday: a business day
    assert any("último dia do calendário" in line for line in found.explanation)
    assert not any("não tem o dia" in line for line in found.explanation)
