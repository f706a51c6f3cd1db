"""The calendar of days without office hours that the pure deadlines (``declarations/deadlines.py``) take.

Not pure: it reads the ``holidays`` package (national and state holidays, RULES.md §6) and the app's
``contests.models.Holiday`` records (municipal holidays and office closures of the organisation).

The ``holidays`` package lists Good Friday (Sexta-feira Santa) as a national holiday for Brazil; federally
it is a "ponto facultativo", but a holiday by municipal law almost everywhere (Lei 9.093/1995 art. 2), so
we keep it as the package says: treating it as closed can only lengthen a deadline. 20 November (Zumbi e
Consciência Negra) is national from 2024 (Lei 14.759/2023), as the package has it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import date
from types import MappingProxyType

from contests.models import Holiday, Organization
from declarations.deadlines import Calendar, Unit, deadline


@functools.cache
def states() -> tuple[str, ...]:
    """The states (UF) the ``holidays`` package knows; it also lists "São Paulo Capital", which is no UF.
    Asked when first needed: the package loads every country's calendar to answer (0.17 s that every
    process importing this module paid at start, each ``manage.py`` command included)."""
    import holidays

    return tuple(code for code in holidays.BR.subdivisions if len(code) == 2)


class CalendarError(ValueError):
    """A calendar that cannot be built (message in Portuguese)."""


def normalize_uf(uf: str) -> str:
    """``"rs"`` → ``"RS"``; ``CalendarError`` for a code that is no Brazilian state."""
    code = uf.strip().upper()
    if code not in states():
        raise CalendarError(f"UF desconhecida: {uf!r}. Use uma das siglas: {', '.join(states())}.")
    return code


def _package_days(*, uf: str | None, years: list[int]) -> dict[date, str]:
    import holidays

    national = holidays.country_holidays("BR", years=years, language="pt_BR")
    names = {day: f"{name} (feriado nacional)" for day, name in national.items()}
    if uf is not None:
        state = holidays.country_holidays("BR", subdiv=uf, years=years, language="pt_BR")
        for day, name in state.items():
            if day in national:
                extra = [part for part in name.split("; ") if part not in national[day].split("; ")]
                if extra:
                    names[day] += f"; {'; '.join(extra)} (feriado estadual, {uf})"
            else:
                names[day] = f"{name} (feriado estadual, {uf})"
    return names


def _municipal_days(
    *, years: list[int], morning_closure_extends: bool = False
) -> tuple[dict[date, str], dict[date, str]]:
    """Full-day closures and half days from the app's ``Holiday`` records, for the given years.

    An afternoon closure (office hours closed early) is a half day (Lei 9.784 art. 66 §1º: a deadline
    ending on it moves). A closure in the morning only (office hours begin late, end at the usual hour) is
    none of the cases of §1º and stays a business day, unless the organisation records that a municipal
    norm extends deadlines then too (``morning_closure_extends``)."""
    closed: dict[date, str] = {}
    half: dict[date, str] = {}
    wanted = set(years)
    for holiday in Holiday.objects.order_by("date", "name"):
        if holiday.recurring:
            days = []
            for year in sorted(wanted):
                try:
                    days.append(holiday.date.replace(year=year))
                except ValueError:  # a recurring 29 February in a common year
                    continue
        else:
            days = [holiday.date] if holiday.date.year in wanted else []
        if holiday.period == Holiday.Period.MORNING and not morning_closure_extends:
            continue
        label = f"{holiday.name} ({holiday.get_kind_display().lower()})"
        target = closed if holiday.period == Holiday.Period.FULL else half
        if target is half:
            label = f"{holiday.name} ({holiday.get_kind_display().lower()}, {holiday.get_period_display().lower()})"
        for day in days:
            target[day] = f"{target[day]}; {label}" if day in target else label
    return closed, half


def calendar_for(
    *, uf: str | None, municipal: bool, years: Iterable[int], morning_closure_extends: bool = False
) -> Calendar:
    """National holidays, the state's when ``uf`` is given, and the organisation's own ``Holiday``
    records (municipal holidays and office closures; full day → closed, afternoon only → half day; morning
    only → a business day, or a half day when ``morning_closure_extends``) when ``municipal`` is true, for
    ``years``."""
    year_list = sorted({year for year in years if 1 <= year <= 9999})
    code = normalize_uf(uf) if uf is not None else None
    closed = _package_days(uf=code, years=year_list)
    half: dict[date, str] = {}
    if municipal:
        local_closed, local_half = _municipal_days(
            years=year_list, morning_closure_extends=morning_closure_extends
        )
        for day, name in local_closed.items():
            closed[day] = f"{closed[day]}; {name}" if day in closed else name
        half = {day: name for day, name in local_half.items() if day not in closed}
    return Calendar(
        closed=frozenset(closed),
        half_days=frozenset(half),
        names=MappingProxyType({**half, **closed}),
    )


def organization_calendar(years: Iterable[int]) -> Calendar:
    """The calendar of the organisation this installation serves, which the procedure's and the sessions'
    deadlines are counted with: national, its state's (its UF) and its own holidays and closures. Without
    an organisation on record (or with a UF the ``holidays`` package does not know): national and
    ``Holiday`` records only."""
    organization = Organization.current()
    uf = organization.state if organization is not None and organization.state in states() else None
    extends = organization is not None and organization.morning_closure_extends_deadlines
    return calendar_for(uf=uf, municipal=True, years=years, morning_closure_extends=extends)


def years_for(start: date, amount: int, unit: Unit) -> range:
    """The years a deadline of ``amount`` ``unit`` from ``start`` can reach (generously: business days
    at most twice the calendar days, and a long run of closures at the end), and the year before ``start``
    (a notice counted backwards)."""
    unit = Unit(unit)
    if unit is Unit.MONTHS:
        span = amount * 31 + 120
    elif unit is Unit.BUSINESS_DAYS:
        span = amount * 2 + 366
    else:
        span = amount + 120
    last_year = min(9999, start.year + span // 365 + 1)
    return range(max(1, start.year - 1), last_year + 1)


def organization_last_day(start: date, amount: int, business_days: bool) -> date:
    """The last day of a deadline of ``amount`` days (business days when ``business_days``) from
    ``start``, counted by the deadline engine (Lei 9.784 art. 66) with the organisation's calendar: the
    appeal against a preliminary result (``candidates.documents``, which is handed this function)."""
    unit = Unit.BUSINESS_DAYS if business_days else Unit.DAYS
    return deadline(start, amount, unit, organization_calendar(years_for(start, amount, unit))).last_day
