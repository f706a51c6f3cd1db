"""The phases a reinstated candidate missed while out of the lists and the days given again for each
(``candidates.engine.makeup``; docs/readings.md, "Fases perdidas por quem foi reintegrado")."""

from datetime import date

import pytest

from candidates.engine.makeup import MIN_MAKE_UP_DAYS, PhaseDates, make_up_days, missed_phases

OUT, BACK = date(2026, 5, 10), date(2026, 6, 20)


def phase(key, starts_on, ends_on=None):
    return PhaseDates(key=key, order=key, starts_on=starts_on, ends_on=ends_on)


def keys(phases):
    return [p.key for p in phases]


def test_a_phase_held_while_out_is_missed():
    assert keys(missed_phases([phase(1, date(2026, 6, 1))], OUT, BACK)) == [1]


def test_a_phase_over_before_the_removal_was_taken_part_in():
    assert missed_phases([phase(1, date(2026, 4, 1), date(2026, 5, 9))], OUT, BACK) == ()


def test_a_phase_after_the_reinstatement_will_be_taken_part_in():
    assert missed_phases([phase(1, date(2026, 6, 21))], OUT, BACK) == ()


def test_the_day_of_the_removal_and_the_day_of_the_reinstatement_are_days_out():
    phases = [phase(1, OUT), phase(2, BACK), phase(3, date(2026, 5, 9))]
    assert keys(missed_phases(phases, OUT, BACK)) == [1, 2]


def test_a_phase_partly_missed_is_missed_whole():
    started_before = phase(1, date(2026, 5, 1), date(2026, 5, 15))
    ends_after = phase(2, date(2026, 6, 15), date(2026, 7, 15))
    assert keys(missed_phases([ends_after, started_before], OUT, BACK)) == [1, 2]  # in the phases' order


def test_a_phase_without_dates_is_never_counted_missed():
    assert missed_phases([phase(1, None)], OUT, BACK) == ()


def test_a_reinstatement_before_its_removal_is_refused():
    with pytest.raises(ValueError, match="não pode ser anterior"):
        missed_phases([], BACK, OUT)


def test_the_days_given_again_are_the_phase_length_both_ends_included():
    assert make_up_days(phase(1, date(2026, 6, 1), date(2026, 6, 30))) == 30


def test_a_short_phase_gets_at_least_the_minimum():
    assert MIN_MAKE_UP_DAYS == 10
    assert make_up_days(phase(1, date(2026, 6, 1))) == MIN_MAKE_UP_DAYS
    assert make_up_days(phase(1, date(2026, 6, 1)), minimum=3) == 3


def test_a_phase_the_candidate_sat_was_not_missed():
    phases = [phase(1, date(2026, 6, 1)), phase(2, date(2026, 6, 2))]
    assert keys(missed_phases(phases, OUT, BACK, sat={1})) == [2]
