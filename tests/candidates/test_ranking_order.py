"""The general list's order and its lines' why, as the lists of 100,000 compute them (issue 24), against
their definitions (RULES.md §3), checked with Hypothesis. Pure: no database.

- ``rank`` sorts by the score's place among the distinct scores instead of the score: the same order as
  ``rank_key`` (score, the elderly first, the edital's criteria, the inscription number).
- A line of the general list tells the tie-break against each neighbour with the same score; each pair is
  decided once and told on both lines: the same text as deciding it on each line.
- The pass mark compares two Decimals as they are: the same answer as on their exact values.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from candidates.engine.ranking import (
    Applicant,
    JuryService,
    OlderFirst,
    PhaseScore,
    rank,
    rank_key,
    reaches_pass_mark,
    tie_break_reason,
)
from candidates.engine.results import RegistrationRow, compute_position, format_score
from candidates.engine.schedule import Params
from contests.quotas import ReserveRule

END = datetime.date(2026, 4, 8)
SETTINGS = settings(max_examples=150, deadline=None)

# Few distinct scores (ties are the point), written as Decimals of different exponents, Fractions and ints.
SCORES = st.sampled_from(
    [Decimal("7.5"), Decimal("7.50"), Fraction(15, 2), 7, Decimal(7), Fraction(22, 3), Decimal("8.25"), 9]
)
BIRTHS = st.none() | st.sampled_from(
    [
        datetime.date(1950, 5, 1),
        datetime.date(1950, 5, 2),
        datetime.date(1966, 4, 8),
        datetime.date(1990, 1, 1),
    ]
)
CRITERIA = st.lists(
    st.sampled_from([PhaseScore("F1"), PhaseScore("F2"), OlderFirst(), JuryService()]),
    max_size=3,
    unique=True,
)


@st.composite
def applicants(draw):
    count = draw(st.integers(0, 30))
    numbers = draw(st.lists(st.integers(1, 500), min_size=count, max_size=count, unique=True))
    return [
        Applicant(
            id=f"c{i}",
            inscription=number if draw(st.booleans()) else str(number),
            score=draw(SCORES),
            birth_date=draw(BIRTHS),
            phase_scores={"F1": draw(SCORES), **({"F2": draw(SCORES)} if draw(st.booleans()) else {})},
            jury_service=draw(st.booleans()),
        )
        for i, number in enumerate(numbers)
    ]


@SETTINGS
@given(applicants(), CRITERIA)
def test_rules_s3_rank_is_rank_keys_order(people, criteria):
    expected = sorted(people, key=lambda a: rank_key(a, registration_end=END, criteria=criteria))
    assert [a.id for a in rank(people, registration_end=END, criteria=criteria)] == [a.id for a in expected]


def _definition_why(ranked: list[Applicant], i: int) -> str:
    """A general line's why as RULES §3 words it, each neighbour's tie decided on the spot."""
    a = ranked[i]
    why = f"{i + 1}º na ampla concorrência, nota final {format_score(a.score)}"
    if i > 0 and ranked[i - 1].score == a.score:
        before = ranked[i - 1]
        reason = tie_break_reason(before, a, registration_end=END)
        why += f"; empatado na nota com a inscrição {before.inscription}, que fica à frente por: {reason}"
    if i + 1 < len(ranked) and ranked[i + 1].score == a.score:
        after = ranked[i + 1]
        reason = tie_break_reason(a, after, registration_end=END)
        why += f"; fica à frente da inscrição {after.inscription}, empatada na nota, por: {reason}"
    return why


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.sampled_from([Decimal("70"), Decimal("70.00"), Decimal("71.5"), Decimal("69.995")]), BIRTHS
        ),
        max_size=25,
    )
)
def test_rules_s3_general_lines_tell_each_tie_as_decided_on_the_spot(rows):
    regs = [
        RegistrationRow(i + 1, str(1000 + i), final_score=score, name=f"Pessoa {i}", birth_date=birth)
        for i, (score, birth) in enumerate(rows)
    ]
    params = Params(racial=ReserveRule(20, 0, "half_up"), group_label="negros")
    result = compute_position(regs, [], params=params, registration_end=END)
    general = [e for e in result.entries if e.list == "open"]
    ranked = rank(
        [
            Applicant(id=str(r.id), inscription=r.number, score=r.final_score, birth_date=r.birth_date)
            for r in regs
        ],
        registration_end=END,
    )
    assert [e.registration_id for e in general] == [int(a.id) for a in ranked]
    assert [e.why for e in general] == [_definition_why(ranked, i) for i in range(len(ranked))]


@given(
    st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-1000, max_value=1000),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-1000, max_value=1000),
)
def test_sm_art4_par2_pass_mark_on_decimals_is_on_their_exact_values(score, mark):
    assert reaches_pass_mark(score, mark) is (Fraction(score) >= Fraction(mark))


@SETTINGS
@given(
    SCORES,
    BIRTHS,
    st.lists(st.tuples(st.sampled_from(["F2", "F1", "F3"]), SCORES), max_size=3, unique_by=lambda p: p[0]),
    st.booleans(),
    st.sets(st.sampled_from(["racial", "pcd"])),
    st.data(),
)
def test_an_applicant_normalised_is_the_applicant_of_the_same_values(score, birth, phases, jury, lists, data):
    """``Applicant.normalised`` (the lists of 100,000 build their applicants with it) takes values already as
    ``Applicant`` leaves them and gives an equal applicant, field by field."""
    prefers = data.draw(st.none() | st.sampled_from(sorted(lists))) if lists else None
    made = Applicant(
        id="7",
        inscription="0107",
        score=score,
        birth_date=birth,
        phase_scores=tuple(phases),
        jury_service=jury,
        lists=frozenset(lists),
        prefers=prefers,
    )
    same = Applicant.normalised("7", "0107", made.score, birth, made.phase_scores, jury, made.lists, prefers)
    assert same == made
    assert vars(same) == vars(made)
    assert hash(same) == hash(made)
