"""A Fenwick (binary indexed) tree of non-negative counts that can grow at the end.

PURE helper of ``candidates.engine.allocation``: positions in a list of a million candidates, counting some
and not others, in O(log n) per change or question instead of a scan per seat.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left


class Fenwick:
    """Counts ``values[0..size)`` with O(log n) ``add``, ``prefix``, ``find`` and ``append``."""

    __slots__ = ("size", "step", "total", "tree")

    def __init__(self, values: list[int] | None = None) -> None:
        tree = [0, *(values or ())]
        size = len(tree) - 1
        # Linear construction: each node hands its sum to its parent once.
        for i in range(1, size + 1):
            j = i + (i & -i)
            if j <= size:
                tree[j] += tree[i]
        self.tree = array("l", tree)
        self.size = size
        self.total = sum(values) if values else 0
        self.step = 1 << size.bit_length() if size else 0

    @classmethod
    def ones(cls, size: int) -> Fenwick:
        """``size`` values all 1: node i covers lowbit(i) values (no construction loop)."""
        tree = cls.__new__(cls)
        tree.tree = _ruler(size)
        tree.size = size
        tree.total = size
        tree.step = 1 << size.bit_length() if size else 0
        return tree

    def add(self, index: int, delta: int) -> None:
        """values[index] += delta (0-based)."""
        self.total += delta
        tree = self.tree
        size = self.size
        i = index + 1
        while i <= size:
            tree[i] += delta
            i += i & -i

    def prefix(self, count: int) -> int:
        """Sum of values[0..count)."""
        tree = self.tree
        total = 0
        i = count
        while i > 0:
            total += tree[i]
            i &= i - 1
        return total

    def find(self, k: int) -> int:
        """Smallest 0-based index whose prefix sum through it reaches ``k`` (k ≥ 1); ``size`` if none."""
        if k > self.total or k <= 0:
            return self.size
        tree = self.tree
        size = self.size
        pos = 0
        step = self.step
        while step:
            nxt = pos + step
            if nxt <= size and tree[nxt] < k:
                pos = nxt
                k -= tree[nxt]
            step >>= 1
        return pos

    def first_from(self, index: int) -> int:
        """Smallest index ≥ ``index`` with a positive value; ``size`` if none."""
        return self.find(self.prefix(index) + 1)

    def append(self, value: int) -> None:
        """Add values[size] = value: node i covers (i − lowbit(i), i], all of it already known."""
        i = self.size + 1
        low = i - (i & -i)
        self.tree.append(value + self.prefix(i - 1) - self.prefix(low))
        self.size = i
        self.total += value
        self.step = 1 << i.bit_length()


class MostlyOnes(Fenwick):
    """A ``Fenwick`` of 0/1 counts that are nearly all 1 (who is still on a list: only those who left are
    0), which also keeps its zeros' indexes in order while they are few: ``prefix`` is then a bisection
    (at C speed) instead of a walk of the tree. The tree stays exact; past ``_FEW_ZEROS`` zeros, or at
    an addition that would leave a value other than 0 or 1, the list is dropped and the tree answers."""

    __slots__ = ("few", "zeros")
    few: int  # at most this many zeros are kept
    zeros: list[int] | None

    @classmethod
    def ones(cls, size: int) -> MostlyOnes:
        tree = super().ones(size)
        assert isinstance(tree, MostlyOnes)
        tree.zeros = []
        tree.few = _FEW_ZEROS
        return tree

    def add(self, index: int, delta: int) -> None:
        super().add(index, delta)
        zeros = self.zeros
        if zeros is None or not delta:
            return
        at = bisect_left(zeros, index)
        present = at < len(zeros) and zeros[at] == index
        if delta == -1 and not present and len(zeros) < self.few:
            zeros.insert(at, index)
        elif delta == 1 and present:
            del zeros[at]
        else:
            self.zeros = None

    def prefix(self, count: int) -> int:
        zeros = self.zeros
        if zeros is None:
            return super().prefix(count)
        return count - bisect_left(zeros, count) if count > 0 else 0

    def append(self, value: int) -> None:
        super().append(value)
        zeros = self.zeros
        if zeros is not None:
            if value == 0 and len(zeros) < self.few:
                zeros.append(self.size - 1)  # the last index: the list stays in order
            elif value != 1:
                self.zeros = None


_FEW_ZEROS = 4096  # ``MostlyOnes.few`` by default (an insertion moves the zeros after it)


def _ruler(size: int) -> array[int]:
    """``[0, lowbit(1), …, lowbit(size)]``: the tree of ``size`` ones. lowbit(1..2^k) is a ruler sequence,
    L(k) = L(k−1) + L(k−1)[:−1] + [2^k], built by list copies; its prefixes are the shorter rulers, so the
    longest one built so far is kept and sliced (an index builds six trees, four of them over a prefix of
    the general list's size)."""
    global _RULER
    if len(_RULER) < size + 1:
        ruler = array("l", [0, 1])  # the leading 0 is node 0's, outside the recurrence
        while len(ruler) < size + 1:
            ruler = ruler + ruler[1:-1] + array("l", [2 * (len(ruler) - 1)])
        _RULER = ruler
    return _RULER[: size + 1]


# Kept as an array, which holds no references: the garbage collector does not walk a million entries of
# it at each full collection, as it would a list's.
_RULER = array("l", [0])
_NEAR = 1 << 16  # ``FirstFree`` counts up to this many values (at C speed) rather than ask the tree


class FirstFree(Fenwick):
    """A ``Fenwick`` of 0/1 counts that also answers "the first positive value" in amortised O(1), and
    defers its tree's updates to the next question that needs the tree.

    It keeps the values themselves (a ``bytearray``: a value other than 0 or 1 is an error) and ``low``,
    a bound no positive value lies before: an addition of a positive ``delta`` before it moves it back,
    ``first`` searches forward from it. A list whose front is called in order (the general list, a
    reserve under ``compensation``) is then read without a descent of the tree for each seat; a question
    within ``near`` entries of ``low`` is answered by counting the zeros among the values there, without
    the tree. The additions wait in ``pending``, summed per index, until a question farther away or
    ``append`` needs the tree: a nomination a rollback undoes before then costs the tree nothing.
    """

    __slots__ = ("low", "near", "pending", "values")
    low: int
    near: int  # questions at most this far beyond ``low`` are answered from the values
    pending: dict[int, int]
    values: bytearray

    @classmethod
    def ones(cls, size: int) -> FirstFree:
        tree = super().ones(size)
        assert isinstance(tree, FirstFree)
        tree.values = bytearray(b"\x01") * size  # no references for the garbage collector to walk
        tree.low = 0
        tree.pending = {}
        tree.near = _NEAR
        return tree

    def add(self, index: int, delta: int) -> None:
        """values[index] += delta (0-based)."""
        self.values[index] += delta
        if delta > 0 and index < self.low:
            self.low = index
        self.total += delta
        pending = self.pending
        pending[index] = pending.get(index, 0) + delta

    def _flush(self) -> None:
        tree = self.tree
        size = self.size
        for index, delta in self.pending.items():
            if delta:
                i = index + 1
                while i <= size:
                    tree[i] += delta
                    i += i & -i
        self.pending.clear()

    def prefix(self, count: int) -> int:
        # None is positive before ``low``, and the values are 0 or 1: near it, the ones are counted.
        low = self.low
        if count <= low:
            return 0
        if count - low <= self.near:
            return count - low - self.values.count(0, low, count)
        if self.pending:
            self._flush()
        return super().prefix(count)

    def find(self, k: int) -> int:
        if k > self.total or k <= 0:
            return self.size
        # Near ``low``: the window [low, end) grows by what it lacks until it holds k ones; it never
        # holds more, so it then ends on the k-th one.
        low = self.low
        values = self.values
        limit = min(self.size, low + self.near)
        end = low + k
        ones = 0
        start = low
        for _ in range(8):  # the window's growth shrinks with the zeros it meets; dense zeros: the tree
            if end > limit:
                break
            ones += end - start - values.count(0, start, end)
            if ones == k:
                return end - 1
            start, end = end, end + k - ones
        if self.pending:
            self._flush()
        return super().find(k)

    def first_from(self, index: int) -> int:
        """Smallest index ≥ ``index`` with a positive value (a search of the values); ``size`` if none."""
        e = self.values.find(1, max(index, self.low))
        return e if e >= 0 else self.size

    def first(self) -> int:
        """``find(1)``: the smallest index with a positive value; ``size`` if none."""
        e = self.values.find(1, self.low)
        if e < 0:
            e = self.size
        self.low = e
        return e

    def append(self, value: int) -> None:
        if self.pending:
            self._flush()
        super().append(value)
        self.values.append(value)
