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
    why = entry(result, "3", OUT).why
    assert why.startswith("Não classificado na fase Objetiva (nota 70,00): Classificados na fase: 2 na ampla")
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
