"""One position's lists from plain rows (``candidates.engine.results``): no database.

Named after the clause each test pins: the pass mark (SM art. 4 §2), the phase cut-off per list
(SM art. 4 §1), the lists of RULES §3 and the tie-breaks.
"""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal

import pytest

from candidates.engine.results import (
    OUT,
    Entry,
    PhaseRow,
    RegistrationRow,
    compute_position,
    format_score,
)
from candidates.engine.schedule import Params
from contests.quotas import ReserveRule

SM = Params(racial=ReserveRule(20, 3, "half_up"), group_label="negros")
SM_PCD = Params(racial=ReserveRule(20, 3, "half_up"), pcd=ReserveRule(5, 1, "up", 20), group_label="negros")
END = datetime.date(2026, 3, 31)
_ids = itertools.count(1)
OBJECTIVE = 1
WRITTEN = 2


def reg(number: str, *, scores=None, **fields) -> RegistrationRow:
    """A registration; ``scores``: phase id → score (a number or text), ``None`` for absent."""
    phases = {
        phase: (None, True) if score is None else (Decimal(str(score)), False)
        for phase, score in (scores or {}).items()
    }
    return RegistrationRow(next(_ids), number, name=f"Candidato {number}", phases=phases, **fields)


def compute(regs, phases=(), params=SM, **kwargs):
    return compute_position(regs, phases, params=params, registration_end=END, **kwargs)


def lists(result) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for entry in sorted(result.entries, key=lambda e: (e.list, e.rank or 0, e.number)):
        found.setdefault(entry.list, []).append(entry.number)
    return found


def entry(result, number: str, list_name: str) -> Entry:
    (found,) = [e for e in result.entries if e.number == number and e.list == list_name]
    return found


# RULES §3: the lists -------------------------------------------------------------------------------


def test_rules_s3_general_list_includes_cotistas_and_the_reserve_keeps_their_order():
    result = compute(
        [
            reg("A", final_score=Decimal(95)),
            reg("N1", final_score=Decimal(90), racial=True),
            reg("B", final_score=Decimal(85)),
            reg("N2", final_score=Decimal(84), racial=True),
        ]
    )
    assert lists(result) == {"open": ["A", "N1", "B", "N2"], "racial": ["N1", "N2"]}
    n2 = entry(result, "N2", "racial")
    assert (n2.rank, n2.general_rank, n2.score) == (2, 4, Decimal("84.00"))
    assert n2.why.startswith("2º da lista reservada a negros (4º na ampla concorrência, nota final 84,00)")
    assert "concorre também à reserva a negros" in entry(result, "N2", "open").why
    assert result.summary == {
        "registrations": 4,
        "open": 4,
        "racial": 2,
        "pcd": 0,
        "out": 0,
        "out_reasons": {},
    }


def test_rules_s3_pcd_list_only_where_the_contest_sets_a_pcd_reserve():
    rows = [reg("P1", final_score=Decimal(70), pcd=True, racial=True, prefers="pcd")]
    assert lists(compute(rows)) == {"open": ["P1"], "racial": ["P1"]}
    assert lists(compute(rows, params=SM_PCD)) == {"open": ["P1"], "racial": ["P1"], "pcd": ["P1"]}
    why = entry(compute(rows, params=SM_PCD), "P1", "open").why
    assert why.endswith("concorre também à reserva a negros e à reserva a pessoas com deficiência")


def test_rules_s3_excluded_from_the_reserve_stays_only_on_the_general_list():
    result = compute(
        [
            reg("N1", final_score=Decimal(90), racial=True, status="excluded_from_reserve"),
            reg("N2", final_score=Decimal(80), racial=True),
        ]
    )
    assert lists(result) == {"open": ["N1", "N2"], "racial": ["N2"]}
    assert entry(result, "N1", "open").why.endswith(
        "excluída das reservas: permanece somente na ampla concorrência"
    )


@pytest.mark.parametrize(
    ("status", "why"),
    [
        ("eliminated", "Inscrição eliminada do concurso"),
        ("withdrawn", "Candidato desistente"),
        ("cancelled", "Inscrição cancelada (indeferida)"),
    ],
)
def test_rules_s4_item4_eliminated_withdrawn_or_cancelled_is_on_no_list(status, why):
    result = compute([reg("A", final_score=Decimal(99), status=status, racial=True)])
    assert lists(result) == {OUT: ["A"]}
    out = entry(result, "A", OUT)
    assert (out.why, out.rank, out.score) == (why, None, Decimal("99.00"))
    assert result.summary["out_reasons"] == {why.lower(): 1}


def test_absent_in_a_phase_is_out_and_the_phase_is_named():
    phases = [PhaseRow(OBJECTIVE, "Objetiva"), PhaseRow(WRITTEN, "Discursiva")]
    result = compute(
        [reg("1", scores={OBJECTIVE: 80, WRITTEN: None}), reg("2", scores={OBJECTIVE: 70, WRITTEN: 5})],
        phases,
    )
    assert lists(result) == {"open": ["2"], OUT: ["1"]}
    assert entry(result, "1", OUT).why == "Ausente na fase Discursiva (eliminado, conforme o edital)"


def test_final_score_is_the_weighted_sum_of_the_phases_unless_the_organiser_gave_one():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", Decimal(2)), PhaseRow(WRITTEN, "Discursiva", Decimal("0.5"))]
    result = compute(
        [
            reg("1", scores={OBJECTIVE: "40.25", WRITTEN: 9}),  # 2 × 40.25 + 0.5 × 9 = 85
            reg("2", scores={OBJECTIVE: 10, WRITTEN: 1}, final_score=Decimal("99.999")),
            reg("3", scores={OBJECTIVE: 30}),
        ],
        phases,
    )
    assert entry(result, "1", "open").score == Decimal("85.00")
    # The organiser's final score wins, stored with two decimals, rounded half up.
    assert entry(result, "2", "open").score == Decimal("100.00")
    assert entry(result, "3", OUT).why == "Sem nota na fase Discursiva: nota final não calculada"


def test_without_phases_or_final_score_there_is_no_final_score():
    result = compute([reg("1")])
    assert entry(result, "1", OUT).why == "Sem nota final"


# SM art. 4 §2: the pass mark -------------------------------------------------------------------------


def test_sm_art4_par2_below_the_pass_mark_on_no_list_cotista_included():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", pass_mark=Decimal(50))]
    result = compute(
        [reg("1", scores={OBJECTIVE: 80}), reg("2", scores={OBJECTIVE: "49.99"}, racial=True)], phases
    )
    assert lists(result) == {"open": ["1"], OUT: ["2"]}
    assert entry(result, "2", OUT).why == (
        "Nota 49,99 na fase Objetiva, abaixo da nota mínima 50,00: fora de todas as listas, cotistas inclusive"
    )
    assert result.summary["out_reasons"] == {"abaixo da nota mínima": 1}


def test_sm_art4_par2_exactly_at_the_pass_mark_passes():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", pass_mark=Decimal(50))]
    result = compute([reg("1", scores={OBJECTIVE: "50.00"}, racial=True)], phases)
    assert lists(result) == {"open": ["1"], "racial": ["1"]}


def test_sm_art4_par2_no_score_in_a_phase_with_a_pass_mark_is_out_unless_a_final_score_was_given():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", pass_mark=Decimal(50))]
    result = compute([reg("1"), reg("2", final_score=Decimal(60))], phases)
    assert lists(result) == {"open": ["2"], OUT: ["1"]}
    assert entry(result, "1", OUT).why == "Sem nota na fase Objetiva, que tem nota mínima"


def test_sm_art4_par2_the_pass_mark_of_each_phase_applies_in_phase_order():
    phases = [
        PhaseRow(OBJECTIVE, "Objetiva", pass_mark=Decimal(50)),
        PhaseRow(WRITTEN, "Discursiva", pass_mark=Decimal(5)),
    ]
    result = compute(
        [reg("1", scores={OBJECTIVE: 40, WRITTEN: 4}), reg("2", scores={OBJECTIVE: 60, WRITTEN: 4})], phases
    )
    assert "fase Objetiva" in entry(result, "1", OUT).why
    assert "fase Discursiva" in entry(result, "2", OUT).why


# SM art. 4 §1: the phase cut-off per list ------------------------------------------------------------


def cut_off_rows():
    return [
        reg("1", scores={OBJECTIVE: 90}),
        reg("2", scores={OBJECTIVE: 80}, racial=True),
        reg("3", scores={OBJECTIVE: 70}),
        reg("4", scores={OBJECTIVE: 60}, racial=True),
        reg("5", scores={OBJECTIVE: 50}, racial=True),
    ]


def test_sm_art4_par1_cut_off_lets_the_best_of_each_list_through_not_already_through():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=2, cutoff_open=2, cutoff_racial=1)]
    result = compute(cut_off_rows(), phases)
    # The best two of the general list, then the best cotista not already through (4).
    assert lists(result) == {"open": ["1", "2", "4"], "racial": ["2", "4"], OUT: ["3", "5"]}
    assert entry(result, "3", OUT).why == (
        "Não classificado na fase Objetiva (nota 70,00): Passam desta fase os 2 melhores da lista geral "
        "(ampla concorrência) e o melhor da lista reservada a negros entre os que não passaram pela lista "
        "geral, além dos empatados com o último classificado de cada lista (SM art. 4º §1º)."
    )
    assert result.summary["out_reasons"] == {"não classificado no corte da fase": 2}


def test_sm_art4_par1_cut_off_split_by_the_reserve_formula_when_the_edital_sets_no_quota():
    # K = 5 at 20 % with threshold 3: 1 on the racial list, 4 on the general list.
    rows = [reg(str(i), scores={OBJECTIVE: 100 - i}) for i in range(1, 7)] + [
        reg("7", scores={OBJECTIVE: 10}, racial=True),
        reg("8", scores={OBJECTIVE: 5}, racial=True),
    ]
    result = compute(rows, [PhaseRow(OBJECTIVE, "Objetiva", cutoff=5)])
    assert lists(result)["open"] == ["1", "2", "3", "4", "7"]
    assert lists(result)["racial"] == ["7"]


def test_sm_art4_par1_ties_with_the_last_one_let_through_pass_too():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=1, cutoff_open=1, cutoff_racial=0)]
    result = compute(
        [
            reg("1", scores={OBJECTIVE: 80}),
            reg("2", scores={OBJECTIVE: 80}),
            reg("3", scores={OBJECTIVE: 70}),
        ],
        phases,
    )
    assert lists(result) == {"open": ["1", "2"], OUT: ["3"]}


def test_sm_art4_par1_no_score_in_a_phase_with_a_cut_off_is_out():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=5)]
    result = compute([reg("1", scores={OBJECTIVE: 80}), reg("2", final_score=Decimal(90))], phases)
    assert entry(result, "2", OUT).why == "Sem nota na fase Objetiva, que tem nota de corte"


def test_sm_art4_par1_pass_mark_before_cut_off_in_the_same_phase():
    # 2 is below the minimum: it neither passes nor takes a place of the cut-off.
    phases = [
        PhaseRow(OBJECTIVE, "Objetiva", pass_mark=Decimal(50), cutoff=1, cutoff_open=1, cutoff_racial=1)
    ]
    result = compute(
        [
            reg("1", scores={OBJECTIVE: 90}),
            reg("2", scores={OBJECTIVE: 40}, racial=True),
            reg("3", scores={OBJECTIVE: 60}, racial=True),
        ],
        phases,
    )
    assert lists(result) == {
        "open": ["1", "3"],
        "racial": ["3"],
        OUT: [
            "2",
        ],
    }
    assert "abaixo da nota mínima" in entry(result, "2", OUT).why


# Tie-breaks ----------------------------------------------------------------------------------------


def test_tie_broken_by_the_inscription_number_says_so_on_both_lines():
    born = datetime.date(1990, 1, 1)
    result = compute(
        [
            reg("20", final_score=Decimal(75), birth_date=born),
            reg("10", final_score=Decimal(75), birth_date=born),
        ]
    )
    assert lists(result) == {"open": ["10", "20"]}
    assert (
        "empatado na nota com a inscrição 10, que fica à frente por: número de inscrição"
        in entry(result, "20", "open").why
    )
    assert (
        "fica à frente da inscrição 20, empatada na nota, por: número de inscrição"
        in entry(result, "10", "open").why
    )


def test_estatuto_do_idoso_art27_elderly_first_on_a_tie_counted_on_the_last_day_of_registration():
    result = compute(
        [
            reg("1", final_score=Decimal(75), birth_date=datetime.date(1990, 1, 1)),
            reg("2", final_score=Decimal(75), birth_date=datetime.date(1966, 3, 31)),  # 60 on END
        ]
    )
    assert lists(result) == {"open": ["2", "1"]}
    assert "Estatuto do Idoso, art. 27" in entry(result, "1", "open").why


def test_edital_criterion_phase_score_breaks_a_tie_by_the_phase_named_by_its_id():
    phases = [PhaseRow(OBJECTIVE, "Objetiva"), PhaseRow(WRITTEN, "Discursiva")]
    result = compute(
        [reg("1", scores={OBJECTIVE: 70, WRITTEN: 10}), reg("2", scores={OBJECTIVE: 75, WRITTEN: 5})],
        phases,
        criteria=[("phase_score", WRITTEN)],
    )
    assert lists(result) == {"open": ["1", "2"]}
    assert "maior nota na fase Discursiva" in entry(result, "2", "open").why


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "—"), (Decimal("7.5"), "7,50"), (Decimal("0.005"), "0,01"), (Decimal("84"), "84,00")],
)
def test_scores_print_with_two_decimals_rounded_half_up_and_a_decimal_comma(value, text):
    assert format_score(value) == text


# SM art. 4 §1: the K of each list (RULES §3, "Phase cut-off per list") -------------------------------


def ranked_rows(open_count: int, racial_count: int, pcd_count: int = 0) -> list[RegistrationRow]:
    """Distinct objective scores: the non-cotistas first (100, 99, …), then the racial cotistas, then
    the PcD ones, so no cotista passes through the general list."""
    rows, score = [], 100
    for prefix, count, fields in (
        ("A", open_count, {}),
        ("N", racial_count, {"racial": True}),
        ("P", pcd_count, {"pcd": True}),
    ):
        for i in range(1, count + 1):
            rows.append(reg(f"{prefix}{i}", scores={OBJECTIVE: score}, **fields))
            score -= 1
    return rows


def passed(result) -> list[str]:
    return [e.number for e in result.entries if e.list == "open"]


def test_sm_art4_par1_open_k_empty_is_k_minus_reserved():
    # The edital: K 10, of them 3 for negros, the open K left empty: 7 + 3 = 10 go on, not 8 + 3.
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=10, cutoff_racial=3)]
    result = compute(ranked_rows(12, 6), phases)
    assert passed(result) == [*(f"A{i}" for i in range(1, 8)), "N1", "N2", "N3"]
    assert "os 7 melhores da lista geral" in entry(result, "A8", OUT).why
    assert "os 3 melhores da lista reservada a negros" in entry(result, "A8", OUT).why


def test_sm_art4_par1_open_k_empty_counts_the_default_pcd_k_in_force():
    # K 10, racial 3 set, PcD left to the formula: pcd(10) = 1 (5%, up): open 10 − 3 − 1 = 6.
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=10, cutoff_racial=3)]
    result = compute(ranked_rows(12, 6, 3), phases, params=SM_PCD)
    assert passed(result) == [*(f"A{i}" for i in range(1, 7)), "N1", "N2", "N3", "P1"]


def test_sm_art4_par1_every_k_left_empty_splits_k_with_the_reserve_formula():
    # K 10 at 20% half up: racial(10) = 2, pcd(10) = 1, open the rest: 7.
    result = compute(ranked_rows(12, 6, 3), [PhaseRow(OBJECTIVE, "Objetiva", cutoff=10)], params=SM_PCD)
    assert passed(result) == [*(f"A{i}" for i in range(1, 8)), "N1", "N2", "P1"]


def test_sm_art4_par1_the_open_k_set_by_the_edital_stands_as_set():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=10, cutoff_open=8, cutoff_racial=3)]
    assert len(passed(compute(ranked_rows(12, 6), phases))) == 11


def test_sm_art4_par1_without_a_pcd_reserve_a_pcd_k_is_not_taken_from_k():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=10, cutoff_racial=3, cutoff_pcd=2)]
    result = compute(ranked_rows(12, 6, 3), phases)
    assert passed(result) == [*(f"A{i}" for i in range(1, 8)), "N1", "N2", "N3"]


def test_sm_art4_par1_reserved_ks_above_k_are_refused_in_portuguese():
    from candidates.engine.ranking import RankingError, cut_quota

    with pytest.raises(RankingError, match="passam do total da fase"):
        cut_quota(5, racial=SM.racial, quota={"racial": 6})


def test_sm_art4_par1_cut_explanation_names_the_policy_group_and_no_pcd_without_a_pcd_reserve():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", cutoff=5)]
    why = entry(compute(ranked_rows(8, 2), phases), "A8", OUT).why
    assert "lista reservada a negros" in why
    assert "racial" not in why and "deficiência" not in why
    angra = Params(racial=ReserveRule(20, 0, "half_up"), group_label="negros e índios")
    assert (
        "lista reservada a negros e índios" in entry(compute(ranked_rows(8, 2), phases, angra), "A8", OUT).why
    )
    with_pcd = entry(compute(ranked_rows(8, 2), phases, SM_PCD), "A8", OUT).why
    assert "o melhor da lista reservada a pessoas com deficiência" in with_pcd


def test_sm_art1_par2_threshold_applies_to_k_and_the_explanation_says_none_of_the_list():
    # K 2 is below SM's threshold of 3: no racial place, the two best go on.
    result = compute(ranked_rows(3, 2), [PhaseRow(OBJECTIVE, "Objetiva", cutoff=2)])
    assert passed(result) == ["A1", "A2"]
    assert "nenhum candidato da lista reservada a negros," in entry(result, "N1", OUT).why


# RULES §3, "Phases in order": an absence counts at its phase only --------------------------------------


def two_phase_rows(*, later_scores_for_everyone: bool) -> list[RegistrationRow]:
    """Phase 1 lets 2 through (A and B); A is absent at phase 2. C and D were cut at phase 1: they have a
    phase-2 score only when the organiser's file gave everyone one."""
    later = 50 if later_scores_for_everyone else None
    c_d = {OBJECTIVE: 70, WRITTEN: later} if later else {OBJECTIVE: 70}
    return [
        reg("A", scores={OBJECTIVE: 90, WRITTEN: None}),
        reg("B", scores={OBJECTIVE: 80, WRITTEN: 8}),
        reg("C", scores=c_d),
        reg("D", scores={**c_d, OBJECTIVE: 60}),
    ]


TWO_PHASES = [
    PhaseRow(OBJECTIVE, "F1", cutoff=2, cutoff_open=2, cutoff_racial=0),
    PhaseRow(WRITTEN, "F2"),
]


@pytest.mark.parametrize("later_scores_for_everyone", [False, True])
def test_rules_s3_an_absence_at_a_later_phase_never_redoes_an_earlier_cut(later_scores_for_everyone):
    result = compute(two_phase_rows(later_scores_for_everyone=later_scores_for_everyone), TWO_PHASES)
    assert lists(result) == {"open": ["B"], OUT: ["A", "C", "D"]}
    assert entry(result, "A", OUT).why == "Ausente na fase F2 (eliminado, conforme o edital)"
    for number in ("C", "D"):
        assert entry(result, number, OUT).why.startswith("Não classificado na fase F1")


def test_rules_s3_lists_after_phase_k_say_who_goes_on_while_phase_k_plus_1_has_no_scores():
    rows = [
        reg("A", scores={OBJECTIVE: 90}, final_score=Decimal(1)),
        reg("B", scores={OBJECTIVE: 80}, racial=True),
        reg("C", scores={OBJECTIVE: 70}),
    ]
    phases = [PhaseRow(OBJECTIVE, "F1", weight=Decimal(2), cutoff=2, cutoff_open=2, cutoff_racial=0)]
    phases.append(PhaseRow(WRITTEN, "F2", pass_mark=Decimal(5), cutoff=1))
    # The final lists cannot be made yet: nobody has a score at F2.
    assert lists(compute(rows, phases))["out"] == ["A", "B", "C"]
    after = compute(rows, phases, after_phase=OBJECTIVE, minimum_final_score=Decimal(500))
    # Ranked by the weighted sum so far (the organiser's final score and the minimum belong to the end).
    assert lists(after) == {"open": ["A", "B"], "racial": ["B"], OUT: ["C"]}
    assert entry(after, "A", "open").score == Decimal("180.00")
    assert entry(after, "C", OUT).why.startswith("Não classificado na fase F1")


def test_rules_s3_an_absence_flag_without_a_phase_takes_no_place_from_an_earlier_cut():
    rows = [
        reg("A", scores={OBJECTIVE: 90, WRITTEN: 1}, absent=True),
        reg("B", scores={OBJECTIVE: 80, WRITTEN: 8}),
        reg("C", scores={OBJECTIVE: 70, WRITTEN: 9}),
    ]
    result = compute(rows, TWO_PHASES)
    assert lists(result) == {"open": ["B"], OUT: ["A", "C"]}
    assert entry(result, "A", OUT).why == "Ausente (eliminado, conforme o edital)"
    assert entry(result, "C", OUT).why.startswith("Não classificado na fase F1")


# SM art. 4 §2: the minimum for approval ---------------------------------------------------------------


def test_sm_art4_par2_minimum_final_score_below_it_on_no_list_cotista_included():
    phases = [PhaseRow(OBJECTIVE, "Objetiva")]
    rows = [
        reg("1", scores={OBJECTIVE: 70}),
        reg("2", scores={OBJECTIVE: "69.99"}, racial=True),
        reg("3", final_score=Decimal(90), racial=True),
    ]
    result = compute(rows, phases, minimum_final_score=Decimal(70))
    assert lists(result) == {"open": ["3", "1"], "racial": ["3"], OUT: ["2"]}
    assert entry(result, "2", OUT).why == (
        "Nota final 69,99, abaixo do mínimo para aprovação 70,00 (SM art. 4º §2º): fora de todas as listas, "
        "cotistas inclusive"
    )
    assert result.summary["out_reasons"] == {"abaixo do mínimo para aprovação": 1}


def test_sm_art4_par2_minimum_final_score_compares_the_exact_sum_and_says_so():
    phases = [PhaseRow(OBJECTIVE, "Objetiva", Decimal("0.5"))]
    result = compute([reg("1", scores={OBJECTIVE: "139.99"})], phases, minimum_final_score=Decimal(70))
    assert entry(result, "1", OUT).why.startswith("Nota final 69,995, abaixo do mínimo para aprovação 70,00")


@pytest.mark.parametrize(
    ("k", "quota", "expected"),
    [
        (
            10,
            {"racial": 3},
            [
                ("Lista geral (ampla concorrência)", 6, "K menos os das listas reservadas: 10 − 3 − 1 = 6"),
                ("Lista reservada a negros", 3, "fixado pelo edital"),
                (
                    "Lista reservada a pessoas com deficiência",
                    1,
                    "5% de 10 = 0,5 → 1 (a fórmula da reserva de vagas, aplicada a K)",
                ),
            ],
        ),
        (
            2,
            {},
            [
                ("Lista geral (ampla concorrência)", 2, "K menos os das listas reservadas: 2 − 0 − 0 = 2"),
                (
                    "Lista reservada a negros",
                    0,
                    "a reserva só se aplica a partir de 3: K 2 não reserva lugar",
                ),
                (
                    "Lista reservada a pessoas com deficiência",
                    0,
                    "5% de 2 = 0,1 → 1, limitado a 20% de K: 0 (a fórmula da reserva de vagas, aplicada a K)",
                ),
            ],
        ),
    ],
)
def test_sm_art4_par1_the_split_explained_list_by_list_for_the_phases_screen(k, quota, expected):
    from candidates.engine.ranking import cut_quota, describe_cut_quota

    split = cut_quota(k, racial=SM_PCD.racial, pcd=SM_PCD.pcd, quota=quota)
    assert describe_cut_quota(k, split, racial=SM_PCD.racial, pcd=SM_PCD.pcd) == expected
