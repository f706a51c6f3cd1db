"""The conflict a fill of a call will end with (RULES.md §4 item 3), known before the fill ends.

PURE module: standard library and the other pure modules of ``candidates`` only. Internal to
``candidates.engine.seating``: ``Seating.call`` judges a simultaneous call to both reserves (SM art. 4 §7)
on the whole fill, as the rule says, and undoes the fill back to the seat the held candidate had landed
on; ``Foresight`` stops the fill as soon as that conflict is certain, so the seats it would fill and undo
are not filled. It only ever answers what the whole fill would: the property tests check the engine
against the reference, which fills every call to its end, and against itself with each switch off.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from candidates.engine.journal import Fill, Hold
from candidates.engine.records import HOLDING
from candidates.engine.schedule import COMPENSATION, OPEN, PCD, RACIAL, RESERVES, seat_targets

if TYPE_CHECKING:
    from candidates.engine.seating import Seating

_FORECAST = True  # ``Foresight._forced`` on (under ``compensation``); the tests turn it off to compare
_WAIT = True  # ``after_fill`` skips the looks that would stop at the same hold; the tests turn it off
_RETRY = 64  # seats between two forecasts for the same nomination or hold (one costs about a dozen seats)
EVERYONE = 1 << 62  # a rank below everyone's (a reverted seat passes over every candidate)


class Foresight:
    """The conflict a fill of a call will end with (RULES §4 item 3), known before it ends.

    ``Seating.call`` judges a conflict on the whole fill, as the rule says, then undoes the fill back to
    the seat the held candidate had landed on: every seat filled after it is wasted work (under
    ``compensation`` most of a call, as reserved nominees are compensated until the fill ends). After
    each seat this looks, in call order, at the call's nominations from a reserved list L of dual
    candidates preferring P ≠ L, and stops the fill at the first one whose fate is settled, when every
    one before it can no longer be a conflict. Two counts make it safe, since each seat still to fill
    nominates one candidate:

    - a candidate x is never compensated in this fill while the candidates not yet nominated above x
      on the general list (held ones included) are at least the seats left (one must remain to stop
      the open list before x); ``projected`` and ``actual`` compensate nobody;
    - no seat of kind P still to fill goes to someone below d on P while the candidates who qualify
      for a P seat above d (not yet nominated, or held for P) are at least the seats left.

    A nomination is then a conflict for good when its candidate is never compensated and a seat of kind
    P of the call reverted (kept for good: a reverted seat is on the general list) or went to someone
    below them who is never compensated; it can never be one when it was compensated, or when no P seat
    went below them and none still can. Anything else waits. A held candidate not yet nominated could
    lapse (which the fill's end looks at first): nothing is decided while there is one. Both counts only
    grow against the seats left, so what is settled stays settled, and ``_open_r`` says from how few
    seats left a count still short could be enough. The property tests check the fast engine against
    the reference, which always fills the whole call.
    """

    __slots__ = (
        "bars",
        "causes",
        "compensating",
        "fills",
        "first",
        "forecast",
        "found",
        "holds",
        "k",
        "kept",
        "lapsed",
        "open_at",
        "open_r",
        "seating",
        "seen",
        "settled",
        "starts",
        "tracked",
        "tries",
        "waiting",
    )

    def __init__(
        self,
        seating: Seating,
        fills: list[Fill],
        first: int,
        holds: dict[int, Hold],
        lapsed: set[int],
        starts: dict[str, int],
        k: int,
    ) -> None:
        self.seating = seating
        self.fills = fills
        self.first = first
        self.holds = holds
        self.lapsed = lapsed
        self.starts = starts
        self.k = k
        self.compensating = seating.params.open_competition_rule == COMPENSATION
        self.forecast = self.compensating and _FORECAST
        self.kept: set[int] = set()  # held candidates surely nominated by the end of this fill
        self.open_at = (-1, 0)  # ``_open_bound``: (journal length, the bound)
        self.tries: dict[int, int] = {}  # forecasts tried: tracked fill index (or −1 − held) → seats left
        self.tracked: list[tuple[int, int, str]] = []  # (fill index, candidate, the list P preferred)
        self.causes: dict[str, list[int]] = {RACIAL: [], PCD: []}  # fills of seats of kind P, in order
        self.bars: dict[str, list[int]] = {RACIAL: [], PCD: []}  # the lowest rank on P among them so far
        self.settled: set[int] = set()  # tracked fills that can no longer be a conflict
        self.found: tuple[int, int, str] | None = None
        self.open_r = k  # look again once the seats left are this few (or something moved)
        self.seen = seating.compensations
        self.waiting = -1  # the hold ``_look`` last stopped at (−1: none)
        for i in range(len(fills)):
            self._add(i)

    def resume(self) -> None:
        """Start a refill of the call from the fills its rollback kept (``Seating.call``): what ``_add``
        recorded of each stands, as it depends only on that fill (a nomination among them compensated
        since is settled by ``_look``, as it would be left out by a fresh record), and every judgment is
        made again. The same as a new ``Foresight`` without recording each kept fill again."""
        kept = len(self.fills)
        self.tracked = [t for t in self.tracked if t[0] < kept]
        for kind in RESERVES:
            causes = self.causes[kind]
            cut = bisect_left(causes, kept)
            del causes[cut:]
            del self.bars[kind][cut:]
        self.kept = set()
        self.open_at = (-1, 0)
        self.tries = {}
        self.settled = set()
        self.found = None
        self.open_r = self.k
        self.seen = self.seating.compensations
        self.waiting = -1

    def _add(self, i: int) -> None:
        seating = self.seating
        fill = self.fills[i]
        nom = seating.nominations[self.first + i]
        if nom.reinstated:
            return  # item 3 ignores a seat paid to an owed candidate (RULES §4 item 7)
        if fill.kind != OPEN:
            rank = EVERYONE if nom.reverted else seating.lists[fill.kind].cur[fill.candidate]
            bars = self.bars[fill.kind]
            bars.append(max(rank, bars[-1]) if bars else rank)
            self.causes[fill.kind].append(i)
        c = fill.candidate
        if nom.list not in RESERVES or c in self.lapsed:
            return
        on = seating.on
        # ``seating._is_dual(c)``, inlined: asked for every reserved seat of every fill.
        if on[RACIAL][c] and on[PCD][c] and not seating.removed[c] and not seating.excluded[c]:
            preferred = seating._preference(c)
            if preferred != nom.list:
                self.tracked.append((i, c, preferred))

    def after_fill(self, kind: str) -> tuple[int, int, str] | None:
        """Record the seat just filled; the conflict, if the fill's end is already known."""
        self._add(len(self.fills) - 1)
        if not self.tracked:
            return None
        left = self.k - len(self.fills)
        moved = self.seating.compensations != self.seen
        if left <= 0 or (left > self.open_r and kind == OPEN and not moved):
            return None
        self.seen = self.seating.compensations
        h = self.waiting
        if (
            _WAIT
            and h >= 0
            and not self.seating.holding[h]
            and (not self.forecast or self.tries[-1 - h] - left < _RETRY)
        ):
            # ``_look`` would stop at the same hold, not yet spent nor due for another forecast: the holds
            # before it stay spent or kept (a fill only nominates), so it would return None again.
            self.open_r = left
            self.found = None
            return None
        self.open_r = -1
        self.found = self._look(left)
        return self.found

    def _look(self, left: int) -> tuple[int, int, str] | None:
        seating = self.seating
        holding = seating.holding
        for h in self.holds:
            if not holding[h] and not (self.forecast and self._kept(h, left)):
                self.open_r = left  # a hold may still lapse: look at every seat until it is spent
                self.waiting = h
                return None
        self.waiting = -1
        for i, c, preferred in self.tracked:
            if i in self.settled:
                continue
            if seating.nominations[self.first + i].list not in RESERVES:
                self.settled.add(i)  # compensated: from the general list now, for good
                continue
            rank = seating.lists[preferred].cur[c]
            bars = self.bars[preferred]
            if bars and bars[-1] > rank:
                # A seat of kind P went below them: a conflict unless a compensation undoes it.
                if self._never_compensated(c, left) and self._lasting_cause(preferred, rank, left):
                    return i, c, preferred
                return None
            ahead = self._ahead(preferred, rank)
            if ahead >= left:
                self.settled.add(i)  # no seat of kind P can go below them any more
                continue
            self.open_r = max(self.open_r, ahead)
            if self.forecast and self._tried(i, left) and self._forced(c, preferred, ahead, left):
                return i, c, preferred
            return None
        return None

    def _tried(self, key: int, left: int) -> bool:
        """Whether to try a forecast for ``key`` now: the first time, then every ``_RETRY`` seats (a
        forecast costs more than a seat; the fill only stops a few seats later than it could)."""
        last = self.tries.get(key)
        if last is not None and last - left < _RETRY:
            return False
        self.tries[key] = left
        return True

    def _kept(self, h: int, left: int) -> bool:
        """Whether the held candidate ``h``, not yet nominated, surely is by the end of the fill (their
        hold cannot lapse): the seats of the list they are held for still to fill outnumber the
        candidates above them who can take one."""
        if h in self.kept:
            return True
        if not self._tried(-1 - h, left):
            return False
        seating = self.seating
        kind = self.holds[h].preferred
        if self._seats_at_least(kind, left, None) > self._ahead(kind, seating.lists[kind].cur[h]):
            self.kept.add(h)
            return True
        return False

    def _forced(self, x: int, preferred: str, ahead: int, left: int) -> bool:
        """Under ``compensation``: whether the fill will surely end with a seat of kind P of the call
        that went below ``x`` on P, while ``x`` (nominated from the other reserve) is never
        compensated: their nomination is then a conflict when the fill ends (no hold lapses: ``_look``
        has seen to it).

        Only the ``ahead`` candidates above ``x`` on P (held for P included) can take a seat of kind P
        without going below them, so more seats of kind P than that (``_seats_at_least``) settle it,
        provided the open list never passes ``x``: no nominee below ``x`` is compensated then, and a
        reserve keeps the general list's order, so ``x`` and whoever took that seat keep their lists.
        The open list passes ``x`` only once every candidate not yet nominated above them (held ones
        included) is taken: by an open seat (at most ``_open_bound``), or by a reserved seat taking one
        of those above them on its list, or a held one.
        """
        seating = self.seating
        general = seating.general
        avail = general.avail
        g_x = general.cur[x]
        held_above = sum(1 for h in seating.held if general.cur[h] < g_x)
        free_above = avail.prefix(g_x) + held_above
        reach = None
        if free_above < left:
            guard = self._guard(left)
            if guard is None:
                return False
            a, b, new = guard
            kinds = seating.kinds
            opened = sum(1 for s in seating.freed if kinds[s - 1] == OPEN)
            if new:
                opened += self._open_bound(a, b, new)
            taken_above = held_above
            for name in RESERVES:
                lst = seating.lists[name]
                taken_above += lst.avail.prefix(lst.cur[x])
            if free_above <= opened + taken_above:
                return False
            reach = g_x  # the open list never passes ``x``
        return self._seats_at_least(preferred, left, reach) > ahead

    def _guard(self, left: int) -> tuple[int, int, int] | None:
        """The new seats a..b the rest of the fill creates and how many (``new``), or None when the
        bounds do not apply: an owed candidate may take any seat, a list may run short (a seat then
        reverts or the call stops), or only freed seats are left."""
        seating = self.seating
        for o, _, _ in seating.owed:
            if not seating.holding[o] and not seating.removed[o]:
                return None
        freed = seating.freed
        if len(freed) >= left or any(lst.avail.total < left for lst in seating.lists.values()):
            return None
        a = len(seating.kinds) + 1
        b = min(seating.n, a + left - len(freed) - 1)
        return a, b, max(0, b - a + 1)

    def _seats_at_least(self, kind: str, left: int, reach: int | None) -> int:
        """A lower bound of the seats of ``kind`` (a reserve, P) the rest of the fill makes, whatever the
        compensations do (they turn kept seats open, so deficits reappear). ``reach``: a general entry
        the open list is known never to pass.

        The freed seats are filled first, with the kinds they have. Of the new seats a..b, the other
        reserve Q takes at most ``T_Q(b) − served_Q + C_Q`` by its deficit (each seat it takes spends
        one, its target grows by at most one a seat, and each seat of kind Q compensated gives one
        back), plus the seats the make-up could reach, and never more than its count for ``n`` allows.
        The seats of kind P are then at least the new seats less the open ones (``_open_bound``) and
        Q's, and at least ``T_P(b) − max(served_P, T_P(a) − 1)`` less those Q took where P's deficit
        was positive. ``C_L`` is at most the entries of L between the lowest reserved nominee not yet
        compensated and the first general entry the open list cannot reach in this fill.
        """
        guard = self._guard(left)
        if guard is None:
            return 0
        a, b, new = guard
        seating = self.seating
        kinds = seating.kinds
        seats = sum(1 for s in seating.freed if kinds[s - 1] == kind)
        if not new:
            return seats
        n = seating.n
        params = seating.params
        served = seating.served
        counts = {name: params.count(name, n) for name in RESERVES}
        if served[RACIAL] > counts[RACIAL] or served[PCD] > counts[PCD]:
            return seats  # not through the engine: no reserve is served beyond its count
        avail = seating.general.avail
        limit = avail.find(left) + 1  # the first general entry the open list cannot reach in this fill
        if reach is not None:
            limit = min(limit, reach)
        heap = seating.comp_heap
        low = min(heap[0][0], avail.first()) if heap else avail.first()
        compensable = {}
        for name in RESERVES:
            gpos = seating.lists[name].gpos
            assert gpos is not None
            compensable[name] = max(0, bisect_left(gpos, limit) - bisect_left(gpos, low))
        other = PCD if kind == RACIAL else RACIAL
        p, q = (0, 1) if kind == RACIAL else (1, 0)
        at_a, at_b = seat_targets(params, a, n), seat_targets(params, b, n)
        won = max(0, at_b[q] - served[other] + compensable[other])
        owed = sum(counts[name] - served[name] + compensable[name] for name in RESERVES)
        made_up = max(0, b - max(a, n + 1 - 2 * owed) + 1)
        # Neither the greedy rule nor the make-up serves a reserve beyond its count for n.
        theirs = min(won + made_up, counts[other] - served[other] + compensable[other])
        opened = self._open_bound(a, b, new)
        return seats + max(0, at_b[p] - max(served[kind], at_a[p] - 1) - won, new - opened - theirs)

    def _open_bound(self, a: int, b: int, new: int) -> int:
        """At most how many of the new seats a..b will be open. At the last open seat t both deficits
        are at most zero, so a..t gave the reserves at least ``T_R(t) + T_Q(t) − served`` seats plus
        one for each seat of theirs compensated meanwhile: with O open seats, O + compensations ≤
        ``t − a + 1 − T_R(t) − T_Q(t) + served`` (``_most_open`` takes the largest over t). And an open
        seat takes the open list's front: a reserved nominee with fewer than O candidates not yet
        nominated above them is compensated by the O-th open seat at the latest. Kept for the seat the
        fill is at (each hold and the nomination looked at ask it in turn)."""
        seating = self.seating
        at = len(seating.journal)  # a fill only adds to the journal: its length names the fill's state
        if self.open_at[0] == at:
            return self.open_at[1]
        bound = self._open_bound_now(a, b, new)
        self.open_at = (at, bound)
        return bound

    def _open_bound_now(self, a: int, b: int, new: int) -> int:
        seating = self.seating
        served = seating.served
        room = self._most_open(a, b) - a + 1 + served[RACIAL] + served[PCD]
        most = min(new, room)
        if most <= 0:
            return 0
        avail = seating.general.avail
        horizon = avail.find(most)
        # The reserved nominees not yet compensated, each once (the heap may hold stale entries).
        general_cur = seating.general.cur
        holder = seating.holder
        nominations = seating.nominations
        candidates = seating.candidates
        found: dict[int, int] = {}
        heap = seating.comp_heap
        size = len(heap)
        stack = [0] if heap else []
        while stack:  # the heap's entries up to the horizon only: a parent is never above its children
            k = stack.pop()
            g, seat, c = heap[k]
            if g > horizon:
                continue
            if 2 * k + 1 < size:
                stack.append(2 * k + 1)
                if 2 * k + 2 < size:
                    stack.append(2 * k + 2)
            if c in found or seat >= len(holder) or general_cur[c] != g:
                continue
            i = holder[seat]
            if i < 0:
                continue
            nom = nominations[i]
            if nom.candidate == candidates[c][0] and nom.list in RESERVES and nom.status in HOLDING:
                found[c] = g
        if not found:
            return most
        # With O open seats, those with fewer than O candidates not yet nominated above them: held
        # ones count as not yet nominated, so at most ``len(held)`` more than the tree's count (fewer
        # compensations counted only weakens the bound).
        entries = sorted(found.values())
        held = len(seating.held)
        lo, hi = 0, most
        while lo < hi:
            mid = (lo + hi + 1) // 2
            reached = bisect_right(entries, avail.find(mid - held)) if mid > held else 0
            if mid + reached <= room:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _most_open(self, a: int, b: int) -> int:
        """max over t in a..b of ``t − T_R(t) − T_Q(t)``: the open seats among new seats a..b are at
        most that less ``a − 1`` plus the reserved seats served now. At the last open seat t both
        deficits are at most zero, so a..t gave each reserve at least ``T_L(t) − served_L`` seats
        (compensations only add to them). ``b`` is the call's last seat through a fill and its
        refills, so the maxima are kept from the end down, for that ``n`` and ``b``."""
        seating = self.seating
        n = seating.n
        cached = seating.most_open
        if cached is None or cached[0] != n or cached[1] != b or cached[2] > a:
            params = seating.params
            best = -(1 << 62)
            maxima = []
            for t in range(b, a - 1, -1):
                t_racial, t_pcd = seat_targets(params, t, n)
                best = max(best, t - t_racial - t_pcd)
                maxima.append(best)
            maxima.reverse()
            cached = seating.most_open = (n, b, a, maxima)
        return cached[3][a - cached[2]]

    def _never_compensated(self, x: int, left: int) -> bool:
        if not self.compensating:
            return True
        general = self.seating.general
        g = general.cur[x]
        above = general.avail.prefix(g) + sum(1 for h in self.seating.held if general.cur[h] < g)
        self.open_r = max(self.open_r, above)
        return above >= left

    def _lasting_cause(self, preferred: str, rank: int, left: int) -> bool:
        """A seat of kind P of the call that reverted, or went to someone below ``rank`` on P who is
        never compensated (its kind then stays P until the fill ends)."""
        seating = self.seating
        lst = seating.lists[preferred]
        for i in reversed(self.causes[preferred]):
            fill = self.fills[i]
            if seating.kinds[fill.seat - 1] != preferred:
                continue
            if seating.nominations[self.first + i].reverted:
                return True
            if lst.cur[fill.candidate] > rank and self._never_compensated(fill.candidate, left):
                return True
        return False

    def _ahead(self, preferred: str, rank: int) -> int:
        """Candidates above ``rank`` on P who may still take a seat of kind P in this call."""
        start = self.starts[preferred]
        if start < 0 or rank <= start:
            return 0
        seating = self.seating
        lst = seating.lists[preferred]
        avail = lst.avail
        count = avail.prefix(rank) - (avail.prefix(start) if start else 0)
        for h, hold in self.holds.items():
            if h in seating.held and hold.preferred == preferred and start <= lst.cur[h] < rank:
                count += 1
        return count
