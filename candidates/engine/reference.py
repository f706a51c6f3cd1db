"""The literal reading of RULES.md §4: slow and obvious, the reading the fast engine must agree with.

PURE module. Nothing here is clever: lists are plain Python lists, positions are list indexes, "the
best candidate not yet nominated" is the first one found by a scan, the schedule is recomputed from
scratch whenever a seat is created, and a call is undone by restoring a deep copy. The property tests
(``tests/candidates/test_allocation_properties.py``) run this and ``candidates.engine.allocation`` on
generated scenarios and require the same nominations, seat kinds and lists.

Each method quotes the sentence of §4 it implements.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from candidates.engine.ranking import Candidate
from candidates.engine.schedule import (
    COMPENSATION,
    LARGER_ONLY,
    OPEN,
    PCD,
    PROJECTED,
    RACIAL,
    RESERVES,
    Params,
    seat_rule,
)

HOLDING = ("active", "took_office", "on_hold")
NominationKey = tuple[int, int, str, str, str, str, bool, bool]


@dataclass
class NaiveNomination:
    order: int
    seat: int
    kind: str
    candidate: str
    list: str
    status: str = "active"
    reverted: bool = False
    compensated: bool = False
    reinstated: bool = False
    displaced: bool = False

    def key(self) -> NominationKey:
        return (
            self.order,
            self.seat,
            self.kind,
            self.candidate,
            self.list,
            self.status,
            self.reverted,
            self.compensated,
        )

    def flags(self) -> tuple[bool, bool]:
        """RULES §4 item 7's flags."""
        return self.reinstated, self.displaced


@dataclass
class Naive:
    params: Params
    people: list[Candidate]
    n: int = 0
    order: list[str] = field(default_factory=list)  # the general order now (end-of-list moves applied)
    removed: set[str] = field(default_factory=set)  # withdrawn, no-show or eliminated: off every list
    excluded: set[str] = field(default_factory=set)  # off the reserved lists
    kinds: list[str] = field(default_factory=list)  # kinds of the seats created so far
    noms: list[NaiveNomination] = field(default_factory=list)
    # §4 item 7: removals not yet undone (candidate, "eliminated"|"excluded", order of the nomination
    # annulled or 0); who is owed a seat (candidate, order of the nomination lost). Item 8: court holds.
    removals: list[tuple[str, str, int]] = field(default_factory=list)
    owed: list[tuple[str, int]] = field(default_factory=list)
    holds: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.order = [c.id for c in self.people]
        self.by_id = {c.id: c for c in self.people}
        # §3: the reserves each candidate opted for and the scenario sets; Decreto 12.536
        # (``larger_only``): a candidate on both is ranked only in the larger reserve.
        self.on: dict[str, set[str]] = {}
        larger = None
        if self.params.dual_rule == LARGER_ONLY and self.params.pcd is not None:
            r, p = self.params.racial.percent, self.params.pcd.percent
            larger = self.params.dual_default if r == p else (RACIAL if r > p else PCD)
        for c in self.people:
            lists = set(c.lists) & set(self.params.reserves)
            if larger and len(lists) > 1:
                lists = {larger}
            self.on[c.id] = lists

    # Lists (§3) -------------------------------------------------------------------------------------

    def general(self) -> list[str]:
        """The general list: everyone approved, nominees included, minus who left every list."""
        return [c for c in self.order if c not in self.removed]

    def reserved(self, name: str) -> list[str]:
        """A reserved list: who opted for it and was not excluded, in the same relative order."""
        return [c for c in self.general() if name in self.on[c] and c not in self.excluded]

    def lists(self) -> dict[str, list[str]]:
        out = {OPEN: self.general()}
        for name in self.params.reserves:
            out[name] = self.reserved(name)
        return out

    def nomination_of(self, cid: str) -> NaiveNomination | None:
        """The candidate's active nomination: "a candidate nominated on any seat can fill no other"."""
        for nom in self.noms:
            if nom.candidate == cid and nom.status in HOLDING:
                return nom
        return None

    def seat_holder(self, seat: int) -> NaiveNomination | None:
        for nom in self.noms:
            if nom.seat == seat and nom.status in HOLDING:
                return nom
        return None

    # The schedule ----------------------------------------------------------------------------------

    def schedule_now(self) -> list[str]:
        """ "The schedule for the n vacancies open now": "those kept kinds followed by the kinds the
        other seats would get if created one by one, n seats in all"."""
        kinds = list(self.kinds)
        while len(kinds) < self.n:
            kinds.append(seat_rule(self.params, kinds, self.n).kinds[len(kinds)])
        return kinds

    def new_seat_kind(self, seat: int) -> str:
        """ "When seat s is created, apply the rule … to seats s, s+1, …, n … seat s takes the kind it
        then has"."""
        return seat_rule(self.params, self.kinds, self.n).kinds[seat - 1]

    # The call (§4 "Who fills seat s" and item 3) -----------------------------------------------------

    def call(self, k: int) -> None:
        """Fill the call; then resolve simultaneous calls to both reserves (item 3): "hold that
        candidate for P, undo the call and fill it again from the start, keeping the earlier holds;
        repeat until a fill has neither a conflict nor a lapse"."""
        holds: dict[str, str] = {}  # candidate → the list P they are held for
        lapsed: set[str] = set()
        before = copy.deepcopy(self.__dict__)
        while True:
            self.__dict__.update(copy.deepcopy(before))
            first = len(self.noms)
            self._fill(k, holds)
            made = self.noms[first:]
            # "If a fill leaves held candidates un-nominated, their holds lapse before any conflict is
            # looked for": fill again without them; "not held again in that call".
            left_out = [c for c in holds if self.nomination_of(c) is None]
            if left_out:
                for c in left_out:
                    del holds[c]
                    lapsed.add(c)
                continue
            conflict = self._conflict(made, lapsed)
            if conflict is None:
                return
            cid, preferred = conflict
            holds[cid] = preferred

    def _conflict(self, made: list[NaiveNomination], lapsed: set[str]) -> tuple[str, str] | None:
        """ "Look, in the order the call made them, at its nominations that came from a reserved list L
        when the fill ends. The first whose candidate is also on the list P ≠ L they prefer, while a seat
        filled by this call that is of kind P when the fill ends reverted or went to someone ranked below
        them, is a conflict.\""""
        for nom in made:
            if nom.list not in RESERVES:  # open, reverted or compensated in this call: no conflict
                continue
            if nom.reinstated:  # item 7: "item 3 ignores them, both as a nomination that may be a conflict"
                continue
            cid = nom.candidate
            if not all(cid in self.reserved(name) for name in RESERVES):
                continue
            preferred = self.by_id[cid].prefers or self.params.dual_default
            if preferred == nom.list or cid in lapsed:
                continue
            p_list = self.reserved(preferred)
            for other in made:
                # "… and as the seat that may cause one"
                if self.kinds[other.seat - 1] != preferred or other.reinstated:
                    continue
                if other.reverted:
                    return cid, preferred
                if other.candidate in p_list and p_list.index(other.candidate) > p_list.index(cid):
                    return cid, preferred
        return None

    def _fill(self, k: int, holds: dict[str, str]) -> None:
        params = self.params
        rule = params.open_competition_rule
        # ``projected``: "whose position in the general list … is greater than the number of open
        # seats in the schedule for the n vacancies open now".
        open_count = self.schedule_now().count(OPEN)
        filled = 0
        while filled < k:
            # What filling a seat changes before it may stop: ``_compensate`` changes the seats' kinds and
            # nominations in place (nothing else refers to those nominations).
            saved = copy.deepcopy((self.kinds, self.noms))
            # "A call fills freed seats first, lowest number first, then new seats."
            freed = [s for s in range(1, len(self.kinds) + 1) if self.seat_holder(s) is None]
            if freed:
                seat, new = freed[0], False
                if self.kinds[seat - 1] == OPEN and rule == COMPENSATION:
                    self._compensate()
                kind = self.kinds[seat - 1]
            elif len(self.kinds) < self.n:
                seat, new = len(self.kinds) + 1, True
                kind = self.new_seat_kind(seat)
                # "Before a seat whose kind is open is filled, … compensated …, and a new seat's kind
                # is computed again (so it may become reserved)."
                if kind == OPEN and rule == COMPENSATION and self._compensate():
                    kind = self.new_seat_kind(seat)
            else:
                return
            general = self.general()

            def not_nominated(cid: str) -> bool:
                return self.nomination_of(cid) is None

            def qualifies(cid: str, general: list[str] = general) -> bool:
                return rule != PROJECTED or general.index(cid) + 1 > open_count

            chosen: str | None
            listed = OPEN
            reverted = False
            if kind == OPEN:
                # Held candidates: "open seats pass them over under projected and actual, but under
                # compensation an open seat takes them when they are the best of the general list not
                # yet nominated".
                chosen = next(
                    (c for c in general if not_nominated(c) and (c not in holds or rule == COMPENSATION)),
                    None,
                )
            else:
                # "A held candidate competes as usual for the seats of kind P … and is passed over by
                # every other seat, reverted seats included."
                chosen = next(
                    (
                        c
                        for c in self.reserved(kind)
                        if not_nominated(c) and holds.get(c, kind) == kind and qualifies(c)
                    ),
                    None,
                )
                listed = kind
                if chosen is None:
                    # "If nobody qualifies, the seat reverts: it is filled as an open seat."
                    chosen = next((c for c in general if not_nominated(c) and c not in holds), None)
                    listed, reverted = OPEN, True
            owed = self._owed_for(kind, holds)
            if owed is not None:
                chosen, listed, reverted = owed, kind, False
            if chosen is None:
                # "If nobody at all is left to fill a seat, the call stops there (a new seat is not
                # created)."
                self.kinds, self.noms = saved
                return
            if new:
                self.kinds.append(kind)
            self.noms.append(
                NaiveNomination(
                    len(self.noms) + 1,
                    seat,
                    kind,
                    chosen,
                    listed,
                    status="on_hold" if chosen in self.holds else "active",
                    reverted=reverted,
                    reinstated=owed is not None,
                )
            )
            filled += 1

    def _owed_for(self, kind: str, holds: dict[str, str]) -> str | None:
        """Item 7: "a seat goes to the first owed candidate who qualifies for its kind (any of them for an
        open seat; one on list L for a seat of kind L, whatever their rank)"."""
        for cid, _ in self.owed:
            if self.nomination_of(cid) is not None or cid in self.removed or cid in holds:
                continue
            if kind == OPEN or cid in self.reserved(kind):
                return cid
        return None

    def _compensate(self) -> bool:
        """ "Every active nomination that came from a reserved list and whose nominee stands in the
        general list above the best candidate not yet nominated is compensated." A held candidate is
        not yet nominated."""
        general = self.general()
        best = next((i for i, c in enumerate(general) if self.nomination_of(c) is None), len(general))
        changed = False
        for nom in self.noms:
            if nom.status in HOLDING and nom.list in RESERVES and general.index(nom.candidate) < best:
                self.kinds[nom.seat - 1] = OPEN
                nom.kind = OPEN
                nom.list = OPEN
                nom.compensated = True
                changed = True
        return changed

    # Other events (§4 item 4, §8) ------------------------------------------------------------------

    def open_vacancies(self, k: int) -> None:
        self.n += k

    def _end(self, cid: str, status: str) -> None:
        nom = self.nomination_of(cid)
        if nom is not None:
            nom.status = status

    def _forget(self, cid: str, *, end_hold: bool) -> None:
        """ "removed again … or sent to the end of the lists at their request is owed nothing more";
        "elimination and withdrawal end a court hold"."""
        self.owed = [o for o in self.owed if o[0] != cid]
        if end_hold:
            self.holds.discard(cid)

    def withdraw(self, cid: str, status: str = "withdrawn") -> None:
        self._end(cid, status)
        self.removed.add(cid)
        self._forget(cid, end_hold=True)

    def no_show(self, cid: str) -> None:
        self.withdraw(cid, "no_show")

    def eliminate(self, cid: str) -> None:
        """ "eliminate of a candidate already off every list changes nothing"."""
        if cid not in self.removed:
            nom = self.nomination_of(cid)
            self._end(cid, "annulled")
            self.removals.append((cid, "eliminated", nom.order if nom else 0))
            self._forget(cid, end_hold=True)
        self.removed.add(cid)

    def exclude_from_reserve(self, cid: str) -> None:
        nom = self.nomination_of(cid)
        annulled = 0
        if nom is not None and nom.list in RESERVES:
            nom.status = "annulled"
            annulled = nom.order
        self.excluded.add(cid)
        self.removals.append((cid, "excluded", annulled))
        self._forget(cid, end_hold=False)

    def end_of_list(self, cid: str) -> None:
        self._end(cid, "end_of_list")
        self.order.remove(cid)
        self.order.append(cid)
        self._forget(cid, end_hold=False)

    def took_office(self, cid: str) -> None:
        nom = self.nomination_of(cid)
        assert nom is not None
        nom.status = "took_office"

    # §4 items 7 and 8 -------------------------------------------------------------------------------

    def reinstate(self, cid: str) -> None:
        """ "reinstate undoes the candidate's latest removal by eliminate or exclude_from_reserve … If
        that removal annulled a nomination of theirs …, the candidate is owed a seat"."""
        k = max(i for i, r in enumerate(self.removals) if r[0] == cid)
        _, what, order = self.removals.pop(k)
        (self.removed if what == "eliminated" else self.excluded).discard(cid)
        # "A candidate who holds a nomination again when reinstated is owed nothing."
        if not order or self.nomination_of(cid) is not None:
            return
        if self.params.reinstatement == "next_seat":
            self._owe(cid, order)
            return
        lost = self.noms[order - 1]
        holder = self.seat_holder(lost.seat)
        if holder is not None:
            # "If the seat holds an earlier nomination (itself restored), that one stays and the
            # reinstated candidate is owed a seat as under next_seat instead."
            if holder.order < order or holder.status not in ("active", "on_hold"):
                self._owe(cid, order)
                return
            # "a nomination made later on that seat and still active or on hold is annulled with
            # displaced: true, and its nominee, still on the lists, is owed a seat"
            holder.status = "annulled"
            holder.displaced = True
            self._owe(holder.candidate, holder.order)
        # "the lost nomination takes its seat again with reinstated: true, the seat's current kind and
        # the list of that kind …, on hold if the candidate is under a court hold, else active"
        lost.kind = lost.list = self.kinds[lost.seat - 1]
        lost.status = "on_hold" if cid in self.holds else "active"
        lost.reinstated = True
        lost.reverted = lost.compensated = False

    def _owe(self, cid: str, order: int) -> None:
        """ "in the order of the nominations they lost" """
        self.owed.append((cid, order))
        self.owed.sort(key=lambda o: o[1])

    def court_hold(self, cid: str) -> None:
        """ "an active nomination of theirs becomes on_hold" """
        self.holds.add(cid)
        nom = self.nomination_of(cid)
        if nom is not None and nom.status == "active":
            nom.status = "on_hold"

    def court_release(self, cid: str) -> None:
        """ "a nomination on hold becomes active" """
        self.holds.discard(cid)
        nom = self.nomination_of(cid)
        if nom is not None and nom.status == "on_hold":
            nom.status = "active"

    def settle(self) -> None:
        """After a call: an owed candidate who holds a nomination is owed nothing more."""
        self.owed = [o for o in self.owed if self.nomination_of(o[0]) is None and o[0] not in self.removed]

    def run(self, event: dict[str, Any]) -> None:
        ((name, value),) = event.items()
        getattr(self, "open_vacancies" if name == "open" else name)(value)
        if name == "call":
            self.settle()
