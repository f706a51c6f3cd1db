"""The racial option in an import (RULES §5): what a row may do to a registration's self-declaration.

The declaration is made at registration and valid for this contest only. A first import after
registrations closed records the options the organiser collected (unless the file dates one after the
close); after the close an import may neither add the option to a registration already imported nor take
it away: that is the candidate's renunciation or a clerk's justified correction, done on the
registration. A renunciation or correction recorded in the system prevails over the file. The category
must be one of the policy's ``beneficiary_groups``; "negro" without distinction (a blank category)
never overwrites a category already known.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from candidates.models import Registration, SelfDeclaration
from candidates.services.imports import cells
from candidates.services.imports.cells import CellError
from candidates.services.imports.report import Preview, date
from candidates.services.imports.writing import New
from contests.models import Contest, Policy

if TYPE_CHECKING:
    from candidates.services.imports.plan import _Row


class RacialOption:
    """Mixed into the planner: it provides ``problem``, ``columns``, ``contest``, ``policy``, ``closed``,
    ``today``, ``declarations``, ``new``, ``new_declaration_of``, ``refusals``, ``preview`` and ``mark_changed``."""

    problem: Callable[[int | None, str, str], None]
    columns: dict[str, str]
    contest: Contest
    policy: Policy
    closed: bool
    today: datetime.date
    declarations: dict[int, SelfDeclaration]
    new: dict[type, list[New]]
    new_declaration_of: dict[int, New]
    refusals: dict[str | None, str]
    preview: Preview
    mark_changed: Callable[..., None]

    def plan_declaration(
        self, row: _Row, registration: Registration | New, existing: Registration | None
    ) -> bool | None:
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
        end = self.contest.registration_end
        if not opted:
            if not active:
                return False if existing is None or not existing.racial_reserve else None
            if self.closed:
                self.problem(
                    row.line,
                    column,
                    f"retirada da opção pela reserva racial depois do fim das inscrições ({date(end)}): "
                    "registre a renúncia do candidato (ou a correção, com justificativa) na inscrição",
                )
                return None
            assert declaration is not None  # active
            self.change_declaration(
                row, declaration, status=SelfDeclaration.Status.GIVEN_UP, ended_on=self.today
            )
            return False
        refusal = self.category_refusal(category)
        if refusal:
            self.problem(row.line, self.columns.get("category") or column, refusal)
            return None
        declared_on = values.get("declared_on") or values.get("registered_on")
        if declared_on and end and declared_on > end:
            self.problem(
                row.line,
                self.columns.get("declared_on") or self.columns.get("registered_on") or column,
                f"opção pela reserva racial em {date(declared_on)}, depois do fim das inscrições ({date(end)})",
            )
            return None
        if declaration is None:
            if existing is not None and self.closed:
                self.problem(
                    row.line,
                    column,
                    f"opção pela reserva racial acrescentada depois do fim das inscrições ({date(end)}): a "
                    "autodeclaração é feita no ato da inscrição; um erro de digitação se corrige na "
                    "inscrição, com justificativa",
                )
                return None
            new = New(
                SelfDeclaration,
                {"category": category or "", "declared_on": declared_on},
                registration_id=registration,
            )
            self.new[SelfDeclaration].append(new)
            self.new_declaration_of[id(registration)] = new
            if existing is not None:
                row.changes.append(("autodeclaração", None, category or "negra"))
            return True
        assert existing is not None  # a declaration belongs to an existing registration
        if not active:
            if self.closed:
                self.preview.notices.append(
                    f"Linha {row.line}: a autodeclaração da inscrição {existing.number} está "
                    f"“{declaration.get_status_display().lower()}”, o que prevalece sobre a opção do arquivo."
                )
                return None
            self.change_declaration(
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
            if self.closed:
                old = declaration.get_category_display() or "não informada"
                self.problem(
                    row.line,
                    self.columns.get("category") or column,
                    f"categoria declarada alterada ({old} → {Policy.Group(category).label}) depois do fim "
                    "das inscrições: a correção se faz na inscrição, com justificativa",
                )
                return None
            changes["category"] = category
        if declared_on and declared_on != declaration.declared_on:
            changes["declared_on"] = declared_on
        if changes:
            self.change_declaration(row, declaration, **changes)
        return True

    def category_refusal(self, category: str | None) -> str:
        if category not in self.refusals:
            self.refusals[category] = self._category_refusal(category)
        return self.refusals[category]

    def _category_refusal(self, category: str | None) -> str:
        groups = set(self.policy.beneficiary_groups or [])
        allowed = ", ".join(Policy.Group(g).label.lower() for g in self.policy.beneficiary_groups or [])
        if category and category not in groups:
            label = Policy.Group(category).label.lower()
            return f"a categoria {label} não é beneficiária da política do concurso ({allowed})"
        if not category and not groups & {Policy.Group.PRETA, Policy.Group.PARDA}:
            return f"informe a categoria declarada: a política abrange {allowed}"
        return ""

    def change_declaration(self, row: _Row, declaration: SelfDeclaration, **changes: Any) -> None:
        for key, value in changes.items():
            old = getattr(declaration, key)
            if old != value:
                label = getattr(SelfDeclaration._meta.get_field(key), "verbose_name", key)
                row.changes.append((f"autodeclaração: {label}", old, value))
                setattr(declaration, key, value)
                self.mark_changed(declaration, key)
