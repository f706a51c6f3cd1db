"""The allocation engine (RULES.md §3–§4), clause by clause. Pure: no database.

Scenarios are written as general lists (best first); ``"N1:racial"`` opts for the racial reserve,
``"X:racial,pcd>pcd"`` for both, preferring PcD for a simultaneous call.
"""

from __future__ import annotations

import datetime
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from candidates.engine import allocation as al
from candidates.engine.allocation import (
    AllocationError,
    Call,
    Candidate,
    Eliminate,
    EndOfList,
    ExcludeFromReserve,
    NoShow,
    OpenVacancies,
    Params,
    State,
    TookOffice,
    Withdraw,
    apply,
    initial_state,
    preview_call,
    replay,
)
from candidates.engine.fenwick import Fenwick
from candidates.engine.ranking import (
    Applicant,
    JuryService,
    OlderFirst,
    PhaseScore,
    classification_lists,
    criteria_from_kinds,
    phase_cut,
    rank,
    tie_break_reason,
)
from candidates.engine.schedule import reserved_seats, schedule
from contests.quotas import ReserveRule

ROOT = Path(__file__).resolve().parents[2]

RACIAL_20_SM = ReserveRule(20, 3, "half_up")  # SM art. 1, §§2–3
RACIAL_20_AR = ReserveRule(20, 0, "half_up")  # AR art. 1, §1
PCD_5 = ReserveRule(5, 1, "up", 20)  # Decreto 9.508 art. 1 §3; Lei 8.112 art. 5 §2
SM = Params(RACIAL_20_SM, citations={"order": "art. 5º", "reversion": "art. 4º §5º"})
SM_PCD = Params(RACIAL_20_SM, PCD_5)
AR = Params(RACIAL_20_AR, order="every_nth", nth=5, group_label="negros e índios")


def people(*spec: str) -> tuple[Candidate, ...]:
    out = []
    for item in spec:
        name, _, rest = item.partition(":")
        lists, _, prefers = rest.partition(">")
        out.append(Candidate(name, frozenset(x for x in lists.split(",") if x), prefers or None))
    return tuple(out)


def run(params: Params, candidates: tuple[Candidate, ...], vacancies: int, *events) -> State:
    return replay(initial_state(candidates, params, vacancies=vacancies), events)


def held(state: State) -> list[tuple[int, str, str, str]]:
    """(seat, candidate, list, kind) of the active nominations, by seat."""
    return sorted((n.seat, n.candidate, n.list, n.kind) for n in state.nominations if n.holds_seat)


WORKED = people("A", "N1:racial", "B", "C", "D", "E", "N2:racial", "N3:racial")


# RULES §4, the schedule ------------------------------------------------------------------------------


def test_sm_art5_published_series_racial_20_percent_seats_3_8_13_18_23():
    assert reserved_seats(SM, "racial", 25) == [3, 8, 13, 18, 23]


def test_decreto_9508_pcd_5_percent_seats_5_21_41():
    assert reserved_seats(SM_PCD, "pcd", 45) == [5, 21, 41]


def test_sm_art5_racial_20_and_pcd_5_never_collide():
    kinds = schedule(SM_PCD, 400)
    assert [s for s, k in enumerate(kinds, 1) if k == "racial"] == [s for s in range(1, 401) if s % 5 == 3]
    assert [s for s, k in enumerate(kinds, 1) if k == "pcd"] == [5, *range(21, 401, 20)]


@pytest.mark.parametrize(
    ("n", "seats"),
    [
        (5, [5]),
        (10, [5, 10]),
        (15, [5, 10, 15]),
        (3, [3]),
        (4, [4]),
        (8, [5, 8]),
        (9, [5, 9]),
        (13, [5, 10, 13]),
    ],
)
def test_ar_art3_par1_fifth_of_each_five_and_last_seats_complete_the_count(n, seats):
    assert reserved_seats(AR, "racial", n) == seats


def test_ar_art3_par1_n3_seat_3_is_racial():
    assert schedule(AR, 3) == ["open", "open", "racial"]


def test_lei_15142_30_and_5_threshold_2_collide_at_seat_5_pcd_wins_racial_takes_6():
    params = Params(ReserveRule(30, 2, "half_up"), PCD_5)
    assert schedule(params, 7) == ["open", "racial", "open", "open", "pcd", "racial", "open"]


def test_collision_priority_racial_first_gives_seat_5_to_racial():
    params = Params(ReserveRule(30, 2, "half_up"), PCD_5, priority=("racial", "pcd"))
    assert schedule(params, 6)[4:] == ["racial", "pcd"]


# RULES §4, "Reserves always delivered" and collisions --------------------------------------------------

AR_PCD = Params(RACIAL_20_AR, PCD_5, order="every_nth", nth=5, citations={"order": "art. 3º §1º"},
                group_label="negros e índios")  # fmt: skip
L30_PCD = Params(ReserveRule(30, 3, "half_up"), PCD_5)


def seats_of(kinds: list[str], kind: str) -> list[int]:
    return [s for s, k in enumerate(kinds, 1) if k == kind]


def test_rules_par4_default_priority_follows_the_order():
    assert SM_PCD.priority == ("pcd", "racial")  # STF MS 30.861: the first PcD seat at the 5th nomination
    assert AR_PCD.priority == ("racial", "pcd")  # AR art. 3 §1: the 5th vacancy to negros e índios


def test_ar_art3_par1_with_pcd_5_at_n5_seat_4_pcd_seat_5_racial():
    assert schedule(AR_PCD, 5) == ["open", "open", "open", "pcd", "racial"]


def test_ar_art3_par1_with_pcd_5_at_n10_seats_5_and_10_racial_6_pcd():
    kinds = schedule(AR_PCD, 10)
    assert (seats_of(kinds, "racial"), seats_of(kinds, "pcd")) == ([5, 10], [6])


def test_rules_par4_30_and_5_at_n5_seats_2_and_4_racial_5_pcd():
    kinds = schedule(L30_PCD, 5)
    assert (seats_of(kinds, "racial"), seats_of(kinds, "pcd")) == ([2, 4], [5])


@pytest.mark.parametrize("n", [6, 7, 8, 10, 12])
def test_rules_par4_30_and_5_from_n6_seats_2_and_6_racial_5_pcd(n):
    kinds = schedule(L30_PCD, n)[:6]
    assert (seats_of(kinds, "racial"), seats_of(kinds, "pcd")) == ([2, 6], [5])


def test_rules_par4_seats_created_at_n4_keep_their_kind_the_second_racial_waits_for_the_6th_vacancy():
    candidates = people(*[f"G{i}" for i in range(10)])
    state = run(L30_PCD, candidates, 4, Call(4))
    assert state.seats == ("open", "racial", "open", "open")
    state = replay(state, [OpenVacancies(1), Call(1)])
    assert state.seats[4] == "pcd" and state.schedule() == ["open", "racial", "open", "open", "pcd"]
    state = replay(state, [OpenVacancies(1)])
    assert state.schedule()[5] == "racial"


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_sm_art1_par2_threshold_tested_on_n_30_percent_first_racial_seat_is_2(n):
    params = Params(ReserveRule(30, 3, "half_up"))
    assert seats_of(schedule(params, n), "racial")[0] == 2
    assert schedule(params, 2) == ["open", "open"]  # n < 3: no reserve


def test_sm_art1_par2_seats_created_below_the_threshold_keep_the_open_kind():
    params = Params(ReserveRule(30, 3, "half_up"))
    state = run(params, WORKED, 2, Call(2), OpenVacancies(1))
    assert state.seats == ("open", "open")
    assert state.schedule() == ["open", "open", "racial"]


@pytest.mark.parametrize("n", range(1, 41))
@pytest.mark.parametrize("params", [SM_PCD, AR_PCD, L30_PCD, Params(ReserveRule(30, 2, "half_up"), PCD_5)])
def test_rules_par4_reserves_always_delivered_the_schedule_for_n_gives_each_list_its_count(params, n):
    kinds = schedule(params, n)
    assert kinds.count("racial") == params.racial_count(n)
    assert kinds.count("pcd") == params.pcd_count(n)


def test_rules_par4_the_schedule_for_n_is_the_kinds_seats_would_get_if_created_one_by_one():
    # Where the make-up reaches the last seats, each seat created is decided again with the seats before
    # it as they are: not one application of the rule to all the seats to come.
    from candidates.engine.schedule import seat_rule

    params = Params(ReserveRule(50, 3, "up"), ReserveRule(20, 1, "up", 20), order="every_nth", nth=5)
    kinds = schedule(params, 23)
    assert kinds != seat_rule(params, (), 23).kinds
    assert seats_of(kinds, "pcd") == [6, 11, 12, 13]
    one_by_one: list[str] = []
    for _ in range(23):
        one_by_one.append(seat_rule(params, one_by_one, 23).kinds[len(one_by_one)])
    assert kinds == one_by_one


def test_rules_par4_a_collision_explained_in_words():
    from candidates.engine.schedule import collisions_explained

    assert collisions_explained(AR_PCD, (), 5) == [
        "a 5ª vaga é reservada a negros e índios (art. 3º §1º); a vaga de pessoa com deficiência passa para a 4ª"
    ]
    assert collisions_explained(AR_PCD, (), 10)[0].endswith(
        "a vaga de pessoa com deficiência passa para a 6ª"
    )
    assert collisions_explained(L30_PCD, (), 6)[0].startswith(
        "a 5ª vaga é reservada a pessoas com deficiência"
    )
    assert collisions_explained(L30_PCD, (), 6)[0].endswith("a vaga reservada a negros passa para a 6ª")
    kept = ("open", "racial", "open", "open")
    assert collisions_explained(L30_PCD, kept, 5)[0].endswith("a vaga reservada a negros aguarda novas vagas")


def test_ar_art3_par1_the_nomination_on_a_collision_seat_says_where_the_other_reserve_went():
    candidates = people(*[f"G{i}" for i in range(6)], "N1:racial", "P1:pcd")
    state = run(AR_PCD, candidates, 5, Call(5))
    assert held(state)[3:] == [(4, "P1", "pcd", "pcd"), (5, "N1", "racial", "racial")]
    assert (
        "pessoas com deficiência também tinha direito a esta vaga: passa para a 4ª"
        in state.nominations[4].why
    )
    assert "as últimas vagas completam a reserva" in state.nominations[3].why


@pytest.mark.parametrize(
    "rule",
    [
        RACIAL_20_SM,
        RACIAL_20_AR,
        PCD_5,
        ReserveRule(30, 2, "up"),
        ReserveRule(30, 3, "half_up"),  # exact halves: 30% of 5 = 1.5 → 2
        ReserveRule(Fraction(100, 3), 0, "down", 25),
    ],
)
def test_rules_par2_fast_count_agrees_with_the_quota_engine(rule):
    params = Params(rule) if rule.cap_percent is None else Params(RACIAL_20_AR, rule)
    count = params.racial_count if rule.cap_percent is None else params.pcd_count
    assert [count(n) for n in range(0, 300)] == [rule.count(n) for n in range(0, 300)]
    # A block of seats at once (``_Count.many``, what the targets' memo is filled with), the threshold
    # tested on another count than the seat's: below it, reaching it, above it.
    counter = params._counts[0] if rule.cap_percent is None else params._counts[1]
    assert counter is not None
    for basis in (0, 2, 3, 50):
        for lo, hi in ((1, 300), (7, 8), (150, 151), (5, 5)):
            expected = [rule.count(m, threshold_count=basis) for m in range(lo, hi)]
            assert counter.many(lo, hi, basis) == expected, (basis, lo, hi)


@pytest.mark.parametrize(
    ("seat", "text"), [(3, "20% de 3 = 0,6 → 1"), (8, "20% de 8 = 1,6 → 2"), (10, "20% de 10 = 2 → 2")]
)
def test_explanations_write_p_times_s_exactly_with_a_decimal_comma(seat, text):
    from candidates.engine.schedule import explain_kind

    assert explain_kind(SM, seat, 25, "racial") == f"reservada a negros; {text}"
    odd = Params(ReserveRule(Fraction(100, 3), 0, "half_up"))
    assert explain_kind(odd, 2, 2, "racial") == "reservada a negros; ≈33,33% de 2 = ≈0,67 → 1"


def test_sm_art1_par2_threshold_on_cumulative_count_later_opening_creates_the_reserve():
    state = run(SM, WORKED, 2, Call(2))
    assert state.schedule() == ["open", "open"]
    state, _ = apply(state, OpenVacancies(1))
    assert state.schedule() == ["open", "open", "racial"]
    state, _ = apply(state, Call(1))
    assert held(state)[-1] == (3, "N2", "racial", "racial")


def test_sm_art1_par4_fraction_carried_7_then_9_reserves_2():
    state = run(SM, WORKED, 7)
    assert state.reservation().racial == 1
    assert state.reservation().carried_fraction == Fraction(2, 5)
    state, _ = apply(state, OpenVacancies(2))
    assert state.reservation().racial == 2
    assert state.schedule().count("racial") == 2


def test_rules_par4_created_seats_keep_their_kind_every_nth_reschedules_the_rest():
    # AR with 3 vacancies: seat 3 racial. Opening 7 more makes 10: seat 3 keeps its kind, and the
    # projected seats follow "every fifth" with the new n (seat 10), not seat 5.
    called = run(AR, WORKED, 3, Call(3), OpenVacancies(7))
    assert called.schedule() == ["open", "open", "racial", *["open"] * 6, "racial"]
    # Only 2 called before the opening: seat 3 was never created, so the schedule for 5 applies.
    not_called = run(AR, WORKED, 3, Call(2), OpenVacancies(2))
    assert not_called.schedule() == ["open", "open", "open", "open", "racial"]


# RULES §4, who fills each seat: the worked example and its variants ------------------------------------


def test_sm_art4_par3_worked_example_cotista_within_open_competition_takes_an_open_seat():
    state = run(SM, WORKED, 5, Call(5))
    assert held(state) == [
        (1, "A", "open", "open"),
        (2, "N1", "open", "open"),
        (3, "N2", "racial", "racial"),
        (4, "B", "open", "open"),
        (5, "C", "open", "open"),
    ]
    assert state.schedule() == ["open", "open", "racial", "open", "open"]


def test_sm_art4_par4_withdrawal_refilled_by_next_of_same_list():
    state = run(SM, WORKED, 5, Call(5), Withdraw("N2"), Call(1))
    last = state.nominations[-1]
    assert (last.order, last.seat, last.kind, last.candidate, last.list) == (6, 3, "racial", "N3", "racial")
    assert state.nominations[2].status == "withdrawn"
    assert state.lists() == {"open": ["A", "N1", "B", "C", "D", "E", "N3"], "racial": ["N1", "N3"]}


def test_why_quotes_the_seat_rule_and_the_list_position():
    state = run(SM, WORKED, 5, Call(5), Withdraw("N2"), Call(1))
    assert state.nominations[2].why.startswith(
        "3ª vaga: reservada a negros; 20% de 3 = 0,6 → 1; N2 é o 1º da lista de negros fora da ampla concorrência"
    )
    assert state.nominations[1].why.startswith("2ª vaga: ampla concorrência; N1 é o 2º da lista geral")
    assert state.nominations[5].why.startswith(
        "3ª vaga (liberada: desistência de N2): mantém a reserva a negros; N3 é o 1º da lista de negros"
    )


def test_rules_par4_the_reason_is_given_as_data_besides_the_text():
    state = run(SM, WORKED, 5, Call(5), Withdraw("N2"), Call(1))
    n2 = state.nominations[2].reason
    assert n2 is not None
    assert (n2.seat, n2.kind, n2.list, n2.via, n2.citation) == (3, "racial", "racial", "reserved", "art. 5º")
    assert (n2.percent, n2.base, n2.exact, n2.reserved) == ("20%", 3, "0,6", 1)
    assert (n2.general_position, n2.list_position, n2.open_seats) == (7, 1, 4)
    assert n2.text() == state.nominations[2].why
    assert n2.detail().startswith("Reservada a negros; 20% de 3 = 0,6 → 1; N2 é o 1º da lista de negros")
    n1 = state.nominations[1].reason
    assert n1 is not None and n1.detail().startswith("N1 é o 2º da lista geral")
    n3 = state.nominations[5].reason
    assert n3 is not None and n3.freed_by == "desistência de N2"
    assert n3.detail().startswith("Liberada: desistência de N2; mantém a reserva a negros; N3 é o 1º")
    reverted = run(SM, people("A", "N1:racial", "B", "C", "D", "E"), 5, Call(5)).nominations[2].reason
    assert reverted is not None and (reverted.via, reverted.list, reverted.citation) == (
        "reverted",
        "open",
        "art. 4º §5º",
    )


def test_rules_par4_a_held_dual_candidates_reason_names_the_seat_they_had_landed_on():
    state = run(SM_PCD, dual("pcd"), 5, Call(5))
    x = state.nominations[-1].reason
    assert x is not None and (x.via, x.list, x.landed_seat, x.landed_kind) == ("held", "pcd", 3, "racial")


BEST_COTISTA_4TH = people("A", "B", "C", "N1:racial", "D", "E", "N2:racial", "N3:racial")


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # projected: N1 (4th) is within the 4 open seats: seat 3 goes to the next cotista, N1 to seat 5.
        ("projected", [(1, "A", "open", "open"), (2, "B", "open", "open"), (3, "N2", "racial", "racial"),
                       (4, "C", "open", "open"), (5, "N1", "open", "open")]),
        # compensation: N1 takes seat 3, is compensated when the open list reaches them (before seat 5,
        # whose kind is computed again: racial), and the next cotista takes it.
        ("compensation", [(1, "A", "open", "open"), (2, "B", "open", "open"), (3, "N1", "open", "open"),
                          (4, "C", "open", "open"), (5, "N2", "racial", "racial")]),
        # actual: only a cotista nominated on an open seat does not count; N1 keeps seat 3.
        ("actual", [(1, "A", "open", "open"), (2, "B", "open", "open"), (3, "N1", "racial", "racial"),
                    (4, "C", "open", "open"), (5, "D", "open", "open")]),
    ],
)  # fmt: skip
def test_sm_art4_par3_best_cotista_within_open_competition_under_each_rule(rule, expected):
    params = Params(RACIAL_20_SM, open_competition_rule=rule)
    state = run(params, BEST_COTISTA_4TH, 5, Call(5))
    assert held(state) == expected


def test_compensation_marks_the_nomination_and_explains_it():
    params = Params(RACIAL_20_SM, open_competition_rule="compensation")
    state = run(params, BEST_COTISTA_4TH, 5, Call(5))
    n1 = state.nominations[2]
    assert (n1.candidate, n1.compensated, n1.list, n1.kind) == ("N1", True, "open", "open")
    assert "compensada ao preencher a 5ª vaga" in n1.why
    assert n1.to_dict()["compensated"] is True


def test_worked_example_under_each_rule_when_the_best_cotista_is_beyond_open_competition():
    for rule in ("projected", "compensation", "actual"):
        state = run(Params(RACIAL_20_SM, open_competition_rule=rule), WORKED, 5, Call(5))
        assert [n.candidate for n in state.nominations] == ["A", "N1", "N2", "B", "C"], rule


def test_sm_art4_par5_no_cotista_left_seat_reverts_to_best_not_yet_nominated():
    state = run(SM, people("A", "N1:racial", "B", "C", "D", "E"), 5, Call(5))
    assert held(state) == [
        (1, "A", "open", "open"),
        (2, "N1", "open", "open"),
        (3, "B", "open", "racial"),
        (4, "C", "open", "open"),
        (5, "D", "open", "open"),
    ]
    seat3 = state.nominations[2]
    assert seat3.reverted and seat3.to_dict()["reverted"] is True
    assert "reverte à ampla concorrência, art. 4º §5º" in seat3.why


def test_ar_art1_par6_reverts_seat_by_seat():
    state = run(AR, people("A", "B", "C", "D", "E", "F"), 5, Call(5))
    assert [(n.seat, n.candidate, n.reverted) for n in state.nominations][-1] == (5, "E", True)


def test_reverted_seat_keeps_its_kind_and_is_offered_to_its_list_first_when_freed():
    # N1 (3rd) is within the 4 open seats: seat 3 reverts, to N1 itself (the best not yet nominated).
    # N1 then asks to go to the end of the lists: now 6th, beyond open competition, and seat 3 (kept
    # racial) goes to them from the racial list.
    candidates = people("A", "B", "N1:racial", "C", "D", "E")
    state = run(SM, candidates, 5, Call(3))
    assert state.nominations[2].reverted and state.nominations[2].candidate == "N1"
    state = replay(state, [EndOfList("N1"), Call(1)])
    last = state.nominations[-1]
    assert (last.seat, last.kind, last.candidate, last.list, last.reverted) == (
        3,
        "racial",
        "N1",
        "racial",
        False,
    )


def test_freed_seats_are_filled_first_lowest_number_first():
    state = run(SM, WORKED, 5, Call(5), Withdraw("C"), Withdraw("A"), OpenVacancies(1), Call(3))
    assert [(n.seat, n.candidate) for n in state.nominations[5:]] == [(1, "D"), (5, "E"), (6, "N3")]


def test_call_stops_when_nobody_at_all_is_left_and_creates_no_seat():
    state, change = apply(initial_state(people("A", "B"), SM, vacancies=5), Call(5))
    assert [n.candidate for n in change.nominated] == ["A", "B"]
    assert change.stopped and state.seats == ("open", "open")
    assert "não há mais candidatos" in change.messages[0]


def test_call_fills_what_the_open_vacancies_allow():
    _, change = apply(initial_state(WORKED, SM, vacancies=2), Call(5))
    assert len(change.nominated) == 2 and not change.stopped
    assert "Só havia 2 vagas" in change.messages[0]


# RULES §4 item 4: withdrawals, eliminations, exclusions, end of list -----------------------------------


def test_withdrawal_of_a_candidate_not_nominated_takes_them_off_every_list():
    state = run(SM, WORKED, 5, Withdraw("N2"), Call(5))
    assert state.nominations[2].candidate == "N3"
    assert "N2" not in state.lists()["open"] and "N2" not in state.lists()["racial"]


def test_no_show_behaves_like_withdrawal_with_status_no_show():
    state = run(SM, WORKED, 5, Call(5), NoShow("N2"), Call(1))
    assert state.nominations[2].status == "no_show"
    assert state.nominations[-1].candidate == "N3"
    assert state.removed == (("N2", "no_show"),)


def test_took_office_only_marks_the_status_and_blocks_a_later_withdrawal():
    state = run(SM, WORKED, 5, Call(5), TookOffice("A"))
    assert state.nominations[0].status == "took_office" and state.nominations[0].holds_seat
    with pytest.raises(AllocationError, match="já tomou posse"):
        apply(state, Withdraw("A"))


def test_sm_art3_par3_elimination_annuls_the_nomination_and_refills_the_seat_the_same_way():
    state = run(SM, WORKED, 5, Call(5), Eliminate("N2"), Call(1))
    assert state.nominations[2].status == "annulled"
    assert state.nominations[-1].seat == 3 and state.nominations[-1].candidate == "N3"
    assert ("N2", "eliminated") in state.removed


def test_elimination_of_a_candidate_who_withdrew_records_the_elimination():
    state = run(SM, WORKED, 5, Withdraw("N2"), Eliminate("N2"))
    assert state.removed == (("N2", "eliminated"),)


def test_lei_15142_exclusion_from_reserve_annuls_a_reserved_nomination_and_keeps_the_general_list():
    state = run(SM, WORKED, 5, Call(5), ExcludeFromReserve("N2"), Call(1))
    assert state.nominations[2].status == "annulled"
    assert state.nominations[-1].candidate == "N3"
    assert state.lists() == {"open": ["A", "N1", "B", "C", "D", "E", "N2", "N3"], "racial": ["N1", "N3"]}
    # Annulled, N2 holds no active nomination and can be nominated again from the general list.
    state, _ = apply(state, OpenVacancies(3))
    state, _ = apply(state, Call(3))
    assert "N2" in [n.candidate for n in state.nominations[-3:]]


def test_exclusion_keeps_a_nomination_that_came_from_the_general_list_reverted_included():
    state = run(SM, people("A", "B", "N1:racial", "C", "D", "E"), 5, Call(3), ExcludeFromReserve("N1"))
    assert state.nominations[2].candidate == "N1" and state.nominations[2].status == "active"
    state = run(SM, WORKED, 5, Call(2), ExcludeFromReserve("N1"))
    assert state.nominations[1].status == "active"


def test_end_of_list_moves_behind_everyone_in_request_order_also_without_nomination():
    state = run(SM, WORKED, 5, EndOfList("B"), EndOfList("N1"))
    assert state.lists() == {
        "open": ["A", "C", "D", "E", "N2", "N3", "B", "N1"],
        "racial": ["N2", "N3", "N1"],
    }


def test_end_of_list_ends_the_nomination_frees_the_seat_and_the_candidate_can_return():
    state = run(SM, people("A", "B", "C"), 2, Call(2), EndOfList("A"), Call(1))
    assert state.nominations[0].status == "end_of_list"
    assert (state.nominations[-1].seat, state.nominations[-1].candidate) == (1, "C")
    state = run(SM, people("A", "B"), 2, Call(2), EndOfList("A"), Call(1))
    assert (state.nominations[-1].seat, state.nominations[-1].candidate) == (1, "A")


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([Withdraw("Z")], "Candidato desconhecido"),
        ([Withdraw("A"), Withdraw("A")], "fora de todas as listas"),
        ([NoShow("A")], "não tem nomeação ativa"),
        ([TookOffice("A")], "não tem nomeação ativa"),
        ([ExcludeFromReserve("A")], "não optou por nenhuma reserva"),
        ([Withdraw("A"), EndOfList("A")], "fora de todas as listas"),
    ],
)
def test_events_that_cannot_apply_raise_in_portuguese_and_change_nothing(events, message):
    state = run(SM, WORKED, 5, *events[:-1])
    before = state.to_dict()
    with pytest.raises(AllocationError, match=message):
        apply(state, events[-1])
    assert state.to_dict() == before
    assert apply(state, Call(1))[0] == run(SM, WORKED, 5, *events[:-1], Call(1))


# RULES §4 item 3: dual eligibility (SM art. 4 §7) ----------------------------------------------------


def dual(prefers: str = "") -> tuple[Candidate, ...]:
    # SM with PcD 5%, n = 5: seat 3 racial, seat 5 PcD, 3 open seats; X (4th) qualifies for both.
    return people("A", "B", "C", f"X:racial,pcd{'>' + prefers if prefers else ''}", "P2:pcd", "R2:racial")


def test_sm_art4_par7_simultaneous_call_without_choice_goes_to_the_racial_seat():
    state = run(SM_PCD, dual(), 5, Call(5))
    assert held(state) == [
        (1, "A", "open", "open"),
        (2, "B", "open", "open"),
        (3, "X", "racial", "racial"),
        (4, "C", "open", "open"),
        (5, "P2", "pcd", "pcd"),
    ]


def test_sm_art4_par7_simultaneous_call_takes_the_reserve_chosen_at_registration():
    state = run(SM_PCD, dual("pcd"), 5, Call(5))
    assert held(state) == [
        (1, "A", "open", "open"),
        (2, "B", "open", "open"),
        (3, "R2", "racial", "racial"),
        (4, "C", "open", "open"),
        (5, "X", "pcd", "pcd"),
    ]
    assert "convocado na mesma chamada também à 3ª vaga (reservada a negros)" in state.nominations[-1].why


def test_sm_art4_par7_policy_default_pcd_applies_without_a_choice():
    params = Params(RACIAL_20_SM, PCD_5, dual_default="pcd")
    assert held(run(params, dual(), 5, Call(5)))[-1] == (5, "X", "pcd", "pcd")


def test_sm_art4_par7_pcd_seat_first_then_racial_seat_in_the_same_call():
    # n = 8: seats 3 and 8 racial, 5 PcD, 5 open. X (7th) lands on the PcD seat 5 first; the racial
    # seat 8 of the same call would reach them: held for it (default racial), seat 5 to the next PcD.
    candidates = people("A", "B", "C", "D", "E", "R1:racial", "X:racial,pcd", "R2:racial", "P2:pcd")
    state = run(SM_PCD, candidates, 8, Call(8))
    assert [(s, c) for s, c, _, _ in held(state) if s in (3, 5, 8)] == [(3, "R1"), (5, "P2"), (8, "X")]


SM_PCD_20 = Params(RACIAL_20_SM, ReserveRule(20, 1, "up", 20))  # n = 10: racial 3 and 8, PcD 5 and 10


def test_sm_art4_par7_held_for_the_list_takes_the_first_pcd_seat_they_are_best_for_and_the_call_refills():
    # X (7th, beyond the 6 open seats) lands on racial seat 3; PcD seat 5 goes to P1, ranked below X,
    # and seat 10 reverts: X, who chose PcD, is held for the PcD list and the call is filled again.
    candidates = people(*[f"G{i}" for i in range(1, 7)], "X:racial,pcd>pcd", "R1:racial", "P1:pcd", "G7")
    state = run(SM_PCD_20, candidates, 10, Call(10))
    assert [(s, c, lst) for s, c, lst, _ in held(state) if s in (3, 5, 8, 9, 10)] == [
        (3, "R1", "racial"),
        (5, "X", "pcd"),
        (8, "G6", "open"),  # nobody left on the racial list beyond open competition: reverts
        (9, "P1", "open"),
        (10, "G7", "open"),
    ]
    reason = state.nominations[4].reason
    assert reason is not None and (reason.via, reason.landed_seat) == ("held", 3)
    _agrees_with_the_reference(SM_PCD_20, candidates, 10, [{"call": 10}], state)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # compensation: reached by the open list, the held D is open competition anyway (SM art. 4 §3).
        ("compensation", [("A", "open"), ("B", "open"), ("C", "open"), ("D", "open"), ("E", "pcd")]),
        # projected: the open seat passes the held D over; D takes the PcD seat.
        ("projected", [("A", "open"), ("B", "open"), ("C", "open"), ("E", "open"), ("D", "pcd")]),
    ],
)
def test_sm_art4_par7_an_open_seat_takes_a_held_candidate_only_under_compensation(rule, expected):
    params = Params(RACIAL_20_SM, ReserveRule(20, 1, "up", 20), open_competition_rule=rule)
    candidates = people("A:pcd", "B:pcd", "C:pcd>pcd", "D:racial,pcd>pcd", "E:pcd")
    state = run(params, candidates, 5, Call(5))
    assert [(n.candidate, n.list) for n in state.nominations] == expected
    assert state.nominations[2].reverted  # racial seat 3: D held for PcD, nobody else on the racial list
    _agrees_with_the_reference(params, candidates, 5, [{"call": 5}], state)


def _agrees_with_the_reference(params, candidates, vacancies, events, state) -> None:
    from candidates.engine.reference import Naive

    naive = Naive(params, list(candidates), vacancies)
    for event in events:
        naive.run(event)
    keys = [
        (n.order, n.seat, n.kind, n.candidate, n.list, n.status, n.reverted, n.compensated)
        for n in state.nominations
    ]
    assert keys == [n.key() for n in naive.noms]


def test_sm_art4_par7_a_call_reaching_only_one_seat_is_not_simultaneous():
    state = run(SM_PCD, dual("pcd"), 5, Call(3), Call(2))
    assert held(state)[2] == (3, "X", "racial", "racial")
    assert held(state)[4] == (5, "P2", "pcd", "pcd")


def test_decreto_12536_larger_only_ranks_dual_candidates_in_the_larger_reserve_only():
    params = Params(RACIAL_20_SM, PCD_5, dual_rule="larger_only")
    state = run(params, dual("pcd"), 5, Call(5))
    assert held(state)[2] == (3, "X", "racial", "racial")
    assert state.lists()["pcd"] == ["P2"]


# Incremental state -------------------------------------------------------------------------------------


EVENTS = [
    Call(3),
    OpenVacancies(4),
    Withdraw("N2"),
    Call(4),
    EndOfList("B"),
    ExcludeFromReserve("N3"),
    Call(2),
]


def test_replay_equals_incremental_application():
    state = initial_state(WORKED, SM_PCD, vacancies=5)
    for event in EVENTS:
        state, _ = apply(state, event)
    assert state == run(SM_PCD, WORKED, 5, *EVENTS)


def test_to_dict_is_json_and_from_dict_continues_identically():
    state = run(SM_PCD, WORKED, 5, *EVENTS[:4])
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    rest = EVENTS[4:]
    assert replay(restored, rest) == replay(state, rest)
    assert replay(restored, rest) == run(SM_PCD, WORKED, 5, *EVENTS)


def test_rules_par4_item5_an_old_snapshot_restores_with_its_kinds_and_continues():
    # Saved before reasons existed, with the old collision priority of an Angra dos Reis contest: the
    # seats already created keep their kinds; the next seats follow the parameters the snapshot names.
    candidates = people(*[f"G{i}" for i in range(8)], "N1:racial", "P1:pcd", "N2:racial")
    old_params = Params(RACIAL_20_AR, PCD_5, order="every_nth", nth=5, priority=("pcd", "racial"))
    state = run(old_params, candidates, 4, Call(4))
    data = json.loads(json.dumps(state.to_dict()))
    for nomination in data["nominations"]:
        del nomination["reason"]
    restored = State.from_dict(data)
    assert restored.seats == state.seats == ("open", "open", "open", "racial")
    assert [n.why for n in restored.nominations] == [n.why for n in state.nominations]
    restored = replay(restored, [OpenVacancies(6), Call(6)])
    assert restored.seats[:4] == ("open", "open", "open", "racial")
    assert restored.seats.count("racial") == 2 and restored.seats.count("pcd") == 1


def test_from_dict_with_the_roster_passed_separately():
    state = run(SM, WORKED, 5, Call(5))
    data = json.loads(json.dumps(state.to_dict(include_candidates=False)))
    assert "candidates" not in data
    assert State.from_dict(data, candidates=WORKED) == state


def test_from_dict_refuses_an_inconsistent_state():
    data = run(SM, WORKED, 5, Call(5)).to_dict()
    data["nominations"][1]["seat"] = 1  # two active nominations on seat 1
    with pytest.raises(AllocationError, match="Estado inválido"):
        State.from_dict(data)


def test_an_older_state_stays_usable_after_apply():
    start = run(SM, WORKED, 5, Call(2))
    first, _ = apply(start, Call(3))
    second, _ = apply(start, Call(3))  # rebuilds the index that moved to ``first``
    assert first == second


def test_preview_call_says_who_would_be_called_and_why_without_changing_the_state():
    state = run(SM, WORKED, 5, Call(2))
    before = state.to_dict()
    preview = preview_call(state, 3)
    assert [n.candidate for n in preview.nominated] == ["N2", "B", "C"]
    assert preview.nominated[0].why.startswith("3ª vaga: reservada a negros")
    assert state.to_dict() == before
    assert apply(state, Call(3))[1].nominated == preview.nominated


@pytest.mark.parametrize(
    "event",
    [{"call": 5}, {"open": 2}, {"withdraw": "A"}, {"no_show": "A"}, {"eliminate": "A"},
     {"exclude_from_reserve": "A"}, {"end_of_list": "A"}, {"took_office": "A"}],
)  # fmt: skip
def test_events_round_trip_through_plain_dicts(event):
    assert al.event_to_dict(al.event_from_dict(event)) == event


@pytest.mark.parametrize(
    ("data", "message"),
    [({"call": -1}, "negativo"), ({"call": True}, "inteiro"), ({"jump": 1}, "Evento desconhecido"),
     ({"call": 1, "open": 1}, "uma chave"), ({"withdraw": 3}, "Identificador")],
)  # fmt: skip
def test_bad_events_are_refused_in_portuguese(data, message):
    with pytest.raises(AllocationError, match=message):
        al.event_from_dict(data)


def test_params_refuse_reserves_above_100_percent_and_unknown_rules():
    with pytest.raises(AllocationError, match="100%"):
        Params(ReserveRule(90, 0), PCD_5)
    with pytest.raises(AllocationError, match="desconhecida"):
        Params(RACIAL_20_SM, open_competition_rule="whatever")
    assert al.params_from_dict(al.params_to_dict(SM_PCD)) == SM_PCD


def test_roster_refuses_duplicates_and_unknown_reserves():
    with pytest.raises(AllocationError, match="repetido"):
        initial_state(people("A", "A"), SM)
    with pytest.raises(AllocationError, match="desconhecida"):
        initial_state([Candidate("A", frozenset({"x"}))], SM)
    with pytest.raises(AllocationError, match="não concorre"):
        initial_state([Candidate("A", frozenset(), "racial")], SM)


def test_roster_checks_ids_on_their_set_and_names_the_first_fault_in_order():
    """The ids are checked on the set of them (as many as candidates, all strings, none empty) and read
    one by one only then: the message is the one-by-one reading's, an invalid id before a repetition."""

    class Label(str):
        pass

    cases = [
        (["A", "", "B"], "inválido na posição 2: ''"),  # no repetition: only the set's look-up sees it
        (["A", "B", "", "B"], "inválido na posição 3: ''"),
        (["A", "B", "A", "C", "B"], "repetido: A."),
        (["A", "B", 7], "inválido na posição 3: 7"),
        (["A", "A", ["x"]], "inválido na posição 3"),  # unhashable
        (["A", Label("A")], "inválido na posição 2"),  # equal to an earlier id, not a str
    ]
    for ids, message in cases:
        with pytest.raises(AllocationError, match=re.escape(message)):
            initial_state([Candidate(i) for i in ids], SM)
    roster = initial_state(people("B", "A", "C"), SM).roster
    assert roster.ids == ("B", "A", "C")
    assert roster.locate("C") == 2


def test_fenwick_append_and_search_agree_with_a_plain_list():
    values = [1, 0, 1, 1, 0, 0, 1]
    tree = Fenwick(values[:3])
    for v in values[3:]:
        tree.append(v)
    assert [tree.prefix(i) for i in range(8)] == [sum(values[:i]) for i in range(8)]
    assert [tree.find(k) for k in (1, 2, 3, 4, 5)] == [0, 2, 3, 6, 7]
    assert tree.first_from(4) == 6
    ones = Fenwick.ones(9)
    assert [ones.prefix(i) for i in range(10)] == list(range(10))


def test_fenwick_ones_is_the_tree_of_ones_whatever_trees_were_built_before():
    """``Fenwick.ones`` slices the longest ruler built so far: a tree built after a longer or a shorter
    one is the linear construction's, and changing one tree leaves the next ones as they should be."""
    for size in (0, 1, 9, 1000, 7, 64, 65, 3, 1500, 1024):
        ones = Fenwick.ones(size)
        assert ones.tree == Fenwick([1] * size).tree
        assert ones.total == size
        if size:
            ones.add(size - 1, -1)  # the tree is its own array, not the shared ruler
            assert Fenwick.ones(size).tree == Fenwick([1] * size).tree


def test_roster_takes_reserve_lists_of_any_collection_as_frozensets():
    """A candidate's reserves may come as a list (unhashable), a tuple or a set: the roster keeps them as
    frozensets, and checks them as such."""
    roster = initial_state(
        [Candidate("A", ["racial"]), Candidate("B", ("pcd", "racial"), "pcd"), Candidate("C", {"racial"})],
        Params(RACIAL_20_AR, pcd=PCD_5),
    ).roster
    assert [type(c.lists) for c in roster.candidates] == [frozenset] * 3
    assert [c.lists for c in roster.candidates] == [{"racial"}, {"racial", "pcd"}, {"racial"}]
    with pytest.raises(AllocationError, match="desconhecida"):
        initial_state([Candidate("A", ["x"])], SM)
    with pytest.raises(AllocationError, match="não concorre"):
        initial_state([Candidate("A", ("pcd",), "racial")], SM)


# RULES §3: ranking, pass mark, cut-offs ----------------------------------------------------------------

END = datetime.date(2026, 3, 31)  # last day of registration


def applicant(name: str, score, inscription: int, **kwargs) -> Applicant:
    return Applicant(name, inscription, score, **kwargs)


def test_estatuto_do_idoso_art27_aged_60_on_last_registration_day_first_oldest_first():
    young = applicant("jovem", 80, 1, birth_date=datetime.date(1990, 1, 1), phase_scores={"escrita": 50})
    sixty = applicant("60 anos no dia", 80, 2, birth_date=datetime.date(1966, 3, 31))
    older = applicant("mais velho", 80, 3, birth_date=datetime.date(1950, 5, 5))
    almost = applicant("59 anos", 80, 4, birth_date=datetime.date(1966, 4, 1))
    ranked = rank([young, sixty, older, almost], registration_end=END, criteria=[PhaseScore("escrita")])
    assert [a.id for a in ranked] == ["mais velho", "60 anos no dia", "jovem", "59 anos"]
    assert "Estatuto do Idoso" in tie_break_reason(sixty, young, registration_end=END)


def test_edital_criteria_in_order_then_inscription_number_last():
    a = applicant("a", 70, 30, phase_scores={"escrita": 40}, birth_date=datetime.date(1990, 1, 1))
    b = applicant("b", 70, 20, phase_scores={"escrita": 45}, birth_date=datetime.date(1995, 1, 1))
    c = applicant("c", 70, 10, phase_scores={"escrita": 40}, birth_date=datetime.date(1980, 1, 1))
    d = applicant("d", 70, 5, phase_scores={"escrita": 40}, birth_date=datetime.date(1980, 1, 1))
    criteria = [PhaseScore("escrita"), OlderFirst()]
    assert [x.id for x in rank([a, b, c, d], registration_end=END, criteria=criteria)] == ["b", "d", "c", "a"]
    assert tie_break_reason(d, c, registration_end=END, criteria=criteria).startswith("número de inscrição")


def test_cpp_art440_jury_service_breaks_the_tie():
    a = applicant("a", 70, 1)
    b = applicant("b", 70, 2, jury_service=True)
    assert [x.id for x in rank([a, b], registration_end=END, criteria=[JuryService()])] == ["b", "a"]
    assert criteria_from_kinds([("elderly", None), ("jury_service", None), ("inscription_number", None)]) == (
        JuryService(),
    )


def test_sm_art4_par2_below_the_pass_mark_on_no_list():
    ranked = rank(
        [applicant("a", "7,5", 1), applicant("n", 4, 2, lists={"racial"}), applicant("b", 5, 3)],
        registration_end=END,
        pass_mark=5,
    )
    assert classification_lists(ranked).general == ("a", "b")
    assert classification_lists(ranked).racial == ()


def test_sm_art4_par1_cutoff_per_list_with_ties_at_the_cut():
    # K = 10: racial(10) = 2, pcd(10) = 1 (5%, up), open 7. Scores fall by one, two tie at the cuts.
    rows = [applicant(f"g{i}", 100 - i, i) for i in range(1, 8)]
    rows.append(applicant("g7bis", 93, 70))  # ties with g7, the 7th of the general list
    rows += [applicant("n1", 90, 81, lists={"racial"}), applicant("n2", 89, 82, lists={"racial"})]
    rows += [applicant("n3", 89, 83, lists={"racial"}), applicant("n4", 88, 84, lists={"racial"})]
    rows += [applicant("p1", 87, 91, lists={"pcd"}), applicant("p2", 86, 92, lists={"pcd"})]
    rows.append(applicant("late", 85, 99))
    ranked = rank(rows, registration_end=END)
    cut = phase_cut(ranked, 10, racial=RACIAL_20_SM, pcd=PCD_5)
    assert dict(cut.quota) == {"open": 7, "racial": 2, "pcd": 1}
    assert cut.on("open") == ("g1", "g2", "g3", "g4", "g5", "g6", "g7", "g7bis")
    assert cut.on("racial") == ("n1", "n2", "n3")  # n3 ties with n2, the last let through
    assert cut.on("pcd") == ("p1",)
    assert "late" not in cut.passed and "n4" not in cut.passed


def test_sm_art4_par1_a_cotista_through_the_general_list_does_not_use_a_reserved_place():
    rows = [applicant("n1", 99, 1, lists={"racial"}), applicant("a", 98, 2), applicant("b", 97, 3)]
    rows += [
        applicant("c", 96, 4),
        applicant("n2", 50, 5, lists={"racial"}),
        applicant("n3", 40, 6, lists={"racial"}),
    ]
    cut = phase_cut(rank(rows, registration_end=END), 5, racial=RACIAL_20_SM, quota={"open": 4, "racial": 1})
    assert cut.on("open") == ("n1", "a", "b", "c")
    assert cut.on("racial") == ("n2",)


@pytest.mark.parametrize(
    ("score", "mark", "expected"),
    [("50", "50", True), ("49,99", "50", False), ("81,52", "50", True), ("0", None, True)],
)
def test_sm_art4_par2_pass_mark_reached_at_the_mark_itself(score, mark, expected):
    from candidates.engine.ranking import reaches_pass_mark

    assert reaches_pass_mark(score, mark) is expected


def test_ar_art3_par1_a_restored_state_explains_the_collision_as_the_state_it_was_saved_from():
    """AR with PcD 5% at 5 vacancies: seat 5 is racial and the PcD seat passes to the 4th. The 5th call's
    reason says so whether the engine continues in memory or restarts from the saved snapshot (the app
    restores the ledger on every request), and the preview announces the same."""
    p = al.Params(al.ReserveRule(20, 0, "half_up"), al.ReserveRule(5, 1, "up", 20), order="every_nth", nth=5)
    roster = [al.Candidate(f"C{i}") for i in range(5)]
    state, _ = al.apply(al.initial_state(roster, p, vacancies=5), {"call": 4})
    restored = al.State.from_dict(state.to_dict(include_candidates=False), candidates=roster)
    _, in_memory = al.apply(state, {"call": 1})
    _, from_snapshot = al.apply(restored, {"call": 1})
    preview = al.preview_call(
        al.State.from_dict(state.to_dict(include_candidates=False), candidates=roster), 1
    )
    (seat5,) = in_memory.nominated
    assert seat5.kind == "racial" and seat5.reason.collided_with == ("pcd",) and seat5.reason.moved_to == (4,)
    assert from_snapshot.nominated == in_memory.nominated == preview.nominated
