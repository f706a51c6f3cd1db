"""The quota engine (``contests/quotas.py``) against RULES.md §2, clause by clause. No database.

SM = Santa Maria PL 9247/2021 (20%, at least 3 vacancies, half up, fraction carried);
AR = Angra dos Reis PL 094/2015 (20%, no threshold, half up);
PcD = Decreto 9.508/2018 art. 1 §3 (5%, any fraction up), capped at 20% (Lei 8.112 art. 5 §2).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from contests import quotas
from contests.quotas import (
    QuotaError,
    ReserveRule,
    Rounding,
    explain_pcd,
    explain_racial,
    format_percent,
    fragmentation,
    reservation,
    round_fraction,
    round_half_up,
    series,
    to_fraction,
    validate_rules,
)
from contests.wording import format_fraction, format_fraction_plain

SM = ReserveRule(percent=20, threshold=3, rounding=Rounding.HALF_UP)
AR = ReserveRule(percent=20, threshold=0, rounding=Rounding.HALF_UP)
PCD = ReserveRule(percent=5, threshold=1, rounding=Rounding.UP, cap_percent=20)
# The citations the seeded policies carry (migration 0003).
SM_CITATIONS = {"threshold": "art. 1º §2º", "rounding": "art. 1º §3º", "carry": "art. 1º §4º"}
AR_CITATIONS = {"threshold": "", "rounding": "art. 1º §1º", "carry": ""}

# RULES §2, reference values, n = 1…25.
REFERENCE_20_HALF_UP = [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5]
# The same 20% under the other roundings a policy may choose.
REFERENCE_20_UP = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5]
REFERENCE_20_UP_THRESHOLD_3 = [0, 0, *REFERENCE_20_UP[2:]]
REFERENCE_20_DOWN = [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5]
# 30% (Lei 15.142's percent), n = 1…10: the threshold matters at n = 2.
REFERENCE_30_THRESHOLD_3 = [0, 0, 1, 1, 2, 2, 2, 2, 3, 3]
REFERENCE_30_NO_THRESHOLD = [0, 1, 1, 1, 2, 2, 2, 2, 3, 3]
# PcD 5%, up, capped at 20%: n = 1…4 → 0, 5…20 → 1, 21…40 → 2, 41 → 3.
REFERENCE_PCD = [
    *((n, 0) for n in range(1, 5)),
    *((n, 1) for n in range(5, 21)),
    *((n, 2) for n in range(21, 41)),
    (41, 3),
]


def _table(values: list[int]) -> list[tuple[int, int]]:
    return list(enumerate(values, start=1))


# Reference values (RULES §2) ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_HALF_UP))
def test_sm_art1_par3_reference_values_20_percent_half_up_threshold_3(n, expected):
    assert SM.count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_HALF_UP))
def test_ar_art1_par1_reference_values_20_percent_half_up_no_threshold(n, expected):
    assert AR.count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_HALF_UP))
def test_ar_art1_threshold_of_one_is_the_same_as_none(n, expected):
    assert ReserveRule(percent=20, threshold=1).count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_UP))
def test_policy_rounding_up_reserves_any_fraction(n, expected):
    assert ReserveRule(percent=20, rounding=Rounding.UP).count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_UP_THRESHOLD_3))
def test_policy_rounding_up_with_sm_threshold(n, expected):
    assert ReserveRule(percent=20, threshold=3, rounding="up").count(n) == expected


@pytest.mark.parametrize("threshold", [0, 3])
@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_20_DOWN))
def test_policy_rounding_down_drops_any_fraction(n, expected, threshold):
    assert ReserveRule(percent=20, threshold=threshold, rounding="down").count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_30_THRESHOLD_3))
def test_sm_art1_par2_threshold_matters_at_30_percent(n, expected):
    assert ReserveRule(percent=30, threshold=3).count(n) == expected


@pytest.mark.parametrize(("n", "expected"), _table(REFERENCE_30_NO_THRESHOLD))
def test_ar_art1_no_threshold_at_30_percent(n, expected):
    assert ReserveRule(percent=30).count(n) == expected


def test_lei_15142_threshold_2_reserves_at_two_vacancies():
    assert ReserveRule(percent=30, threshold=2).count(2) == 1
    assert ReserveRule(percent=30, threshold=2).count(1) == 0


def test_series_gives_the_reference_values():
    assert series(SM, 25) == REFERENCE_20_HALF_UP
    assert series(AR, 25) == REFERENCE_20_HALF_UP


@pytest.mark.parametrize(("n", "expected"), REFERENCE_PCD)
def test_decreto_9508_art1_par3_pcd_fraction_rounds_up_capped_at_20_percent(n, expected):
    assert PCD.count(n) == expected


@pytest.mark.parametrize(("n", "expected"), [(1, 1), (4, 1), (5, 1), (20, 1), (21, 2), (41, 3)])
def test_decreto_9508_art1_par3_pcd_fraction_rounds_up(n, expected):
    """Without the cap any fraction goes up, even on 1 vacancy."""
    assert ReserveRule(percent=5, rounding="up").count(n) == expected


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_lei_8112_art5_par2_pcd_cap_of_20_percent_leaves_fewer_than_5_vacancies_unreserved(n):
    assert ReserveRule(percent=5, rounding="up").count(n) == 1
    assert PCD.count(n) == 0


@pytest.mark.parametrize(
    ("rule", "n", "expected"),
    [
        (ReserveRule(percent=5, rounding="half_up", cap_percent=20), 9, 0),  # 0,45
        (ReserveRule(percent=5, rounding="half_up", cap_percent=20), 10, 1),  # 0,5
        (ReserveRule(percent=5, rounding="down", cap_percent=20), 39, 1),  # 1,95
        (ReserveRule(percent=5, rounding="up", cap_percent=20, threshold=10), 9, 0),  # municipal threshold
        (ReserveRule(percent=5, rounding="up", cap_percent=20, threshold=10), 10, 1),
        (ReserveRule(percent=10, rounding="up", cap_percent=20), 7, 1),  # 0,7 → 1, cap 1,4 → 1
        (ReserveRule(percent=10, rounding="up", cap_percent=20), 11, 2),  # 1,1 → 2, cap 2,2 → 2
    ],
)
def test_municipal_statute_sets_pcd_rounding_threshold_and_percent(rule, n, expected):
    assert rule.count(n) == expected


def test_reserve_on_zero_vacancies_is_zero():
    for rule in (SM, AR, PCD, ReserveRule(percent=100, rounding="up")):
        assert rule.count(0) == 0


def test_reserve_of_100_percent_takes_every_vacancy():
    assert [ReserveRule(percent=100).count(n) for n in range(1, 6)] == [1, 2, 3, 4, 5]


# Threshold (SM art. 1 §2) -------------------------------------------------------------------------------


def test_sm_art1_par2_no_reserve_below_three_vacancies():
    assert [SM.count(n) for n in (0, 1, 2)] == [0, 0, 0]
    assert SM.count(3) == 1


@pytest.mark.parametrize(
    ("n", "threshold_count", "expected"),
    [
        (2, None, 0),  # position basis: 2 < 3
        (2, 2, 0),  # contest basis, a contest of 2 vacancies
        (2, 3, 1),  # contest basis: 30% of 2 = 0,6 → 1
        (2, 10, 1),
        (1, 10, 0),  # 0,3 → 0 whatever the basis
        (5, 5, 2),
    ],
)
def test_sm_art1_par2_threshold_on_position_or_contest(n, threshold_count, expected):
    rule = ReserveRule(percent=30, threshold=3)
    assert rule.count(n, threshold_count=threshold_count) == expected


def test_sm_art1_par2_threshold_on_contest_never_changes_20_percent_below_three():
    """At 20% the basis cannot matter: 20% of 1 or 2 rounds to 0 anyway."""
    for n in (1, 2):
        assert SM.count(n, threshold_count=100) == 0


def test_sm_art1_par2_threshold_on_contest_counts_in_reservation():
    rule = ReserveRule(percent=30, threshold=3)
    assert reservation(2, rule).racial == 0
    assert reservation(2, rule).threshold_applies is False
    on_contest = reservation(2, rule, threshold_count=7)
    assert on_contest.racial == 1
    assert on_contest.threshold_applies is True


def test_sm_art1_pars1_2_threshold_on_the_cumulative_count():
    """2 edital vacancies reserve 0; one more opened later makes 3 and reserves 1."""
    edital = reservation(2, SM, citations=SM_CITATIONS)
    assert (edital.racial, edital.carried_fraction) == (0, Fraction(2, 5))
    later = reservation(2 + 1, SM, citations=SM_CITATIONS)
    assert (later.racial, later.carried_fraction) == (1, Fraction(-2, 5))


# Fraction carried (SM art. 1 §4) --------------------------------------------------------------------------

CARRY_EXAMPLES = [
    # (openings, reserved after the last one, carried fraction p·n − racial(n))
    ([7], 1, Fraction(2, 5)),  # 1,4 → 1, 0,4 owed
    ([7, 3], 2, Fraction(0)),  # 10 → 2
    ([7, 2], 2, Fraction(-1, 5)),  # 9 → 1,8 → 2: the 0,4 carried plus 0,4 of the new ones
    ([8], 2, Fraction(-2, 5)),  # 1,6 → 2, 0,4 given in advance
    ([8, 3], 2, Fraction(1, 5)),  # 11 → 2,2 → 2: nothing more reserved
    ([2], 0, Fraction(2, 5)),  # below the threshold
    ([2, 1], 1, Fraction(-2, 5)),  # the threshold reached on the cumulative count
]


@pytest.mark.parametrize(("openings", "expected", "carried"), CARRY_EXAMPLES)
def test_sm_art1_par4_fraction_carried_to_later_openings(openings, expected, carried):
    result = reservation(sum(openings), SM)
    assert result.racial == expected
    assert result.carried_fraction == carried


def test_sm_art1_par4_rounding_each_opening_alone_would_lose_a_seat():
    """7 then 2: each opening on its own gives 1 + 0; the cumulative count gives 2."""
    assert round_half_up(Fraction(7, 5)) + round_half_up(Fraction(2, 5)) == 1
    assert SM.count(7 + 2) == 2


def test_sm_art1_par4_advance_is_not_reserved_twice():
    assert SM.count(8) == 2
    assert SM.count(8 + 3) - SM.count(8) == 0


# Exact arithmetic -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.5, 3),
        (Fraction(5, 2), 3),
        (Decimal("2.5"), 3),
        ("2,5", 3),
        (Fraction(1, 2), 1),
        (Fraction(49, 20), 2),  # 2,45
        (Fraction(3, 2), 2),
        (Decimal("0.4999"), 0),
        (4, 4),
        (0, 0),
    ],
)
def test_sm_art1_par3_fraction_of_half_rounds_up(value, expected):
    assert round_half_up(value) == expected


def test_python_round_is_not_the_law():
    assert round(2.5) == 2  # half to even: why quotas.py never uses it
    assert round_half_up(2.5) == 3


def test_exact_arithmetic_where_float_would_round_the_wrong_way():
    """29% of 50 is exactly 14,5 → 15; in float it is 14.499999999999998 → 14."""
    assert 0.29 * 50 < 14.5
    rule = ReserveRule(percent=29)
    assert rule.exact(50) == Fraction(29, 2)
    assert rule.count(50) == 15
    assert ReserveRule(percent=Decimal("29.00")).count(50) == 15
    assert ReserveRule(percent="29").count(50) == 15


def test_values_are_fractions_never_floats():
    rule = ReserveRule(percent=Decimal("20.00"))
    assert isinstance(rule.percent, Fraction)
    result = reservation(7, rule, PCD)
    for value in (result.racial_exact, result.pcd_exact, result.carried_fraction):
        assert isinstance(value, Fraction)
    assert result.racial_exact == Fraction(7, 5)
    assert result.pcd_exact == Fraction(7, 20)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (20, Fraction(20)),
        (Decimal("12.50"), Fraction(25, 2)),
        ("33,5", Fraction(67, 2)),
        (" 20 ", Fraction(20)),
        ("1/3", Fraction(1, 3)),
        (0.1, Fraction(1, 10)),  # through its shortest representation, not 0.1000000000000000055…
        (Fraction(5, 2), Fraction(5, 2)),
    ],
)
def test_to_fraction_is_exact(value, expected):
    assert to_fraction(value) == expected


@pytest.mark.parametrize(
    ("rounding", "value", "expected"),
    [
        ("half_up", Fraction(1, 2), 1),
        ("half_up", Fraction(49, 100), 0),
        ("up", Fraction(1, 100), 1),
        ("up", Fraction(2), 2),
        ("down", Fraction(99, 100), 0),
        ("down", Fraction(2), 2),
    ],
)
def test_round_fraction_by_each_rule(rounding, value, expected):
    assert round_fraction(value, rounding) == expected


# Open competition ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "racial", "pcd", "open_"),
    [(1, 0, 0, 1), (2, 0, 0, 2), (5, 1, 1, 3), (7, 1, 1, 5), (13, 3, 1, 9), (21, 4, 2, 15), (41, 8, 3, 30)],
)
def test_open_is_what_the_reserves_leave(n, racial, pcd, open_):
    result = reservation(n, SM, PCD)
    assert (result.racial, result.pcd, result.open) == (racial, pcd, open_)
    assert result.open == n - result.racial - result.pcd


def test_open_may_shrink_when_both_reserves_grow_at_once():
    """RULES §2: 30% + 5% at n = 5, both reserves grow and open competition loses one."""
    rule = ReserveRule(percent=30)
    four, five = reservation(4, rule, PCD), reservation(5, rule, PCD)
    assert (four.racial, four.pcd, four.open) == (1, 0, 3)
    assert (five.racial, five.pcd, five.open) == (2, 1, 2)


def test_no_pcd_reserve_when_the_contest_sets_none():
    result = reservation(13, SM)
    assert (result.racial, result.pcd, result.open) == (3, 0, 10)
    assert result.pcd_explanation == ""


# Validation (Portuguese messages) --------------------------------------------------------------------------


@pytest.mark.parametrize("percent", [-1, Decimal("100.01"), 120, "-0,5"])
def test_percent_outside_0_100_is_refused(percent):
    with pytest.raises(QuotaError, match="O percentual de reserva deve estar entre 0 e 100"):
        ReserveRule(percent=percent)


@pytest.mark.parametrize("percent", [0, 100, Decimal("0.00"), "100"])
def test_percent_at_the_bounds_is_accepted(percent):
    ReserveRule(percent=percent)


def test_cap_outside_0_100_is_refused():
    with pytest.raises(QuotaError, match="limite máximo da reserva deve estar entre 0 e 100"):
        ReserveRule(percent=5, cap_percent=120)


def test_negative_threshold_is_refused():
    with pytest.raises(QuotaError, match="não pode ser negativo"):
        ReserveRule(percent=20, threshold=-1)


def test_unknown_rounding_is_refused_in_portuguese():
    with pytest.raises(QuotaError, match="Arredondamento inválido"):
        ReserveRule(percent=20, rounding="banker")


@pytest.mark.parametrize(("racial", "cap"), [(90, 20), (81, 20), (Decimal("80.01"), 20)])
def test_percent_plus_pcd_cap_over_100_is_refused(racial, cap):
    pcd = ReserveRule(percent=5, rounding="up", cap_percent=cap)
    message = "soma do percentual da reserva racial com o limite da reserva para pessoas com deficiência"
    with pytest.raises(QuotaError, match=message):
        validate_rules(ReserveRule(percent=racial), pcd)
    with pytest.raises(QuotaError, match=message):
        reservation(10, ReserveRule(percent=racial), pcd)


def test_percent_plus_uncapped_pcd_percent_over_100_is_refused():
    with pytest.raises(QuotaError, match="não pode passar de 100%"):
        validate_rules(ReserveRule(percent=96), ReserveRule(percent=5, rounding="up"))


def test_percent_plus_pcd_cap_of_exactly_100_is_accepted():
    validate_rules(ReserveRule(percent=80), PCD)
    validate_rules(ReserveRule(percent=100), None)


@pytest.mark.parametrize(
    "call",
    [
        lambda: SM.count(-1),
        lambda: PCD.count(-3),
        lambda: SM.count(5, threshold_count=-1),
        lambda: reservation(-1, SM),
        lambda: reservation(3, SM, threshold_count=-2),
        lambda: fragmentation([3, -1], SM),
    ],
)
def test_negative_counts_are_refused(call):
    with pytest.raises(QuotaError, match=r"O número de vagas não pode ser negativo\."):
        call()


@pytest.mark.parametrize("n", [2.0, Decimal(2), "2", True, None])
def test_vacancy_counts_must_be_integers(n):
    with pytest.raises(QuotaError, match=r"O número de vagas deve ser um número inteiro\."):
        SM.count(n)


@pytest.mark.parametrize(
    "value",
    ["", "abc", "1/0", "vinte", True, None, float("nan"), float("inf"), Decimal("NaN"), Decimal("Infinity")],
)
def test_invalid_percent_is_refused(value):
    with pytest.raises(QuotaError, match="Percentual inválido"):
        to_fraction(value)


# Explanations (Portuguese, decimal comma, the policy's articles) -------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (
            7,
            "20% de 7 = 1,4 → 1 (fração menor que 0,5 arredonda para baixo, art. 1º §3º); "
            "0,4 considerado nas próximas nomeações, art. 1º §4º.",
        ),
        (
            8,
            "20% de 8 = 1,6 → 2 (fração igual ou maior que 0,5 arredonda para cima, art. 1º §3º); "
            "0,4 já reservado por antecipação, art. 1º §4º.",
        ),
        (
            13,
            "20% de 13 = 2,6 → 3 (fração igual ou maior que 0,5 arredonda para cima, art. 1º §3º); "
            "0,4 já reservado por antecipação, art. 1º §4º.",
        ),
        (10, "20% de 10 = 2 → 2."),
        (
            2,
            "2 vagas no cargo: a reserva a negros só se aplica a partir de 3 vagas, art. 1º §2º; "
            "0 reservadas; 0,4 considerado nas próximas nomeações se abrirem novas vagas.",
        ),
        (
            1,
            "1 vaga no cargo: a reserva a negros só se aplica a partir de 3 vagas, art. 1º §2º; "
            "0 reservadas; 0,2 considerado nas próximas nomeações se abrirem novas vagas.",
        ),
        (0, "Nenhuma vaga: nada a reservar."),
    ],
)
def test_sm_explanation_cites_the_articles_with_decimal_comma(n, expected):
    assert reservation(n, SM, PCD, citations=SM_CITATIONS).racial_explanation == expected


def test_sm_art1_par3_explanation_at_half_says_rounds_up():
    """50% of 5 = 2,5: the half itself goes up."""
    rule = ReserveRule(percent=50, threshold=3)
    assert explain_racial(5, rule, citations=SM_CITATIONS) == (
        "50% de 5 = 2,5 → 3 (fração igual ou maior que 0,5 arredonda para cima, art. 1º §3º); "
        "0,5 já reservado por antecipação, art. 1º §4º."
    )


def test_ar_explanation_cites_its_rounding_article_and_names_its_beneficiaries():
    assert explain_racial(7, AR, citations=AR_CITATIONS, group_label="negros e índios") == (
        "20% de 7 = 1,4 → 1 (fração menor que 0,5 arredonda para baixo, art. 1º §1º); "
        "0,4 considerado nas próximas nomeações."
    )
    rule = ReserveRule(percent=20, threshold=3)
    assert explain_racial(2, rule, group_label="negros e índios").startswith(
        "2 vagas no cargo: a reserva a negros e índios só se aplica a partir de 3 vagas;"
    )


def test_sm_art1_par2_explanation_on_the_contest_basis():
    rule = ReserveRule(percent=30, threshold=3)
    assert explain_racial(2, rule, threshold_count=2, citations=SM_CITATIONS) == (
        "2 vagas no concurso: a reserva a negros só se aplica a partir de 3 vagas, art. 1º §2º; "
        "0 reservadas; 0,6 considerado nas próximas nomeações se abrirem novas vagas."
    )
    assert explain_racial(2, rule, threshold_count=9, citations=SM_CITATIONS).startswith("30% de 2 = 0,6 → 1")


@pytest.mark.parametrize(
    ("rule", "n", "expected"),
    [
        (
            ReserveRule(percent=20, rounding="up"),
            7,
            "20% de 7 = 1,4 → 2 (qualquer fração arredonda para cima); 0,6 já reservado por antecipação.",
        ),
        (
            ReserveRule(percent=20, rounding="down"),
            7,
            "20% de 7 = 1,4 → 1 (a fração é desprezada); 0,4 considerado nas próximas nomeações.",
        ),
        (
            ReserveRule(percent="12,5"),
            3,
            "12,5% de 3 = 0,375 → 0 (fração menor que 0,5 arredonda para baixo); "
            "0,375 considerado nas próximas nomeações.",
        ),
    ],
)
def test_explanation_names_each_rounding_rule(rule, n, expected):
    assert explain_racial(n, rule) == expected


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "Nenhuma vaga: nada a reservar."),
        (2, "5% de 2 = 0,1 → 1, limitado a 20% das vagas (0,4 → 0)."),
        (7, "5% de 7 = 0,35 → 1."),
        (21, "5% de 21 = 1,05 → 2."),
        (41, "5% de 41 = 2,05 → 3."),
    ],
)
def test_decreto_9508_art1_par3_pcd_explanation(n, expected):
    assert explain_pcd(n, PCD) == expected


def test_pcd_explanation_below_a_municipal_threshold():
    rule = ReserveRule(percent=5, rounding="up", cap_percent=20, threshold=5)
    assert (
        explain_pcd(4, rule)
        == "4 vagas: a reserva a pessoas com deficiência só se aplica a partir de 5 vagas."
    )


def test_reservation_carries_both_explanations():
    result = reservation(7, SM, PCD, citations=SM_CITATIONS)
    assert result.racial_explanation.startswith("20% de 7 = 1,4 → 1")
    assert result.pcd_explanation == "5% de 7 = 0,35 → 1."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(7, 5), "1,4"),
        (Fraction(3, 8), "0,375"),
        (Fraction(-2, 5), "-0,4"),
        (Fraction(2), "2"),
        (Fraction(0), "0"),
        (Fraction(1, 3), "≈0,33"),
    ],
)
def test_fractions_shown_with_decimal_comma(value, expected):
    assert format_fraction(value) == expected


def test_percent_shown_with_decimal_comma():
    assert format_percent(Fraction(20)) == "20%"
    assert format_percent(Decimal("12.50")) == "12,5%"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(Fraction(2, 5), "0.4"), (Fraction(-1, 5), "-0.2"), (Fraction(0), "0"), (Fraction(2, 3), "0.666667")],
)
def test_plain_fraction_for_json_uses_a_point(value, expected):
    assert format_fraction_plain(value) == expected


def test_reservation_as_dict_shows_the_carried_fraction():
    assert reservation(7, SM, PCD).as_dict() == {"racial": 1, "pcd": 1, "open": 5, "carried_fraction": "0.4"}
    assert reservation(8, SM).as_dict() == {"racial": 2, "pcd": 0, "open": 6, "carried_fraction": "-0.4"}
    assert reservation(10, SM).as_dict()["carried_fraction"] == "0"


# Fragmentation (STF, ADC 41) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "positions", "expected"),
    [
        (SM, [2, 2, 2, 2, 2], 2),  # 10 in the contest → 2; each position of 2 → 0
        (SM, [1] * 15, 3),
        (AR, [1] * 10, 2),  # no threshold, but 20% of 1 still rounds to 0
        (SM, [13], 0),
        (SM, [3, 3, 4], 0),  # 1 + 1 + 1 = 3 ≥ 2: more reserved than the contest total: no warning
        (SM, [7, 2], 1),  # 9 → 2; 1 + 0
        (SM, [], 0),
    ],
)
def test_adc_41_fragmentation_shortfall(rule, positions, expected):
    found = fragmentation(positions, rule)
    assert (found.shortfall if found is not None else 0) == expected


def test_adc_41_fragmentation_shortfall_accepts_any_iterable():
    found = fragmentation((n for n in [2, 2, 2, 2, 2]), SM)
    assert found is not None and found.shortfall == 2


@pytest.mark.parametrize(
    ("positions", "on_contest", "expected"),
    [
        # Three positions of 2 under SM (threshold 3 per position): none reserves, 6 together reserve 1.
        ([2, 2, 2], False, (6, 1, 0, 1)),
        # The same threshold read on the contest (6 ≥ 3): each position counts 20% of 2 = 0,4 → 0.
        ([2, 2, 2], True, (6, 1, 0, 1)),
        # 7 and 8 reserve 1 + 2 = 3, as 15 together: nothing lost.
        ([7, 8], False, None),
        # One position alone is no split.
        ([10], False, None),
        # Threshold on the contest lets positions of 3 and 2 count: 1 + 0 against 1 for 5.
        ([3, 2], True, None),
    ],
)
def test_adc_41_fragmentation_of_the_contest(positions, on_contest, expected):
    result = quotas.fragmentation(positions, SM, threshold_on_contest=on_contest)
    if expected is None:
        assert result is None
    else:
        assert (result.total, result.whole, result.split, result.shortfall) == expected


def test_sm_art1_par2_threshold_on_contest_counts_small_positions_in_the_split():
    # 30% with threshold 3: positions of 2 reserve 0 on their own, round(0,6) = 1 each on a contest of 4.
    rule = ReserveRule(percent=30, threshold=3)
    assert quotas.fragmentation([2, 2], rule) == quotas.Fragmentation(total=4, whole=1, split=0, shortfall=1)
    assert quotas.fragmentation([2, 2], rule, threshold_on_contest=True) is None


# One home for the sum of the reserves and for the threshold counted on the contest ------------------------


@pytest.mark.parametrize(
    ("racial", "pcd", "cap", "refused"),
    [
        (20, 5, 20, False),
        (80, 5, 20, False),  # exactly 100: accepted
        (81, 5, 20, True),  # the cap, not the percent, is the PcD ceiling
        (Decimal("80.01"), Decimal(5), Decimal(20), True),
        (96, 5, None, True),  # no cap: the PcD percent itself
        (95, 5, None, False),
        (100, 0, 20, False),  # no PcD reserve: nothing to add
        (100, None, None, False),
    ],
)
def test_rules_s2_validation_racial_plus_pcd_ceiling_never_pass_100(racial, pcd, cap, refused):
    refusal = quotas.reserves_sum_refusal(racial, pcd, cap)
    assert (refusal is not None) == refused
    if refused:
        assert refusal == (
            "A soma do percentual da reserva racial com o limite da reserva para pessoas com deficiência "
            "não pode passar de 100%."
        )


@pytest.mark.parametrize(
    ("on_contest", "contest", "position", "extra"),
    [(False, 5, 2, 0), (True, 5, 2, 3), (True, 2, 2, 0), (True, 7, 0, 7)],
)
def test_sm_art1_par2_threshold_counts_the_other_positions_only_on_the_contest(
    on_contest, contest, position, extra
):
    assert (
        quotas.threshold_extra(on_contest=on_contest, contest_vacancies=contest, position_vacancies=position)
        == extra
    )


def test_sm_art1_par2_on_the_contest_two_vacancies_here_and_one_elsewhere_reach_the_threshold():
    rule = ReserveRule(percent=30, threshold=3)
    extra = quotas.threshold_extra(on_contest=True, contest_vacancies=3, position_vacancies=2)
    assert rule.count(2, threshold_count=2 + extra) == 1  # 30% of 2 = 0,6 → 1
    assert rule.count(2) == 0  # counted on the position: below 3
