"""Invariants of the allocation engine (RULES.md §4), checked with Hypothesis. Pure: no database.

The strongest one: on any small scenario the fast engine (Fenwick trees, an undo journal, a call
resumed from the seat a simultaneous call sends it back to) agrees with ``candidates.engine.reference``,
the slow literal reading of §4 that scans plain lists and refills a whole call. The scenarios include
candidates on both reserves, the collisions of §4 (Angra dos Reis' every 5th with PcD 5%; 30% + 5%
proportional with threshold 3) and the three open-competition rules.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from candidates.engine import foresight, seating
from candidates.engine import schedule as schedule_module
from candidates.engine.allocation import (
    AllocationError,
    Candidate,
    Params,
    State,
    Withdraw,
    apply,
    event_from_dict,
    initial_state,
    preview_call,
    replay,
)
from candidates.engine.fenwick import Fenwick, FirstFree, MostlyOnes
from candidates.engine.reference import Naive
from candidates.engine.schedule import reserved_seats, schedule, seat_rule, seat_targets, target
from contests.quotas import ReserveRule

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RACIAL_RULES = st.builds(
    ReserveRule,
    percent=st.sampled_from([10, 20, 30, 50]),
    threshold=st.sampled_from([0, 2, 3]),
    rounding=st.sampled_from(["half_up", "up", "down"]),
)
PCD_RULES = st.sampled_from(
    [None, ReserveRule(5, 1, "up", 20), ReserveRule(20, 1, "up", 20), ReserveRule(25, 0, "half_up")]
)


PCD_5 = ReserveRule(5, 1, "up", 20)
# The collisions RULES §4 names: (racial rule, order, k).
COLLIDING = st.sampled_from(
    [(ReserveRule(20, 0, "half_up"), "every_nth", 5), (ReserveRule(30, 3, "half_up"), "proportional", 5)]
)


def _params(racial, pcd, order, nth, priority, rule, dual_rule, dual_default) -> Params:
    if pcd is not None and racial.percent + (pcd.cap_percent or pcd.percent) > 100:
        pcd = None
    return Params(
        racial,
        pcd,
        order=order,
        nth=nth,
        priority=priority,
        open_competition_rule=rule,
        dual_rule=dual_rule,
        dual_default=dual_default,
    )


def _colliding(base, priority, rule, dual_rule, dual_default) -> Params:
    racial, order, nth = base
    return _params(racial, PCD_5, order, nth, priority, rule, dual_rule, dual_default)


OPEN_COMPETITION_RULES = st.sampled_from(["projected", "compensation", "actual"])
PRIORITIES = st.sampled_from([(), ("pcd", "racial"), ("racial", "pcd")])  # () = the order's default
DUAL_RULES = st.sampled_from(["choose", "choose", "choose", "larger_only"])
DUAL_DEFAULTS = st.sampled_from(["racial", "pcd"])
# Strategies are built once, here: building them inside a draw costs more than the engine itself.
PARAMS = st.one_of(
    st.builds(
        _params,
        RACIAL_RULES,
        PCD_RULES,
        st.sampled_from(["proportional", "every_nth"]),
        st.integers(2, 5),
        PRIORITIES,
        OPEN_COMPETITION_RULES,
        DUAL_RULES,
        DUAL_DEFAULTS,
    ),
    st.builds(_colliding, COLLIDING, PRIORITIES, OPEN_COMPETITION_RULES, DUAL_RULES, DUAL_DEFAULTS),
)
# RULES §4 item 7: how an owed seat is paid.
PARAMS = st.tuples(PARAMS, st.sampled_from(["next_seat", "own_seat"])).map(
    lambda pair: dataclasses.replace(pair[0], reinstatement=pair[1])
)
LISTS = st.sampled_from([(), ("racial",), ("pcd",), ("racial", "pcd"), ("racial", "pcd")])
CANDIDATE_SPECS = st.lists(st.tuples(LISTS, st.integers(0, 2)), max_size=14)
CANDIDATE_EVENTS = [
    "withdraw",
    "no_show",
    "eliminate",
    "exclude_from_reserve",
    "end_of_list",
    "took_office",
    # RULES §4 items 7 and 8 (twice each: reinstating needs an elimination or exclusion before it).
    "reinstate",
    "reinstate",
    "court_hold",
    "court_release",
]
EVENT_SPECS = st.lists(
    st.one_of(
        st.tuples(st.just("call"), st.integers(0, 5)),
        st.tuples(st.just("open"), st.integers(0, 4)),
        st.tuples(st.sampled_from(CANDIDATE_EVENTS), st.integers(0, 13)),
    ),
    max_size=14,
)


def _scenario(p: Params, specs, vacancies: int, event_specs):
    roster = []
    for i, (lists, choice) in enumerate(specs):
        prefers = (None, *lists)[choice] if choice <= len(lists) else None
        roster.append(Candidate(f"C{i}", frozenset(lists), prefers))
    events = [
        {name: value if name in ("call", "open") else f"C{value % max(len(roster), 1)}"}
        for name, value in event_specs
    ]
    return p, tuple(roster), vacancies, events


SCENARIOS = st.builds(_scenario, PARAMS, CANDIDATE_SPECS, st.integers(0, 10), EVENT_SPECS)


def scenarios():
    return SCENARIOS


def play(scenario, *, with_naive: bool = False):
    """Apply the events that apply (an AllocationError leaves the state as it was); yield each step."""
    p, roster, vacancies, events = scenario
    state = initial_state(roster, p, vacancies=vacancies)
    naive = Naive(p, list(roster), vacancies) if with_naive else None
    for data in events:
        try:
            new, change = apply(state, data)
        except AllocationError:
            continue
        if naive is not None:
            naive.run(data)
        yield state, event_from_dict(data), new, change, naive
        state = new


def _agree(state: State, naive: Naive) -> None:
    fast = [
        (n.order, n.seat, n.kind, n.candidate, n.list, n.status, n.reverted, n.compensated)
        for n in state.nominations
    ]
    assert fast == [n.key() for n in naive.noms]
    assert [(n.reinstated, n.displaced) for n in state.nominations] == [n.flags() for n in naive.noms]
    assert list(state.seats) == naive.kinds
    assert state.lists() == naive.lists()
    assert state.schedule() == naive.schedule_now()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_rules_par4_the_fast_engine_agrees_with_a_literal_reading(scenario):
    for _, _, state, _, naive in play(scenario, with_naive=True):
        _agree(state, naive)


def test_rules_par4_item3_agreement_on_seeded_scenarios_that_hold_dual_candidates_and_collide():
    """A fixed sample the generator must keep covering: simultaneous calls resolved by a hold, lapsed or
    not, and seats two reserves wanted (the agreement itself is checked on every step)."""
    rng = random.Random(2026)
    holds = collisions = 0
    for _ in range(250):
        example = _random_scenario(rng)
        for _, _, state, change, naive in play(example, with_naive=True):
            _agree(state, naive)
            holds += sum("mesma chamada" in n.why for n in change.nominated)
            collisions += sum("também tinha direito" in n.why for n in change.nominated)
    assert holds >= 10 and collisions >= 10, (holds, collisions)


def _random_scenario(rng: random.Random):
    racial, order, nth = rng.choice(
        [
            (ReserveRule(20, 0, "half_up"), "every_nth", 5),
            (ReserveRule(30, 3, "half_up"), "proportional", 5),
            (ReserveRule(20, 3, "half_up"), "proportional", 5),
        ]
    )
    pcd = rng.choice([PCD_5, PCD_5, ReserveRule(20, 1, "up", 20)])
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
    specs = [
        (rng.choice([(), (), ("racial",), ("pcd",), ("racial", "pcd"), ("racial", "pcd")]), rng.randint(0, 2))
        for _ in range(rng.randint(4, 14))
    ]
    events = [("call", rng.randint(3, 10))]
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.4:
            events.append(("call", rng.randint(1, 6)))
        elif roll < 0.6:
            events.append(("open", rng.randint(1, 5)))
        else:
            events.append((rng.choice(CANDIDATE_EVENTS), rng.randint(0, 13)))
    return _scenario(p, specs, rng.randint(4, 12), events)


@settings(max_examples=300, deadline=None)
@given(PARAMS, st.integers(0, 60))
def test_rules_par4_reserves_always_delivered_by_the_schedule_for_n(p, n):
    kinds = schedule(p, n)
    for kind in p.reserves:
        assert kinds.count(kind) == p.count(kind, n)


@SETTINGS
@given(scenarios())
def test_every_seat_filled_at_most_once_at_a_time_and_no_one_holds_two_seats(scenario):
    for _, _, state, _, _ in play(scenario):
        holding = [n for n in state.nominations if n.holds_seat]
        assert len({n.seat for n in holding}) == len(holding)
        assert len({n.candidate for n in holding}) == len(holding)
        assert all(1 <= n.seat <= len(state.seats) <= state.vacancies for n in holding)
        assert all(n.kind == state.seats[n.seat - 1] for n in holding)


@SETTINGS
@given(scenarios())
def test_a_reserve_is_never_served_beyond_its_count(scenario):
    for _, _, state, _, _ in play(scenario):
        p = state.params
        for kind in p.reserves:
            owed = p.count(kind, state.vacancies)
            assert state.seats.count(kind) <= owed
            assert sum(1 for n in state.nominations if n.holds_seat and n.list == kind) <= owed


@SETTINGS
@given(scenarios())
def test_sm_art4_par4_a_withdrawal_never_changes_other_seats(scenario):
    for old, event, new, change, _ in play(scenario):
        if isinstance(event, Withdraw):
            assert new.seats == old.seats
            changed = [
                i for i, (a, b) in enumerate(zip(old.nominations, new.nominations, strict=True)) if a != b
            ]
            assert [new.nominations[i].candidate for i in changed] == [event.candidate] * len(changed)
            assert all(new.nominations[i].status == "withdrawn" for i in changed)
        if change.nominated:
            # A call adds nominations; earlier ones change only by compensation (RULES §4).
            before = len(old.nominations)
            for a, b in zip(old.nominations, new.nominations[:before], strict=True):
                assert a == b or (b.compensated and not a.compensated and b.status == a.status)


@SETTINGS
@given(scenarios(), st.data())
def test_replay_equals_incremental_and_survives_json(scenario, data):
    p, roster, vacancies, _ = scenario
    applied = []
    state = initial_state(roster, p, vacancies=vacancies)
    for _, event, new, _, _ in play(scenario):
        applied.append(event)
        if data.draw(st.booleans()):
            restored = State.from_dict(json.loads(json.dumps(new.to_dict())))
            assert restored == new
        state = new
    assert replay(initial_state(roster, p, vacancies=vacancies), applied) == state


@SETTINGS
@given(scenarios())
def test_a_preview_announces_exactly_what_the_call_does(scenario):
    for old, event, _, change, _ in play(scenario):
        if hasattr(event, "count") and type(event).__name__ == "Call":
            preview = preview_call(old, event.count)
            assert preview.nominated == change.nominated
            assert preview.changed == change.changed


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 1500))
def test_published_series_hold_for_any_n(n):
    sm = Params(ReserveRule(20, 3, "half_up"), ReserveRule(5, 1, "up", 20))
    kinds = schedule(sm, n)
    assert [s for s, k in enumerate(kinds, 1) if k == "racial"] == list(range(3, n + 1, 5))
    assert [s for s, k in enumerate(kinds, 1) if k == "pcd"] == [
        s for s in (5, *range(21, n + 1, 20)) if s <= n
    ]
    ar = Params(ReserveRule(20, 0, "half_up"), order="every_nth", nth=5)
    fifths = list(range(5, n + 1, 5))
    owed = ar.racial_count(n)
    assert reserved_seats(ar, "racial", n) == fifths + ([n] if owed > len(fifths) else [])


def _larger_dual_scenario(rng: random.Random):
    """Calls of tens of seats over a hundred candidates, a fifth of them on both reserves: the calls
    where a fill learns of its conflict long before it ends."""
    racial, order, nth = rng.choice(
        [(ReserveRule(20, 3, "half_up"), "proportional", 5), (ReserveRule(20, 0, "half_up"), "every_nth", 5)]
    )
    pcd = rng.choice([PCD_5, ReserveRule(20, 1, "up", 20)])
    p = _params(
        racial,
        pcd,
        order,
        nth,
        (),
        rng.choice(["projected", "compensation", "actual"]),
        "choose",
        rng.choice(["racial", "pcd"]),
    )
    lists = [(), (), (), ("racial",), ("racial",), ("pcd",), ("racial", "pcd")]
    specs = [(rng.choice(lists), rng.randint(0, 2)) for _ in range(rng.randint(60, 120))]
    events = []
    for _ in range(rng.randint(2, 5)):
        events.append(("call", rng.randint(10, 40)))
        events += [("withdraw", rng.randint(0, 59)) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.3:
            events.append(("open", rng.randint(5, 20)))
    return _scenario(p, specs, rng.randint(30, 80), events)


def test_rules_par4_item3_a_conflict_known_before_the_fill_ends_stops_it_with_the_same_result(monkeypatch):
    """The fill stops as soon as the conflict it would end with is settled (``foresight.Foresight``):
    the same nominations as the reference, which fills every call to its end, and fewer seats filled
    than without the foresight."""

    filled = [0]
    nominate = seating.Seating._nominate

    def counting(self, *args):
        filled[0] += 1
        return nominate(self, *args)

    monkeypatch.setattr(seating.Seating, "_nominate", counting)
    totals = {}
    for foresee in (True, False):
        monkeypatch.setattr(seating, "_FORESEE", foresee)
        filled[0] = 0
        rng = random.Random(24)
        finals = []
        for _ in range(25):
            example = _larger_dual_scenario(rng)
            state = None
            for _, _, state, _, naive in play(example, with_naive=foresee):
                if naive is not None:
                    _agree(state, naive)
            finals.append(state.nominations if state is not None else ())
        totals[foresee] = (filled[0], finals)
    assert totals[True][1] == totals[False][1]
    assert totals[True][0] < totals[False][0], (totals[True][0], totals[False][0])


def _compensation_scenario(rng: random.Random):
    """The bench's shape at a small scale, under ``compensation``: thousands of candidates (one in twenty
    on both reserves), calls of a hundred or two, withdrawals and openings between them. Compensations
    happen all along, and a dual candidate called by one reserve is reached by the other one hundreds
    of seats later: the conflicts ``Foresight._forced`` foresees."""
    racial, order, nth = rng.choice(
        [
            (ReserveRule(20, 3, "half_up"), "proportional", 5),
            (ReserveRule(30, 3, "half_up"), "proportional", 5),
            (ReserveRule(20, 0, "half_up"), "every_nth", 5),
        ]
    )
    pcd = rng.choice([PCD_5, ReserveRule(10, 1, "up", 20)])
    p = _params(racial, pcd, order, nth, (), "compensation", "choose", rng.choice(["racial", "pcd"]))
    lists = [()] * 14 + [("racial",)] * 4 + [("pcd",), ("racial", "pcd")]
    size = rng.randint(1500, 2500)
    specs = [(rng.choice(lists), rng.randint(0, 2)) for _ in range(size)]
    events = []
    for _ in range(rng.randint(2, 4)):
        events.append(("call", rng.randint(80, 200)))
        events += [("withdraw", rng.randint(0, size - 1)) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.5:
            events.append(("open", rng.randint(80, 200)))
    return _scenario(p, specs, rng.randint(200, 500), events)


def test_rules_par4_item3_a_conflict_forecast_under_compensation_changes_nothing_but_the_seats_filled(
    monkeypatch,
):
    """Under ``compensation`` a fill stops as soon as counts prove the conflict it would end with
    (``foresight.Foresight._forced``: more seats of the preferred kind to come than candidates above
    the nominee, the open list unable to reach them, no hold able to lapse). The same nominations,
    word for word, as with the forecast off (which the tests above check against the reference), and
    fewer seats filled."""

    filled = [0]
    nominate = seating.Seating._nominate

    def counting(self, *args):
        filled[0] += 1
        return nominate(self, *args)

    forced = foresight.Foresight._forced
    foreseen = [0]

    def counting_forecasts(self, *args):
        found = forced(self, *args)
        foreseen[0] += found
        return found

    monkeypatch.setattr(seating.Seating, "_nominate", counting)
    monkeypatch.setattr(foresight.Foresight, "_forced", counting_forecasts)
    totals = {}
    for forecast in (True, False):
        monkeypatch.setattr(foresight, "_FORECAST", forecast)
        filled[0] = 0
        rng = random.Random(2026)
        finals = []
        for _ in range(8):
            steps = list(play(_compensation_scenario(rng)))
            state = steps[-1][2]
            finals.append((state.nominations, state.seats, state.lists()))
        totals[forecast] = (filled[0], finals)
    assert totals[True][1] == totals[False][1]
    assert foreseen[0] > 0
    assert totals[True][0] < totals[False][0], (totals[True][0], totals[False][0])


def test_rules_par4_a_collisions_loser_seat_read_from_the_seats_created_is_the_projected_schedules(
    monkeypatch,
):
    """Under ``compensation`` a collision's reason says where the losing reserve goes in the schedule as
    the call leaves it; ``Seating.loser_seat`` reads it from the seats created when one of that kind
    follows (``_KEPT_FIRST``). The same nominations, reasons included, as projecting every time."""

    answered = [0]
    kinds_for_why = seating.Seating.kinds_for_why

    def counting(self):
        answered[0] += 1
        return kinds_for_why(self)

    monkeypatch.setattr(seating.Seating, "kinds_for_why", counting)
    finals, asked = {}, {}
    for kept_first in (True, False):
        monkeypatch.setattr(seating, "_KEPT_FIRST", kept_first)
        answered[0] = 0
        rng = random.Random(24)
        finals[kept_first] = [list(play(_compensation_scenario(rng)))[-1][2].nominations for _ in range(8)]
        asked[kept_first] = answered[0]
    assert finals[True] == finals[False]
    moved = [n.reason.moved_to for noms in finals[True] for n in noms if n.reason and n.reason.moved_to]
    assert len(moved) > 10, moved
    assert asked[True] < asked[False]


def _change(fast: Fenwick, plain: Fenwick, values: list[int], i: int, delta: int) -> None:
    """The same change to the fast tree, the plain one and the values they count."""
    values[i] += delta
    fast.add(i, delta)
    plain.add(i, delta)


def _append(fast: Fenwick, plain: Fenwick, values: list[int], value: int) -> None:
    values.append(value)
    fast.append(value)
    plain.append(value)


def _assert_every_prefix(fast: Fenwick, values: list[int]) -> None:
    assert [fast.prefix(i) for i in range(len(values) + 1)] == [
        sum(values[:i]) for i in range(len(values) + 1)
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 40),
    st.lists(st.tuples(st.sampled_from("aqfpe"), st.integers(0, 60)), max_size=120),
    st.sampled_from([0, 1, 3, 4096]),
)
def test_first_free_answers_as_the_plain_tree_whatever_the_order_of_changes_and_questions(size, ops, near):
    """``fenwick.FirstFree`` (the lists' "not yet nominated" counts: the first positive value walked to
    from a bound, the tree's updates deferred and summed per entry, a prefix near that bound summed from
    the values, ``near`` of them at most) answers every question as a plain ``Fenwick`` given the same
    changes, and as the values themselves."""

    fast, plain = FirstFree.ones(size), Fenwick.ones(size)
    fast.near = near
    values = [1] * size
    for op, x in ops:
        if op == "a" and values:  # a nomination, or its rollback: 0/1 values, as the engine keeps them
            i = x % len(values)
            _change(fast, plain, values, i, -1 if values[i] else 1)
        elif op == "e":
            _append(fast, plain, values, x % 2)
        elif op == "q":
            assert fast.prefix(x % (len(values) + 1)) == plain.prefix(x % (len(values) + 1))
        elif op == "p":
            assert fast.find(x % 5 + 1) == plain.find(x % 5 + 1)
            assert fast.first_from(x % (len(values) + 1)) == plain.first_from(x % (len(values) + 1))
        expected = next((i for i, v in enumerate(values) if v > 0), len(values))
        assert fast.first() == plain.find(1) == expected
        assert fast.total == plain.total == sum(values)
    _assert_every_prefix(fast, values)


@settings(max_examples=200, deadline=None)
@given(PARAMS, st.lists(st.tuples(st.integers(1, 80), st.integers(0, 80)), min_size=1, max_size=60))
def test_rules_par4_a_seats_targets_kept_by_the_policy_are_those_computed_afresh(p, asks):
    """``schedule.seat_targets`` keeps a seat's targets for the last ``n`` asked about (the engine asks
    the same seats again after each rollback): in any order of seats and ``n``, the answer is the
    RULES §4 target computed afresh (``target`` keeps nothing)."""

    for s, n in asks:
        expected = (target(p, "racial", s, n), p.share("pcd", s, n) if p.pcd is not None else 0)
        assert seat_targets(p, s, n) == expected


@settings(max_examples=100, deadline=None)
@given(PARAMS, st.integers(0, 60), st.booleans())
def test_rules_par4_a_seats_targets_memo_fills_aligned_blocks_walked_up_or_down(p, n, down):
    """A miss of ``seat_targets`` fills the block of seats holding it, aligned (here of 8 seats): a walk
    down the seats (``Foresight._most_open``) misses once a block, as a walk up does, and every answer
    is the RULES §4 target computed afresh."""

    misses = []
    fill = schedule_module._fill_targets

    def counting(p, memo, s, n):
        misses.append(s)
        fill(p, memo, s, n)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schedule_module, "_TARGETS_BLOCK", 8)
        patch.setattr(schedule_module, "_fill_targets", counting)
        p._targets.clear()
        seats = range(n + 2, 0, -1) if down else range(1, n + 3)
        for s in seats:
            expected = (target(p, "racial", s, n), p.share("pcd", s, n) if p.pcd is not None else 0)
            assert seat_targets(p, s, n) == expected
    assert len(misses) <= (n + 7) // 8 + 2, misses  # a miss a block, and one for each seat beyond n


def _literal_seat_rule(p: Params, kept: list[str], n: int) -> tuple[list[str], dict[int, tuple[str, ...]]]:
    """RULES §4's greedy rule and make-up, transcribed with ``ReserveRule.count`` (the reference of §2)
    and nothing the engine keeps: targets computed afresh, the threshold's basis asked of the policy."""
    basis = n + p.threshold_extra if p.threshold_extra else None

    def count(kind: str, m: int, threshold_on: int | None) -> int:
        rule = p.racial if kind == "racial" else p.pcd
        return 0 if rule is None else rule.count(m, threshold_count=threshold_on)

    def target_of(kind: str, s: int) -> int:
        if kind == "racial" and p.order == "every_nth":
            owed = count("racial", n, basis)
            return min(owed, max(s // p.nth, owed - (n - s)))
        return count(kind, s, (basis or n) if kind == "racial" else n)

    kinds = list(kept)
    collisions: dict[int, tuple[str, ...]] = {}
    for s in range(len(kept) + 1, n + 1):
        deficits = {kind: target_of(kind, s) - kinds.count(kind) for kind in p.reserves}
        wanting = [kind for kind in p.reserves if deficits[kind] > 0]
        if not wanting:
            kinds.append("open")
            continue
        best = max(deficits[kind] for kind in wanting)
        winner = next(kind for kind in p.priority if kind in wanting and deficits[kind] == best)
        if len(wanting) > 1:
            collisions[s] = tuple(kind for kind in wanting if kind != winner)
        kinds.append(winner)
    seat = n
    for kind in p.priority:
        if kind not in p.reserves:
            continue
        short = count(kind, n, basis if kind == "racial" else None) - kinds.count(kind)
        while short > 0 and seat > len(kept):
            if kinds[seat - 1] == "open":
                kinds[seat - 1] = kind
                short -= 1
            seat -= 1
    return kinds, collisions


@settings(max_examples=150, deadline=None)
@given(PARAMS, st.integers(0, 4), st.integers(0, 40), st.integers(0, 60))
def test_rules_par4_the_seat_rule_is_the_literal_greedy_rule_and_make_up(p, extra, created, n_other):
    """``schedule.seat_rule`` (its greedy loop reads the policy's memo of targets inline, the threshold's
    basis taken without asking ``quotas`` when the policy counts it on the position) gives the kinds and
    collisions of RULES §4 computed afresh with ``ReserveRule.count``, for every ``n`` up to 40, any
    seats already created, the threshold counted on the position or on the contest, and the memo left by
    another ``n``."""

    p = dataclasses.replace(p, threshold_extra=extra)
    for n in range(41):
        seat_rule(p, [], n_other)  # the memo holds another n's targets
        kept = schedule(p, n)[: min(created, n)]
        step = seat_rule(p, kept, n)
        assert (step.kinds, step.collisions) == _literal_seat_rule(p, kept, n), n


def test_rules_par4_item3_a_refill_resumes_the_foresight_as_a_new_one_would_see_the_kept_fills(monkeypatch):
    """``Foresight.resume`` keeps, for a refill, what it recorded of the fills the rollback kept instead
    of recording them again: the seats of each kind and their bars as a new ``Foresight`` records them,
    the nominations it tracks the same but for those compensated since (which ``_look`` settles), and
    every judgment made again. Checked at each refill of scenarios that hold dual candidates, under
    every rule."""

    resume = foresight.Foresight.resume
    resumed = [0]

    def checked(self):
        resume(self)
        fresh = foresight.Foresight(
            self.seating, self.fills, self.first, self.holds, self.lapsed, self.starts, self.k
        )
        noms = self.seating.nominations
        assert self.bars == fresh.bars and self.causes == fresh.causes
        assert [t for t in self.tracked if noms[self.first + t[0]].list in ("racial", "pcd")] == fresh.tracked
        for name in ("kept", "open_at", "tries", "settled", "found", "open_r", "seen", "waiting"):
            assert getattr(self, name) == getattr(fresh, name), name
        resumed[0] += 1

    monkeypatch.setattr(foresight.Foresight, "resume", checked)
    rng = random.Random(24)
    for _ in range(15):
        for _ in play(_larger_dual_scenario(rng)):
            pass
    rng = random.Random(2026)
    for _ in range(4):
        for _ in play(_compensation_scenario(rng)):
            pass
    assert resumed[0] >= 20, resumed[0]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 40),
    st.lists(st.tuples(st.sampled_from("tdiqpe"), st.integers(0, 60)), max_size=120),
    st.sampled_from([0, 2, 4096]),
)
def test_mostly_ones_answers_as_the_plain_tree_whatever_the_changes(size, ops, few):
    """``fenwick.MostlyOnes`` (who is on a list: the zeros' indexes kept in order while they are at most
    ``few``, a prefix then a bisection) answers every prefix as a plain ``Fenwick`` given the same
    changes: entries leaving and coming back, appended ones and zeros, and changes that would leave a
    value other than 0 or 1 (the kept zeros are then dropped and the tree answers)."""

    fast, plain = MostlyOnes.ones(size), Fenwick.ones(size)
    fast.few = few
    values = [1] * size
    for op, x in ops:
        if op in "tdi" and values:
            i = x % len(values)
            _change(fast, plain, values, i, {"t": -1 if values[i] else 1, "d": -1, "i": 1}[op])
        elif op == "e":
            _append(fast, plain, values, x % 2)
        elif op == "p":
            assert fast.find(x % 5 + 1) == plain.find(x % 5 + 1)
        q = x % (len(values) + 1)
        assert fast.prefix(q) == plain.prefix(q) == sum(values[:q])
        assert fast.total == plain.total == sum(values)
    _assert_every_prefix(fast, values)


def test_rules_par4_item3_a_fill_waiting_on_a_hold_skips_only_looks_that_would_find_the_same(monkeypatch):
    """While a hold is not yet spent nor due for another forecast, ``Foresight.after_fill`` does not look
    again (``_WAIT``): every seat's answer, the seats filled and the states are those of looking at
    every seat, under every rule."""

    after_fill = foresight.Foresight.after_fill
    answers: list = []

    def recording(self, kind):
        found = after_fill(self, kind)
        answers.append((len(self.fills), found, self.open_r))
        return found

    monkeypatch.setattr(foresight.Foresight, "after_fill", recording)
    runs = {}
    for wait in (True, False):
        monkeypatch.setattr(foresight, "_WAIT", wait)
        answers.clear()
        finals = []
        rng = random.Random(24)
        for _ in range(15):
            steps = list(play(_larger_dual_scenario(rng)))
            finals.append(steps[-1][2].nominations if steps else ())
        rng = random.Random(2026)
        for _ in range(4):
            steps = list(play(_compensation_scenario(rng)))
            finals.append(steps[-1][2].nominations)
        runs[wait] = (list(answers), finals)
    assert runs[True] == runs[False]
    assert sum(found is not None for _, found, _ in runs[True][0]) > 0
