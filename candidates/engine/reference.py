"""A slow, literal reading of RULES.md §4, to check the fast engine against (tests only).

Every question is answered by scanning plain Python lists: positions are list indexes, "the best
candidate not yet nominated" is the first one found. A simultaneous call to both reserves is resolved
exactly as the rule says: hold the candidate for the seat they prefer and fill the *whole* call again
from the state before it (the engine resumes from the seat they had landed on; both must agree).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

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
    next_kind,
    project,
)

HOLDING = ("active", "took_office")


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

    def key(self) -> tuple:
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


@dataclass
class Naive:
    params: Params
    people: list[Candidate]
    n: int = 0
    order: list[str] = field(default_factory=list)  # the general order now (end-of-list moves applied)
    removed: set[str] = field(default_factory=set)
    excluded: set[str] = field(default_factory=set)
    kinds: list[str] = field(default_factory=list)
    noms: list[NaiveNomination] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = [c.id for c in self.people]
        self.by_id = {c.id: c for c in self.people}
        self.on = {}
        larger = None
        if self.params.dual_rule == LARGER_ONLY and self.params.pcd is not None:
            r, p = self.params.racial.percent, self.params.pcd.percent
            larger = self.params.dual_default if r == p else (RACIAL if r > p else PCD)
        for c in self.people:
            lists = set(c.lists)
            if self.params.pcd is None:
                lists.discard(PCD)
            if larger and len(lists) > 1:
                lists = {larger}
            self.on[c.id] = lists

    # Lists ------------------------------------------------------------------------------------------

    def general(self) -> list[str]:
        return [c for c in self.order if c not in self.removed]

    def reserved(self, name: str) -> list[str]:
        return [c for c in self.general() if name in self.on[c] and c not in self.excluded]

    def holder(self, cid: str) -> NaiveNomination | None:
        for nom in self.noms:
            if nom.candidate == cid and nom.status in HOLDING:
                return nom
        return None

    def seat_holder(self, seat: int) -> NaiveNomination | None:
        for nom in self.noms:
            if nom.seat == seat and nom.status in HOLDING:
                return nom
        return None

    def lists(self) -> dict[str, list[str]]:
        out = {OPEN: self.general()}
        for name in self.params.reserves:
            out[name] = self.reserved(name)
        return out

    # The call --------------------------------------------------------------------------------------

    def call(self, k: int) -> None:
        holds: dict[str, tuple[int, str]] = {}
        no_hold: set[str] = set()
        snapshot = copy.deepcopy(self.__dict__)
        while True:
            self.__dict__.update(copy.deepcopy(snapshot))
            conflict = self._fill(k, holds, no_hold)
            if conflict is not None:
                cid, seat, kind = conflict
                holds[cid] = (seat, kind)
                continue
            unused = [c for c in holds if self.holder(c) is None]
            if unused:
                for c in unused:
                    del holds[c]
                    no_hold.add(c)
                continue
            return

    def _fill(self, k: int, holds: dict[str, tuple[int, str]], no_hold: set[str]) -> tuple | None:
        params = self.params
        projected = params.open_competition_rule == PROJECTED
        open_count = project(params, self.kinds, self.n).count(OPEN) if projected else 0
        pending: list[tuple[str, str]] = []  # (dual candidate seated on their other reserve, preferred)
        filled = 0
        while filled < k:
            before = copy.deepcopy(self.__dict__)
            freed = [s for s in range(1, len(self.kinds) + 1) if self.seat_holder(s) is None]
            if freed:
                seat, new = freed[0], False
                kind = self.kinds[seat - 1]
                if kind == OPEN and params.open_competition_rule == COMPENSATION:
                    self._compensate()
            elif len(self.kinds) < self.n:
                seat, new = len(self.kinds) + 1, True
                kind = self._new_kind(seat)
                if kind == OPEN and params.open_competition_rule == COMPENSATION and self._compensate():
                    kind = self._new_kind(seat)
            else:
                return None
            general = self.general()

            def free(cid: str, general: list[str] = general) -> bool:
                return self.holder(cid) is None and cid not in holds

            def qualifies(cid: str, general: list[str] = general) -> bool:
                return not projected or general.index(cid) + 1 > open_count

            via = "open"
            held = [c for c, (s, kd) in holds.items() if s == seat and kd == kind]
            if held:
                chosen = held[0]
                via = "held"
            elif kind == OPEN:
                chosen = next((c for c in general if free(c)), None)
            else:
                via = "reserved"
                chosen = next((c for c in self.reserved(kind) if free(c) and qualifies(c)), None)
                if chosen is None:
                    via = "reverted"
                    chosen = next((c for c in general if free(c)), None)
            if chosen is None:
                self.__dict__.update(before)
                return None
            if new:
                self.kinds.append(kind)
            listed = OPEN if via in ("open", "reverted") else kind
            self.noms.append(
                NaiveNomination(len(self.noms) + 1, seat, kind, chosen, listed, reverted=via == "reverted")
            )
            filled += 1
            if kind in RESERVES and via in ("reserved", "reverted"):
                lst = self.reserved(kind)
                best = None
                for cid, preferred in pending:
                    if preferred != kind or cid in no_hold or cid not in lst or not qualifies(cid):
                        continue
                    if via == "reserved" and lst.index(cid) > lst.index(chosen):
                        continue
                    if best is None or lst.index(cid) < lst.index(best):
                        best = cid
                if best is not None:
                    return best, seat, kind
            if via == "reserved" and chosen in self.reserved(RACIAL) and chosen in self.reserved(PCD):
                preferred = self.by_id[chosen].prefers or params.dual_default
                if preferred != kind and chosen not in no_hold:
                    pending.append((chosen, preferred))
        return None

    def _new_kind(self, seat: int) -> str:
        kind, _ = next_kind(self.params, seat, self.n, self.kinds.count(RACIAL), self.kinds.count(PCD))
        return kind

    def _compensate(self) -> bool:
        general = self.general()
        best = next((i for i, c in enumerate(general) if self.holder(c) is None), len(general))
        changed = False
        for nom in self.noms:
            if nom.status in HOLDING and nom.list in RESERVES and general.index(nom.candidate) < best:
                self.kinds[nom.seat - 1] = OPEN
                nom.kind = OPEN
                nom.list = OPEN
                nom.compensated = True
                changed = True
        return changed

    # Other events ----------------------------------------------------------------------------------

    def open(self, k: int) -> None:
        self.n += k

    def end(self, cid: str, status: str) -> None:
        nom = self.holder(cid)
        if nom is not None:
            nom.status = status

    def withdraw(self, cid: str, status: str = "withdrawn") -> None:
        self.end(cid, status)
        self.removed.add(cid)

    def eliminate(self, cid: str) -> None:
        if cid not in self.removed:
            self.end(cid, "annulled")
        self.removed.add(cid)

    def exclude_from_reserve(self, cid: str) -> None:
        nom = self.holder(cid)
        if nom is not None and nom.list in RESERVES:
            nom.status = "annulled"
        self.excluded.add(cid)

    def end_of_list(self, cid: str) -> None:
        self.end(cid, "end_of_list")
        self.order.remove(cid)
        self.order.append(cid)

    def took_office(self, cid: str) -> None:
        nom = self.holder(cid)
        assert nom is not None
        nom.status = "took_office"

    def run(self, event: dict) -> None:
        ((name, value),) = event.items()
        if name == "withdraw":
            self.withdraw(value)
        elif name == "no_show":
            self.withdraw(value, "no_show")
        else:
            getattr(self, name)(value)
