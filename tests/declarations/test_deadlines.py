"""Deadlines: RULES.md §6, Lei 9.784/1999 art. 66 (pure, no database).

The calendars are built here by hand from the national holidays the ``holidays`` package gives for Brazil
(``holidays==0.109``): it lists Good Friday (Sexta-feira Santa) as a national holiday and 20 November
(Zumbi e Consciência Negra) from 2024 (Lei 14.759/2023). We follow the package for Good Friday: federally a
"ponto facultativo", it is a holiday by municipal law almost everywhere (Lei 9.093/1995 art. 2), and
treating it as closed can only lengthen a candidate's deadline.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from types import MappingProxyType
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from declarations.deadlines import Calendar, Deadline, Unit, deadline, latest_notice_day

NATIONAL = {
    date(2024, 11, 20): "Dia Nacional de Zumbi e da Consciência Negra",
    date(2024, 12, 25): "Natal",
    date(2025, 1, 1): "Confraternização Universal",
    date(2025, 3, 3): "Carnaval",  # a closure some municipalities decree; used by the half-day tests
    date(2025, 4, 18): "Sexta-feira Santa",
    date(2025, 4, 21): "Tiradentes",
    date(2025, 5, 1): "Dia do Trabalhador",
    date(2025, 11, 20): "Dia Nacional de Zumbi e da Consciência Negra",
    date(2025, 12, 25): "Natal",
    date(2026, 1, 1): "Confraternização Universal",
    date(2026, 11, 2): "Finados",
    date(2026, 11, 20): "Dia Nacional de Zumbi e da Consciência Negra",
}
BR = Calendar(closed=frozenset(NATIONAL), names=MappingProxyType(NATIONAL))
EMPTY = Calendar()


def with_days(closed: dict[date, str] | None = None, half: dict[date, str] | None = None) -> Calendar:
    closed, half = closed or {}, half or {}
    return Calendar(
        closed=frozenset(NATIONAL) | frozenset(closed),
        half_days=frozenset(half),
        names=MappingProxyType({**NATIONAL, **closed, **half}),
    )


# RULES.md §6 examples.
@pytest.mark.parametrize(
    ("start", "amount", "last"),
    [
        (date(2025, 3, 7), 10, date(2025, 3, 17)),  # Fri + 10 = Mon 17
        (date(2025, 4, 9), 10, date(2025, 4, 22)),  # Sat 19th, then Tiradentes Mon 21st → Tue 22nd
        (date(2025, 11, 10), 10, date(2025, 11, 21)),  # Thu 20th, a holiday since 2024 → Fri 21st
    ],
)
def test_art66_rules6_examples_in_calendar_days(start, amount, last):
    assert deadline(start, amount, Unit.DAYS, BR).last_day == last


def test_art66_caput_first_day_excluded_last_included():
    result = deadline(date(2025, 3, 7), 1, Unit.DAYS, BR)
    assert result.nominal_last_day == date(2025, 3, 8)  # Saturday: moves
    assert result.last_day == date(2025, 3, 10)
    assert deadline(date(2025, 3, 10), 1, Unit.DAYS, BR).last_day == date(2025, 3, 11)


def test_art66_par1_weekend_then_holiday_moves_to_next_business_day_and_names_each_day():
    result = deadline(date(2025, 4, 9), 10, Unit.DAYS, BR)
    assert result.nominal_last_day == date(2025, 4, 19)
    assert result.last_day == date(2025, 4, 22)
    text = "\n".join(result.explanation)
    assert "19/04/2025 (sábado): sábado" in text
    assert "20/04/2025 (domingo): domingo" in text
    assert "21/04/2025 (segunda-feira): Tiradentes" in text
    assert "22/04/2025 (terça-feira)" in result.explanation[-1]


def test_art66_par1_holiday_in_the_middle_does_not_lengthen_a_calendar_day_count():
    result = deadline(date(2025, 11, 14), 10, Unit.DAYS, BR)  # 20 November falls inside: counted
    assert result.nominal_last_day == result.last_day == date(2025, 11, 24)


def test_art66_par1_last_day_on_20_november_moves_to_friday():
    assert deadline(date(2025, 11, 10), 10, Unit.DAYS, BR).last_day == date(2025, 11, 21)
    assert deadline(date(2025, 11, 9), 11, Unit.DAYS, BR).last_day == date(2025, 11, 21)
    assert deadline(date(2025, 11, 10), 9, Unit.DAYS, BR).last_day == date(2025, 11, 19)
    result = deadline(date(2025, 11, 10), 10, Unit.DAYS, BR)
    assert result.nominal_last_day == date(2025, 11, 20)
    assert any("20/11/2025 (quinta-feira): Dia Nacional de Zumbi" in line for line in result.explanation)


def test_art66_par1_good_friday_is_closed_as_the_holidays_package_says():
    # 8 April + 10 days = Good Friday 18 April 2025 → Sat, Sun, Tiradentes → Tue 22.
    assert deadline(date(2025, 4, 8), 10, Unit.DAYS, BR).last_day == date(2025, 4, 22)


def test_art66_par1_office_closed_early_moves_the_last_day():
    ash_wednesday = date(2025, 3, 5)
    calendar = with_days(half={ash_wednesday: "Quarta-feira de Cinzas, expediente até as 14h"})
    result = deadline(date(2025, 2, 25), 8, Unit.DAYS, calendar)
    assert result.nominal_last_day == ash_wednesday
    assert result.last_day == date(2025, 3, 6)
    assert any("expediente encerrado antes da hora normal" in line for line in result.explanation)


def test_art66_par1_a_half_day_is_not_counted_as_a_business_day():
    calendar = with_days(half={date(2025, 3, 5): "Quarta-feira de Cinzas"})
    # Mon 3 March (Carnaval, closed), Tue 4, Wed 5 half, Thu 6: two business days from Sun 2 end on Thu 6.
    assert deadline(date(2025, 3, 2), 2, Unit.BUSINESS_DAYS, calendar).last_day == date(2025, 3, 6)


def test_art66_par1_a_run_of_closed_days_moves_past_all_of_them():
    closures = {date(2025, 12, d): "Recesso de fim de ano" for d in range(22, 32)}
    closures |= {date(2026, 1, 2): "Recesso de fim de ano"}
    calendar = with_days(closed=closures)
    result = deadline(date(2025, 12, 12), 10, Unit.DAYS, calendar)
    assert result.nominal_last_day == date(2025, 12, 22)
    assert result.last_day == date(2026, 1, 5)  # 22–31 recess, 1 Jan, 2 Jan recess, weekend 3–4
    assert sum(line.startswith("- ") for line in result.explanation) == 14


def test_art66_par2_business_days_skip_weekends_and_holidays():
    # From Mon 10 Nov 2025, 10 business days: 11–14, (15–16 weekend), 17–19, (20 holiday), 21, 24, 25.
    result = deadline(date(2025, 11, 10), 10, Unit.BUSINESS_DAYS, BR)
    assert result.last_day == result.nominal_last_day == date(2025, 11, 25)
    text = "\n".join(result.explanation)
    assert "20/11/2025 (quinta-feira): Dia Nacional de Zumbi e da Consciência Negra" in text
    assert "15/11/2025 (sábado): sábado" in text


def test_art66_par2_business_days_from_a_friday_start_on_monday():
    assert deadline(date(2025, 3, 7), 1, Unit.BUSINESS_DAYS, BR).last_day == date(2025, 3, 10)
    assert deadline(date(2025, 3, 7), 5, Unit.BUSINESS_DAYS, BR).last_day == date(2025, 3, 14)


@pytest.mark.parametrize(
    ("start", "months", "last"),
    [
        (date(2025, 1, 31), 1, date(2025, 2, 28)),  # no 31 February: the month's last day
        (date(2024, 1, 31), 1, date(2024, 2, 29)),  # leap year
        (date(2024, 2, 29), 12, date(2025, 2, 28)),  # from 29 February of a leap year
        (date(2024, 2, 29), 48, date(2028, 2, 29)),
        (date(2025, 3, 31), 1, date(2025, 4, 30)),
        (date(2025, 1, 15), 1, date(2025, 2, 17)),  # Sat 15 Feb → Mon 17
        (date(2025, 10, 31), 2, date(2025, 12, 31)),
        (date(2025, 11, 30), 3, date(2026, 3, 2)),  # Sat 28 Feb 2026 → Mon 2 Mar
    ],
)
def test_art66_par3_months_run_date_to_date_or_to_the_months_last_day(start, months, last):
    assert deadline(start, months, Unit.MONTHS, BR).last_day == last


def test_art66_par3_month_end_is_explained():
    result = deadline(date(2025, 1, 31), 1, Unit.MONTHS, BR)
    assert result.nominal_last_day == date(2025, 2, 28)
    assert any("não tem o dia 31" in line for line in result.explanation)


def test_art66_leap_day_counts_as_a_calendar_day():
    assert deadline(date(2024, 2, 20), 10, Unit.DAYS, EMPTY).last_day == date(2024, 3, 1)
    assert deadline(date(2025, 2, 20), 10, Unit.DAYS, EMPTY).last_day == date(2025, 3, 3)  # Sat 1 → Mon 3


def test_art66_zero_amount_ends_on_the_start_or_the_next_business_day():
    assert deadline(date(2025, 3, 7), 0, Unit.DAYS, BR).last_day == date(2025, 3, 7)
    assert deadline(date(2025, 3, 8), 0, Unit.BUSINESS_DAYS, BR).last_day == date(2025, 3, 10)


@pytest.mark.parametrize(
    ("amount", "unit", "message"),
    [
        (-1, Unit.DAYS, "negativa"),
        (3651, Unit.DAYS, "absurdo"),
        (121, Unit.MONTHS, "absurdo"),
        (True, Unit.DAYS, "inteiro"),
        (1.5, Unit.DAYS, "inteiro"),
    ],
)
def test_bad_amount_is_refused_in_portuguese(amount, unit, message):
    with pytest.raises(ValueError, match=message):
        deadline(date(2025, 3, 7), amount, unit, BR)


def test_a_deadline_in_days_beyond_the_last_date_is_refused():
    with pytest.raises(ValueError, match="datas representáveis"):
        deadline(date(9999, 12, 20), 30, Unit.DAYS, EMPTY)


def test_a_deadline_in_months_beyond_the_last_date_stops_at_it_like_every_count_of_months():
    assert deadline(date(9999, 12, 20), 1, Unit.MONTHS, EMPTY).last_day == date.max


def test_deadline_ends_at_235959_local_time_of_the_last_day():
    result = deadline(date(2025, 3, 7), 10, Unit.DAYS, BR)
    ends = result.ends_at(ZoneInfo("America/Sao_Paulo"))
    assert ends == datetime(2025, 3, 18, 2, 59, 59, tzinfo=UTC)
    assert ends.utcoffset() == timedelta(hours=-3)


def test_days_left_is_negative_when_overdue():
    result = deadline(date(2025, 3, 7), 10, Unit.DAYS, BR)
    assert result.days_left(date(2025, 3, 7)) == 10
    assert result.days_left(date(2025, 3, 17)) == 0
    assert result.days_left(date(2025, 3, 19)) == -2


def test_calendar_is_hashable_and_names_do_not_change_business_days():
    named = Calendar(closed=frozenset({date(2025, 3, 10)}), names=MappingProxyType({date(2025, 3, 10): "X"}))
    plain = Calendar(closed=frozenset({date(2025, 3, 10)}))
    assert hash(named) == hash(plain)
    assert named.why_not_business_day(date(2025, 3, 10)) == "X"
    assert plain.why_not_business_day(date(2025, 3, 10)) == "feriado ou ponto facultativo"
    assert plain.why_not_business_day(date(2025, 3, 11)) == ""


def test_deadline_is_a_frozen_value():
    result = deadline(date(2025, 3, 7), 10, Unit.DAYS, BR)
    assert isinstance(result, Deadline) and result.unit is Unit.DAYS
    with pytest.raises(AttributeError):
        result.last_day = date(2025, 3, 18)  # type: ignore[misc,unused-ignore]


def test_art41_hearing_notice_leaves_three_business_days_strictly_between():
    # RULES §6: hearing Tue 2026-11-24, 20 November a holiday → notify on Tue 2026-11-17 at the latest.
    assert latest_notice_day(date(2026, 11, 24), 3, BR) == date(2026, 11, 17)


def test_art26_par2_notice_day_may_be_a_weekend_day_before_the_counted_monday():
    # Act on Thu 13 March 2025, 3 business days: Mon 10, Tue 11, Wed 12 → Sunday 9 at the latest.
    day = latest_notice_day(date(2025, 3, 13), 3, BR)
    assert day == date(2025, 3, 9)
    assert BR.previous_business_day(day) == date(2025, 3, 7)


def test_art26_par2_half_days_do_not_count_towards_the_notice():
    calendar = with_days(half={date(2025, 3, 12): "Expediente reduzido"})
    assert latest_notice_day(date(2025, 3, 13), 3, calendar) == date(2025, 3, 6)


def test_latest_notice_day_refuses_a_negative_amount():
    with pytest.raises(ValueError, match="negativa"):
        latest_notice_day(date(2025, 3, 13), -1, BR)


# Invariants (Hypothesis).
days = st.dates(min_value=date(2024, 1, 1), max_value=date(2027, 12, 31))
closed_days = st.frozensets(days, max_size=40)
calendars = st.builds(
    lambda closed, half: Calendar(closed=closed, half_days=half - closed), closed_days, closed_days
)
units = st.sampled_from(list(Unit))


@settings(max_examples=300, deadline=None)
@given(start=days, amount=st.integers(0, 400), unit=units, calendar=calendars)
def test_art66_par1_a_deadline_never_ends_on_a_day_without_office_hours(start, amount, unit, calendar):
    amount = min(amount, 60) if unit is Unit.MONTHS else amount
    result = deadline(start, amount, unit, calendar)
    assert calendar.is_business_day(result.last_day)
    assert result.last_day >= result.nominal_last_day > start or amount == 0
    # Every day between the nominal end and the last day is one without office hours.
    day = result.nominal_last_day
    while day < result.last_day:
        assert not calendar.is_business_day(day)
        day += timedelta(days=1)


@settings(max_examples=300, deadline=None)
@given(start=days, amount=st.integers(0, 300), more=st.integers(1, 60), unit=units, calendar=calendars)
def test_art66_a_deadline_never_moves_earlier_as_the_amount_grows(start, amount, more, unit, calendar):
    if unit is Unit.MONTHS:
        amount, more = min(amount, 60), min(more, 60)
    shorter = deadline(start, amount, unit, calendar)
    longer = deadline(start, amount + more, unit, calendar)
    assert longer.last_day >= shorter.last_day


@settings(max_examples=300, deadline=None)
@given(act=days, k=st.integers(0, 30), calendar=calendars)
def test_art26_par2_latest_notice_day_leaves_exactly_k_business_days_between(act, k, calendar):
    notice = latest_notice_day(act, k, calendar)
    between = [notice + timedelta(days=i) for i in range(1, (act - notice).days)]
    assert sum(calendar.is_business_day(day) for day in between) == k
    # The latest such day: one day later leaves fewer than k.
    later = notice + timedelta(days=1)
    if later < act:
        assert (
            sum(calendar.is_business_day(later + timedelta(days=i)) for i in range(1, (act - later).days)) < k
        )
