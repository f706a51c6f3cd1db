"""Invariants of the quota engine (RULES.md §2), checked with Hypothesis. No database."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contests.quotas import QuotaError, ReserveRule, Rounding, reservation, round_fraction

FAST = settings(max_examples=200, deadline=None)

vacancies = st.integers(min_value=0, max_value=500)
# Percentages with two decimal places, as the database stores them.
percents = st.integers(min_value=0, max_value=10_000).map(lambda hundredths: Fraction(hundredths, 100))
roundings = st.sampled_from(list(Rounding))
thresholds = st.integers(min_value=0, max_value=10)


@st.composite
def racial_rules(draw) -> ReserveRule:
    return ReserveRule(percent=draw(percents), threshold=draw(thresholds), rounding=draw(roundings))


@st.composite
def pcd_rules(draw, racial_percent: Fraction = Fraction(100)) -> ReserveRule | None:
    """A PcD rule whose cap keeps the two reserves within 100% (RULES §2, validation)."""
    if draw(st.booleans()):
        return None
    room = int(racial_percent * 100)
    cap = Fraction(draw(st.integers(min_value=0, max_value=min(room, 10_000))), 100)
    percent = Fraction(draw(st.integers(min_value=0, max_value=10_000)), 100)
    return ReserveRule(percent=percent, threshold=draw(thresholds), rounding=draw(roundings), cap_percent=cap)


@st.composite
def rule_pairs(draw) -> tuple[ReserveRule, ReserveRule | None]:
    racial = draw(racial_rules())
    return racial, draw(pcd_rules(racial_percent=Fraction(100) - racial.percent))


@FAST
@given(rules=rule_pairs(), n=vacancies)
def test_reserves_never_exceed_the_vacancies(rules, n):
    racial, pcd = rules
    result = reservation(n, racial, pcd)
    assert 0 <= result.racial <= n
    assert 0 <= result.pcd <= n
    assert result.racial + result.pcd <= n
    # Validated rules fit without trimming either reserve: round(p·n) + floor(cap·n) ≤ n when p + cap ≤ 1.
    assert result.racial == racial.count(n)
    assert result.pcd == (pcd.count(n) if pcd is not None else 0)


@FAST
@given(rules=rule_pairs(), n=vacancies, more=st.integers(min_value=1, max_value=50))
def test_reserves_never_shrink_as_vacancies_grow(rules, n, more):
    racial, pcd = rules
    before, after = reservation(n, racial, pcd), reservation(n + more, racial, pcd)
    assert after.racial >= before.racial
    assert after.pcd >= before.pcd


@FAST
@given(rules=rule_pairs(), n=vacancies)
def test_open_is_n_minus_the_reserves_and_never_negative(rules, n):
    racial, pcd = rules
    result = reservation(n, racial, pcd)
    assert result.open == n - result.racial - result.pcd
    assert result.open >= 0


@FAST
@given(
    rule=racial_rules(),
    openings=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=8),
)
def test_sm_art1_par4_cumulative_equals_carrying_the_fraction_opening_by_opening(rule, openings):
    """Computing on the running total is the same as reserving each opening plus the fraction carried.

    Opening by opening: the exact share of the new vacancies is added to what was carried; the reserve
    for this opening is that sum rounded by the policy's rule (nothing while the cumulative count is below
    the threshold, the fraction still accruing); what was not reserved, or was reserved ahead, is carried.
    """
    carried = Fraction(0)
    reserved = 0
    total = 0
    for count in openings:
        total += count
        due = carried + rule.share * count
        now = round_fraction(due, rule.rounding) if total >= rule.threshold and total > 0 else 0
        assert now >= 0  # a vacancy reserved ahead is never handed back
        reserved += now
        carried = due - now
        assert reserved == rule.count(total)
        assert carried == reservation(total, rule).carried_fraction


@FAST
@given(n=vacancies)
def test_20_plus_5_never_exceed_the_vacancies(n):
    racial = ReserveRule(percent=20, threshold=3)
    pcd = ReserveRule(percent=5, rounding="up", cap_percent=20)
    result = reservation(n, racial, pcd)
    # Neither reserve is trimmed to fit: the published series never collide (RULES §4).
    assert result.racial == racial.count(n)
    assert result.pcd == pcd.count(n)
    assert result.racial + result.pcd <= n


@FAST
@given(rule=racial_rules(), n=st.integers(min_value=1, max_value=500))
def test_carried_fraction_is_within_one_vacancy(rule, n):
    """What is carried is less than one vacancy: half up in [−½, ½), up in (−1, 0], down in [0, 1)."""
    carried = reservation(n, rule).carried_fraction
    if n < rule.threshold:
        assert carried == rule.share * n
    elif rule.rounding is Rounding.HALF_UP:
        assert Fraction(-1, 2) <= carried < Fraction(1, 2)
    elif rule.rounding is Rounding.UP:
        assert -1 < carried <= 0
    else:
        assert 0 <= carried < 1


@FAST
@given(rule=racial_rules(), n=vacancies)
def test_count_matches_the_closed_formula(rule, n):
    exact = rule.share * n
    formula = {
        Rounding.HALF_UP: math.floor(exact + Fraction(1, 2)),
        Rounding.UP: math.ceil(exact),
        Rounding.DOWN: math.floor(exact),
    }[rule.rounding]
    expected = 0 if n < rule.threshold else formula
    assert rule.count(n) == expected


@FAST
@given(
    percent=st.one_of(
        st.integers(min_value=-10_000, max_value=-1), st.integers(min_value=10_001, max_value=100_000)
    )
)
def test_percent_outside_0_100_is_always_refused(percent):
    with pytest.raises(QuotaError):
        ReserveRule(percent=Fraction(percent, 100))
