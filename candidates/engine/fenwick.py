"""A Fenwick (binary indexed) tree of non-negative counts that can grow at the end.

PURE helper of ``candidates.engine.allocation``: positions in a list of a million candidates, counting some
and not others, in O(log n) per change or question instead of a scan per seat.
"""

from __future__ import annotations


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
        self.tree = tree
        self.size = size
        self.total = sum(values) if values else 0
        self.step = 1 << size.bit_length() if size else 0

    @classmethod
    def ones(cls, size: int) -> Fenwick:
        """``size`` values all 1: node i covers lowbit(i) values (no construction loop)."""
        tree = cls.__new__(cls)
        # lowbit(1..2^k) is a ruler sequence: L(k) = L(k−1) + L(k−1)[:−1] + [2^k], built by list copies.
        ruler = [1]
        while len(ruler) < size:
            ruler = ruler + ruler[:-1] + [2 * len(ruler)]
        tree.tree = [0, *ruler[:size]] if size else [0]
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
