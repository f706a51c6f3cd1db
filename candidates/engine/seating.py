"""Who fills each seat (RULES.md §4): the working index behind ``candidates.engine.allocation``.

PURE module: standard library, ``contests.quotas`` and the other pure modules of ``candidates`` only.
Not a public API: ``candidates.engine.allocation`` owns one ``Seating`` per state and hands it from a state to
the next one, so a million candidates are indexed once, not once per event.

Lists are arrays of *entries* (a candidate moved to the end of the lists gets a new entry; the old one
dies). Two Fenwick trees per list count the entries still on the list (``alive``: nominees included,
withdrawn and eliminated candidates not) and those who can still be called (``avail``: alive and
holding no active nomination). "Position in the general list" is a prefix sum of ``alive``; "the best
candidate not yet nominated" is the first positive ``avail``; both O(log n).

A call mutates the index and writes an undo journal (named tuples, undone in reverse order): a
simultaneous call to both reserves (SM art. 4 §7) is resolved by holding the candidate for the list they
prefer and filling the call again from the seat where they had landed (a lapsed hold: from the start),
and a preview (``allocation.preview_call``) rolls the whole call back.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple

from candidates.engine.fenwick import Fenwick
from candidates.engine.records import (
    ACTIVE,
    ANNULLED,
    END_OF_LIST,
    HOLDING,
    NO_SHOW,
    WITHDRAWN,
    Nomination,
    Reason,
    Roster,
    ordinal,
)
from candidates.engine.schedule import (
    COMPENSATION,
    EVERY_NTH,
    LARGER_ONLY,
    OPEN,
    PCD,
    PROJECTED,
    RACIAL,
    RESERVES,
    Params,
    Projection,
    explain_kind,
    loser_seat,
    next_kind,
    project,
    project_detailed,
    seat_rule,
    share_text,
)
from contests.quotas import format_percent


class Via(Enum):
    """How a seat found its nominee (RULES §4)."""

    OPEN = "open"  # an open seat: the best of the general list not yet nominated
    RESERVED = "reserved"  # a reserved seat: the best of its list who qualifies
    REVERTED = "reverted"  # a reserved seat nobody qualified for: filled as an open seat
    HELD = "held"  # a dual candidate held for the list they prefer (SM art. 4 §7)


class Fill(NamedTuple):
    """One seat filled by the call being made: where the journal stood before it, who, which seat."""

    mark: int
    candidate: int
    seat: int
    kind: str
    contenders: tuple[str, ...]  # reserves that also wanted this new seat and lost it
    new: bool  # created by this call (not a freed seat)
    made_up: bool  # given to its list by the make-up that delivers the reserves
    via: Via


class Hold(NamedTuple):
    """A dual candidate held for the list they prefer, and the seat of the other list they had landed on."""

    preferred: str
    landed_seat: int
    landed_kind: str


# The undo journal of a call: one entry per change, undone in reverse order.
class NominationMade(NamedTuple):
    candidate: int
    seat: int
    held: bool  # the candidate was held: undoing it holds them again


class SeatCreated(NamedTuple):
    kind: str


class FreedSeatTaken(NamedTuple):
    seat: int


class HoldPlaced(NamedTuple):
    candidate: int


class CompensationChecked(NamedTuple):
    entry: tuple[int, int, int]  # (general entry, seat, candidate) popped from the compensation heap


class Compensation(NamedTuple):
    nomination: int  # index of the nomination compensated
    before: Nomination
    seat: int
    kind: str  # the seat's kind before


JournalEntry = NominationMade | SeatCreated | FreedSeatTaken | HoldPlaced | CompensationChecked | Compensation


class _Cached(NamedTuple):
    n: int
    projection: Projection
    open_count: int


_EVERYONE = 1 << 62  # a rank below everyone's (a reverted seat passes over every candidate)

_FREED_BY = {
    WITHDRAWN: "desistência de {}",
    NO_SHOW: "{} não tomou posse",
    ANNULLED: "anulação da nomeação de {}",
    END_OF_LIST: "pedido de {} para ir ao fim da lista",
}


class _List:
    """One classification list: entries (candidate indexes), their general entries, two Fenwicks."""

    __slots__ = ("alive", "avail", "cur", "entries", "gpos")

    def __init__(self, entries: array[int], gpos: array[int] | None, size: int, cur: array[int]) -> None:
        self.entries = entries
        self.gpos = gpos  # None for the general list (an entry is its own general position)
        self.alive = Fenwick.ones(size)  # the builder patches the exceptions
        self.avail = Fenwick.ones(size)
        self.cur = cur  # candidate → its current entry, −1 if none


class Seating:
    """The mutable index of one state, built from the state's plain data."""

    def __init__(
        self,
        params: Params,
        roster: Roster,
        vacancies: int,
        seats: tuple[str, ...],
        nominations: tuple[Nomination, ...],
        removed: Iterable[str],
        excluded: Iterable[str],
        end_of_list: Iterable[str],
    ) -> None:
        self.params = params
        self.roster = roster
        self.candidates = candidates = roster.candidates
        self.n = vacancies
        size = len(candidates)
        removed, excluded, end_of_list = list(removed), list(excluded), list(end_of_list)
        # id → position of every candidate the state names; grows with each nomination (``lookup``).
        self.known = roster.locate_many(
            [*(nom.candidate for nom in nominations), *removed, *excluded, *end_of_list]
        )
        index = self.known
        cotistas = roster.cotistas
        members: dict[str, list[int]] = {
            name: [i for i in cotistas if name in candidates[i][1]] if name in params.reserves else []
            for name in RESERVES
        }
        larger = _larger_reserve(params)
        if larger is not None:  # Decreto 12.536: a dual candidate is ranked only in the larger reserve
            smaller = PCD if larger == RACIAL else RACIAL
            both = set(members[larger])
            members[smaller] = [i for i in members[smaller] if i not in both]
        self.on = {RACIAL: bytearray(size), PCD: bytearray(size)}
        for name in RESERVES:
            flags = self.on[name]
            for i in members[name]:
                flags[i] = 1
        self._removed_list = sorted({index[cid] for cid in removed})
        self._excluded_list = sorted({index[cid] for cid in excluded})
        self.removed = bytearray(size)
        for c in self._removed_list:
            self.removed[c] = 1
        self.excluded = bytearray(size)
        for c in self._excluded_list:
            self.excluded[c] = 1
        self.holding = bytearray(size)
        self.nominations = list(nominations)
        self.active_of: dict[int, int] = {}
        self.kinds = list(seats)
        self.served = {OPEN: 0, RACIAL: 0, PCD: 0}
        for kind in self.kinds:
            self.served[kind] += 1
        self.holder = [-1] * (len(self.kinds) + 1)  # seat → index of its holding nomination
        self.last_ended: dict[int, int] = {}
        for i, nom in enumerate(self.nominations):
            if nom.status in HOLDING:
                c = index[nom.candidate]
                self.holding[c] = 1
                self.active_of[c] = i
                self.holder[nom.seat] = i
            else:
                self.last_ended[nom.seat] = i
        self.freed = [s for s in range(1, len(self.kinds) + 1) if self.holder[s] < 0]
        heapq.heapify(self.freed)
        self._build_lists(list(end_of_list), members)
        self.comp_heap: list[tuple[int, int, int]] = []
        if params.open_competition_rule == COMPENSATION:
            for c, i in self.active_of.items():
                nom = self.nominations[i]
                if nom.list in RESERVES:
                    self.comp_heap.append((self.general.cur[c], nom.seat, c))
            heapq.heapify(self.comp_heap)
        self.journal: list[JournalEntry] = []
        self.held: set[int] = set()
        self._projection: _Cached | None = None
        self._why_kinds: list[str] | None = None

    def _build_lists(self, moves: list[str], members: dict[str, list[int]]) -> None:
        """Entries in order (a move to the end appends one), Fenwicks built as all ones, then patched:
        the exceptions (dead entries, holders) are few next to a million candidates."""
        size = len(self.candidates)
        moved = [self.known[cid] for cid in moves]
        dead: dict[str, list[int]] = {OPEN: [], RACIAL: [], PCD: []}
        g_entries = array("l", range(size))
        g_entries.extend(moved)
        g_cur = array("l", range(size))
        for i, c in enumerate(moved):
            dead[OPEN].append(g_cur[c])  # the entry a move to the end leaves behind
            g_cur[c] = size + i
        self.general = _List(g_entries, None, len(g_entries), g_cur)
        self.lists = {OPEN: self.general}
        for name in RESERVES:
            on = self.on[name]
            entries = array("l", members[name])
            gpos = array("l", members[name])
            cur = array("l", [-1]) * size
            for e, c in enumerate(members[name]):
                cur[c] = e
            for i, c in enumerate(moved):
                if on[c]:
                    dead[name].append(cur[c])
                    cur[c] = len(entries)
                    entries.append(c)
                    gpos.append(size + i)
            self.lists[name] = _List(entries, gpos, len(entries), cur)
        for c in self._removed_list:
            for name, lst in self.lists.items():
                if name == OPEN or self.on[name][c]:
                    dead[name].append(lst.cur[c])
        for c in self._excluded_list:
            for name in RESERVES:
                if self.on[name][c] and not self.removed[c]:
                    dead[name].append(self.lists[name].cur[c])
        for name, entries_off in dead.items():
            lst = self.lists[name]
            for e in entries_off:
                lst.alive.add(e, -1)
                lst.avail.add(e, -1)
        for c in self.active_of:
            for lst in self.on_lists(c):
                lst.avail.add(lst.cur[c], -1)

    # Membership -------------------------------------------------------------------------------------

    def on_lists(self, c: int) -> list[_List]:
        """The lists ``c`` is on now (alive entries)."""
        if self.removed[c]:
            return []
        found = [self.general]
        if not self.excluded[c]:
            for name in RESERVES:
                if self.on[name][c]:
                    found.append(self.lists[name])
        return found

    def lookup(self, cid: object) -> int:
        """The position of candidate ``cid`` (a Portuguese error if unknown)."""
        found = self.known.get(cid) if isinstance(cid, str) else None
        if found is None:
            found = self.known[cid] = self.roster.locate(cid)  # type: ignore[index]
        return found

    def is_on(self, name: str, c: int) -> bool:
        return not self.removed[c] and not self.excluded[c] and bool(self.on[name][c])

    def _set_avail(self, c: int, delta: int) -> None:
        """Count ``c`` in (+1) or out of (−1) "not yet nominated" on every list they are on now."""
        if self.removed[c]:
            return
        g = self.general
        g.avail.add(g.cur[c], delta)
        if not self.excluded[c]:
            for name in RESERVES:
                if self.on[name][c]:
                    lst = self.lists[name]
                    lst.avail.add(lst.cur[c], delta)

    def position(self, name: str, c: int) -> int:
        """1-based position of ``c`` on list ``name``, nominees included (RULES §4, ``projected``)."""
        lst = self.lists[name]
        return lst.alive.prefix(lst.cur[c] + 1)

    # Schedule -------------------------------------------------------------------------------------

    def projection(self) -> Projection:
        """The schedule for the ``n`` vacancies open now (kept kinds, then the kinds the other seats
        would get if created one by one), with its collisions and made-up seats. Without compensation a
        created seat always takes its kind in it, so it stays valid until ``n`` changes (a rollback only
        removes seats it was made from); with compensation it is not used for new seats."""
        cached = self._projection
        if cached is None or cached.n != self.n:
            projection = project_detailed(self.params, self.kinds, self.n)
            if self.kinds:
                # Explain the collisions of the schedule as it was made, whatever seats exist now: the
                # one from scratch when the created seats followed it (a restored state then says what
                # the state it was saved from said), else the one among the seats still to create.
                scratch = project_detailed(self.params, (), self.n)
                if scratch.kinds == projection.kinds:
                    projection = projection._replace(collisions=scratch.collisions)
            cached = self._projection = _Cached(self.n, projection, projection.kinds.count(OPEN))
        return cached.projection

    def open_seat_count(self) -> int:
        """Open seats in the schedule for the ``n`` vacancies open now (RULES §4, ``projected``)."""
        self.projection()
        assert self._projection is not None
        return self._projection.open_count

    def _new_seat_kind(self, seat: int) -> tuple[str, tuple[str, ...], bool]:
        """The kind a new seat takes (RULES §4): its kind in the schedule computed when it is created,
        the reserves it beat, and whether the make-up gave it to its list."""
        params = self.params
        if params.open_competition_rule != COMPENSATION:
            projection = self.projection()
            return projection.kinds[seat - 1], projection.collisions.get(seat, ()), seat in projection.made_up
        # Compensation moves kept kinds: no cached projection. The greedy kind decides unless the
        # make-up could reach this seat: it converts open seats latest first, at most as many as the
        # reserved seats still owed, and at least (seats left − seats owed) of the seats left are open.
        kind, contenders = next_kind(params, seat, self.n, self.served[RACIAL], self.served[PCD])
        if kind != OPEN:
            return kind, contenders, False
        owed = sum(max(0, params.count(name, self.n) - self.served[name]) for name in params.reserves)
        if 2 * owed < self.n - seat + 1:
            return kind, contenders, False
        step = seat_rule(params, self.kinds, self.n)
        return step.kinds[seat - 1], step.collisions.get(seat, ()), seat in step.made_up

    # Journal ------------------------------------------------------------------------------------

    def rollback(self, mark: int) -> None:
        journal = self.journal
        while len(journal) > mark:
            op = journal.pop()
            if isinstance(op, NominationMade):
                self.nominations.pop()
                self.holding[op.candidate] = 0
                del self.active_of[op.candidate]
                self.holder[op.seat] = -1
                if op.held:
                    self.held.add(op.candidate)  # back to held: its own journal entry, earlier, releases it
                else:
                    self._set_avail(op.candidate, +1)
            elif isinstance(op, SeatCreated):
                kind = self.kinds.pop()
                self.served[kind] -= 1
                self.holder.pop()
            elif isinstance(op, FreedSeatTaken):
                heapq.heappush(self.freed, op.seat)
            elif isinstance(op, HoldPlaced):
                self.held.discard(op.candidate)
                self._set_avail(op.candidate, +1)
            elif isinstance(op, CompensationChecked):
                heapq.heappush(self.comp_heap, op.entry)
            else:
                self.nominations[op.nomination] = op.before
                self.kinds[op.seat - 1] = op.kind
                self.served[OPEN] -= 1
                self.served[op.kind] += 1

    # The call (RULES §4) ---------------------------------------------------------------------------

    def call(self, k: int) -> tuple[int, list[int], bool]:
        """Fill up to ``k`` seats: freed seats first (lowest number first), then new ones (RULES §4).

        An open seat takes the best candidate of the general list not yet nominated, a cotista too
        (SM art. 4 caput and §3); a reserved seat the best of its list who qualifies under the policy's
        open-competition rule (SM art. 4 §3); nobody qualifying, the seat reverts to the general list
        and keeps its kind (SM art. 4 §5; AR art. 1 §6, read seat by seat). Nobody left at all: the call
        stops there and creates no seat.

        Dual candidates (SM art. 4 §7, RULES §4 item 3): once the fill ends, the first nomination (in
        call order) from a reserved list L whose nominee prefers the other list P, while a seat of kind
        P of this call reverted or went to someone ranked below them, is a conflict: the candidate is
        held for P and the call filled again. Nothing before the seat they had landed on can change
        (they were free there and nobody took them), so the fill resumes from it; the reference engine
        refills the whole call and the property tests check both agree. A fill that leaves a held
        candidate out lapses the hold: the whole call is filled again without it.

        Returns (index of the first new nomination, indexes of nominations compensated in this call,
        whether the call stopped because nobody at all was left). The journal is left in place so the
        caller may roll the call back (a preview) or clear it (a commit).
        """
        self.journal = []
        first = len(self.nominations)
        params = self.params
        projected = params.open_competition_rule == PROJECTED
        cut = None  # general entry of the first candidate beyond open competition
        open_count = 0
        if projected:
            open_count = self.open_seat_count()
            entry = self.general.alive.find(open_count + 1)
            cut = entry if entry < self.general.alive.size else None
        # Where each reserved list starts beyond open competition: fixed for the whole call.
        starts = {name: self._start(name, cut, projected) for name in RESERVES}
        fills: list[Fill] = []
        holds: dict[int, Hold] = {}
        lapsed: set[int] = set()
        stopped = False
        while True:
            stopped = self._fill(k, fills, holds, starts)
            left_out = [c for c in holds if not self.holding[c]]
            if left_out:
                # The hold lapses: fill the whole call again without it (never held again in this call).
                for c in left_out:
                    del holds[c]
                    lapsed.add(c)
                self.rollback(0)
                fills.clear()
                for c in holds:
                    self._hold(c)
                continue
            conflict = self._dual_conflict(fills, first, lapsed)
            if conflict is None:
                break
            i, c, preferred = conflict
            landed = fills[i]
            self.rollback(landed.mark)
            del fills[i:]
            holds[c] = Hold(preferred, landed.seat, landed.kind)
            # Every hold applies from the start of the call: those the rollback undid (placed at a later
            # resume point) are placed again here, with the new one.
            for h in holds:
                if h not in self.held and not self.holding[h]:
                    self._hold(h)
        self._why_kinds = None
        for i, fill in enumerate(fills, start=first):
            nom = self.nominations[i]
            reason = self._reason(fill, cut, open_count, holds.get(fill.candidate))
            # nom.why holds a compensation note made during this call, if any.
            self.nominations[i] = nom._replace(why=reason.text() + nom.why, reason=reason)
        compensated = sorted(
            {op.nomination for op in self.journal if isinstance(op, Compensation) and op.nomination < first}
        )
        return first, compensated, stopped

    def _fill(self, k: int, fills: list[Fill], holds: dict[int, Hold], starts: dict[str, int]) -> bool:
        """Fill seats until the call has ``k`` nominations; True if it stopped for want of candidates."""
        compensation = self.params.open_competition_rule == COMPENSATION
        while len(fills) < k:
            mark = len(self.journal)
            got = self._next_seat()
            if got is None:
                return False
            seat, kind, contenders, new, made_up = got
            if kind == OPEN:
                c, via = self._best_general(), Via.OPEN
                if compensation and self.held:
                    # Reached by the open list, a held candidate is open competition anyway (SM art. 4 §3).
                    for h in self.held:
                        if c < 0 or self.general.cur[h] < self.general.cur[c]:
                            c, via = h, Via.HELD
            else:
                c, via = self._best_reserved(kind, starts[kind]), Via.RESERVED
                lst = self.lists[kind]
                for h in self.held:
                    # A held candidate competes as usual for the seats of the list they are held for.
                    qualifies = holds[h].preferred == kind and lst.cur[h] >= starts[kind] >= 0
                    if qualifies and (c < 0 or lst.cur[h] < lst.cur[c]):
                        c, via = h, Via.HELD
                if c < 0:
                    c, via = self._best_general(), Via.REVERTED
            if c < 0:
                self.rollback(mark)
                return True
            self._nominate(c, seat, kind, via)
            # The explanation is written once the call is settled: everything it quotes is fixed then.
            fills.append(Fill(mark, c, seat, kind, contenders, new, made_up, via))
        return False

    def _hold(self, c: int) -> None:
        """Hold ``c`` for their preferred list until the call ends (passed over by other seats)."""
        self.held.add(c)
        self._set_avail(c, -1)
        self.journal.append(HoldPlaced(c))

    def _next_seat(self) -> tuple[int, str, tuple[str, ...], bool, bool] | None:
        params = self.params
        if self.freed:
            seat = heapq.heappop(self.freed)
            self.journal.append(FreedSeatTaken(seat))
            kind = self.kinds[seat - 1]
            if kind == OPEN and params.open_competition_rule == COMPENSATION:
                self._compensate(seat)
            return seat, self.kinds[seat - 1], (), False, False
        seat = len(self.kinds) + 1
        if seat > self.n:
            return None
        kind, contenders, made_up = self._new_seat_kind(seat)
        if kind == OPEN and params.open_competition_rule == COMPENSATION and self._compensate(seat):
            # The reserves' deficits reappeared: the new seat's kind is computed again.
            kind, contenders, made_up = self._new_seat_kind(seat)
        self.kinds.append(kind)
        self.served[kind] += 1
        self.holder.append(-1)
        self.journal.append(SeatCreated(kind))
        return seat, kind, contenders, True, made_up

    def _best_general(self) -> int:
        """The best candidate of the general list holding no active nomination (SM art. 4 caput)."""
        g = self.general
        e = g.avail.find(1)
        return g.entries[e] if e < g.avail.size else -1

    def _start(self, kind: str, cut: int | None, projected: bool) -> int:
        """First entry of list ``kind`` that may take a reserved seat: under ``projected``, the first
        beyond open competition (general entry ≥ ``cut``); −1 when everyone left is within it."""
        if not projected:
            return 0
        if cut is None:
            return -1
        lst = self.lists[kind]
        assert lst.gpos is not None
        return bisect_left(lst.gpos, cut)

    def _best_reserved(self, kind: str, start: int) -> int:
        """The best of list ``kind`` not yet nominated from ``start`` on: under ``projected``, beyond
        the open seats of the schedule (SM art. 4 §3, "não serão computados"); −1 if none."""
        if start < 0:
            return -1
        avail = self.lists[kind].avail
        e = avail.find(avail.prefix(start) + 1)
        return self.lists[kind].entries[e] if e < avail.size else -1

    def _nominate(self, c: int, seat: int, kind: str, via: Via) -> None:
        held = c in self.held
        listed = kind if via is Via.RESERVED or (via is Via.HELD and kind != OPEN) else OPEN
        i = len(self.nominations)
        cid = self.candidates[c][0]
        self.known[cid] = c
        self.nominations.append(
            Nomination(i + 1, seat, kind, cid, listed, ACTIVE, "", via is Via.REVERTED, False)
        )
        if held:
            self.held.discard(c)  # the hold is spent; its journal entry is undone before this one
        else:
            self._set_avail(c, -1)
        self.holding[c] = 1
        self.active_of[c] = i
        self.holder[seat] = i
        self.journal.append(NominationMade(c, seat, held))
        if listed in RESERVES and self.params.open_competition_rule == COMPENSATION:
            heapq.heappush(self.comp_heap, (self.general.cur[c], seat, c))

    def _compensate(self, seat: int) -> bool:
        """Before an open seat: reserved nominees the open list has reached count as open (RULES §4)."""
        best = self.general.avail.find(1)
        # A held candidate is not yet nominated: the open list stops there.
        for c in self.held:
            best = min(best, self.general.cur[c])
        changed = False
        heap = self.comp_heap
        while heap and heap[0][0] < best:
            entry = heapq.heappop(heap)
            self.journal.append(CompensationChecked(entry))
            g_entry, held_seat, c = entry
            i = self.holder[held_seat] if held_seat < len(self.holder) else -1
            if i < 0 or self.general.cur[c] != g_entry:
                continue  # stale: the seat changed hands, or the nominee moved to the end of the list
            nom = self.nominations[i]
            if (
                nom.candidate != self.candidates[c][0]
                or nom.list not in RESERVES
                or nom.status not in HOLDING
            ):
                continue
            position = self.position(OPEN, c)
            suffix = (
                f"; compensada ao preencher a {ordinal(seat, True)} vaga: a ampla concorrência alcançou "
                f"{nom.candidate} ({ordinal(position)} da lista geral), que passa a contar na ampla "
                f"concorrência{self.params.cite('open_competition')}"
            )
            self.nominations[i] = nom._replace(kind=OPEN, list=OPEN, compensated=True, why=nom.why + suffix)
            old_kind = self.kinds[held_seat - 1]
            self.kinds[held_seat - 1] = OPEN
            self.served[old_kind] -= 1
            self.served[OPEN] += 1
            self.journal.append(Compensation(i, nom, held_seat, old_kind))
            changed = True
        return changed

    # Dual eligibility (SM art. 4 §7) -----------------------------------------------------------------

    def _is_dual(self, c: int) -> bool:
        return self.is_on(RACIAL, c) and self.is_on(PCD, c)

    def _preference(self, c: int) -> str:
        prefers = self.candidates[c].prefers
        return prefers if prefers in RESERVES else self.params.dual_default

    def _dual_conflict(self, fills: list[Fill], first: int, lapsed: set[int]) -> tuple[int, int, str] | None:
        """The first nomination of the call (in call order) from a reserved list L whose nominee is on
        the list P ≠ L they prefer while a seat of kind P filled by this call reverted or went to someone
        ranked below them on P (RULES §4 item 3): (its fill index, the candidate, P)."""
        if self.params.pcd is None:
            return None
        # For each reserve P, the lowest rank on P a dual candidate may have and still be passed over:
        # a reverted seat of kind P passes over everyone; a taken one, whoever ranks above its taker.
        bar = {RACIAL: -1, PCD: -1}
        for i, fill in enumerate(fills):
            kind = self.kinds[fill.seat - 1]
            if kind == OPEN:
                continue
            nom = self.nominations[first + i]
            rank = _EVERYONE if nom.reverted else self.lists[kind].cur[fill.candidate]
            bar[kind] = max(bar[kind], rank)
        if bar[RACIAL] < 0 and bar[PCD] < 0:
            return None
        for i, fill in enumerate(fills):
            nom = self.nominations[first + i]
            if nom.list not in RESERVES:
                continue
            c = fill.candidate
            if c in lapsed or not self._is_dual(c):
                continue
            preferred = self._preference(c)
            if preferred != nom.list and self.lists[preferred].cur[c] < bar[preferred]:
                return i, c, preferred
        return None

    # Explanations ------------------------------------------------------------------------------------

    def _reason(self, fill: Fill, cut: int | None, open_count: int, hold: Hold | None) -> Reason:
        """Why this fill, as data and in Portuguese (``Reason``; ``Reason.text()`` is the ``why``)."""
        params = self.params
        seat, kind, c, via = fill.seat, fill.kind, fill.candidate, fill.via
        name = self.candidates[c].id
        moved: list[int] = []
        freed_by = ""
        if fill.new:
            seat_text = explain_kind(params, seat, self.n, kind, made_up=fill.made_up)
            for other in fill.contenders:
                to = loser_seat(params, seat, other, self._kinds_for_why())
                moved.append(to or 0)
                where = f"passa para a {ordinal(to, True)}" if to else "aguarda novas vagas"
                seat_text += f" (a reserva a {params.label(other)} também tinha direito a esta vaga: {where})"
        else:
            ended = self.last_ended.get(seat)
            if ended is not None:
                prev = self.nominations[ended]
                freed_by = _FREED_BY[prev.status].format(prev.candidate)
            seat_text = "ampla concorrência" if kind == OPEN else f"mantém a reserva a {params.label(kind)}"
        percent, base, exact, reserved = "", 0, "", 0
        rule = params.rule(kind) if kind != OPEN else None
        if rule is not None:
            whole = fill.made_up or (kind == RACIAL and params.order == EVERY_NTH)
            base = self.n if whole else seat
            reserved = params.count(kind, self.n) if whole else params.share(kind, seat, self.n)
            percent, exact = format_percent(rule.percent), share_text(rule, base)
        g_pos = self.position(OPEN, c)
        list_position = 0
        citation = ""
        if kind == OPEN:
            choice = f"{name} é o {ordinal(g_pos)} da lista geral e o primeiro ainda não nomeado"
            if self.is_on(RACIAL, c) or self.is_on(PCD, c):
                citation = params.citation("open_competition")
                choice += (
                    f" (cotista na ampla concorrência: não ocupa a reserva{params.cite('open_competition')})"
                )
        elif via is Via.REVERTED:
            citation = params.citation("reversion")
            beyond = " fora da ampla concorrência" if params.open_competition_rule == PROJECTED else ""
            choice = (
                f"ninguém da lista de {params.label(kind)}{beyond} disponível: a vaga reverte à "
                f"ampla concorrência{params.cite('reversion')}; {name} é o {ordinal(g_pos)} da lista geral "
                "e o primeiro ainda não nomeado"
            )
        else:
            citation = params.citation("order")
            lst = self.lists[kind]
            if params.open_competition_rule == PROJECTED and cut is not None:
                assert lst.gpos is not None
                start = bisect_left(lst.gpos, cut)
                list_position = lst.alive.prefix(lst.cur[c] + 1) - lst.alive.prefix(start)
                choice = (
                    f"{name} é o {ordinal(list_position)} da lista de {params.label(kind)} fora da ampla "
                    f"concorrência ({ordinal(g_pos)} da lista geral, além das {open_count} vagas de ampla "
                    "concorrência)"
                )
            else:
                list_position = self.position(kind, c)
                choice = f"{name} é o {ordinal(list_position)} da lista de {params.label(kind)}"
                if list_position > 1:
                    choice += " e o primeiro ainda não nomeado"
            if via is Via.HELD and hold is not None:
                citation = params.citation("dual")
                if self.candidates[c].prefers in RESERVES:
                    why_this = "a reserva escolhida na inscrição"
                else:
                    why_this = f"sem opção manifestada, a reserva a {params.label(kind)}{params.cite('dual')}"
                choice += (
                    f"; convocado na mesma chamada também à {ordinal(hold.landed_seat, True)} vaga (reservada "
                    f"a {params.label(hold.landed_kind)}), fica com a lista de {params.label(kind)}: {why_this}"
                )
        landed = hold if via is Via.HELD and kind != OPEN else None
        return Reason(
            seat=seat,
            kind=kind,
            list=OPEN if via is Via.REVERTED or kind == OPEN else kind,
            via=via.value,
            citation=citation,
            percent=percent,
            base=base,
            exact=exact,
            reserved=reserved,
            general_position=g_pos,
            list_position=list_position,
            open_seats=open_count if params.open_competition_rule == PROJECTED else 0,
            collided_with=fill.contenders,
            moved_to=tuple(moved),
            freed_by=freed_by,
            landed_seat=landed.landed_seat if landed else 0,
            landed_kind=landed.landed_kind if landed else "",
            seat_text=seat_text,
            choice_text=choice,
        )

    def _kinds_for_why(self) -> list[str]:
        """The schedule for the ``n`` vacancies as the call leaves it, for explanations (computed once
        per call: with compensation the kept kinds move, so no cached projection serves)."""
        if self._why_kinds is None:
            if self.params.open_competition_rule != COMPENSATION:
                self._why_kinds = self.projection().kinds
            else:
                self._why_kinds = project(self.params, self.kinds, self.n)
        return self._why_kinds

    # Other events ----------------------------------------------------------------------------------

    def end_nomination(self, c: int, status: str) -> int:
        """End ``c``'s active nomination with ``status`` and free its seat, which keeps its number and
        kind and is refilled by the same rule on the next call (SM art. 4 §4; AR art. 3 §2)."""
        i = self.active_of.pop(c)
        nom = self.nominations[i]
        self.nominations[i] = nom._replace(status=status)
        self.holding[c] = 0
        self._set_avail(c, +1)
        self.holder[nom.seat] = -1
        self.last_ended[nom.seat] = i
        heapq.heappush(self.freed, nom.seat)
        return i

    def remove(self, c: int) -> None:
        """Off every list: withdrawal, no-show, or elimination for a false declaration (SM art. 3 §3;
        AR art. 2)."""
        for lst in self.on_lists(c):
            e = lst.cur[c]
            lst.alive.add(e, -1)
            if not self.holding[c]:
                lst.avail.add(e, -1)
        self.removed[c] = 1

    def exclude(self, c: int) -> None:
        """Off the reserved lists only: not confirmed without bad faith (Lei 15.142 model, a policy
        option); the candidate stays in open competition."""
        for name in RESERVES:
            if self.is_on(name, c):
                lst = self.lists[name]
                e = lst.cur[c]
                lst.alive.add(e, -1)
                if not self.holding[c]:
                    lst.avail.add(e, -1)
        self.excluded[c] = 1

    def move_to_end(self, c: int) -> None:
        """To the end of every list ``c`` is on, behind everyone (RULES §4 item 4)."""
        free = 0 if self.holding[c] else 1
        for lst in self.on_lists(c):
            e = lst.cur[c]
            lst.alive.add(e, -1)
            lst.avail.add(e, -free)
        g = self.general
        g.entries.append(c)
        g.cur[c] = len(g.entries) - 1
        g.alive.append(1)
        g.avail.append(free)
        for name in RESERVES:
            if self.on[name][c]:
                lst = self.lists[name]
                on = 1 if self.is_on(name, c) else 0
                lst.entries.append(c)
                assert lst.gpos is not None
                lst.gpos.append(g.cur[c])
                lst.cur[c] = len(lst.entries) - 1
                lst.alive.append(on)
                lst.avail.append(on * free)

    def list_ids(self, name: str) -> list[str]:
        """The classification list ``name`` now: alive entries in order (nominees stay on it)."""
        lst = self.lists[name]
        people = self.candidates
        cur = lst.cur
        removed = self.removed
        if name == OPEN:
            return [people[c].id for e, c in enumerate(lst.entries) if cur[c] == e and not removed[c]]
        excluded = self.excluded
        return [
            people[c].id
            for e, c in enumerate(lst.entries)
            if cur[c] == e and not removed[c] and not excluded[c]
        ]


def _larger_reserve(params: Params) -> str | None:
    """With ``larger_only`` (Decreto 12.536), the reserve a dual candidate is ranked in."""
    if params.dual_rule != LARGER_ONLY or params.pcd is None:
        return None
    if params.racial.percent == params.pcd.percent:
        return params.dual_default
    return RACIAL if params.racial.percent > params.pcd.percent else PCD
