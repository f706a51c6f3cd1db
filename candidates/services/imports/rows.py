"""One row of the file as the planner reads it: the parser of each field's cell, the row, and what the
import does to it (``plan`` and ``racial`` share it; neither imports the other for it)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from candidates.services.imports import cells

if TYPE_CHECKING:
    from candidates.models import Registration
    from candidates.services.imports.writing import New

# What the import does to a row's registration (shown to the clerk).
NEW, CHANGED, UNCHANGED = "nova", "alterada", "sem alteração"

# Each field's cell parser (``cells``); a bad cell raises ``CellError`` with the reason in Portuguese.
PARSERS: dict[str, Callable[[Any], Any]] = {
    "number": cells.parse_number,
    "full_name": cells.parse_name,
    "social_name": cells.parse_name,
    "cpf": cells.parse_cpf,
    "birth_date": cells.date_parser("data de nascimento"),
    "email": cells.parse_email,
    "phone": lambda v: cells.parse_text(v, max_length=40),
    "address": lambda v: cells.parse_text(v, max_length=1000),
    "position": cells.text,
    "registered_on": cells.date_parser("data da inscrição"),
    "racial": cells.parse_racial,
    "category": lambda v: v,  # read only when the row opts for the reserve
    "declared_on": cells.date_parser("data da autodeclaração"),
    "pcd": cells.parse_bool,
    "preferred_reserve": cells.parse_reserve,
    "jury_service": cells.parse_bool,
    "final_score": lambda v: cells.parse_decimal(v, what="nota final"),
    "absent": cells.parse_bool,
}


class Row:
    """A line of the file: its parsed ``values`` by field key, its ``scores`` by phase key, whether a cell
    was unreadable (``bad``), and, once planned, its registration, status and the changes it makes."""

    __slots__ = ("bad", "changes", "line", "registration", "scores", "status", "values")

    def __init__(
        self, line: int, values: dict[str, Any], scores: dict[str, tuple[Decimal | None, bool]], bad: bool
    ):
        self.line = line
        self.values = values
        self.scores = scores
        self.bad = bad
        self.registration: Registration | New | None = None
        self.status = ""
        self.changes: list[tuple[str, Any, Any]] = []
