"""Who fills each seat (RULES.md §4): the working index behind ``candidates.engine.allocation``.

PURE module: standard library, ``contests.quotas`` and the other pure modules of ``candidates`` only.
Not a public API: ``candidates.engine.allocation`` owns one ``Seating`` per state and hands it from a state to
the next one, so a million candidates are indexed once, not once per event.

Lists are arrays of *entries* (a candidate moved to the end of the lists gets a new entry; the old one
dies). Two Fenwick trees per list count the entries still on the list (``alive``: nominees included,
withdrawn and eliminated candidates not) and those who can still be called (``avail``: alive and
holding no active nomination). "Position in the general list" is a prefix sum of ``alive``; "the best
candidate not yet nominated" is the first positive ``avail``; both O(log n).

A call mutates the index and writes an undo journal: a simultaneous call to both reserves (SM art. 4
§7) is resolved by holding the candidate for the seat they prefer and filling the call again from the
seat where they had landed, and a preview (``allocation.preview_call``) rolls the whole call back.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections.abc import Iterable

from candidates.engine.fenwick import Fenwick
from candidates.engine.records import (
    ACTIVE,
    ANNULLED,
    END_OF_LIST,
    HOLDING,
    NO_SHOW,
    WITHDRAWN,
    Nomination,
    Roster,
    ordinal,
)
from candidates.engine.schedule import (
    COMPENSATION,
    LARGER_ONLY,
    OPEN,
    PCD,
    PROJECTED,
    RACIAL,
    RESERVES,
    Params,
    explain_kind,
    next_kind,
    project_detailed,
)

_FREED_BY = {
    WITHDRAWN: "desistência de {}",
    NO_SHOW: "{} não tomou posse",
    ANNULLED: "anulação da nomeação de {}",
    END_OF_LIST: "pedido de {} para ir ao fim da lista",
}


class _List:
    """One classification list: entries (candidate indexes), their general entries, two Fenwicks."""

    __slots__ = ("alive", "avail", "cur", "entries", "gpos")

    def __init__(self, entries: array, gpos: array | None, size: int, cur: array) -> None:
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
        self.journal: list[tuple] = []
        self.held: set[int] = set()
        self._projection: tuple[int, list[str], dict[int, tuple[str, ...]], int] | None = None

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

    def projection(self) -> tuple[list[str], dict[int, tuple[str, ...]], int]:
        """The schedule for the ``n`` vacancies open now (kept kinds, then projected), its collisions
        and its number of open seats. Without compensation a created seat always takes its projected
        kind, so this stays valid until ``n`` changes; with compensation it is not used for new seats."""
        if self._projection is None or self._projection[0] != self.n:
            kinds, collisions = project_detailed(self.params, self.kinds, self.n)
            self._projection = (self.n, kinds, collisions, kinds.count(OPEN))
        return self._projection[1], self._projection[2], self._projection[3]

    def open_seats(self) -> int:
        """Open seats in the schedule for the ``n`` vacancies open now (RULES §4, ``projected``)."""
        return self.projection()[2]

    # Journal ------------------------------------------------------------------------------------

    def rollback(self, mark: int) -> None:
        journal = self.journal
        while len(journal) > mark:
            op = journal.pop()
            tag = op[0]
            if tag == "nom":
                _, c, seat, held = op
                self.nominations.pop()
                self.holding[c] = 0
                del self.active_of[c]
                self.holder[seat] = -1
                if held:
                    self.held.add(c)  # back to held: its own journal entry, earlier, releases it
                else:
                    self._set_avail(c, +1)
            elif tag == "new_seat":
                kind = self.kinds.pop()
                self.served[kind] -= 1
                self.holder.pop()
            elif tag == "unfree":
                heapq.heappush(self.freed, op[1])
            elif tag == "hold":
                self.held.discard(op[1])
                self._set_avail(op[1], +1)
            elif tag == "heap_pop":
                heapq.heappush(self.comp_heap, op[1])
            elif tag == "comp":
                _, i, old, seat, old_kind = op
                self.nominations[i] = old
                self.kinds[seat - 1] = old_kind
                self.served[OPEN] -= 1
                self.served[old_kind] += 1
            else:  # pragma: no cover - every tag is handled above
                raise AssertionError(tag)

    # The call (RULES §4) ---------------------------------------------------------------------------

    def call(self, k: int) -> tuple[int, list[int], bool]:
        """Fill up to ``k`` seats: freed seats first (lowest number first), then new ones (RULES §4).

        An open seat takes the best candidate of the general list not yet nominated, a cotista too
        (SM art. 4 caput and §3); a reserved seat the best of its list who qualifies under the policy's
        open-competition rule (SM art. 4 §3); nobody qualifying, the seat reverts to the general list
        and keeps its kind (SM art. 4 §5; AR art. 1 §6, read seat by seat). A dual candidate called to
        both reserves by the same call is held for the seat of the reserve they chose, or the policy's
        default, and the call is filled again from where they had landed (SM art. 4 §7). Nobody left
        at all: the call stops there and creates no seat.

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
            open_count = self.open_seats()
            entry = self.general.alive.find(open_count + 1)
            cut = entry if entry < self.general.alive.size else None
        # Where each reserved list starts beyond open competition: fixed for the whole call.
        starts = {name: self._start(name, cut, projected) for name in RESERVES}
        fills: list[tuple[int, int, int, str, tuple]] = []  # (journal mark, candidate, seat, kind, why data)
        pending: list[tuple[int, int, str]] = []  # (fill index, dual candidate, their preferred list)
        # candidate → (seat held for them, its kind, seat they had landed on, its kind)
        holds: dict[int, tuple[int, str, int, str]] = {}
        hold_seat: dict[int, int] = {}
        no_hold: set[int] = set()
        stopped = False
        while True:
            while len(fills) < k:
                mark = len(self.journal)
                got = self._next_seat()
                if got is None:
                    break
                seat, kind, contenders, new = got
                held = hold_seat.get(seat)
                c = -1
                via = "open"
                if held is not None and holds[held][1] == kind and held in self.held:
                    c, via = held, "held"
                elif kind == OPEN:
                    c = self._best_general()
                else:
                    c = self._best_reserved(kind, starts[kind])
                    via = "reserved"
                    if c < 0:
                        c, via = self._best_general(), "reverted"
                if c < 0:
                    self.rollback(mark)
                    stopped = True
                    break
                self._nominate(c, seat, kind, via)
                # The explanation is written once the call is settled: a simultaneous call may still
                # send the call back to this seat (everything it quotes is fixed during a call).
                fills.append((mark, c, seat, kind, (contenders, new, via, holds.get(c))))
                if kind in RESERVES and via in ("reserved", "reverted"):
                    conflict = self._dual_conflict(pending, fills, kind, c, via, cut, no_hold)
                    if conflict is not None:
                        i, dual = conflict
                        landed = fills[i]
                        self.rollback(landed[0])
                        del fills[i:]
                        pending[:] = [p for p in pending if p[0] < i]
                        holds[dual] = (seat, kind, landed[2], landed[3])
                        hold_seat[seat] = dual
                        self._apply_holds(holds)
                        continue
                if via == "reserved" and self._is_dual(c):
                    preferred = self._preference(c)
                    if preferred != kind and c not in no_hold:
                        pending.append((len(fills) - 1, c, preferred))
            unused = [c for c in holds if not self.holding[c]]
            if not unused:
                break
            # A hold whose seat the refilled call did not reach: fill again without it.
            for c in unused:
                hold_seat.pop(holds.pop(c)[0], None)
                no_hold.add(c)
            self.rollback(0)
            fills.clear()
            pending.clear()
            stopped = False
            self._apply_holds(holds)
        for i, (_, c, seat, kind, (contenders, new, via, hold)) in enumerate(fills, start=first):
            nom = self.nominations[i]
            why = self._why(seat, kind, contenders, new, c, via, cut, open_count, hold)
            # nom.why holds a compensation note made during this call, if any.
            self.nominations[i] = nom._replace(why=why + nom.why)
        compensated = sorted({op[1] for op in self.journal if op[0] == "comp" and op[1] < first})
        return first, compensated, stopped

    def _apply_holds(self, holds: dict[int, tuple[int, str, int, str]]) -> None:
        for c in holds:
            if c not in self.held and not self.holding[c]:
                self.held.add(c)
                self._set_avail(c, -1)
                self.journal.append(("hold", c))

    def _next_seat(self) -> tuple[int, str, tuple[str, ...], bool] | None:
        params = self.params
        if self.freed:
            seat = heapq.heappop(self.freed)
            self.journal.append(("unfree", seat))
            kind = self.kinds[seat - 1]
            if kind == OPEN and params.open_competition_rule == COMPENSATION:
                self._compensate(seat)
            return seat, self.kinds[seat - 1], (), False
        seat = len(self.kinds) + 1
        if seat > self.n:
            return None
        if params.open_competition_rule == COMPENSATION:
            kind, contenders = next_kind(params, seat, self.n, self.served[RACIAL], self.served[PCD])
            if kind == OPEN and self._compensate(seat):
                # The reserves' deficits reappeared: the new seat's kind is computed again.
                kind, contenders = next_kind(params, seat, self.n, self.served[RACIAL], self.served[PCD])
        else:
            kinds, collisions, _ = self.projection()
            kind, contenders = kinds[seat - 1], collisions.get(seat, ())
        self.kinds.append(kind)
        self.served[kind] += 1
        self.holder.append(-1)
        self.journal.append(("new_seat",))
        return seat, kind, contenders, True

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

    def _nominate(self, c: int, seat: int, kind: str, via: str) -> None:
        held = via == "held"
        listed = OPEN if via == "open" or via == "reverted" else kind
        i = len(self.nominations)
        cid = self.candidates[c][0]
        self.known[cid] = c
        self.nominations.append(
            Nomination(i + 1, seat, kind, cid, listed, ACTIVE, "", via == "reverted", False)
        )
        if held:
            self.held.discard(c)  # the hold is spent; its journal entry is undone before this one
        else:
            self._set_avail(c, -1)
        self.holding[c] = 1
        self.active_of[c] = i
        self.holder[seat] = i
        self.journal.append(("nom", c, seat, held))
        if listed in RESERVES and self.params.open_competition_rule == COMPENSATION:
            heapq.heappush(self.comp_heap, (self.general.cur[c], seat, c))

    def _compensate(self, seat: int) -> bool:
        """Before an open seat: reserved nominees the open list has reached count as open (RULES §4)."""
        best = self.general.avail.find(1)
        # A candidate held for a later seat of this call is not yet nominated: the open list stops there.
        for c in self.held:
            best = min(best, self.general.cur[c])
        changed = False
        heap = self.comp_heap
        while heap and heap[0][0] < best:
            entry = heapq.heappop(heap)
            self.journal.append(("heap_pop", entry))
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
            self.journal.append(("comp", i, nom, held_seat, old_kind))
            changed = True
        return changed

    # Dual eligibility (SM art. 4 §7) -----------------------------------------------------------------

    def _is_dual(self, c: int) -> bool:
        return self.is_on(RACIAL, c) and self.is_on(PCD, c)

    def _preference(self, c: int) -> str:
        prefers = self.candidates[c].prefers
        return prefers if prefers in RESERVES else self.params.dual_default

    def _dual_conflict(
        self,
        pending: list[tuple[int, int, str]],
        fills: list[tuple[int, int, int, str, tuple]],
        kind: str,
        taker: int,
        via: str,
        cut: int | None,
        no_hold: set[int],
    ) -> tuple[int, int] | None:
        """A dual candidate already seated in this call on their other reserve, who would have taken
        this seat of the reserve they prefer (qualify, and rank above its taker or it reverted)."""
        lst = self.lists[kind]
        best: tuple[int, int, int] | None = None
        for fill_index, c, preferred in pending:
            if preferred != kind or c in no_hold or not self.is_on(kind, c):
                continue
            if cut is not None and self.general.cur[c] < cut:
                continue  # within open competition: does not qualify for a reserved seat
            if cut is None and self.params.open_competition_rule == PROJECTED:
                continue
            rank = lst.cur[c]
            if via == "reserved" and rank > lst.cur[taker]:
                continue
            if best is None or rank < best[0]:
                best = (rank, fill_index, c)
        return None if best is None else (best[1], best[2])

    # Explanations ------------------------------------------------------------------------------------

    def _why(
        self,
        seat: int,
        kind: str,
        contenders: tuple[str, ...],
        new: bool,
        c: int,
        via: str,
        cut: int | None,
        open_count: int,
        hold: tuple[int, str, int, str] | None,
    ) -> str:
        params = self.params
        name = self.candidates[c].id
        head = f"{ordinal(seat, True)} vaga"
        if new:
            head += f": {explain_kind(params, seat, self.n, kind)}"
            for other in contenders:
                also = params.label(other)
                head += f" (a reserva a {also} também tinha direito a esta vaga e fica com a próxima)"
        else:
            ended = self.last_ended.get(seat)
            if ended is not None:
                prev = self.nominations[ended]
                head += f" (liberada: {_FREED_BY[prev.status].format(prev.candidate)})"
            head += ": ampla concorrência" if kind == OPEN else f": mantém a reserva a {params.label(kind)}"
        g_pos = self.position(OPEN, c)
        if via == "open":
            text = f"{head}; {name} é o {ordinal(g_pos)} da lista geral e o primeiro ainda não nomeado"
            if self.is_on(RACIAL, c) or self.is_on(PCD, c):
                text += (
                    f" (cotista na ampla concorrência: não ocupa a reserva{params.cite('open_competition')})"
                )
            return text
        if via == "reverted":
            beyond = " fora da ampla concorrência" if params.open_competition_rule == PROJECTED else ""
            return (
                f"{head}; ninguém da lista de {params.label(kind)}{beyond} disponível: a vaga reverte à "
                f"ampla concorrência{params.cite('reversion')}; {name} é o {ordinal(g_pos)} da lista geral "
                "e o primeiro ainda não nomeado"
            )
        lst = self.lists[kind]
        if params.open_competition_rule == PROJECTED and cut is not None:
            start = bisect_left(lst.gpos, cut)
            rank = lst.alive.prefix(lst.cur[c] + 1) - lst.alive.prefix(start)
            text = (
                f"{head}; {name} é o {ordinal(rank)} da lista de {params.label(kind)} fora da ampla "
                f"concorrência ({ordinal(g_pos)} da lista geral, além das {open_count} vagas de ampla "
                "concorrência)"
            )
        else:
            rank = self.position(kind, c)
            text = f"{head}; {name} é o {ordinal(rank)} da lista de {params.label(kind)}"
            if rank > 1:
                text += " e o primeiro ainda não nomeado"
        if via == "held" and hold is not None:
            _, _, landed, landed_kind = hold
            if self.candidates[c].prefers in RESERVES:
                reason = "a reserva escolhida na inscrição"
            else:
                reason = f"sem opção manifestada, a reserva a {params.label(kind)}{params.cite('dual')}"
            text += (
                f"; convocado na mesma chamada também à {ordinal(landed, True)} vaga (reservada a "
                f"{params.label(landed_kind)}), fica com esta: {reason}"
            )
        return text

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
