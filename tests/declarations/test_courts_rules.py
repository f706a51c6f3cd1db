"""Court orders' statuses and their engine events (declarations/courts/rules.py; RULES §4 items 7–8)."""

from __future__ import annotations

import pytest

from declarations.courts.rules import (
    COURT_HOLD,
    COURT_RELEASE,
    ELIMINATE,
    EXCLUDE,
    REINSTATE,
    Effect,
    Status,
    allowed,
    events_on_apply,
    events_on_status,
    transition_error,
)


def test_tema476_a_vigente_order_may_be_revoked_reformed_confirmed_or_become_final():
    assert allowed(Status.IN_FORCE) == [Status.REVOKED, Status.REFORMED, Status.CONFIRMED, Status.FINAL]
    assert allowed(Status.CONFIRMED) == [Status.REVOKED, Status.REFORMED, Status.FINAL]


@pytest.mark.parametrize("final", [Status.REVOKED, Status.REFORMED, Status.FINAL])
@pytest.mark.parametrize("target", list(Status))
def test_tema476_final_states_are_immutable(final, target):
    assert allowed(final) == []
    assert transition_error(final, target)


def test_tema476_a_confirmed_order_is_not_vigente_again():
    assert "não pode passar a vigente" in transition_error(Status.CONFIRMED, Status.IN_FORCE)
    assert transition_error(Status.CONFIRMED, Status.CONFIRMED) == "A ordem já está confirmada."
    assert transition_error(Status.IN_FORCE, Status.CONFIRMED) == ""


def test_rules_4_7_reinclusion_is_reinstate_and_its_revocation_the_removal_again():
    assert events_on_apply(Effect.REINCLUDE_LISTS, removed_by=ELIMINATE) == [REINSTATE]
    assert events_on_apply(Effect.REINCLUDE_LISTS, removed_by="") == []
    applied = [REINSTATE]
    assert events_on_status(Effect.REINCLUDE_LISTS, Status.REVOKED, applied=applied, removed_by=EXCLUDE) == [
        EXCLUDE
    ]
    assert events_on_status(
        Effect.REINCLUDE_LISTS, Status.REFORMED, applied=applied, removed_by=ELIMINATE
    ) == [ELIMINATE]
    assert events_on_status(Effect.REINCLUDE_LISTS, Status.FINAL, applied=applied, removed_by=ELIMINATE) == []


def test_rules_4_8_keep_a_seat_holds_and_confirmation_releases_once():
    assert events_on_apply(Effect.KEEP_SEAT, removed_by=ELIMINATE) == [REINSTATE, COURT_HOLD]
    assert events_on_apply(Effect.KEEP_SEAT, removed_by="") == [COURT_HOLD]
    applied = [REINSTATE, COURT_HOLD]
    assert events_on_status(Effect.KEEP_SEAT, Status.CONFIRMED, applied=applied, removed_by=ELIMINATE) == [
        COURT_RELEASE
    ]
    released = [*applied, COURT_RELEASE]
    assert events_on_status(Effect.KEEP_SEAT, Status.FINAL, applied=released, removed_by=ELIMINATE) == []


def test_rules_4_8_a_hold_lost_in_court_is_an_elimination_from_the_start():
    assert events_on_status(Effect.KEEP_SEAT, Status.REVOKED, applied=[COURT_HOLD], removed_by="") == [
        ELIMINATE
    ]
    assert events_on_status(
        Effect.KEEP_SEAT,
        Status.REFORMED,
        applied=[REINSTATE, COURT_HOLD, COURT_RELEASE],
        removed_by=ELIMINATE,
    ) == [ELIMINATE]


@pytest.mark.parametrize(
    "effect",
    [
        Effect.REINCLUDE_PHASE,
        Effect.NOMINATE_PRECARIOUSLY,
        Effect.SUSPEND_ACT,
        Effect.ANNUL_COMMISSION,
        Effect.ELIMINATE,
    ],
)
def test_effects_complied_with_by_hand_have_no_engine_event(effect):
    assert events_on_apply(effect, removed_by=ELIMINATE) == []
    assert events_on_status(effect, Status.REVOKED, applied=[], removed_by=ELIMINATE) == []
