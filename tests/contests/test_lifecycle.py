"""The contest's lifecycle (``contests/lifecycle.py``), move by move. No database.

Every pair of statuses (7 × 7) is pinned below, each by the rule that decides it; the last tests check that
no pair is left out and that the facts (the edital's publication, the homologation) outrank the status.
"""

from __future__ import annotations

import datetime
import itertools

import pytest

from contests import lifecycle
from contests.lifecycle import (
    CLOSING_NEEDS_HOMOLOGATION,
    HOMOLOGATION_HAS_ITS_FORM,
    HOMOLOGATION_IS_FINAL,
    HOMOLOGATION_NEEDS_EDITAL,
    NO_RETURN_TO_DRAFT,
    Facts,
    Status,
    allowed,
    edital_vacancies_frozen,
    records_publication,
    refusal,
    stage,
)

# G for "in proGress" (ruff refuses a lone I).
D, P, R, G, H, C, X = (
    Status.DRAFT,
    Status.PUBLISHED,
    Status.REGISTRATION,
    Status.IN_PROGRESS,
    Status.HOMOLOGATED,
    Status.CLOSED,
    Status.CANCELLED,
)
PUBLISHED_ON = datetime.date(2026, 3, 2)
HOMOLOGATED_ON = datetime.date(2026, 7, 1)
# The facts a contest in each status has when its status was never forced (a cancelled contest: after its
# edital came out; the cancelled draft has its own test).
FACTS = {
    D: Facts(),
    P: Facts(edital_published_on=PUBLISHED_ON),
    R: Facts(edital_published_on=PUBLISHED_ON),
    G: Facts(edital_published_on=PUBLISHED_ON),
    H: Facts(edital_published_on=PUBLISHED_ON, homologated_on=HOMOLOGATED_ON),
    C: Facts(edital_published_on=PUBLISHED_ON, homologated_on=HOMOLOGATED_ON),
    X: Facts(edital_published_on=PUBLISHED_ON),
}


def move(current: Status, target: Status) -> str | None:
    """The answer for a move; the homologation service passes the date it records."""
    date = HOMOLOGATED_ON if target == H else None
    return refusal(current, target, FACTS[current], homologation_date=date)


LAWFUL = [(D, P), (D, R), (D, G), (D, X), (P, R), (P, G), (P, H), (P, X), (R, G), (R, H), (R, X)]
LAWFUL += [(G, H), (G, X), (H, C), (H, X)]
BACK_TO_DRAFT = [(P, D), (R, D), (G, D)]
UNDO_HOMOLOGATION = [(H, D), (H, P), (H, R), (H, G)]
HOMOLOGATING_A_DRAFT = [(D, H)]
CLOSING_BEFORE_HOMOLOGATION = [(D, C), (P, C), (R, C), (G, C)]
BACKWARDS = [(R, P), (G, P), (G, R)]
FROM_FINAL = [(C, t) for t in Status if t != C] + [(X, t) for t in Status if t != X]
SAME = [(s, s) for s in Status]


@pytest.mark.parametrize(("current", "target"), LAWFUL)
def test_lifecycle_lawful_moves_go_forward_or_cancel(current, target):
    assert move(current, target) is None


@pytest.mark.parametrize(("current", "target"), BACK_TO_DRAFT)
def test_vinculacao_ao_edital_a_published_contest_never_returns_to_draft(current, target):
    assert move(current, target) == NO_RETURN_TO_DRAFT
    assert NO_RETURN_TO_DRAFT.startswith("Um concurso com edital publicado não volta a rascunho:")


@pytest.mark.parametrize(("current", "target"), UNDO_HOMOLOGATION)
def test_cf_art37_iii_homologation_is_never_undone(current, target):
    assert move(current, target) == HOMOLOGATION_IS_FINAL
    assert "A homologação não se desfaz" in HOMOLOGATION_IS_FINAL


@pytest.mark.parametrize(("current", "target"), HOMOLOGATING_A_DRAFT)
def test_cf_art37_iii_homologation_needs_the_edital_published(current, target):
    assert move(current, target) == HOMOLOGATION_NEEDS_EDITAL


@pytest.mark.parametrize("current", [P, R, G])
def test_cf_art37_iii_homologation_needs_its_date_and_act(current):
    """The status form cannot homologate: only the homologation service, which records the date."""
    assert refusal(current, H, FACTS[current]) == HOMOLOGATION_HAS_ITS_FORM


@pytest.mark.parametrize(("current", "target"), CLOSING_BEFORE_HOMOLOGATION)
def test_cf_art37_iii_only_a_homologated_contest_is_closed(current, target):
    assert move(current, target) == CLOSING_NEEDS_HOMOLOGATION


@pytest.mark.parametrize(("current", "target"), BACKWARDS)
def test_lifecycle_status_only_moves_forward(current, target):
    assert move(current, target).startswith("A situação de um concurso só avança: de “")


def test_lifecycle_forward_only_message_names_the_way_on():
    assert move(G, R) == (
        "A situação de um concurso só avança: de “Em andamento” ele segue para “Homologado”, “Cancelado”."
    )


@pytest.mark.parametrize(("current", "target"), FROM_FINAL)
def test_lifecycle_closed_and_cancelled_are_final(current, target):
    word = {C: "encerrado", X: "cancelado"}[current]
    assert move(current, target) == f"Um concurso {word} não muda mais de situação."


def test_lifecycle_a_cancelled_draft_is_final_too():
    assert refusal(X, D, Facts()) == "Um concurso cancelado não muda mais de situação."
    assert refusal(X, P, Facts()) == "Um concurso cancelado não muda mais de situação."


@pytest.mark.parametrize(("current", "target"), SAME)
def test_lifecycle_same_status_is_no_move(current, target):
    assert move(current, target) == f"O concurso já está na situação “{lifecycle.LABELS[current]}”."


def test_lifecycle_every_pair_of_statuses_is_pinned_once():
    groups = [
        LAWFUL,
        BACK_TO_DRAFT,
        UNDO_HOMOLOGATION,
        HOMOLOGATING_A_DRAFT,
        CLOSING_BEFORE_HOMOLOGATION,
        BACKWARDS,
        FROM_FINAL,
        SAME,
    ]
    pinned = [pair for group in groups for pair in group]
    assert len(pinned) == len(set(pinned)) == 49
    assert set(pinned) == set(itertools.product(Status, Status))


def test_lifecycle_table_agrees_with_the_lawful_moves():
    """The table the form offers from is exactly the set of lawful moves pinned above."""
    table = {(s, t) for s, targets in lifecycle.TRANSITIONS.items() for t in targets}
    assert table == set(LAWFUL)


# What the status form offers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "offered"),
    [
        (D, (P, R, G, X)),
        (P, (R, G, X)),
        (R, (G, X)),
        (G, (X,)),
        (H, (C, X)),
        (C, ()),
        (X, ()),
    ],
)
def test_lifecycle_allowed_moves_leave_homologation_to_its_form(current, offered):
    assert allowed(current, FACTS[current]) == offered


# The facts outrank the status ----------------------------------------------------------


def test_vinculacao_ao_edital_status_forced_back_to_draft_still_counts_as_published():
    facts = Facts(edital_published_on=PUBLISHED_ON)
    assert stage(D, facts) == P
    # Bringing the status back in line is allowed; nothing offers the draft's own moves again.
    assert allowed(D, facts) == (P, R, G, X)
    assert refusal(D, D, facts) == "O concurso já está na situação “Em elaboração”."
    assert refusal(D, H, facts, homologation_date=HOMOLOGATED_ON) is None
    assert not edital_vacancies_frozen(D, facts)


def test_cf_art37_iii_status_forced_back_after_homologation_still_counts_as_homologated():
    facts = Facts(edital_published_on=PUBLISHED_ON, homologated_on=HOMOLOGATED_ON)
    assert stage(D, facts) == stage(G, facts) == H
    assert refusal(D, P, facts) == HOMOLOGATION_IS_FINAL
    assert refusal(G, R, facts) == HOMOLOGATION_IS_FINAL
    assert allowed(D, facts) == (H, C, X)
    assert edital_vacancies_frozen(D, facts)


def test_lifecycle_facts_are_read_from_the_dates():
    assert not Facts().edital_published and not Facts().homologated
    assert Facts(edital_published_on=PUBLISHED_ON).edital_published
    assert Facts(homologated_on=HOMOLOGATED_ON).homologated


# The moves that record a permanent fact ----------------------------------------------------------------------


@pytest.mark.parametrize(("target", "records"), [(P, True), (R, True), (G, True), (X, False)])
def test_vinculacao_ao_edital_leaving_draft_records_the_publication(target, records):
    assert records_publication(target, Facts()) is records


def test_vinculacao_ao_edital_publication_is_recorded_once():
    assert not records_publication(R, Facts(edital_published_on=PUBLISHED_ON))


@pytest.mark.parametrize(
    ("current", "frozen"), [(D, False), (P, False), (R, True), (G, True), (H, True), (C, True), (X, True)]
)
def test_sm_art1_par1_edital_vacancies_fixed_once_registrations_open(current, frozen):
    assert edital_vacancies_frozen(current, FACTS[current]) is frozen
