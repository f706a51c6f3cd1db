"""What an import tells the clerk: problems, the preview, the result. Plain data, Portuguese text."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from contests.wording import decimal_comma, plural, thousands


@dataclass(frozen=True)
class Problem:
    """Why a row (or the mapping) cannot be imported. ``line`` is the file's line; ``column`` its header."""

    line: int | None
    column: str
    message: str

    def __str__(self) -> str:
        parts = [f"Linha {self.line}" if self.line else "", f"coluna {self.column}" if self.column else ""]
        where = ", ".join(part for part in parts if part)
        message = self.message[:1].upper() + self.message[1:]
        return f"{where}: {message}." if where else f"{message}."


@dataclass
class PhaseSpec:
    """A phase the import creates because the contest has none of that name: its maximum and pass mark."""

    name: str
    max_score: Decimal | None = None
    pass_mark: Decimal | None = None
    order: int = 0
    inferred: bool = False

    def describe(self) -> str:
        pass_mark = f"nota mínima {num(self.pass_mark)}" if self.pass_mark is not None else "sem nota mínima"
        origin = " (deduzida das notas do arquivo: confira)" if self.inferred else ""
        return f"{self.order}ª fase “{self.name}”: nota máxima {num(self.max_score)}{origin}, {pass_mark}"


def confirmed_phase_specs(confirmed: Mapping[str, Sequence[str | None]]) -> dict[str, PhaseSpec]:
    """The phases the clerk confirmed, as kept between the wizard's steps and in the task queue
    (``{name: [maximum, pass mark or None]}``, decimal strings), as ``PhaseSpec``."""
    return {
        name: PhaseSpec(name, Decimal(maximum or 0), Decimal(minimum) if minimum is not None else None)
        for name, (maximum, minimum) in confirmed.items()
    }


@dataclass
class RowView:
    """A row as the importer understood it."""

    line: int
    number: str
    name: str
    cpf: str
    position: str
    racial: str
    pcd: str
    scores: dict[str, str]
    status: str
    changes: list[str]


@dataclass
class Preview:
    """Counts, the first rows as understood, the rows that change and how, and every problem."""

    total_rows: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    per_position: dict[str, int] = field(default_factory=dict)
    rows: list[RowView] = field(default_factory=list)
    changed_rows: list[RowView] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    phases_to_create: list[PhaseSpec] = field(default_factory=list)
    mapping: dict[str, str] = field(default_factory=dict)
    missing_from_file: int = 0
    source: str = ""
    # What the import would do, in one hash (every row's outcome and changes, the phases it creates, the
    # notices): the commit compares it with the preview's, and refuses if the data changed since.
    fingerprint: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def has_changes(self) -> bool:
        return bool(self.new or self.updated or self.phases_to_create)

    @property
    def summary(self) -> str:
        if self.problems:
            lines = len({p.line for p in self.problems if p.line})
            where = f" em {plural(lines, 'linha', 'linhas')}" if lines else ""
            return f"{plural(len(self.problems), 'problema', 'problemas')}{where}: nada será importado."
        if not self.has_changes:
            return (
                f"Nenhuma alteração: as {thousands(self.total_rows)} linhas do arquivo são iguais ao que já "
                "está no sistema."
            )
        return (
            f"{plural(self.new, 'inscrição nova', 'inscrições novas')}, "
            f"{plural(self.updated, 'alterada', 'alteradas')}, "
            f"{plural(self.unchanged, 'sem alteração', 'sem alteração')}."
        )


@dataclass
class Result:
    created: int
    updated: int
    unchanged: int
    phases_created: list[str]
    preview: Preview

    @property
    def summary(self) -> str:
        if not (self.created or self.updated or self.phases_created):
            return "Nada foi alterado: o arquivo é igual ao que já está no sistema."
        return (
            f"Importação concluída: {plural(self.created, 'inscrição criada', 'inscrições criadas')}, "
            f"{plural(self.updated, 'alterada', 'alteradas')}, "
            f"{plural(self.unchanged, 'sem alteração', 'sem alteração')}."
        )


class ImportRejected(Exception):
    """``commit`` found problems and wrote nothing; ``preview`` lists them."""

    def __init__(self, preview: Preview):
        super().__init__(preview.summary)
        self.preview = preview


class ImportChanged(ImportRejected):
    """``commit`` would not do what the clerk's preview showed (the contest's data changed since: another
    import, a registration typed or corrected): it wrote nothing; ``preview`` is what it would do now."""

    MESSAGE = (
        "Nada foi importado: os dados do concurso mudaram desde a prévia (outra importação ou uma "
        "inscrição digitada ou corrigida). Confira a prévia atualizada e importe de novo."
    )

    def __init__(self, preview: Preview):
        super().__init__(preview)
        self.args = (self.MESSAGE,)


def fragment(sentence: str) -> str:
    """A rule's refusal (a sentence, ``candidates.engine.eligibility``) as a problem's message, which
    ``Problem`` writes after the line and column: lower-case start, no final period."""
    return sentence[:1].lower() + sentence[1:].removesuffix(".")


def num(value: Decimal | None) -> str:
    return "—" if value is None else decimal_comma(value)


def date(value: datetime.date | None) -> str:
    return f"{value:%d/%m/%Y}" if value else "—"


def shown(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, Decimal):
        return num(value)
    if isinstance(value, datetime.date):
        return date(value)
    return str(value)
