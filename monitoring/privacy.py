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
