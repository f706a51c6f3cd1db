"""The racial option in an import (RULES §5): what a row may do to a registration's self-declaration.

The declaration is made at registration and valid for this contest only. A first import after
registrations closed records the options the organiser collected (unless the file dates one after the
close); after the close an import may neither add the option to a registration already imported nor take
it away: that is the candidate's renunciation or a clerk's justified correction, done on the
registration. A renunciation or correction recorded in the system prevails over the file. The category
must be one of the policy's ``beneficiary_groups``; "negro" without distinction (a blank category)
never overwrites a category already known.

The rules themselves are ``candidates.engine.eligibility``'s; this module applies them to the rows. The
planner (``plan``) holds one ``RacialOptionChecker`` and hands it what it needs: nothing here imports the
planner.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Any

from candidates.engine import eligibility
from candidates.engine.eligibility import OptionChange
from candidates.models import Registration, SelfDeclaration
from candidates.models.registrations import category_refusal_for
from candidates.services.imports import cells
from candidates.services.imports.cells import CellError
from candidates.services.imports.report import fragment
from candidates.services.imports.rows import Row
from candidates.services.imports.writing import New
from contests.models import Contest, Policy

Problem = Callable[[int | None, str, str], None]
MarkChanged = Callable[..., None]


class RacialOptionChecker:
    """Plans each row's racial option against the declarations already recorded for the contest.

    ``columns`` maps field keys to the file's headers; ``problem(line, column, message)`` records a
    refusal, ``notice(text)`` a remark for the clerk, ``mark_changed(obj, *fields)`` an object to update.
    New declarations go to ``new_declarations`` (the planner writes them with the rest).
    """

    def __init__(
        self,
        *,
        contest: Contest,
        today: datetime.date,
        columns: dict[str, str],
        declarations: Iterable[SelfDeclaration],
        new_declarations: list[New],
        problem: Problem,
        notice: Callable[[str], None],
        mark_changed: MarkChanged,
    ):
        self.policy: Policy = contest.policy
        self.registration_end = contest.registration_end
        self.today = today
        self.columns = columns
        self.declarations = {d.registration_id: d for d in declarations}
        self.new_declarations = new_declarations
        self.new_declaration_of: dict[int, New] = {}  # id() of a New registration -> its declaration
        self.problem = problem
        self.notice = notice
        self.mark_changed = mark_changed
        self.refusals: dict[str, str | None] = {}

    def refuse(self, line: int, column: str, refusal: str) -> None:
        self.problem(line, column, fragment(refusal))

    def declaration_of(self, registration: Registration | New) -> SelfDeclaration | New | None:
        if isinstance(registration, New):
            return self.new_declaration_of.get(id(registration))
        return self.declarations.get(registration.pk)

    def after_close(self, change: OptionChange) -> str | None:
        """Why the file may not make ``change`` to a recorded option today (SM art. 3; AR art. 1 §4)."""
        return eligibility.racial_option_refusal(
            change, on=self.today, registration_end=self.registration_end
        )

    def category_refusal(self, category: str) -> str | None:
        if category not in self.refusals:  # a few categories, 100,000 rows: asked once each
            self.refusals[category] = category_refusal_for(category, self.policy)
        return self.refusals[category]

    def plan(self, row: Row, registration: Registration | New, existing: Registration | None) -> bool | None:
        """The racial option after this row (``None``: unchanged, or the file says nothing about it)."""
        values = row.values
        declaration = self.declarations.get(existing.pk) if existing else None
        active = declaration is not None and declaration.status == SelfDeclaration.Status.ACTIVE
        if "racial" in values:
            opted, category = values["racial"]
        elif "category" in values and active:
            opted, category = True, None
        else:
            return None
        column = self.columns.get("racial") or self.columns.get("category", "")
        if opted and "category" in values:
            try:
                parsed = cells.parse_category(values["category"])
            except CellError as exc:
                self.problem(row.line, self.columns["category"], str(exc))
                return None
            category = parsed if parsed is not None else category
        if not opted:
            if not active:
                return False if existing is None or not existing.racial_reserve else None
            refusal = self.after_close(OptionChange.REMOVE)
            if refusal:
                self.refuse(row.line, column, refusal)
                return None
            assert declaration is not None  # active
            self.change(row, declaration, status=SelfDeclaration.Status.GIVEN_UP, ended_on=self.today)
            return False
        refusal = self.category_refusal(category or "")
        if refusal:
            self.refuse(row.line, self.columns.get("category") or column, refusal)
            return None
        declared_on = values.get("declared_on") or values.get("registered_on")
        refusal = eligibility.declaration_date_refusal(declared_on, registration_end=self.registration_end)
        if refusal:
            date_column = self.columns.get("declared_on") or self.columns.get("registered_on") or column
            self.refuse(row.line, date_column, refusal)
            return None
        if declaration is None:
            return self.add(row, registration, existing, column, category or "", declared_on)
        if not active:
            if self.after_close(OptionChange.ADD):
                self.notice(
                    f"Linha {row.line}: a autodeclaração da inscrição {existing.number} está "  # type: ignore[union-attr]
                    f"“{declaration.get_status_display().lower()}”, o que prevalece sobre a opção do arquivo."
                )
                return None
            self.change(
                row,
                declaration,
                status=SelfDeclaration.Status.ACTIVE,
                category=category or declaration.category,
                declared_on=declared_on or declaration.declared_on,
                ended_on=None,
            )
            return True
        changes: dict[str, Any] = {}
        if category and category != declaration.category:
            refusal = self.after_close(OptionChange.CATEGORY)
            if refusal:
                old = declaration.get_category_display() or "não informada"
                self.problem(
                    row.line,
                    self.columns.get("category") or column,
                    f"{fragment(refusal)} (no arquivo: {old} → {Policy.Group(category).label})",
                )
                return None
            changes["category"] = category
        if declared_on and declared_on != declaration.declared_on:
            changes["declared_on"] = declared_on
        if changes:
            self.change(row, declaration, **changes)
        return True

    def add(
        self,
        row: Row,
        registration: Registration | New,
        existing: Registration | None,
        column: str,
        category: str,
        declared_on: datetime.date | None,
    ) -> bool | None:
        """A first declaration for this registration: at its registration, or refused after the close."""
        if existing is not None:
            refusal = self.after_close(OptionChange.ADD)
            if refusal:
                self.refuse(row.line, column, refusal)
                return None
        new = New(
            SelfDeclaration,
            {"category": category, "declared_on": declared_on},
            {"registration_id": registration},
        )
        self.new_declarations.append(new)
        self.new_declaration_of[id(registration)] = new
        if existing is not None:
            row.changes.append(("autodeclaração", None, category or "negra"))
        return True

    def change(self, row: Row, declaration: SelfDeclaration, **changes: Any) -> None:
        for key, value in changes.items():
            old = getattr(declaration, key)
            if old != value:
                label = getattr(SelfDeclaration._meta.get_field(key), "verbose_name", key)
                row.changes.append((f"autodeclaração: {label}", old, value))
                setattr(declaration, key, value)
                self.mark_changed(declaration, key)
