"""Privacy by construction for the law's reports (LGPD art. 11: race and disability are sensitive data).

PURE module: no Django, no project import.

Reports and open data show aggregates only. A count of people between 1 and ``MIN_CELL`` − 1 is suppressed
(shown as a mark, with the reason); zero identifies nobody and is shown. A percentage whose base counts
fewer than ``MIN_BASE`` cases is shown with a note that it rests on few cases (and is suppressed with its
numerator when that numerator is itself a suppressed cell).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

MIN_CELL = 5
MIN_BASE = 10
SUPPRESSED_MARK = "<5"
SUPPRESSED_NOTE = "Célula com menos de 5 pessoas: suprimida para proteger dados sensíveis (LGPD art. 11)."
FEW_CASES_NOTE = "Percentual calculado sobre menos de 10 casos: leia com cautela."


@dataclass(frozen=True)
class Cell:
    """A count of people as it may be shown: ``value`` None when suppressed."""

    value: int | None

    @property
    def suppressed(self) -> bool:
        return self.value is None

    @property
    def text(self) -> str:
        return SUPPRESSED_MARK if self.value is None else str(self.value)

    @property
    def note(self) -> str:
        return SUPPRESSED_NOTE if self.value is None else ""


@dataclass(frozen=True)
class Share:
    """A percentage as it may be shown: ``percent`` None when suppressed or without base."""

    percent: Decimal | None
    base: int
    few_cases: bool
    suppressed: bool = False

    @property
    def text(self) -> str:
        if self.suppressed:
            return SUPPRESSED_MARK
        if self.percent is None:
            return "—"
        shown = f"{self.percent:.1f}".replace(".", ",") + "%"
        return f"{shown}*" if self.few_cases else shown

    @property
    def note(self) -> str:
        if self.suppressed:
            return SUPPRESSED_NOTE
        return FEW_CASES_NOTE if self.few_cases and self.percent is not None else ""


def cell(count: int) -> Cell:
    """``count`` people, suppressed when 1 to ``MIN_CELL`` − 1."""
    if count < 0:
        raise ValueError("Uma contagem de pessoas não é negativa.")
    return Cell(None if 0 < count < MIN_CELL else count)


def share(part: int, whole: int) -> Share:
    """``part`` of ``whole`` as a percentage with one decimal (half up); flagged under ``MIN_BASE`` cases and
    suppressed when ``part`` is a suppressed cell or ``whole`` − ``part`` is (the complement reveals it)."""
    if part < 0 or whole < 0 or part > whole:
        raise ValueError("A parte deve estar entre 0 e o todo.")
    if whole == 0:
        return Share(None, 0, True)
    if cell(part).suppressed or cell(whole - part).suppressed:
        return Share(None, whole, whole < MIN_BASE, suppressed=True)
    percent = (Decimal(100) * part / whole).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return Share(percent, whole, whole < MIN_BASE)


# Complementary suppression ------------------------------------------------------------------------------------
#
# A suppressed cell that sits in a sum whose total is shown can be read back by subtraction (the total minus the
# shown parts). ``protect`` suppresses more cells of such a sum (the smallest non-zero part first, then a zero
# part, then the total) until, in every sum, each suppressed cell could hold at least two values given what is
# shown. A reader knows a primary cell ("<5") holds 1 to 4 people and a complementary one ("X") anything but 1
# to 4 people (or any count, for a cell that does not count people).

PRIMARY, COMPLEMENTARY = "primary", "complementary"
COMPLEMENTARY_MARK = "X"
COMPLEMENTARY_NOTE = "Suprimida também para que uma célula com menos de 5 pessoas não possa ser deduzida por subtração do total."


@dataclass(frozen=True)
class Relation:
    """``total`` = the sum of ``parts`` (keys of the cells)."""

    total: object
    parts: tuple[object, ...]


def _shift_range(mask: int, low: int, high: int) -> int:
    """The set {m + k : m in mask, low <= k <= high} as a bit mask (doubling: a few shifts)."""
    if high < low:
        return 0
    length, acc, span = high - low + 1, mask, 1
    while span * 2 <= length:
        acc |= acc << span
        span *= 2
    if span < length:
        acc |= acc << (length - span)
    return acc << low


def _ranges(status: str | None, people: bool, cap: int) -> tuple[tuple[int, int], ...]:
    """The values a reader allows a suppressed cell."""
    if status == PRIMARY:
        return ((1, MIN_CELL - 1),)
    if people:
        return ((0, 0), (MIN_CELL, cap))
    return ((0, cap),)


def _sums(ranges: list[tuple[tuple[int, int], ...]]) -> int:
    acc = 1
    for intervals in ranges:
        acc = _shift_range(acc, intervals[0][0], intervals[0][1]) | (
            _shift_range(acc, intervals[1][0], intervals[1][1]) if len(intervals) > 1 else 0
        )
    return acc


def _values(intervals: tuple[tuple[int, int], ...]) -> list[int]:
    return [v for low, high in intervals for v in range(low, high + 1)]


def ambiguous(
    relation: Relation,
    values: dict[object, int],
    suppressed: dict[object, str],
    people: frozenset[object] | set[object],
) -> bool:
    """Whether every suppressed cell of ``relation`` could hold at least two values, given its shown cells."""
    members = [*relation.parts, relation.total]
    hidden = [key for key in members if key in suppressed]
    if not hidden:
        return True
    cap = sum(values[key] for key in members) + 2 * MIN_CELL
    ranges = {key: _ranges(suppressed.get(key), key in people, cap) for key in hidden}
    shown_parts = sum(values[key] for key in relation.parts if key not in suppressed)
    hidden_parts = [key for key in relation.parts if key in suppressed]
    total_shown = relation.total not in suppressed
    for key in hidden:
        found = 0
        others = _sums([ranges[k] for k in hidden_parts if k != key])
        for value in _values(ranges[key]):
            if total_shown:
                rest = values[relation.total] - shown_parts - value
                fits = rest >= 0 and bool(others >> rest & 1)
            elif key == relation.total:
                rest = value - shown_parts
                fits = rest >= 0 and bool(others >> rest & 1)
            else:
                total_mask = _sums([ranges[relation.total]])
                fits = bool((others << (shown_parts + value)) & total_mask)
            if fits:
                found += 1
                if found >= 2:
                    break
        if found < 2:
            return False
    return True


def protect(
    values: dict[object, int], relations: list[Relation], people: frozenset[object] | set[object]
) -> dict[object, str]:
    """The cells to suppress (key -> PRIMARY or COMPLEMENTARY): every count of 1 to ``MIN_CELL`` − 1 people,
    then, in each relation, more cells until no suppressed one can be read back (``ambiguous``)."""
    suppressed: dict[object, str] = {
        key: PRIMARY for key, value in values.items() if key in people and 0 < value < MIN_CELL
    }
    changed = True
    while changed:
        changed = False
        for relation in relations:
            if ambiguous(relation, values, suppressed, people):
                continue
            open_parts = [key for key in relation.parts if key not in suppressed]
            candidates = sorted(
                (key for key in open_parts if values[key] > 0), key=lambda key: values[key]
            ) + [key for key in open_parts if values[key] == 0]
            if relation.total not in suppressed:
                candidates.append(relation.total)
            if candidates:
                suppressed[candidates[0]] = COMPLEMENTARY
                changed = True
    return suppressed
