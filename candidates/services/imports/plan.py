"""Preview and commit: what a file would change, checked row by row, then written all at once.

``preview`` and ``commit`` share ``_Planner``: it reads the contest's current data in a few queries,
validates every row with the importer's own rules (no per-row query and no ``full_clean``: the parsers
and the checks below cover every constraint of the models) and works out which objects are new or
changed. ``commit`` writes them in one transaction (``writing``), so one problem anywhere means nothing
is written.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.utils import timezone

from candidates.engine import eligibility
from candidates.models import Candidate, Phase, PhaseResult, Registration, SelfDeclaration
from candidates.services.access import access_codes_send_later
from candidates.services.imports import cells, writing
from candidates.services.imports.cells import CellError, fold
from candidates.services.imports.existing import candidates_with_cpf
from candidates.services.imports.files import Table, paused_gc
from candidates.services.imports.mapping import (
    FIELDS_BY_KEY,
    IGNORE,
    REQUIRED_FOR_NEW,
    phase_core,
    phase_name,
    target_refusal,
)
from candidates.services.imports.racial import RacialOptionChecker
from candidates.services.imports.report import (
    PhaseSpec,
    Preview,
    Problem,
    RowView,
    date,
    fingerprint,
    fragment,
    num,
    plural,
    shown,
)
from candidates.services.imports.rows import CHANGED, NEW, PARSERS, UNCHANGED, Row
from candidates.services.imports.writing import New
from candidates.services.names import NAME_FIELDS
from candidates.validators import format_cpf
from contests.audit import User, audited_save
from contests.models import Contest, Policy, Position

Progress = Callable[[str, int, int], None]
PREVIEW_ROWS = 10
STREAM_ROWS = 10_000  # rows checked at a time, then sent to the ``writing.Stream`` (5,000: 0.3 s slower)
CHANGED_ROWS_SHOWN = 50
SCORE_LIMIT = Decimal("999999.99")
MAX_SCORE_STEPS = (Decimal(10), Decimal(20), Decimal(50), Decimal(100), Decimal(1000), Decimal(10000))
EARLIEST_BIRTH = datetime.date(1900, 1, 1)
NO_SCORE = (None, False)  # a row without the phase's column

CANDIDATE_FIELDS = ("full_name", "social_name", "birth_date", "email", "phone", "address")
REGISTRATION_FIELDS = ("registered_on", "preferred_reserve", "jury_service", "final_score")


class _Planner:
    """Reads what exists, checks every row and plans what changes; the racial option of each row is
    planned by its ``RacialOptionChecker`` (``self.racial``, built once the existing data is loaded)."""

    def __init__(
        self,
        contest: Contest,
        table: Table,
        mapping: Mapping[str, str],
        *,
        today: datetime.date,
        phase_specs: Mapping[str, PhaseSpec] | None,
        progress: Progress | None,
        only_contest_positions: bool = False,
    ):
        self.contest = contest
        self.only_contest_positions = only_contest_positions
        self.policy: Policy = contest.policy
        self.table = table
        self.mapping = {h: mapping.get(h, IGNORE) for h in table.headers}
        self.today = today
        self.phase_specs = {fold(k): v for k, v in (phase_specs or {}).items()}
        self.progress = progress
        self.preview = Preview(
            total_rows=table.row_count,
            mapping=dict(self.mapping),
            source=table.source,
            only_contest_positions=only_contest_positions,
        )
        self.problems = self.preview.problems
        self.problems += table.problems  # cells the reader could not take
        self.phases: dict[str, Phase] = {}
        self.new_phases: list[Phase] = []
        self.new_phase_keys: set[str] = set()
        self.new: dict[type, list[New]] = {
            Candidate: [],
            Registration: [],
            SelfDeclaration: [],
            PhaseResult: [],
        }
        self.changed: dict[type, dict[int, Any]] = {model: {} for model in self.new}
        self.changed_fields: dict[type, set[str]] = {model: set() for model in self.new}
        self.repointed: dict[int, New] = {}  # registration pk -> the new candidate it now belongs to
        # Whose name on the public site changes (``services.names``): candidates renamed, registrations
        # moved to another candidate.
        self.renamed: set[int] = set()
        self.moved: set[int] = set()
        self.planned_per_position: Counter[int] = Counter()  # rows with a status, by their position's id
        # ``commit`` on PostgreSQL: opens the ``writing.Stream`` (none after a problem). ``open_stream``
        # holds no reference to the planner (``run._release``).
        self.open_stream: Callable[[Preview, list[type]], writing.Stream] | None = None
        self.stream: writing.Stream | None = None

    def problem(self, line: int | None, column: str, message: str) -> None:
        self.problems.append(Problem(line, column, message))

    def tick(self, stage: str, done: int, total: int) -> None:
        if self.progress and (done % 1000 == 0 or done == total):
            self.progress(stage, done, total)

    def build(self) -> None:
        if not self.resolve_mapping():
            return
        self.resolve_phases()
        self.load_positions()
        with paused_gc():
            self.load()
            # ``STREAM_ROWS`` rows read and checked at a time: the writing (``commit`` on PostgreSQL, the longer
            # part) starts after the first ones rather than once the whole file is read.
            rows: list[Row] = []
            for chunk in self.parse_rows():
                self.load_candidates(chunk)
                if self.stream is None and self.open_stream is not None and not self.problems:
                    self.start_stream(self.open_stream)
                self.plan_rows(chunk, first=len(rows))
                rows += chunk
            self.end_plan()
            self.settle_new_phases(rows)
            self.summarise(rows)
            self.rows = rows  # freed with the planner (``run._free``), not while the writing goes on
        # In the file's order (the checks run in several passes); problems of the whole file first.
        self.problems.sort(key=lambda p: p.line or 0)

    # Mapping and phases --------------------------------------------------------------------------------

    def resolve_mapping(self) -> bool:
        self.columns: dict[str, str] = {}  # target (a field key or a folded phase name) -> header
        for header, target in self.mapping.items():
            if target == IGNORE:
                continue
            if refusal := target_refusal(target):
                self.problem(self.table.header_line, header, refusal)
                continue
            key = fold(name) if (name := phase_name(target)) else target
            if key in self.columns:
                self.problem(None, header, f"a coluna {self.columns[key]} já está mapeada para o mesmo campo")
                continue
            self.columns[key] = header
        if "number" not in self.columns:
            self.problem(None, "", "nenhuma coluna foi indicada como número de inscrição")
        return len(self.problems) == len(self.table.problems)  # no problem but the reader's

    def resolve_phases(self) -> None:
        existing = list(self.contest.phases.all())
        by_name = {fold(p.name): p for p in existing}
        by_core = {phase_core(p.name): p for p in existing}
        order = max((p.order for p in existing), default=0)
        self.score_columns: list[tuple[int, str, str]] = []
        for index, header in enumerate(self.table.headers):
            name = phase_name(self.mapping[header])
            if not name or self.columns.get(fold(name)) != header:
                continue
            key = fold(name)
            phase = by_name.get(key) or by_core.get(phase_core(name))
            if phase is None:
                order += 1
                spec = self.phase_specs.get(key)
                phase = Phase(
                    contest=self.contest,
                    name=name,
                    order=order,
                    max_score=spec.max_score if spec else None,
                    pass_mark=spec.pass_mark if spec else None,
                )
                self.new_phases.append(phase)
                self.new_phase_keys.add(key)
            self.phases[key] = phase
            self.score_columns.append((index, header, key))

    # Reading rows --------------------------------------------------------------------------------------

    def parse_rows(self) -> Iterator[list[Row]]:  # ``STREAM_ROWS`` at a time
        headers = self.table.headers
        width = len(headers)
        parsers = [
            (headers.index(header), header, target, PARSERS[target])
            for target, header in self.columns.items()
            if target in PARSERS
        ]
        scores_columns = self.score_columns
        parse_score = cells.parse_score
        problems = self.problems
        rows: list[Row] = []
        total = self.table.row_count
        for done, (line, row_cells) in enumerate(self.table.rows, start=1):
            if done % 1000 == 0:
                self.tick("Lendo as linhas", done, total)
            errors = len(problems)
            if len(row_cells) < width:
                row_cells = [*row_cells, *[None] * (width - len(row_cells))]
            elif len(row_cells) > width and any(cells.text(c) for c in row_cells[width:]):
                self.problem(
                    line,
                    "",
                    f"a linha tem {len(row_cells)} colunas e o cabeçalho {width} (separador dentro de um "
                    "valor sem aspas?)",
                )
                continue
            values: dict[str, Any] = {}
            for index, header, target, parse in parsers:
                try:
                    values[target] = parse(row_cells[index])
                except CellError as exc:
                    problems.append(Problem(line, header, str(exc)))
            scores: dict[str, tuple[Decimal | None, bool]] = {}
            for index, header, key in scores_columns:
                try:
                    score = scores[key] = parse_score(row_cells[index])
                except CellError as exc:
                    problems.append(Problem(line, header, str(exc)))
                    continue
                if score[0] is not None and score[0] > SCORE_LIMIT:
                    problems.append(Problem(line, header, f"nota {num(score[0])} grande demais"))
            if (raw := values.get("position")) and self.find_position(raw) is None:
                self.preview.other_positions.setdefault(raw, []).append(line)
                if self.only_contest_positions:  # the row is left out, and with it whatever is wrong in it
                    del problems[errors:]
                    continue
            rows.append(Row(line, values, scores, len(problems) > errors))
            if len(rows) == STREAM_ROWS:
                yield rows
                rows = []
        yield rows

    # What exists ---------------------------------------------------------------------------------------

    def load_positions(self) -> None:
        self.positions = list(self.contest.positions.all())
        self.positions_by_id = {p.pk: p for p in self.positions}
        self.position_lookup: dict[str, Position] = {}
        for position in self.positions:
            self.position_lookup.setdefault(fold(position.title), position)
        for position in self.positions:
            self.position_lookup[fold(position.code)] = position

    def find_position(self, raw: str) -> Position | None:
        """The position a cell names, by code or title (accents and case aside, or its first word)."""
        position = self.position_lookup.get(raw)
        if position is None:
            key = fold(raw)
            position = self.position_lookup.get(key) or self.position_lookup.get(key.split(" ")[0])
            if position is not None:
                self.position_lookup[raw] = position  # the same spelling comes again on other rows
        return position

    def load(self) -> None:
        contest = self.contest
        registrations = list(Registration.objects.filter(contest=contest))
        self.by_number = {r.number: r for r in registrations}
        self.pairs = Counter((r.position_id, r.candidate_id) for r in registrations)
        self.pair_line: dict[tuple[int, int], int] = {}  # the first line of each (position, candidate)
        self.pair_more_lines: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.candidates_by_id = {
            c.pk: c for c in Candidate.objects.filter(registrations__contest=contest).distinct()
        }
        self.candidates_by_cpf = {c.cpf: c for c in self.candidates_by_id.values()}
        for registration in registrations:  # fill the caches: reading them later costs no query
            registration.position = self.positions_by_id[registration.position_id]
            registration.candidate = self.candidates_by_id[registration.candidate_id]
        self.racial = RacialOptionChecker(
            contest=contest,
            today=self.today,
            columns=self.columns,
            declarations=SelfDeclaration.objects.filter(registration__contest=contest),
            new_declarations=self.new[SelfDeclaration],
            problem=self.problem,
            notice=self.preview.notices.append,
            mark_changed=self.mark_changed,
        )
        self.results: dict[tuple[int, int], PhaseResult] = {}
        self.absent_elsewhere: set[int] = set()
        mapped_phase_ids = {p.pk for p in self.phases.values() if p.pk}
        for result in PhaseResult.objects.filter(registration__contest=contest):
            if result.phase_id in mapped_phase_ids:
                self.results[(result.registration_id, result.phase_id)] = result
            elif result.absent:
                self.absent_elsewhere.add(result.registration_id)
        self.seen_numbers: dict[str, int] = {}
        self.candidate_lines: dict[str, tuple[int, str]] = {}
        self.planned_candidates: dict[str, Candidate | New] = {}

    def load_candidates(self, rows: list[Row]) -> None:  # those of other contests with the CPFs of ``rows``
        wanted = {row.values["cpf"] for row in rows if row.values.get("cpf")}
        for candidate in candidates_with_cpf(sorted(wanted - self.candidates_by_cpf.keys())):
            self.candidates_by_id[candidate.pk] = candidate
            self.candidates_by_cpf[candidate.cpf] = candidate

    # Checking and planning each row --------------------------------------------------------------------

    def plan_rows(self, rows: list[Row], *, first: int) -> None:  # ``first``: how many rows came before
        seen_numbers = self.seen_numbers
        turn = self.stream.turn if self.stream is not None else None  # ``writing.Stream``'s
        for done, row in enumerate(rows, start=first + 1):
            if turn is not None and not turn.is_set():  # the writing's turn: it makes a COPY's rows
                turn.wait()
            if done % 1000 == 0:
                self.tick("Conferindo", done, self.table.row_count)
            number = row.values.get("number", "")
            if not number:
                if "number" in row.values:  # else the cell was unreadable, and that is already reported
                    self.problem(row.line, self.columns["number"], "número de inscrição vazio")
                continue
            if number in seen_numbers:
                self.problem(
                    row.line,
                    self.columns["number"],
                    f"inscrição {number} repetida (já está na linha {seen_numbers[number]})",
                )
                continue
            seen_numbers[number] = row.line
            if not row.bad:
                self.plan_row(row, number)
        if self.stream is not None and not self.problems:
            self.stream.send_new(self.new)

    def end_plan(self) -> None:
        """What only the whole file tells: the registrations it leaves out, a candidate twice in a position."""
        missing = sum(1 for n in self.by_number if n not in self.seen_numbers)
        self.preview.missing_from_file = missing
        if missing:
            self.preview.notices.append(
                f"{plural(missing, 'inscrição já importada não está', 'inscrições já importadas não estão')} "
                "neste arquivo: não são alteradas."
            )
        for pair, count in self.pairs.items():
            if count > 1:
                lines: list[int | None] = (
                    [self.pair_line[pair], *self.pair_more_lines[pair]] if pair in self.pair_line else [None]
                )
                for line in lines:
                    self.problem(
                        line, self.columns.get("cpf", ""), "o candidato tem outra inscrição no mesmo cargo"
                    )

    def plan_row(self, row: Row, number: str) -> None:
        values = row.values
        existing = self.by_number.get(number)
        errors = len(self.problems)
        if existing is None:
            for key in REQUIRED_FOR_NEW:
                if key not in self.columns and not (key == "position" and len(self.positions) == 1):
                    label = FIELDS_BY_KEY[key].label
                    self.problem(row.line, "", f"inscrição nova sem {label}: o arquivo não tem essa coluna")
        if "full_name" in values and not values["full_name"]:
            self.problem(row.line, self.columns["full_name"], "nome ausente")
        if "cpf" in values and not values["cpf"]:
            self.problem(row.line, self.columns["cpf"], "CPF ausente")
        position = self.plan_position(row, existing)
        self.check_dates(row)
        if len(self.problems) > errors:
            return
        candidate = self.plan_candidate(row, existing)
        if candidate is None or position is None:
            return
        changes: dict[str, Any] = {}
        registration: Registration | New
        if existing is None:
            registration = New(
                Registration,
                {"contest_id": self.contest.id, "position_id": position.id, "number": number},
                {"candidate_id": candidate},
            )
        else:
            registration = existing
            if position.pk != existing.position_id:
                changes["position"] = position
            if candidate.pk != existing.candidate_id:
                changes["candidate"] = candidate
        row.registration = registration
        self.track_pair(row, existing, position, candidate)
        for key in REGISTRATION_FIELDS:
            if key in values:
                changes[key] = values[key]
        if "pcd" in values:
            changes["pcd_reserve"] = values["pcd"]
        racial = self.racial.plan(row, registration, existing)
        if racial is not None:
            changes["racial_reserve"] = racial
        self.plan_results(row, registration, existing, changes)
        self.check_preferred(row, registration, changes)
        if len(self.problems) > errors:
            return
        if isinstance(registration, New):  # existing is None
            registration.values.update(changes)
            self.new[Registration].append(registration)
            row.status = NEW
        else:
            self.apply_changes(row, registration, changes)  # the existing registration
        self.planned_per_position[position.id] += 1

    def plan_position(self, row: Row, existing: Registration | None) -> Position | None:
        if "position" in row.values:
            raw = row.values["position"]
            position = self.find_position(raw) if raw else None
            if position is None:
                codes = ", ".join(p.code for p in self.positions) or "nenhum cadastrado"
                message = (
                    f"cargo “{raw}” não existe neste concurso (cargos: {codes})" if raw else "cargo ausente"
                )
                self.problem(row.line, self.columns["position"], message)
            return position
        if existing is not None:
            return existing.position
        return self.positions[0] if len(self.positions) == 1 else None

    def check_dates(self, row: Row) -> None:
        birth = row.values.get("birth_date")
        if birth and not (EARLIEST_BIRTH <= birth <= self.today):
            self.problem(row.line, self.columns["birth_date"], f"data de nascimento {date(birth)} impossível")
        refusal = eligibility.registration_date_refusal(
            row.values.get("registered_on"), registration_end=self.contest.registration_end
        )
        if refusal:
            self.problem(row.line, self.columns["registered_on"], fragment(refusal))

    def plan_candidate(self, row: Row, existing: Registration | None) -> Candidate | New | None:
        values = row.values
        cpf = values.get("cpf") or (existing.candidate.cpf if existing else "")
        seen = self.candidate_lines.get(cpf)
        if seen is not None:
            line, name = seen
            if "full_name" in values and fold(values["full_name"]) != fold(name):
                self.problem(
                    row.line,
                    self.columns.get("cpf", ""),
                    f"o CPF {format_cpf(cpf)} já está na linha {line} com outro nome ({name})",
                )
                return None
            return self.planned_candidates[cpf]
        candidate: Candidate | New | None = self.candidates_by_cpf.get(cpf)
        data = {key: values[key] for key in CANDIDATE_FIELDS if key in values}
        if candidate is None:
            data["cpf"] = cpf
            candidate = New(Candidate, data)
            self.new[Candidate].append(candidate)
        else:
            for key, value in data.items():
                old = getattr(candidate, key)
                if old != value:
                    row.changes.append(
                        (str(getattr(Candidate._meta.get_field(key), "verbose_name", key)), old, value)
                    )
                    setattr(candidate, key, value)
                    self.mark_changed(candidate, key)
        name = data["full_name"] if "full_name" in data else candidate.full_name  # noqa: SIM401 (read once)
        self.candidate_lines[cpf] = (row.line, name)
        self.planned_candidates[cpf] = candidate
        return candidate

    def track_pair(
        self, row: Row, existing: Registration | None, position: Position, candidate: Candidate | New
    ) -> None:
        if existing is not None:
            self.pairs[(existing.position_id, existing.candidate_id)] -= 1
        pair = (position.id, candidate.pk or id(candidate))
        self.pairs[pair] += 1
        if self.pair_line.setdefault(pair, row.line) != row.line:
            self.pair_more_lines[pair].append(row.line)

    def plan_results(
        self,
        row: Row,
        registration: Registration | New,
        existing: Registration | None,
        changes: dict[str, Any],
    ) -> None:
        absent = bool(row.values.get("absent")) or (
            existing is not None and existing.pk in self.absent_elsewhere
        )
        for key, (score, is_absent) in row.scores.items():
            phase = self.phases[key]
            absent = absent or is_absent
            if score is not None and key not in self.new_phase_keys and score > phase.max_score:
                self.problem(
                    row.line,
                    self.columns[key],
                    f"nota {num(score)} fora do intervalo da fase {phase.name} (0 a {num(phase.max_score)})",
                )
                continue
            result = self.results.get((existing.pk, phase.pk)) if existing is not None else None
            if result is None:
                if score is not None or is_absent:
                    self.new[PhaseResult].append(
                        New(
                            PhaseResult,
                            {"score": score, "absent": is_absent},
                            {"registration_id": registration, "phase_id": phase},
                        )
                    )
                    if existing is not None:
                        row.changes.append((phase.name, None, "ausente" if is_absent else score))
                continue
            if result.score != score or result.absent != is_absent:
                old = "ausente" if result.absent else result.score
                row.changes.append((phase.name, old, "ausente" if is_absent else score))
                result.score, result.absent = score, is_absent
                self.mark_changed(result, "score", "absent")
        if row.scores or "absent" in row.values:
            changes["absent"] = absent

    def check_preferred(self, row: Row, registration: Registration | New, changes: dict[str, Any]) -> None:
        c, r = changes, registration  # the change planned, else the value (read only then: it is a call)
        preferred = c["preferred_reserve"] if "preferred_reserve" in c else r.preferred_reserve  # noqa: SIM401
        racial = c["racial_reserve"] if "racial_reserve" in c else r.racial_reserve  # noqa: SIM401
        pcd = c["pcd_reserve"] if "pcd_reserve" in c else r.pcd_reserve  # noqa: SIM401
        chosen = eligibility.reserves_chosen(racial=racial, pcd=pcd)
        refusal = eligibility.preferred_reserve_refusal(preferred, chosen=chosen)
        if refusal is None:
            return
        if "preferred_reserve" in row.values:
            self.problem(row.line, self.columns["preferred_reserve"], fragment(refusal))
        else:  # the reserve it named was given up in this file: the policy's default from now on
            changes["preferred_reserve"] = ""

    def apply_changes(self, row: Row, existing: Registration, changes: dict[str, Any]) -> None:
        for key, value in changes.items():
            if key == "candidate":
                row.changes.append(("CPF", format_cpf(existing.candidate.cpf), format_cpf(value.cpf)))
                if isinstance(value, New):  # its id is known only once written
                    self.repointed[existing.pk] = value
                    self.mark_changed(existing, key)
                    continue
            elif key == "position":
                row.changes.append(("cargo", existing.position.code, value.code))
            else:
                old = getattr(existing, key)
                if old == value:
                    continue
                row.changes.append(
                    (str(getattr(Registration._meta.get_field(key), "verbose_name", key)), old, value)
                )
            setattr(existing, key, value)
            self.mark_changed(existing, key)
        row.status = CHANGED if row.changes else UNCHANGED

    def mark_changed(self, obj: Any, *fields: str) -> None:
        model = type(obj)
        self.changed[model][obj.pk] = obj
        self.changed_fields[model].update(fields)
        if model is Candidate and NAME_FIELDS.intersection(fields):
            self.renamed.add(obj.pk)
        elif model is Registration and "candidate" in fields:
            self.moved.add(obj.pk)

    # New phases ---------------------------------------------------------------------------------------

    def settle_new_phases(self, rows: list[Row]) -> None:
        for phase in self.new_phases:
            key = fold(phase.name)
            column = self.columns[key]
            # One pass for the highest score; the rows above the maximum are looked for only if there are any.
            scores = (score for row in rows if (score := row.scores.get(key, NO_SCORE)[0]) is not None)
            highest = max(scores, default=Decimal(0))
            spec = PhaseSpec(phase.name, phase.max_score, phase.pass_mark, phase.order)
            if phase.max_score is None:
                phase.max_score = next((step for step in MAX_SCORE_STEPS if highest <= step), None)
                spec.max_score, spec.inferred = phase.max_score, True
                if phase.max_score is None:
                    self.problem(None, column, f"notas grandes demais na fase {phase.name}")
                    continue
            for row in rows if highest > phase.max_score else ():
                if (score := row.scores.get(key, NO_SCORE)[0]) is not None and score > phase.max_score:
                    self.problem(
                        row.line,
                        column,
                        f"nota {num(score)} fora do intervalo da fase {phase.name} (0 a {num(phase.max_score)})",
                    )
            if phase.pass_mark is not None and phase.pass_mark > phase.max_score:
                self.problem(None, column, f"a nota mínima da fase {phase.name} passa da nota máxima")
            self.preview.phases_to_create.append(spec)

    # The preview --------------------------------------------------------------------------------------

    def summarise(self, rows: list[Row]) -> None:
        preview = self.preview
        counts = Counter(row.status for row in rows)
        preview.new, preview.updated, preview.unchanged = counts[NEW], counts[CHANGED], counts[UNCHANGED]
        per_position: Counter[str] = Counter()
        for pk, count in self.planned_per_position.items():
            per_position[self.positions_by_id[pk].code] += count
        preview.per_position = dict(sorted(per_position.items()))
        preview.rows = [self.view(row) for row in rows[:PREVIEW_ROWS] if row.status]
        preview.changed_rows = [self.view(row) for row in rows if row.status == CHANGED][:CHANGED_ROWS_SHOWN]
        preview.fingerprint = fingerprint(
            preview, self.mapping, rows, only_contest_positions=self.only_contest_positions
        )

    def view(self, row: Row) -> RowView:
        reg = row.registration
        assert reg is not None  # only rows with a status are shown
        declaration: SelfDeclaration | New | None
        if isinstance(reg, New):
            candidate = reg.refs["candidate_id"]
        else:
            candidate = self.repointed.get(reg.pk) or reg.candidate
        declaration = self.racial.declaration_of(reg)
        racial = "não"
        if reg.racial_reserve:
            category = declaration.category if declaration is not None else ""
            racial = f"sim ({Policy.Group(category).label.lower()})" if category else "sim"
        return RowView(
            line=row.line,
            number=reg.number,
            name=candidate.display_name,
            cpf=format_cpf(candidate.cpf),
            position=self.positions_by_id[reg.position_id].code,
            racial=racial,
            pcd="sim" if reg.pcd_reserve else "não",
            scores={
                self.phases[key].name: "ausente" if absent else shown(score)
                for key, (score, absent) in row.scores.items()
            },
            status=row.status,
            changes=[f"{label}: {shown(old)} → {shown(new)}" for label, old, new in row.changes],
        )

    # Writing ------------------------------------------------------------------------------------------

    def start_stream(self, open_stream: Callable[[Preview, list[type]], writing.Stream]) -> None:
        """Write the new objects while the rows are checked. The phases the file creates are saved last
        (their maximum may be inferred from every score): their ids are taken now, for their results."""
        for phase, pk in zip(self.new_phases, writing.reserve_ids(Phase, len(self.new_phases)), strict=True):
            phase.pk = pk
        self.stream = open_stream(self.preview, list(self.new))

    def write(self, *, by: User | None, reason: str) -> None:
        stream = self.stream
        if stream is not None:  # the new objects: the last ones handed over, then wait for the writing
            stream.send_new(self.new)
            stream.finish()
        for phase in self.new_phases:  # the stream's rows' references are checked once these are written
            audited_save(phase, by=by, reason=reason)
        now = stream.now if stream is not None else timezone.now()
        total = sum(len(items) for items in self.new.values()) + sum(len(c) for c in self.changed.values())
        done = 0

        def advance(count: int) -> None:
            nonlocal done
            done += count
            if self.progress:
                self.progress("Gravando", done, total)

        for model, items in self.new.items():
            if stream is not None:
                advance(len(items))
            else:
                writing.create(model, items, user=by, reason=reason, now=now, progress=advance)
            if model is Registration:
                # One task for the whole file sends the new registrations' access codes after the commit.
                access_codes_send_later(registration_ids=[item.pk for item in items if item.pk is not None])
                for registration in self.changed[Registration].values():
                    if registration.pk in self.repointed:
                        registration.candidate_id = self.repointed[registration.pk].pk
            changed = list(self.changed[model].values())
            if changed:
                writing.update(
                    model,
                    changed,
                    self.changed_fields[model],
                    user=by,
                    reason=reason,
                    now=now,
                    progress=advance,
                )
