"""RULES.md §4 items 7 (reinstatement) and 8 (court holds) in the pure engine, and against the naive
oracle (``candidates.engine.reference``) on seeded scenarios full of the new events. Pure: no database."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from candidates.engine.allocation import (
    AllocationError,
    Candidate,
    CourtHold,
    Params,
    Reinstate,
    State,
    apply,
    apply_all,
    initial_state,
    preview_call,
)
from candidates.engine.reference import Naive
from contests.quotas import ReserveRule

from .test_allocation_properties import _agree, _params, play

SM = Params(ReserveRule(20, 3, "half_up"))
SM_OWN = dataclasses.replace(SM, reinstatement="own_seat")
ROSTER = [
    Candidate("A"),
    Candidate("N1", frozenset({"racial"})),
    Candidate("B"),
    Candidate("C"),
    Candidate("D"),
    Candidate("E"),
    Candidate("N2", frozenset({"racial"})),
    Candidate("N3", frozenset({"racial"})),
    Candidate("N4", frozenset({"racial"})),
    Candidate("F"),
]


def run(params: Params, events: list[dict], vacancies: int = 5) -> State:
    state, _ = apply_all(initial_state(ROSTER, params, vacancies=vacancies), events)
    naive = Naive(params, list(ROSTER), vacancies)
    for event in events:
        naive.run(event)
    _agree(state, naive)
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    return state


def rows(state: State) -> list[tuple]:
    return [
        (n.order, n.seat, n.candidate, n.list, n.status, n.reinstated, n.displaced) for n in state.nominations
    ]


ELIMINATED_AND_REFILLED = [{"call": 5}, {"eliminate": "N2"}, {"call": 1}]


def test_rules_par4_item7_next_seat_pays_the_next_seat_and_the_substitute_keeps_theirs():
    state = run(SM, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}, {"open": 1}, {"call": 1}])
    assert rows(state)[2] == (3, 3, "N2", "racial", "annulled", False, False)
    assert rows(state)[5] == (6, 3, "N3", "racial", "active", False, False)
    assert rows(state)[6] == (7, 6, "N2", "open", "active", True, False)
    assert "devida a N2" in state.nominations[6].why
    assert state.owed == ()
    assert state.lists()["racial"] == ["N1", "N2", "N3", "N4"]  # back at the original rank


def test_rules_par4_item7_the_decision_is_named_in_the_explanation():
    state, _ = apply_all(initial_state(ROSTER, SM, vacancies=5), ELIMINATED_AND_REFILLED)
    state, _ = apply(state, Reinstate("N2", ground="por decisão em grau de recurso no PA nº 3/2026"))
    state, _ = apply_all(state, [{"open": 1}, {"call": 1}])
    assert state.nominations[6].why.startswith(
        "6ª vaga: devida a N2, reintegrado(a) por decisão em grau de recurso no PA nº 3/2026, cuja 3ª "
        "nomeação (3ª vaga) fora anulada"
    )


def test_rules_par4_item7_an_owed_candidate_waits_across_calls_and_goes_before_anyone():
    state = run(SM, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}, {"call": 1}])
    assert len(state.nominations) == 6 and state.owed == (("N2", 3, ""),)  # no seat left: still owed
    state = run(SM, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}, {"call": 1}, {"open": 2}, {"call": 2}])
    assert [n.candidate for n in state.nominations[6:]] == ["N2", "D"]


def test_rules_par4_item7_own_seat_restores_the_nomination_and_displaces_the_later_one():
    state = run(SM_OWN, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}])
    assert rows(state)[2] == (3, 3, "N2", "racial", "active", True, False)
    assert rows(state)[5] == (6, 3, "N3", "racial", "annulled", False, True)
    assert state.owed == (("N3", 6, ""),)
    state = run(SM_OWN, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}, {"open": 1}, {"call": 1}])
    assert rows(state)[6] == (7, 6, "N3", "open", "active", True, False)


def test_rules_par4_item7_own_seat_displacement_chain_and_an_earlier_restored_nomination_stays():
    chain = [*ELIMINATED_AND_REFILLED, {"eliminate": "N3"}, {"call": 1}]  # seat 3: N2, then N3, then N4
    state = run(SM_OWN, [*chain, {"reinstate": "N3"}, {"reinstate": "N2"}])
    # N3 took seat 3 back from N4; N2's earlier nomination then took it from N3.
    assert [(r[2], r[4], r[5], r[6]) for r in rows(state)[5:]] == [
        ("N3", "annulled", True, True),
        ("N4", "annulled", False, True),
    ]
    assert rows(state)[2][4:6] == ("active", True)
    assert state.owed == (("N3", 6, ""), ("N4", 7, ""))  # in the order of the nominations lost
    state = run(SM_OWN, [*chain, {"reinstate": "N2"}, {"reinstate": "N3"}])
    # Seat 3 holds N2's earlier nomination, restored: it stays, N3 is owed a seat as under next_seat.
    assert rows(state)[2][4:6] == ("active", True)
    assert rows(state)[5][4:7] == ("annulled", False, False)
    assert state.owed == (("N3", 6, ""), ("N4", 7, ""))
    state = run(SM_OWN, [*chain, {"reinstate": "N2"}, {"reinstate": "N3"}, {"open": 2}, {"call": 2}])
    assert [(n.seat, n.candidate, n.reinstated) for n in state.nominations[7:]] == [
        (6, "N3", True),
        (7, "N4", True),
    ]


def test_rules_par4_item7_reinstating_after_an_exclusion_returns_to_the_reserved_list():
    state = run(SM, [{"call": 5}, {"exclude_from_reserve": "N2"}, {"call": 1}, {"reinstate": "N2"}])
    assert state.lists()["racial"] == ["N1", "N2", "N3", "N4"]
    assert state.owed == (("N2", 3, ""),)
    state = run(SM, [{"call": 5}, {"exclude_from_reserve": "N2"}, {"eliminate": "N2"}, {"reinstate": "N2"}])
    assert "N2" in state.lists()["open"] and "N2" not in state.lists()["racial"]  # the exclusion stands
    state = run(
        SM,
        [
            {"call": 5},
            {"exclude_from_reserve": "N2"},
            {"eliminate": "N2"},
            {"reinstate": "N2"},
            {"reinstate": "N2"},
        ],
    )
    assert "N2" in state.lists()["racial"]


def test_rules_par4_item7_removed_again_or_at_the_end_of_the_lists_owed_nothing_more():
    for event in (
        {"eliminate": "N2"},
        {"withdraw": "N2"},
        {"exclude_from_reserve": "N2"},
        {"end_of_list": "N2"},
    ):
        state = run(SM, [*ELIMINATED_AND_REFILLED, {"reinstate": "N2"}, event])
        assert state.owed == ()


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([{"withdraw": "N2"}, {"reinstate": "N2"}], "desistiu"),
        (
            [{"call": 5}, {"eliminate": "N2"}, {"reinstate": "N2"}, {"withdraw": "N2"}, {"reinstate": "N2"}],
            "desistiu",
        ),
        ([{"reinstate": "N2"}], "nada a reintegrar"),
        ([{"eliminate": "N2"}, {"reinstate": "N2"}, {"reinstate": "N2"}], "nada a reintegrar"),
        ([{"withdraw": "N2"}, {"court_hold": "N2"}], "fora de todas as listas"),
        ([{"eliminate": "N2"}, {"court_hold": "N2"}], "fora de todas as listas"),
        ([{"court_hold": "N2"}, {"court_hold": "N2"}], "já está sob ordem judicial"),
        ([{"court_release": "N2"}], "não está sob ordem judicial"),
        ([{"court_hold": "N2"}, {"eliminate": "N2"}, {"court_release": "N2"}], "não está sob ordem judicial"),
    ],
)
def test_rules_par8_bad_reinstatement_and_court_events_are_refused(events, message):
    state = initial_state(ROSTER, SM, vacancies=5)
    *before, last = events
    state, _ = apply_all(state, before)
    with pytest.raises(AllocationError, match=message):
        apply(state, last)


def test_rules_par4_item8_a_seat_that_reaches_a_held_candidate_is_kept_on_hold_then_released():
    state = run(SM, [{"court_hold": "N2"}, {"call": 5}])
    assert rows(state)[2] == (3, 3, "N2", "racial", "on_hold", False, False)
    state = run(SM, [{"court_hold": "N2"}, {"call": 5}, {"call": 1}])
    assert len(state.nominations) == 5  # the seat is filled: not refilled
    state = run(SM, [{"court_hold": "N2"}, {"call": 5}, {"court_release": "N2"}])
    assert rows(state)[2][4] == "active" and state.court_holds == ()


def test_rules_par4_item8_an_active_nomination_goes_on_hold_and_an_elimination_annuls_it():
    state = run(SM, [{"call": 5}, {"court_hold": "B"}])
    assert rows(state)[3][4] == "on_hold"
    state = run(SM, [{"call": 5}, {"court_hold": "N2"}, {"eliminate": "N2"}, {"call": 1}])
    assert rows(state)[2][4] == "annulled" and rows(state)[5][2] == "N3"
    assert state.court_holds == ()  # elimination ends the hold; a later reinstate does not bring it back
    state = run(
        SM,
        [
            {"call": 5},
            {"court_hold": "N2"},
            {"eliminate": "N2"},
            {"reinstate": "N2"},
            {"open": 1},
            {"call": 2},
        ],
    )
    # The freed 3rd seat comes first in the call: owed to N2, on its list; active, the hold having ended.
    assert rows(state)[5:] == [
        (6, 3, "N2", "racial", "active", True, False),
        (7, 6, "D", "open", "active", False, False),
    ]


def test_rules_par4_item8_own_seat_restores_on_hold_a_candidate_still_under_a_hold():
    events = [
        {"call": 5},
        {"court_hold": "N2"},
        {"exclude_from_reserve": "N2"},
        {"call": 1},
        {"reinstate": "N2"},
    ]
    state = run(SM_OWN, events)
    assert rows(state)[2] == (3, 3, "N2", "racial", "on_hold", True, False)


def test_rules_par4_item8_a_held_candidate_under_court_order_is_a_court_hold_event():
    state, change = apply(initial_state(ROSTER, SM, vacancies=5), CourtHold("N2"))
    assert state.court_holds == ("N2",) and "ordem judicial" in change.messages[0]
    assert preview_call(state, 5).nominated[2].status == "on_hold"


def test_rules_par4_items7_8_agreement_with_the_naive_reading_on_seeded_scenarios():
    """Seeded scenarios heavy in eliminations, exclusions, reinstatements and holds, under both rules:
    the fast engine agrees with the literal reading at every step, and the cases of items 7–8 occur."""
    rng = random.Random(22)
    seen = {"reinstated": 0, "displaced": 0, "on_hold": 0, "owed_waiting": 0}
    for _ in range(300):
        scenario = _removal_heavy_scenario(rng)
        for _, _, state, _, naive in play(scenario, with_naive=True):
            _agree(state, naive)
            seen["reinstated"] += sum(n.reinstated for n in state.nominations)
            seen["displaced"] += sum(n.displaced for n in state.nominations)
            seen["on_hold"] += sum(n.status == "on_hold" for n in state.nominations)
            seen["owed_waiting"] += len(state.owed)
    assert seen["reinstated"] >= 50 and seen["on_hold"] >= 50 and seen["owed_waiting"] >= 20, seen
    assert seen["displaced"] >= 5, seen


def _removal_heavy_scenario(rng: random.Random):
    racial, order, nth = rng.choice(
        [
            (ReserveRule(20, 0, "half_up"), "every_nth", 5),
            (ReserveRule(30, 3, "half_up"), "proportional", 5),
            (ReserveRule(20, 3, "half_up"), "proportional", 5),
        ]
    )
    pcd = rng.choice([None, ReserveRule(5, 1, "up", 20), ReserveRule(20, 1, "up", 20)])
    p = _params(
        racial,
        pcd,
        order,
        nth,
        rng.choice([(), ("pcd", "racial"), ("racial", "pcd")]),
        rng.choice(["projected", "compensation", "actual"]),
        "choose",
        rng.choice(["racial", "pcd"]),
    )
    p = dataclasses.replace(p, reinstatement=rng.choice(["next_seat", "own_seat"]))
    size = rng.randint(5, 14)
    roster = tuple(
        Candidate(f"C{i}", frozenset(lists), rng.choice([None, *lists]) if lists else None)
        for i, lists in enumerate(
            rng.choice([(), (), ("racial",), ("pcd",), ("racial", "pcd")]) for _ in range(size)
        )
    )
    events: list[dict] = [{"call": rng.randint(2, 8)}]
    names = ["eliminate", "exclude_from_reserve", "reinstate", "reinstate", "court_hold", "court_release"]
    names += ["withdraw", "end_of_list"]
    removed: list[str] = []
    for _ in range(rng.randint(3, 14)):
        roll = rng.random()
        if roll < 0.3:
            events.append({"call": rng.randint(1, 4)})
        elif roll < 0.4:
            events.append({"open": rng.randint(1, 3)})
        else:
            name = rng.choice(names)
            # Mostly the best ranked (likely nominated); a reinstatement mostly of someone removed.
            who = f"C{rng.randrange(min(size, 7))}"
            if name == "reinstate" and removed and rng.random() < 0.8:
                who = removed.pop(rng.randrange(len(removed)))
            elif name in ("eliminate", "exclude_from_reserve"):
                removed.append(who)
            events.append({name: who})
    return p, roster, rng.randint(3, 10), events
