"""What an import tells the clerk: problems, the preview, the result. Plain data, Portuguese text."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from contests.wording import decimal_comma, plural, thousands

if TYPE_CHECKING:
    from candidates.services.imports.rows import Row


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


@dataclass(frozen=True)
class ProblemGroup:
    """Identical problems (same column, same reason) on several lines, told once with their lines."""

    column: str
    message: str
    lines: tuple[int, ...]
    count: int

    LINES_SHOWN = 10

    @property
    def line_numbers(self) -> str:
        """``"12, 15, 18, … (e mais 68)"``: the first lines, and how many more."""
        shown = ", ".join(str(line) for line in self.lines[: self.LINES_SHOWN])
        rest = len(self.lines) - self.LINES_SHOWN
        return f"{shown}, … (e mais {thousands(rest)})" if rest > 0 else shown

    @property
    def lines_text(self) -> str:
        """``"linhas 12, 15, 18, … (e mais 68)"``; ``"linha 12"``; ``"—"`` for a problem of the whole file."""
        if not self.lines:
            return "—"
        return f"{'linha' if len(self.lines) == 1 else 'linhas'} {self.line_numbers}"

    @property
    def headline(self) -> str:
        """``"78 linhas"`` or ``"Linha 12"``: where, before the reason."""
        if len(self.lines) > 1:
            return plural(len(self.lines), "linha", "linhas")
        return f"Linha {self.lines[0]}" if self.lines else "Arquivo"

    def __str__(self) -> str:
        if len(self.lines) <= 1:
            return str(Problem(self.lines[0] if self.lines else None, self.column, self.message))
        column = f" (coluna {self.column})" if self.column else ""
        return f"{self.headline}: {self.message}{column} — {self.lines_text}."


def group_problems(problems: Sequence[Problem]) -> list[ProblemGroup]:
    """The problems with the same column and reason told once, with every line, in the order the first of
    each comes in the file (78 rows of a position of another contest make one group, not 78 lines)."""
    groups: dict[tuple[str, str], list[Problem]] = {}
    for problem in problems:
        groups.setdefault((problem.column, problem.message), []).append(problem)
    return [
        ProblemGroup(
            column=column,
            message=message,
            lines=tuple(sorted({p.line for p in same if p.line})),
            count=len(same),
        )
        for (column, message), same in groups.items()
    ]


def lines_of_positions(lines_by_position: Mapping[str, Sequence[int]]) -> str:
    """``"78 linhas do cargo “ANSI” e 2 do cargo “TI”"``: the rows of positions this contest does not have."""
    parts = [
        f"{plural(len(lines), 'linha', 'linhas')} do cargo “{name}”"
        for name, lines in sorted(lines_by_position.items(), key=lambda item: -len(item[1]))
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]


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
    # The rows whose position this contest does not have (the cell's text → its lines); with
    # ``only_contest_positions`` they are left out of the import instead of being problems.
    other_positions: dict[str, list[int]] = field(default_factory=dict)
    only_contest_positions: bool = False
    # What the import would do, in one hash (every row's outcome and changes, the phases it creates, the
    # notices): the commit compares it with the preview's, and refuses if the data changed since.
    fingerprint: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def problem_groups(self) -> list[ProblemGroup]:
        return group_problems(self.problems)

    @property
    def other_position_rows(self) -> int:
        return sum(len(lines) for lines in self.other_positions.values())

    @property
    def other_positions_text(self) -> str:
        return lines_of_positions(self.other_positions) if self.other_positions else ""

    @property
    def rows_of_this_contest(self) -> int:
        return self.total_rows - self.other_position_rows

    @property
    def left_out_rows(self) -> int:
        """The rows left out because their position is not of this contest (0 unless the clerk asked)."""
        return self.other_position_rows if self.only_contest_positions else 0

    @property
    def can_leave_out_other_positions(self) -> bool:
        """Whether the rows of other positions are the file's only problem: every problem is on one of
        them and some row remains; then the clerk may import only this contest's positions."""
        if self.only_contest_positions or not self.problems or not self.other_positions:
            return False
        other = {line for lines in self.other_positions.values() for line in lines}
        remaining = self.total_rows - len(other)
        return remaining > 0 and all(p.line in other for p in self.problems)

    @property
    def left_out_text(self) -> str:
        """What is left out, in one sentence (the preview, the result and the history say it)."""
        if not self.left_out_rows:
            return ""
        return (
            f"Só os cargos deste concurso: {lines_of_positions(self.other_positions)} ficam de fora "
            "(não são importadas)."
        )

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
        left_out = (
            f" {plural(self.preview.left_out_rows, 'linha de outro cargo ficou', 'linhas de outros cargos ficaram')}"
            " de fora."
            if self.preview.left_out_rows
            else ""
        )
        return self.counts + left_out

    @property
    def counts(self) -> str:
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


def fingerprint(
    preview: Preview, mapping: Mapping[str, str], rows: Sequence[Row], *, only_contest_positions: bool
) -> str:
    """A hash of what the import does to the data: equal for the preview and the commit unless the data
    changed. The maximum and pass mark of the phases it creates are left out: the clerk confirms them
    after the preview, and a score above a confirmed maximum is a problem the commit refuses."""
    digest = hashlib.sha256()
    heading = (
        sorted(mapping.items()),
        [spec.name for spec in preview.phases_to_create],
        preview.notices,
        preview.missing_from_file,
        sorted(preview.other_positions.items()) if only_contest_positions else None,
    )
    digest.update(repr(heading).encode())
    # The same bytes as one ``update`` per row, in one call (100,000 calls less).
    digest.update("".join([f"\n{row.line}\x1f{row.status}\x1f{row.changes!r}" for row in rows]).encode())
    return digest.hexdigest()
