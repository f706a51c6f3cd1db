"""Who fills each seat (RULES.md §4): the working index behind ``candidates.engine.allocation``.

PURE module: standard library, ``contests.quotas`` and the other pure modules of ``candidates`` only.
Not a public API: ``candidates.engine.allocation`` owns one ``Seating`` per state and hands it from a state to
the next one, so a million candidates are indexed once, not once per event.

The lists themselves (who is on which list, who may still be called) are ``candidates.engine.list_index``,
which ``Seating`` extends with the seats: their kinds, who holds each, the call. A call mutates the index
and writes an undo journal (``candidates.engine.journal``): a simultaneous call to both reserves (SM art. 4
§7) is resolved by holding the candidate for the list they prefer and filling the call again from the seat
where they had landed (a lapsed hold: from the start), and a preview (``allocation.preview_call``) rolls
the whole call back. Each fill is explained once the call is settled (``candidates.engine.reasons``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import NamedTuple

from candidates.engine.foresight import EVERYONE, Foresight
from candidates.engine.journal import (
    Compensation,
    CompensationChecked,
    Fill,
    FreedSeatTaken,
    Hold,
    HoldPlaced,
    JournalEntry,
    NominationMade,
    SeatCreated,
    Via,
)
from candidates.engine.list_index import ListIndex
from candidates.engine.reasons import compensation_note, seat_reason
from candidates.engine.records import ACTIVE, HOLDING, ON_HOLD, Nomination, Roster
from candidates.engine.schedule import (
    COMPENSATION,
    OPEN,
    PCD,
    PROJECTED,
    RACIAL,
    RESERVES,
    Params,
    Projection,
    loser_seat,
    next_kind,
    project,
    project_detailed,
    seat_rule,
)


class _Cached(NamedTuple):
    n: int
    projection: Projection
    open_count: int


_FORESEE = True  # ``Foresight`` on; the tests turn it off to compare
_KEPT_FIRST = True  # ``loser_seat`` reads the seats created before projecting; the tests turn it off


class Seating(ListIndex):
    """The mutable index of one state, built from the state's plain data: the lists, and the seats."""

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
        court_holds: Iterable[str] = (),
        owed: Iterable[tuple[str, int, str]] = (),
    ) -> None:
        super().__init__(params, roster, nominations, removed, excluded, end_of_list)
        # RULES §4 item 7: who is owed a seat (candidate, order of the nomination lost, the decision),
        # in the order of the nominations lost; item 8: who is under a court hold.
        self.owed = [(self.lookup(cid), order, ground) for cid, order, ground in owed]
        self.under_hold = {self.lookup(cid) for cid in court_holds}
        self.n = vacancies
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
                self.active_of[self.known[nom.candidate]] = i
                self.holder[nom.seat] = i
            else:
                self.last_ended[nom.seat] = i
        self.freed = [s for s in range(1, len(self.kinds) + 1) if self.holder[s] < 0]
        heapq.heapify(self.freed)
        self.comp_heap: list[tuple[int, int, int]] = []
        if params.open_competition_rule == COMPENSATION:
            for c, i in self.active_of.items():
                nom = self.nominations[i]
                if nom.list in RESERVES:
                    self.comp_heap.append((self.general.cur[c], nom.seat, c))
            heapq.heapify(self.comp_heap)
        self.journal: list[JournalEntry] = []
        # Only two reserves can call one candidate twice (RULES §4 item 3).
        self._foresee = params.pcd is not None and _FORESEE
        self.compensations = 0  # made by this index so far (undone ones too): tells ``Foresight`` to look
        self.held: set[int] = set()
        self._projection: _Cached | None = None
        self._counts: tuple[int, list[tuple[str, int]]] | None = None  # each reserve's count_L(n), for n
        self._why_kinds: list[str] | None = None
        self._first_free = -1  # the general entry ``_compensate`` found first free for the seat being filled
        # ``Foresight._most_open``: (n, the call's last seat, first seat, the maxima from each seat on).
        self.most_open: tuple[int, int, int, list[int]] | None = None

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
        served = self.served
        kind, contenders = next_kind(params, seat, self.n, served[RACIAL], served[PCD])
        if kind != OPEN:
            return kind, contenders, False
        counts = self._counts
        if counts is None or counts[0] != self.n:
            counts = self._counts = (self.n, [(name, params.count(name, self.n)) for name in params.reserves])
        owed = 0
        for name, count in counts[1]:
            if count > served[name]:
                owed += count - served[name]
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
        projected = self.params.open_competition_rule == PROJECTED
        cut, open_count = self._open_competition_cut() if projected else (None, 0)
        # Where each reserved list starts beyond open competition: fixed for the whole call.
        starts = {name: self._start(name, cut, projected) for name in RESERVES}
        fills: list[Fill] = []
        holds: dict[int, Hold] = {}
        lapsed: set[int] = set()
        stopped = False
        sight: Foresight | None = None
        while True:
            if sight is not None:
                sight.resume()  # a refill: what it recorded of the fills kept stands
            elif self._foresee:
                sight = Foresight(self, fills, first, holds, lapsed, starts, k)
            stopped = self._fill(k, fills, holds, starts, sight)
            conflict = sight.found if sight is not None else None
            if conflict is not None:
                stopped = False  # known before the fill ended: it resumes below, like one found at the end
            left_out = [] if conflict is not None else [c for c in holds if not self.holding[c]]
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
            if conflict is None:
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
        self._explain(fills, first, cut, open_count, holds)
        compensated = self._note_compensations(first)
        return first, compensated, stopped

    def _note_compensations(self, first: int) -> list[int]:
        """Once the call is settled, each compensation it made appends its note to the nomination's why;
        the indexes of the nominations made before the call that it compensated."""
        compensated = set()
        for op in self.journal:
            if isinstance(op, Compensation):
                nom = self.nominations[op.nomination]
                note = compensation_note(self, op.at, op.candidate)
                self.nominations[op.nomination] = nom._replace(why=nom.why + note)
                if op.nomination < first:
                    compensated.add(op.nomination)
        return sorted(compensated)

    def _open_competition_cut(self) -> tuple[int | None, int]:
        """Under ``projected`` (SM art. 4 §3, "não serão computados"): the general entry of the first
        candidate beyond the open seats of the schedule (None when nobody is), and how many open seats."""
        open_count = self.open_seat_count()
        entry = self.general.alive.find(open_count + 1)
        return (entry if entry < self.general.alive.size else None), open_count

    def _explain(
        self, fills: list[Fill], first: int, cut: int | None, open_count: int, holds: dict[int, Hold]
    ) -> None:
        """Write each new nomination's reason once the call is settled (``reasons.seat_reason``)."""
        self._why_kinds = None
        nominations = self.nominations
        for i, fill in enumerate(fills, start=first):
            nom = nominations[i]
            reason = seat_reason(self, fill, cut, open_count, holds.get(fill.candidate))
            # ``nom._replace(why=…, reason=…)`` without its keyword machinery (one per nomination).
            order, seat, kind, cid, listed, status, why, reverted, compensated, _, *flags = nom
            why = reason.text() + why
            nominations[i] = Nomination(
                order, seat, kind, cid, listed, status, why, reverted, compensated, reason, *flags
            )

    def _fill(
        self,
        k: int,
        fills: list[Fill],
        holds: dict[int, Hold],
        starts: dict[str, int],
        sight: Foresight | None = None,
    ) -> bool:
        """Fill seats until the call has ``k`` nominations; True if it stopped for want of candidates.
        With ``sight``, the fill stops as soon as it knows the conflict the full fill would end with
        (``sight.found``): the rest of it would be undone anyway."""
        compensation = self.params.open_competition_rule == COMPENSATION
        while len(fills) < k:
            mark = len(self.journal)
            self._first_free = -1  # ``_compensate`` may find it for this seat
            got = self._next_seat()
            if got is None:
                return False
            seat, kind, contenders, new, made_up = got
            c = self._owed_for(kind)
            if c >= 0:
                # RULES §4 item 7 (``next_seat``): an owed candidate who qualifies for the seat's kind
                # takes it before anyone else, whatever their rank.
                via = Via.OWED
            elif kind == OPEN:
                c, via = self._best_general(self._first_free), Via.OPEN
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
            if sight is not None and sight.after_fill(kind) is not None:
                return False
        return False

    def _owed_for(self, kind: str) -> int:
        """The first owed candidate (in the order of the nominations they lost) who qualifies for a seat
        of ``kind``: any of them for an open seat, one on list ``kind`` for a reserved one; −1 if none."""
        for c, _, _ in self.owed:
            if self.holding[c] or self.removed[c] or c in self.held:
                continue
            if kind == OPEN or self.is_on(kind, c):
                return c
        return -1

    def owed_record(self, c: int) -> tuple[int, int, str] | None:
        return next((o for o in self.owed if o[0] == c), None)

    def settle_owed(self) -> None:
        """After a call: a candidate who holds a nomination again is owed nothing more (RULES §4 item 7)."""
        self.owed = [o for o in self.owed if not self.holding[o[0]] and not self.removed[o[0]]]

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

    def _nominate(self, c: int, seat: int, kind: str, via: Via) -> None:
        held = c in self.held
        owed = via is Via.OWED
        listed = kind if owed or via is Via.RESERVED or (via is Via.HELD and kind != OPEN) else OPEN
        i = len(self.nominations)
        cid = self.candidates[c][0]
        self.known[cid] = c
        status = ON_HOLD if c in self.under_hold else ACTIVE
        self.nominations.append(
            Nomination(i + 1, seat, kind, cid, listed, status, "", via is Via.REVERTED, False, None, owed)
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
        # The first general entry not yet nominated; the fill reuses it for this seat (nothing between
        # here and its choice changes who is nominated).
        best = self._first_free = self.general.avail.first()
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
            # Its note is written once the call is settled (``_note_compensations``).
            # ``nom._replace(kind=OPEN, list=OPEN, compensated=True)`` without its keyword machinery (a
            # compensation a refill undoes is made again).
            order, seat_of, _, cid, _, status, why, reverted, _, reason, *flags = nom
            self.nominations[i] = Nomination(
                order, seat_of, OPEN, cid, OPEN, status, why, reverted, True, reason, *flags
            )
            old_kind = self.kinds[held_seat - 1]
            self.kinds[held_seat - 1] = OPEN
            self.served[old_kind] -= 1
            self.served[OPEN] += 1
            self.journal.append(Compensation(i, nom, held_seat, old_kind, seat, c))
            self.compensations += 1
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
            nom = self.nominations[first + i]
            if kind == OPEN or nom.reinstated:
                continue  # item 3 ignores a seat paid to an owed candidate (RULES §4 item 7)
            rank = EVERYONE if nom.reverted else self.lists[kind].cur[fill.candidate]
            bar[kind] = max(bar[kind], rank)
        if bar[RACIAL] < 0 and bar[PCD] < 0:
            return None
        for i, fill in enumerate(fills):
            nom = self.nominations[first + i]
            if nom.list not in RESERVES or nom.reinstated:
                continue
            c = fill.candidate
            if c in lapsed or not self._is_dual(c):
                continue
            preferred = self._preference(c)
            if preferred != nom.list and self.lists[preferred].cur[c] < bar[preferred]:
                return i, c, preferred
        return None

    # Explanations ------------------------------------------------------------------------------------

    def loser_seat(self, seat: int, loser: str) -> int | None:
        """``schedule.loser_seat`` in ``kinds_for_why()``: under ``compensation`` that schedule begins with
        the seats created (``project`` keeps them), so when one of the loser's kind was created after
        ``seat`` it is the answer, read from them without projecting the rest (switch ``_KEPT_FIRST``)."""
        if _KEPT_FIRST and self.params.open_competition_rule == COMPENSATION and self._why_kinds is None:
            try:
                return self.kinds.index(loser, seat) + 1  # the first of seats seat+1.. of that kind
            except ValueError:
                pass
        return loser_seat(self.params, seat, loser, self.kinds_for_why())

    def kinds_for_why(self) -> list[str]:
        """The schedule for the ``n`` vacancies as the call leaves it, for explanations (computed once
        per call: with compensation the kept kinds move, so no cached projection serves)."""
        if self._why_kinds is None:
            if self.params.open_competition_rule != COMPENSATION:
                self._why_kinds = self.projection().kinds
            else:
                self._why_kinds = project(self.params, self.kinds, self.n)
        return self._why_kinds

    # Ending a nomination ------------------------------------------------------------------------------

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
