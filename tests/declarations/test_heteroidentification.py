"""The commission's rules (declarations/hetero/rules.py; RULES §5, ADC 41)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from declarations.hetero.rules import (
    APPEAL_COMMISSION_SIZE,
    FIRST_COMMISSION_SIZE,
    Basis,
    CommissionError,
    Consequence,
    Kind,
    Member,
    Opinion,
    Outcome,
    basis_for,
    check_composition,
    consequence,
    final_outcome,
    may_edit_opinion,
    quorum,
    reasons_problem,
    verdict,
)

FIVE = (
    Member("1", "Ana", "feminino", "preta"),
    Member("2", "Bruno", "masculino", "parda"),
    Member("3", "Carla", "feminino", "branca"),
    Member("4", "Davi", "masculino", "preta"),
    Member("5", "Eva", "feminino", "parda"),
)
THREE = (
    Member("6", "Fábio", "masculino", "preta"),
    Member("7", "Gil", "feminino", "parda"),
    Member("8", "Hugo", "masculino", "branca"),
)
KEYS = [m.key for m in FIVE]


def opinions(*votes: bool) -> list[Opinion]:
    return [
        Opinion(member=str(i + 1), confirms=vote, reasons="Fenótipo observado na sessão.")
        for i, vote in enumerate(votes)
    ]


def test_rules_s5_default_sizes_five_and_three():
    assert (FIRST_COMMISSION_SIZE, APPEAL_COMMISSION_SIZE) == (5, 3)
    assert check_composition(FIVE, kind=Kind.FIRST, size=5).ok
    assert check_composition(THREE, kind=Kind.APPEAL, size=3, other=FIVE) == check_composition(
        THREE, kind=Kind.APPEAL, size=3
    )


def test_rules_s5_size_follows_the_policy_setting():
    result = check_composition(FIVE[:4], kind=Kind.FIRST, size=5)
    assert result.errors == ("A comissão de heteroidentificação deve ter 5 membros; foram indicados 4.",)
    assert check_composition(FIVE[:3], kind=Kind.FIRST, size=3).ok


def test_rules_s5_appeal_commission_with_a_member_in_common_is_refused():
    result = check_composition((THREE[0], THREE[1], FIVE[2]), kind=Kind.APPEAL, size=3, other=FIVE)
    assert not result.ok
    assert "membro em comum" in result.errors[0] and "Carla" in result.errors[0]


def test_rules_s5_same_member_twice_is_refused():
    assert not check_composition((FIVE[0], FIVE[0], FIVE[1]), kind=Kind.APPEAL, size=3).ok


def test_rules_s5_diversity_in_gender_and_colour_is_a_warning_not_a_refusal():
    same = tuple(Member(str(i), f"M{i}", "Feminino", "Preta ") for i in range(5))
    result = check_composition(same, kind=Kind.FIRST, size=5)
    assert result.ok
    assert len(result.warnings) == 2
    assert "gênero" in result.warnings[0] and "cor" in result.warnings[1]
    assert check_composition(FIVE, kind=Kind.FIRST, size=5).warnings == ()


def test_rules_s5_phenotype_for_pretos_and_pardos_documents_for_indigenas():
    assert basis_for("preta") == basis_for("parda") == basis_for("") == Basis.PHENOTYPE
    assert basis_for("indigena") == basis_for("quilombola") == Basis.COMMUNITY


@pytest.mark.parametrize(
    ("votes", "outcome"),
    [
        ((True, True, True, False, False), Outcome.CONFIRMED),
        ((True, True, False, False, False), Outcome.NOT_CONFIRMED),
        ((False,) * 5, Outcome.NOT_CONFIRMED),
        ((True,) * 5, Outcome.CONFIRMED),
    ],
)
def test_rules_s5_result_is_the_majority_computed(votes, outcome):
    result = verdict(opinions(*votes), members=KEYS, present=KEYS)
    assert result.outcome == outcome
    assert (result.confirming, result.not_confirming) == (sum(votes), 5 - sum(votes))


def test_adc41_tie_keeps_the_presumed_true_declaration():
    present = KEYS[:4]
    result = verdict(opinions(True, True, False, False), members=KEYS, present=present)
    assert result.outcome == Outcome.CONFIRMED
    assert "Empate" in result.explanation and "presumida verdadeira" in result.explanation


@given(st.lists(st.booleans(), min_size=3, max_size=5))
def test_adc41_non_confirmation_needs_a_strict_majority(votes):
    present = [str(i + 1) for i in range(len(votes))]
    result = verdict(opinions(*votes), members=KEYS, present=present)
    assert (result.outcome == Outcome.NOT_CONFIRMED) == (votes.count(False) > votes.count(True))


def test_rules_s5_no_result_without_quorum_every_opinion_and_its_reasons():
    assert quorum(5) == 3 and quorum(3) == 2
    with pytest.raises(CommissionError, match="Sem quórum"):
        verdict(opinions(False, False), members=KEYS, present=KEYS[:2])
    with pytest.raises(CommissionError, match="Faltam os pareceres"):
        verdict(opinions(False, False, True, True), members=KEYS, present=KEYS)
    unreasoned = [*opinions(True, True, True, True), Opinion("5", False, "  ")]
    with pytest.raises(CommissionError, match="fundamentado"):
        verdict(unreasoned, members=KEYS, present=KEYS)
    with pytest.raises(CommissionError, match="um só parecer"):
        verdict(
            [*opinions(True, True, True, True, True), Opinion("5", True, "de novo")],
            members=KEYS,
            present=KEYS,
        )
    with pytest.raises(CommissionError, match="não é membro"):
        verdict([*opinions(True, True, True), Opinion("9", True, "x")], members=KEYS, present=KEYS[:3])


def test_rules_s5_final_result_after_appeal_or_its_deadline():
    assert final_outcome(Outcome.CONFIRMED, None, appeal_deadline_passed=False) == Outcome.CONFIRMED
    assert final_outcome(Outcome.NOT_CONFIRMED, None, appeal_deadline_passed=False) is None
    assert final_outcome(Outcome.NOT_CONFIRMED, None, appeal_deadline_passed=True) == Outcome.NOT_CONFIRMED
    assert (
        final_outcome(Outcome.NOT_CONFIRMED, Outcome.CONFIRMED, appeal_deadline_passed=False)
        == Outcome.CONFIRMED
    )
    assert (
        final_outcome(Outcome.NOT_CONFIRMED, Outcome.NOT_CONFIRMED, appeal_deadline_passed=False)
        == Outcome.NOT_CONFIRMED
    )


@pytest.mark.parametrize("setting", ["open_procedure", "keep_open", "eliminate"])
def test_rules_s5_consequence_of_a_final_non_confirmation_per_policy(setting):
    assert consequence(Outcome.NOT_CONFIRMED, setting) == Consequence(setting)
    assert consequence(Outcome.CONFIRMED, setting) == Consequence.NONE


def test_rules_s5_absence_is_never_silent_it_leaves_the_reserve_only():
    assert consequence(Outcome.ABSENT, "eliminate") == Consequence.KEEP_OPEN


@pytest.mark.parametrize("no_show", ["keep_open", "eliminate"])
def test_rules_s5_absence_has_the_consequence_the_policy_gives_it(no_show):
    assert consequence(Outcome.ABSENT, "open_procedure", no_show) == Consequence(no_show)


@pytest.mark.parametrize("no_show", ["none", "open_procedure", "whatever"])
def test_rules_s5_absence_never_opens_a_procedure_nor_passes_silently(no_show):
    with pytest.raises(CommissionError):
        consequence(Outcome.ABSENT, "open_procedure", no_show)


def test_rules_s5_unknown_consequence_is_refused():
    with pytest.raises(CommissionError):
        consequence(Outcome.NOT_CONFIRMED, "none")
    with pytest.raises(CommissionError):
        consequence(Outcome.NOT_CONFIRMED, "whatever")


def test_rules_s5_member_edits_only_their_own_opinion_until_the_session_closes():
    assert may_edit_opinion(author="1", editor="1", session_closed=False) is None
    assert "próprio parecer" in may_edit_opinion(author="1", editor="2", session_closed=False)
    assert "encerrada" in may_edit_opinion(author="1", editor="1", session_closed=True)


@pytest.mark.parametrize(
    ("typed", "category"),
    [
        ("preto", "preta"),
        ("Pardo", "parda"),
        (" BRANCO ", "branca"),
        ("amarelo", "amarela"),
        ("indigena", "indígena"),
        ("preta", "preta"),
    ],
)
def test_ibge_colour_typed_in_the_masculine_is_the_same_category(typed, category):
    from declarations.hetero.rules import colour_category

    assert colour_category(typed) == category


def test_rules_s5_diversity_counts_pardo_and_parda_as_one_colour():
    from declarations.hetero.rules import Kind, Member, check_composition

    members = [Member(str(i), f"M{i}", ("f", "m")[i % 2], ("pardo", "parda")[i % 2]) for i in range(3)]
    assert any("mesma cor" in w for w in check_composition(members, kind=Kind.APPEAL, size=3).warnings)


def test_rules_s5_an_opinion_s_reasons_say_what_was_observed_not_only_the_conclusion():
    for bare in (
        "",
        "  ",
        "Não confirma.",
        "Fenótipo.",
        "Não atende ao fenótipo",
        "Confirmo a autodeclaração",
    ):
        assert reasons_problem(bare), bare
    assert reasons_problem("Pele parda, cabelo crespo, nariz largo.") is None
    bare = [*opinions(True, True, True, True), Opinion("5", False, "Fenótipo incompatível.")]
    with pytest.raises(CommissionError, match="fundamentado"):
        verdict(bare, members=KEYS, present=KEYS)
