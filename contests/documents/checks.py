"""The edital's pre-publication check: every problem in Portuguese, each with where it is.

PURE module: standard library only. The caller passes the texts (with where each one is), the schedule,
the contest's dates, the policy's refusal for the publication date (``Policy.refusal_for_edital_date``),
the vacancy table's rows and the holidays; ``Report.blocking`` lists what stops the publication and
``Report.warnings`` what only deserves a second look.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from contests.documents.chapter import PositionRow
from contests.wording import plural

# Placeholders a template or a clerk leaves behind: XX, [...], [ … ], ___, {{ (an unrendered variable).
PLACEHOLDER = re.compile(r"\bX{2,}\b|\[\s*(?:\.\.\.|…)\s*\]|_{3,}|\{\{|\{%")

SCHEDULE_LINE = re.compile(
    r"^\s*(\d{1,2}/\d{1,2}/\d{4})(?:\s*(?:a|até|-|–)\s*(\d{1,2}/\d{1,2}/\d{4}))?\s*[–—:-]\s*(\S.*)$"
)

# The registration period itself ("Inscrições", "Período de inscrições"), not what follows it ("Homologação
# das inscrições").
REGISTRATION_EVENT = re.compile(r"^\s*(?:período\s+de\s+)?inscri", re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Report:
    blocking: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.blocking


@dataclass(frozen=True)
class ScheduleItem:
    line: int
    start: datetime.date
    end: datetime.date | None
    event: str

    @property
    def dates(self) -> tuple[datetime.date, ...]:
        return (self.start,) if self.end is None else (self.start, self.end)


def _date(text: str) -> datetime.date:
    day, month, year = (int(part) for part in text.split("/"))
    return datetime.date(year, month, day)


def parse_schedule(text: str) -> tuple[list[ScheduleItem], list[Problem]]:
    """One event a line: ``DD/MM/AAAA – evento`` or ``DD/MM/AAAA a DD/MM/AAAA – evento``."""
    items: list[ScheduleItem] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"Cronograma, linha {number}"
        match = SCHEDULE_LINE.match(raw)
        if not match:
            problems.append(
                Problem(
                    where,
                    f"“{raw.strip()}” não segue o formato “DD/MM/AAAA – evento” ou "
                    "“DD/MM/AAAA a DD/MM/AAAA – evento”.",
                )
            )
            continue
        try:
            start = _date(match.group(1))
            end = _date(match.group(2)) if match.group(2) else None
        except ValueError:
            problems.append(Problem(where, f"data inexistente em “{raw.strip()}”."))
            continue
        items.append(ScheduleItem(number, start, end, match.group(3).strip()))
    return items, problems


def placeholders(where: str, text: str) -> list[Problem]:
    """Every placeholder left in ``text``, with its line and what surrounds it."""
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in PLACEHOLDER.finditer(line):
            start = max(0, match.start() - 25)
            excerpt = line[start : match.end() + 25].strip()
            problems.append(
                Problem(
                    f"{where}, linha {number}",
                    f"marcador “{match.group(0)}” a preencher (“…{excerpt}…”).",
                )
            )
    return problems


def check_schedule(
    items: Sequence[ScheduleItem],
    *,
    edital_date: datetime.date | None,
    registration_start: datetime.date | None,
    registration_end: datetime.date | None,
    holidays: Collection[datetime.date] = (),
) -> tuple[list[Problem], list[Problem]]:
    """(blocking, warnings) of the schedule: order, periods, dates before the edital, the registration
    events outside the registration period; weekends and holidays warn."""
    blocking: list[Problem] = []
    warnings: list[Problem] = []
    previous: ScheduleItem | None = None
    for item in items:
        where = f"Cronograma, linha {item.line} (“{item.event}”)"
        if item.end and item.end < item.start:
            blocking.append(
                Problem(where, f"termina ({item.end:%d/%m/%Y}) antes de começar ({item.start:%d/%m/%Y}).")
            )
        if previous and item.start < previous.start:
            blocking.append(
                Problem(
                    where,
                    f"data fora de ordem: {item.start:%d/%m/%Y} vem depois de {previous.start:%d/%m/%Y} "
                    f"(linha {previous.line}).",
                )
            )
        if edital_date and item.start < edital_date:
            blocking.append(
                Problem(
                    where,
                    f"{item.start:%d/%m/%Y} é anterior à publicação do edital ({edital_date:%d/%m/%Y}).",
                )
            )
        if REGISTRATION_EVENT.match(item.event) and registration_start and registration_end:
            outside = [d for d in item.dates if not registration_start <= d <= registration_end]
            if outside:
                blocking.append(
                    Problem(
                        where,
                        f"{outside[0]:%d/%m/%Y} está fora do período de inscrições do concurso "
                        f"({registration_start:%d/%m/%Y} a {registration_end:%d/%m/%Y}).",
                    )
                )
        for day in item.dates:
            if day.weekday() >= 5:
                name = "sábado" if day.weekday() == 5 else "domingo"
                warnings.append(Problem(where, f"{day:%d/%m/%Y} cai num {name}."))
            elif day in holidays:
                warnings.append(Problem(where, f"{day:%d/%m/%Y} é feriado ou ponto facultativo."))
        previous = item
    return blocking, warnings


def check_consistency(rows: Iterable[PositionRow], group_label: str) -> list[Problem]:
    """The reservation chapter against the vacancy table: each position's reserved seats in the nomination
    order must be exactly the reserve of the table, and the table must add up."""
    problems = []
    for row in rows:
        where = f"Capítulo da reserva, cargo {row.label}"
        if row.racial + row.pcd + row.open != row.vacancies:
            problems.append(
                Problem(
                    f"Quadro de vagas, cargo {row.label}",
                    f"{row.open} + {row.racial} + {row.pcd} não somam as {row.vacancies} vagas.",
                )
            )
        if len(row.racial_seats) != row.racial:
            problems.append(
                Problem(
                    where,
                    f"a ordem de nomeação reserva {plural(len(row.racial_seats), 'vaga', 'vagas')} a {group_label}, o quadro "
                    f"de vagas {row.racial}.",
                )
            )
        if len(row.pcd_seats) != row.pcd:
            problems.append(
                Problem(
                    where,
                    f"a ordem de nomeação reserva {plural(len(row.pcd_seats), 'vaga', 'vagas')} a pessoas com deficiência, o "
                    f"quadro de vagas {row.pcd}.",
                )
            )
    return problems


def check_positions(rows: Sequence[PositionRow], *, shortfall: int, whole: int, split: int) -> list[Problem]:
    """Warnings: a position with no vacancies (a reserve-only list), and a split that empties the reserve
    (RULES §2; STF, ADC 41)."""
    warnings = []
    for row in rows:
        if row.vacancies == 0:
            warnings.append(
                Problem(
                    f"Quadro de vagas, cargo {row.label}",
                    "sem vagas no edital: o cargo forma apenas cadastro reserva.",
                )
            )
    if shortfall > 0:
        warnings.append(
            Problem(
                "Quadro de vagas",
                f"a divisão em cargos reserva {plural(split, 'vaga', 'vagas')}, mas o total do concurso "
                f"reservaria {whole}: {plural(shortfall, 'vaga', 'vagas')} da reserva "
                f"{'se perde' if shortfall == 1 else 'se perdem'} no fracionamento (STF, ADC 41).",
            )
        )
    return warnings


def check_edital(
    *,
    texts: Sequence[tuple[str, str]],
    schedule: str,
    edital_date: datetime.date | None,
    registration_start: datetime.date | None,
    registration_end: datetime.date | None,
    policy_refusal: str,
    policy_dates_warning: str,
    rows: Sequence[PositionRow],
    law_warning: str = "",
    group_label: str,
    fragmentation: tuple[int, int, int] = (0, 0, 0),
    holidays: Collection[datetime.date] = (),
) -> Report:
    """The whole check. ``texts``: (where, text) of every text that goes into the edital, generated or
    written; ``fragmentation``: (shortfall, whole, split) of ``quotas.fragmentation``; ``law_warning``: why
    the law the edital cites deserves a look (only the bill recorded, no number)."""
    blocking: list[Problem] = []
    warnings: list[Problem] = []
    for where, text in texts:
        blocking.extend(placeholders(where, text))
    blocking.extend(placeholders("Cronograma", schedule))
    items, parse_problems = parse_schedule(schedule)
    blocking.extend(parse_problems)
    if not items and not parse_problems:
        blocking.append(Problem("Cronograma", "o edital não tem cronograma."))
    schedule_blocking, schedule_warnings = check_schedule(
        items,
        edital_date=edital_date,
        registration_start=registration_start,
        registration_end=registration_end,
        holidays=holidays,
    )
    blocking.extend(schedule_blocking)
    warnings.extend(schedule_warnings)
    if not registration_start or not registration_end:
        blocking.append(Problem("Dados do concurso", "informe o período de inscrições."))
    if policy_refusal:
        blocking.append(Problem("Política de reserva", policy_refusal))
    if policy_dates_warning:
        warnings.append(Problem("Política de reserva", policy_dates_warning))
    if law_warning:
        warnings.append(Problem("Lei citada", law_warning))
    if not rows:
        blocking.append(Problem("Quadro de vagas", "o edital não tem cargos."))
    blocking.extend(check_consistency(rows, group_label))
    shortfall, whole, split = fragmentation
    warnings.extend(check_positions(rows, shortfall=shortfall, whole=whole, split=split))
    return Report(tuple(blocking), tuple(warnings))
