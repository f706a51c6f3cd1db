"""The classification lists of one state, indexed (RULES.md §3–§4): the base of ``candidates.engine.seating``.

PURE module: standard library and the other pure modules of ``candidates`` only. Not a public API.

Lists are arrays of *entries* (a candidate moved to the end of the lists gets a new entry; the old one
dies). Two Fenwick trees per list count the entries still on the list (``alive``: nominees included,
withdrawn and eliminated candidates not) and those who can still be called (``avail``: alive and
holding no active nomination). "Position in the general list" is a prefix sum of ``alive``; "the best
candidate not yet nominated" is the first positive ``avail``; both O(log n).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable

from candidates.engine.fenwick import FirstFree, MostlyOnes
from candidates.engine.records import HOLDING, Nomination, Roster, ordinal
from candidates.engine.schedule import LARGER_ONLY, OPEN, PCD, RACIAL, RESERVES, Params


class IndexedList:
    """One classification list: entries (candidate indexes), their general entries, two Fenwicks."""

    __slots__ = ("alive", "avail", "cur", "entries", "gpos")

    def __init__(self, entries: array[int], gpos: array[int] | None, size: int, cur: array[int]) -> None:
        self.entries = entries
        self.gpos = gpos  # None for the general list (an entry is its own general position)
        self.alive = MostlyOnes.ones(size)  # the builder patches the exceptions
        self.avail = FirstFree.ones(size)
        self.cur = cur  # candidate → its current entry, −1 if none


class ListIndex:
    """Who is on which list now, and who may still be called: built once from a state's plain data."""

    def __init__(
        self,
        params: Params,
        roster: Roster,
        nominations: Iterable[Nomination],
        removed: Iterable[str],
        excluded: Iterable[str],
        end_of_list: Iterable[str],
    ) -> None:
        self.params = params
        self.roster = roster
        self.candidates = candidates = roster.candidates
        size = len(candidates)
        nominations = list(nominations)
        removed, excluded, end_of_list = list(removed), list(excluded), list(end_of_list)
        # id → position of every candidate the state names; grows with each nomination (``lookup``).
        self.known = roster.locate_many(
            [*(nom.candidate for nom in nominations), *removed, *excluded, *end_of_list]
        )
        index = self.known
        members = _members(params, roster)
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
        self.holding = bytearray(size)  # 1 while the candidate holds an active nomination
        nominees = [index[nom.candidate] for nom in nominations if nom.status in HOLDING]
        for c in nominees:
            self.holding[c] = 1
        self._build_lists(end_of_list, members, nominees)

    def _build_lists(self, moves: list[str], members: dict[str, list[int]], nominees: list[int]) -> None:
        """Entries in order (a move to the end appends one), Fenwicks built as all ones, then patched:
        the exceptions (dead entries, holders) are few next to a million candidates."""
        size = len(self.candidates)
        moved = [self.known[cid] for cid in moves]
        dead: dict[str, list[int]] = {OPEN: [], RACIAL: [], PCD: []}
        g_cur = array("l", range(size))
        g_entries = g_cur[:]  # a copy at C speed: the same values, before the moves
        g_entries.extend(moved)
        for i, c in enumerate(moved):
            dead[OPEN].append(g_cur[c])  # the entry a move to the end leaves behind
            g_cur[c] = size + i
        self.general = IndexedList(g_entries, None, len(g_entries), g_cur)
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
            self.lists[name] = IndexedList(entries, gpos, len(entries), cur)
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
        for c in nominees:
            for lst in self.on_lists(c):
                lst.avail.add(lst.cur[c], -1)

    # Membership -------------------------------------------------------------------------------------

    def on_lists(self, c: int) -> list[IndexedList]:
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

    def general_place(self, c: int, now: int = 0) -> str:
        """``c``'s place in the general list as the reasons word it: the place the published list gives
        (the roster is that list, best first: ``c + 1``), and, when people ahead have left the list or
        ``c`` moved to its end, the place counted among those on it today (RULES §4 counts those):
        ``now``, when the caller has it (``position(OPEN, c)``)."""
        published = c + 1
        now = now or self.position(OPEN, c)
        if now == published:
            return f"{ordinal(published)} da lista geral"
        return f"{ordinal(published)} da lista geral publicada ({ordinal(now)} na lista de hoje)"

    # Who may be called -------------------------------------------------------------------------------

    def _best_general(self, e: int = -1) -> int:
        """The best candidate of the general list holding no active nomination (SM art. 4 caput); ``e``,
        when known, the first general entry not yet nominated."""
        g = self.general
        if e < 0:
            e = g.avail.first()
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
        e = avail.first()
        if e < start:
            e = avail.first_from(start)
        return self.lists[kind].entries[e] if e < avail.size else -1

    # Leaving the lists (RULES §4 items 4–8) ------------------------------------------------------------

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

    def restore(self, c: int) -> None:
        """Back on the lists an elimination took ``c`` off, at the entries they had (RULES §4 item 7)."""
        self.removed[c] = 0
        for lst in self.on_lists(c):
            e = lst.cur[c]
            lst.alive.add(e, 1)
            if not self.holding[c]:
                lst.avail.add(e, 1)

    def include(self, c: int) -> None:
        """Back on the reserved lists an exclusion took ``c`` off (RULES §4 item 7)."""
        self.excluded[c] = 0
        for name in RESERVES:
            if self.is_on(name, c):
                lst = self.lists[name]
                e = lst.cur[c]
                lst.alive.add(e, 1)
                if not self.holding[c]:
                    lst.avail.add(e, 1)

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


def _members(params: Params, roster: Roster) -> dict[str, list[int]]:
    """Each reserve's list in general order, as positions in the roster (a reserve the policy does not
    have is empty). With ``larger_only`` (Decreto 12.536) a dual candidate is ranked only in the larger
    reserve."""
    candidates = roster.candidates
    cotistas = roster.cotistas
    members: dict[str, list[int]] = {
        name: [i for i in cotistas if name in candidates[i][1]] if name in params.reserves else []
        for name in RESERVES
    }
    larger = _larger_reserve(params)
    if larger is not None:
        smaller = PCD if larger == RACIAL else RACIAL
        both = set(members[larger])
        members[smaller] = [i for i in members[smaller] if i not in both]
    return members


def _larger_reserve(params: Params) -> str | None:
    """With ``larger_only`` (Decreto 12.536), the reserve a dual candidate is ranked in."""
    if params.dual_rule != LARGER_ONLY or params.pcd is None:
        return None
    if params.racial.percent == params.pcd.percent:
        return params.dual_default
    return RACIAL if params.racial.percent > params.pcd.percent else PCD
