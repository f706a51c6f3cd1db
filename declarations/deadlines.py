"""Deadlines of the self-declaration procedure: RULES.md §6, Lei 9.784/1999 art. 66.

PURE module: no Django, no project import but the pure ``contests.calendar`` (every count of months in
the project), no clock. Holidays and office closures are passed in as a
``Calendar`` (``declarations/calendars.py`` builds one from the ``holidays`` package and the app's
``Holiday`` records); ``today`` is passed in. Deadlines are computed when read, never stored.

    art. 66 caput  the first day is excluded, the last included (we count from the day after the notice);
    art. 66 §1     a last day without office hours, or whose office hours close early, moves to the first
                   business day that follows (the start does not move: the law says nothing of it);
    art. 66 §2     the count is continuous (calendar days) unless the rule says business days;
    art. 66 §3     months (and years) run date to date; when the month of the end has no such date, the
                   month's last day is the end (``contests.calendar.add_months``, which also stops a count
                   of months at the calendar's last day, 31/12/9999).

Business days are Monday to Friday, not closed and not a half day: a half day (office hours closed early)
is not counted as a business day either, so a count in business days never lands on one.

A notice that must precede an act by at least k business days (arts. 26 §2 and 41) leaves k full business
days strictly between the notice day and the act's day (``latest_notice_day``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from types import MappingProxyType

from contests.calendar import add_months
from contests.wording import plural

ONE_DAY = timedelta(days=1)
MAX_DAYS = 3650  # an absurd amount beyond this is a typing error, not a deadline
MAX_MONTHS = 120
END_OF_DAY = time(23, 59, 59)

WEEKDAYS = (
    "segunda-feira",
    "terça-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sábado",
    "domingo",
)


class Unit(StrEnum):
    DAYS = "days"  # calendar days, continuous (art. 66 §2)
    BUSINESS_DAYS = "business-days"
    MONTHS = "months"  # date to date (art. 66 §3)


UNIT_LABELS = {
    Unit.DAYS: ("dia corrido", "dias corridos"),
    Unit.BUSINESS_DAYS: ("dia útil", "dias úteis"),
    Unit.MONTHS: ("mês", "meses"),
}


def format_day(day: date) -> str:
    """``17/03/2025 (segunda-feira)``."""
    return f"{day:%d/%m/%Y} ({WEEKDAYS[day.weekday()]})"


@dataclass(frozen=True)
class Calendar:
    """Days without office hours, passed in (never read from the database here)."""

    closed: frozenset[date] = frozenset()  # holidays and full-day office closures
    half_days: frozenset[date] = frozenset()  # office hours closed early (a deadline's last day moves)
    # Portuguese name of each closed or half day, for explanations (not part of the hash: a mapping has none)
    names: Mapping[date, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def is_business_day(self, day: date) -> bool:
        """Monday to Friday, not closed, not a half day."""
        return day.weekday() < 5 and day not in self.closed and day not in self.half_days

    def next_business_day(self, day: date) -> date:
        """``day`` itself when it is a business day, else the first business day after it."""
        while not self.is_business_day(day):
            day = _step(day, 1)
        return day

    def previous_business_day(self, day: date) -> date:
        """``day`` itself when it is a business day, else the last business day before it."""
        while not self.is_business_day(day):
            day = _step(day, -1)
        return day

    def why_not_business_day(self, day: date) -> str:
        """Why ``day`` has no (full) office hours, in Portuguese; empty for a business day."""
        reasons = []
        if day.weekday() >= 5:
            reasons.append(WEEKDAYS[day.weekday()])
        if day in self.closed:
            reasons.append(self.names.get(day) or "feriado ou ponto facultativo")
        elif day in self.half_days:
            name = self.names.get(day)
            reasons.append(
                f"{name} (expediente encerrado antes da hora normal)"
                if name
                else "expediente encerrado antes da hora normal"
            )
        return "; ".join(reasons)


@dataclass(frozen=True)
class Deadline:
    start: date  # the notice (or the act that starts the deadline): excluded from the count
    amount: int
    unit: Unit
    nominal_last_day: date  # before moving to a business day (art. 66 §1)
    last_day: date  # the deadline's last day (inclusive)
    explanation: tuple[str, ...]  # Portuguese lines: how it was counted, each move and why

    def ends_at(self, tz: tzinfo) -> datetime:
        """23:59:59 local time of the last day (aware)."""
        return datetime.combine(self.last_day, END_OF_DAY, tzinfo=tz)

    def days_left(self, today: date) -> int:
        """Calendar days from ``today`` to the last day: 0 on the last day, negative when overdue."""
        return (self.last_day - today).days


def _step(day: date, days: int) -> date:
    try:
        return day + timedelta(days=days)
    except OverflowError:
        raise ValueError("O prazo sai das datas representáveis (01/01/0001 a 31/12/9999).") from None


def _check_amount(amount: int, unit: Unit) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError("A quantidade do prazo deve ser um número inteiro.")
    if amount < 0:
        raise ValueError("A quantidade do prazo não pode ser negativa.")
    limit = MAX_MONTHS if unit is Unit.MONTHS else MAX_DAYS
    if amount > limit:
        label = "meses" if unit is Unit.MONTHS else "dias"
        raise ValueError(f"Prazo absurdo: {amount} {label} (o máximo aceito é {limit} {label}).")


def _quantity(amount: int, unit: Unit) -> str:
    return plural(amount, *UNIT_LABELS[unit])


def deadline(start: date, amount: int, unit: Unit, calendar: Calendar) -> Deadline:
    """The deadline of ``amount`` ``unit`` counted from ``start`` (Lei 9.784 art. 66).

    ``ValueError`` (Portuguese) for an amount that is negative, not an integer or absurd (more than
    3650 days or 120 months), and for a deadline in days beyond the last representable date (one in
    months stops there, like every count of months: ``contests.calendar``).
    """
    unit = Unit(unit)
    _check_amount(amount, unit)
    lines = [
        f"Início: {format_day(start)}. O dia do começo é excluído e o do vencimento incluído "
        "(Lei 9.784/1999, art. 66).",
    ]
    if unit is Unit.DAYS:
        nominal = _step(start, amount)
        lines.append(
            f"Prazo de {_quantity(amount, unit)} (contagem contínua, art. 66 §2)"
            + (f" a partir de {format_day(_step(start, 1))}" if amount else "")
            + f": vencimento em {format_day(nominal)}."
        )
    elif unit is Unit.BUSINESS_DAYS:
        nominal, skipped = start, []
        for _ in range(amount):
            nominal = _step(nominal, 1)
            while not calendar.is_business_day(nominal):
                skipped.append(nominal)
                nominal = _step(nominal, 1)
        lines.append(
            f"Prazo de {_quantity(amount, unit)}"
            + (f" a partir de {format_day(_step(start, 1))}" if amount else "")
            + f": vencimento em {format_day(nominal)}."
        )
        if skipped:
            lines.append("Dias não contados por não serem dias úteis:")
            lines.extend(f"- {format_day(day)}: {calendar.why_not_business_day(day)};" for day in skipped)
    else:
        nominal = add_months(start, amount)
        lines.append(
            f"Prazo de {_quantity(amount, unit)}, contando-se de data a data (art. 66 §3): vencimento em "
            f"{format_day(nominal)}."
        )
        if nominal == date.max:
            lines.append(
                "O vencimento chega ao último dia do calendário: um prazo que passaria dele termina nele."
            )
        elif nominal.day != start.day:
            lines.append(
                f"O mês do vencimento não tem o dia {start.day}: o termo é o último dia do mês (art. 66 §3)."
            )
    last, moved = nominal, []
    while not calendar.is_business_day(last):
        moved.append(last)
        last = _step(last, 1)
    if moved:
        lines.append(
            "O vencimento cai em dia sem expediente (ou com expediente encerrado antes da hora normal):"
        )
        lines.extend(f"- {format_day(day)}: {calendar.why_not_business_day(day)};" for day in moved)
        lines.append(f"Prorrogado para o primeiro dia útil seguinte (art. 66 §1): {format_day(last)}.")
    lines.append(f"Último dia do prazo: {format_day(last)}, até as 23:59:59 (horário local).")
    return Deadline(
        start=start,
        amount=amount,
        unit=unit,
        nominal_last_day=nominal,
        last_day=last,
        explanation=tuple(lines),
    )


def latest_notice_day(act_day: date, business_days: int, calendar: Calendar) -> date:
    """The latest day to notify so that ``business_days`` full business days lie strictly between the
    notice day and ``act_day`` (Lei 9.784 arts. 26 §2 and 41: "antecedência mínima de três dias úteis").

    The day returned is the latest calendar day that satisfies it; it may itself lack office hours (a
    Sunday before the counted Monday): a caller that needs the office's own last working day takes
    ``calendar.previous_business_day`` of it.
    """
    if isinstance(business_days, bool) or not isinstance(business_days, int):
        raise ValueError("A antecedência deve ser um número inteiro de dias úteis.")
    if business_days < 0:
        raise ValueError("A antecedência não pode ser negativa.")
    if business_days > MAX_DAYS:
        raise ValueError(f"Antecedência absurda: {business_days} dias úteis (o máximo aceito é {MAX_DAYS}).")
    day = act_day
    for _ in range(business_days):
        day = _step(day, -1)
        while not calendar.is_business_day(day):
            day = _step(day, -1)
    return _step(day, -1)
