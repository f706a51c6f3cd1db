"""Days, months and years on dates: the one way the project counts them.

PURE module: no Django, no project import. Every count of months or years uses it: a law's duration
(``Policy.end_date``), a contest's validity (``Contest.validity_end``), the procedure's deadlines in months
(``declarations.deadlines``) and the five years of Lei 9.784 art. 54 (``declarations.procedure.rules``).

- **Date to date** (Lei 9.784 art. 66 §3º; Código Civil art. 132 §3º): the same day ``months`` later; when
  the month of the end has no such day (31 in a month of 30, 29/02 in a common year), the month's last day.
  A year is twelve months, so 29/02/2024 plus one year is 28/02/2025.
- **At the calendar's end**: Python's dates run from 01/01/0001 to 31/12/9999. A result past either end is
  clamped to it: ``date.max`` (31/12/9999) after the last day, ``date.min`` (01/01/0001) before the first.
  It never raises and never returns ``None``, so no page breaks on a far date (a typo like 31/12/9999). A
  caller that must tell "past the calendar" apart reads ``date.max`` as "no end within the calendar" (a
  law whose duration reaches it has no end; a deadline that reaches it ends there).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

FIRST_INDEX = date.min.year * 12 + date.min.month - 1  # months since year 0 of 01/0001
LAST_INDEX = date.max.year * 12 + date.max.month - 1  # of 12/9999


def add_days(day: date, days: int) -> date | None:
    """``day`` plus ``days`` (negative: before); None past the calendar (each caller reads it as "no end"
    or refuses with a message: a far date gave 500 on every page)."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return None


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` (negative: before), date to date (Lei 9.784 art. 66 §3º: the month's last
    day when it has no such date), clamped to ``date.min``/``date.max`` past the calendar."""
    index = day.year * 12 + day.month - 1 + months
    if index > LAST_INDEX:
        return date.max
    if index < FIRST_INDEX:
        return date.min
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


def add_years(day: date, years: int) -> date:
    """``day`` plus ``years`` (twelve months each: 29/02 → 28/02 in a common year), clamped like
    ``add_months``."""
    return add_months(day, 12 * years)
