"""Classification lists of a contest as frozen runs: compute, publish, discard (RULES.md §3).

Computing a run reads the registrations, scores, phases and tie-break criteria of the contest (or of one
position) as plain rows, and hands each position's rows to the pure ``candidates.engine.results.
stream_position``, which decides everything that is a rule (who is out and why, pass marks and cut-offs
per list, the final score, the lists and each entry's why). This module only gathers the data and writes
the result:

- the run's entries are written once, in bulk (``ResultEntry`` has no history of its own: the run's
  history records who computed and who published it), and never changed. Publishing freezes the run; a
  later change makes a new run.

The inputs are summed up in ``ResultRun.inputs_hash``: publishing re-reads them and refuses a draft
computed from data that has changed since.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from candidates.engine import allocation
from candidates.engine.results import ENTRY_COLUMNS, Entry, PhaseRow, RegistrationRow, stream_position
from candidates.engine_params import params_for_contest
from candidates.models import (
    AllocationLedger,
    Phase,
    PhaseResult,
    Registration,
    ResultEntry,
    ResultRun,
)
from candidates.services.copied_rows import Kind, read_columns
from candidates.services.imports.files import paused_gc
from candidates.services.registrations import tie_break_criteria
from contests import lifecycle
from contests.audit import User, audited_delete, audited_save
from contests.models import Contest, Position, Publication
from contests.publication import publication_record
from contests.services import contest_record_final_result
from contests.text_search import fold
from contests.wording import format_fraction

BATCH = 5000


# Gathering the inputs --------------------------------------------------------------------------------


@dataclass
class _Inputs:
    contest: Contest
    positions: list[Position]
    phases: list[PhaseRow]
    criteria: list[tuple[str, int | None]]
    registrations: dict[int, list[RegistrationRow]]  # position id → its registrations, by pk
    params: allocation.Params
    digest: str


# The columns read for the lists, in order, and their types (``copied_rows.read_columns``).
_REGISTRATION_COLUMNS: tuple[tuple[str, Kind], ...] = (
    ("pk", "int"),
    ("number", "text"),
    ("position_id", "int"),
    ("status", "text"),
    ("racial_reserve", "bool"),
    ("pcd_reserve", "bool"),
    ("preferred_reserve", "text"),
    ("final_score", "decimal"),
    ("absent", "bool"),
    ("jury_service", "bool"),
    ("candidate__full_name", "text"),
    ("candidate__social_name", "text"),
    ("candidate__birth_date", "date"),
)
_SCORE_COLUMNS: tuple[tuple[str, Kind], ...] = (
    ("registration_id", "int"),
    ("phase_id", "int"),
    ("score", "decimal"),
    ("absent", "bool"),
)


LISTS_WORK_MEM = "64MB"


def _gather(
    contest: Contest,
    positions: Sequence[Position],
    after_phase: Phase | None = None,
    *,
    whole_contest: bool = False,
    rows: bool = True,
) -> _Inputs:
    """Everything a run depends on, as the pure ``stream_position`` takes it, and its SHA-256 (the same
    data gives the same digest). ``whole_contest``: ``positions`` are all the contest's. ``rows=False``:
    the digest only (publishing checks it), without building the rows.

    ``after_phase``: the lists after that phase (RULES §3): only the phases up to it, and their scores,
    are read and summed up, so setting up the next phase meanwhile does not stale the draft.

    The registrations and their scores are summed up as read (``copied_rows.read_columns``): the digest
    is of the very rows the lists are computed from."""
    params = params_for_contest(contest)
    phases = list(Phase.objects.filter(contest=contest).order_by("order", "pk"))
    if after_phase is not None:
        phases = [p for p in phases if (p.order, p.pk) <= (after_phase.order, after_phase.pk)]
    criteria = tie_break_criteria(contest)
    position_ids = [p.pk for p in positions]

    digest = hashlib.sha256()
    digest.update(repr(allocation.params_to_dict(params)).encode())
    digest.update(repr((contest.registration_end, contest.edital_date, criteria)).encode())
    if after_phase is None:
        digest.update(repr(("minimum_final_score", contest.minimum_final_score)).encode())
    else:
        digest.update(repr(("after_phase", after_phase.pk)).encode())
    for phase in phases:
        digest.update(
            repr(
                (
                    phase.pk,
                    phase.name,
                    phase.order,
                    phase.weight,
                    phase.max_score,
                    phase.pass_mark,
                    phase.cutoff,
                    phase.cutoff_open,
                    phase.cutoff_racial,
                    phase.cutoff_pcd,
                )
            ).encode()
        )
    for position in positions:
        digest.update(repr((position.pk, position.code)).encode())

    if connection.vendor == "postgresql":
        # Both reads are sorted by the server (the registrations, joined to their candidates, by id): 14 MB
        # for 100,000, sorted in memory rather than on disk in 4 MB runs (the default ``work_mem``), for
        # this transaction only.
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL work_mem = '{LISTS_WORK_MEM}'")
    registrations = (
        Registration.objects.filter(contest=contest, position_id__in=position_ids)
        .order_by("pk")
        .values_list(*(name for name, _ in _REGISTRATION_COLUMNS))
    )
    # The scores at the contest's phases; for the whole contest, without joining the registrations (one
    # table read in the key's order, whatever the planner's statistics say just after an import), those of
    # a registration outside the scope skipped below as the join would.
    scores = PhaseResult.objects.filter(phase__in=[p.pk for p in phases])
    if not whole_contest:
        scores = scores.filter(registration__contest=contest, registration__position_id__in=position_ids)
    scores = scores.order_by("registration_id", "phase_id").values_list(*(name for name, _ in _SCORE_COLUMNS))
    (pk, number, pos, status, racial, pcd, prefers, final, absent, jury, full, social, birth) = read_columns(
        registrations, [kind for _, kind in _REGISTRATION_COLUMNS], digest, parse=rows
    )
    reg_ids, phase_ids, score, score_absent = read_columns(
        scores, [kind for _, kind in _SCORE_COLUMNS], digest, parse=rows
    )
    # Built column by column (``map`` calls the named tuple without a Python loop): the name in effect is
    # the social name when there is one.
    names = [s or f for s, f in zip(social, full, strict=True)]
    phase_scores: list[dict[int, tuple[Decimal | None, bool]]] = [{} for _ in pk]
    built = list(
        map(
            RegistrationRow,
            pk,
            number,
            status,
            racial,
            pcd,
            prefers,
            final,
            absent,
            jury,
            names,
            birth,
            phase_scores,
            pos,
        )
    )
    regs = dict(zip(pk, phase_scores, strict=True))
    for reg_id, phase_id, given in zip(
        reg_ids, phase_ids, zip(score, score_absent, strict=True), strict=True
    ):
        found = regs.get(reg_id)
        if found is not None:
            found[phase_id] = given
    per_position: dict[int, list[RegistrationRow]] = {p.pk: [] for p in positions}
    if len(positions) == 1:
        per_position[positions[0].pk] = built
    else:
        for reg in built:
            per_position[reg.position_id].append(reg)
    phase_rows = [
        PhaseRow(p.pk, p.name, p.weight, p.pass_mark, p.cutoff, p.cutoff_open, p.cutoff_racial, p.cutoff_pcd)
        for p in phases
    ]
    return _Inputs(contest, list(positions), phase_rows, criteria, per_position, params, digest.hexdigest())


# PostgreSQL's types of ``ENTRY_COLUMNS`` (ResultEntry's columns), in order, for the COPY.
_ENTRY_TYPES = ("int8", "text", "int4", "int4", "numeric", "text", "text", "text")


def _write_entries(run: ResultRun, position: Position, rows: Iterable[Entry]) -> None:
    """Write a run's entries in bulk: PostgreSQL COPY (tens of thousands of rows in a second or two),
    ``bulk_create`` elsewhere. The database's constraints check every row either way."""
    # The name's folded form (no accents, lower case) is written with it, for the public site's search.
    if connection.vendor == "postgresql":
        columns = ", ".join(("run_id", "position_id", *ENTRY_COLUMNS, "search_name"))
        run_id, position_id = run.pk, position.pk
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {ResultEntry._meta.db_table} ({columns}) FROM STDIN") as copy,
        ):
            # The columns' types said once (not looked up from each value's Python type).
            copy.set_types(["int8", "int8", *_ENTRY_TYPES, "text"])
            write = copy.write_row
            for row in rows:
                write((run_id, position_id, *row, fold(row.name)))
        return
    ResultEntry.objects.bulk_create(
        (
            ResultEntry(
                run=run,
                position=position,
                search_name=fold(row.name),
                **dict(zip(ENTRY_COLUMNS, row, strict=True)),
            )
            for row in rows
        ),
        batch_size=BATCH,
    )


# Services ----------------------------------------------------------------------------------------------


def _scope(contest: Contest, position: Position | None) -> list[Position]:
    if position is not None:
        if position.contest_id != contest.pk:
            raise ValidationError("O cargo não pertence a este concurso.")
        return [position]
    return list(contest.positions.order_by("code", "pk"))


def _last_published(
    contest: Contest,
    position: Position | None,
    *,
    exclude: int | None = None,
    after_phase: Phase | None = None,
) -> ResultRun | None:
    """The last published run of the same scope and stage (the lists after the same phase, or the final
    lists), which a new one is compared with."""
    runs = ResultRun.objects.filter(
        contest=contest, status=ResultRun.Status.PUBLISHED, after_phase=after_phase
    )
    runs = runs.filter(position=position) if position is not None else runs.filter(position__isnull=True)
    if exclude is not None:
        runs = runs.exclude(pk=exclude)
    return runs.order_by("-published_at", "-pk").first()


@transaction.atomic
def result_run_compute(
    *,
    contest: Contest,
    by: User | None,
    position: Position | None = None,
    kind: str = "",
    notes: str = "",
    after_phase: Phase | None = None,
    today: datetime.date | None = None,
) -> ResultRun:
    """Compute the lists of ``contest`` (or of one ``position``) as a new draft run.

    Earlier drafts of the same scope are discarded (a draft is a working copy, not a document); the
    published runs stay as they are. ``kind`` is the intended kind (preliminary or final), which the
    publisher confirms. ``after_phase``: the lists after that phase, who goes on to the next one
    (RULES §3), computed while the next phase is prepared; published as the phase's result.
    """
    contest = Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)
    refusal = lifecycle.results_refusal(today or timezone.localdate(), contest.schedule)
    if refusal:
        raise ValidationError(refusal)
    if kind and kind not in ResultRun.Kind.values:
        raise ValidationError({"kind": "Espécie de lista desconhecida."})
    if after_phase is not None and after_phase.contest_id != contest.pk:
        raise ValidationError("A fase não pertence a este concurso.")
    kind = ResultRun.kind_for(kind, after_phase=after_phase is not None)
    positions = _scope(contest, position)
    if not positions:
        raise ValidationError("O concurso não tem cargos.")
    drafts = ResultRun.objects.filter(
        contest=contest, status=ResultRun.Status.DRAFT, position=position, after_phase=after_phase
    )
    for draft in drafts:
        audited_delete(draft, by=by, reason="Rascunho substituído por novo cálculo")
    # The collector paused from the reading to the last line written, while hundreds of thousands of small
    # objects (rows, scores, entries), none in a cycle, are built and dropped: each full collection meanwhile
    # walked them all again (a third of the CPU of 100,000); the first one after the reading, when the
    # collector came back between the reading and the computing, took 0.17 s in make bench-lists.
    with paused_gc():
        return _computed_run(contest, positions, position, kind, notes, after_phase, by)


def _computed_run(
    contest: Contest,
    positions: list[Position],
    position: Position | None,
    kind: str,
    notes: str,
    after_phase: Phase | None,
    by: User | None,
) -> ResultRun:
    """``result_run_compute``'s run, once its arguments are checked: read, compute, write."""
    inputs = _gather(contest, positions, after_phase, whole_contest=position is None)
    number = (ResultRun.objects.filter(contest=contest).aggregate(n=Max("number"))["n"] or 0) + 1
    run = ResultRun(
        contest=contest,
        position=position,
        number=number,
        kind=kind,
        computed_at=timezone.now(),
        computed_by=by,
        inputs_hash=inputs.digest,
        previous=_last_published(contest, position, after_phase=after_phase),
        notes=notes,
        after_phase=after_phase,
    )
    audited_save(run, by=by, reason="Lista calculada")
    registration_end = contest.registration_end or contest.edital_date
    per_position_summary: dict[str, object] = {}
    summary: dict[str, object] = {"positions": per_position_summary}
    for pos in positions:
        # The lines go to the database as the engine writes them: the server stores the first while the
        # next are written (COPY sends them in blocks as they come).
        computed = stream_position(
            inputs.registrations[pos.pk],
            inputs.phases,
            params=inputs.params,
            registration_end=registration_end,
            criteria=inputs.criteria,
            minimum_final_score=contest.minimum_final_score,
            after_phase=after_phase.pk if after_phase is not None else None,
        )
        _write_entries(run, pos, computed.entries)
        per_position_summary[str(pos.pk)] = {"code": pos.code, **computed.summary}
    summary["params"] = {
        "policy": str(contest.policy),
        "percent": format_fraction(inputs.params.racial.percent),
        "pcd": inputs.params.pcd is not None,
    }
    run.summary = summary
    audited_save(run, by=by, reason="Lista calculada")
    return run


@transaction.atomic
def result_run_publish(*, run: ResultRun, kind: str, by: User | None) -> ResultRun:
    """Publish a draft run as preliminary or final: from now on it never changes, and the public site
    shows it (recorded as a publication).

    Refused when the data changed since the draft was computed (compute again), and, for a final run,
    when a position it covers already has nominations made from another final run (the nomination
    order continues from the list it started from; later changes go through eliminations).
    """
    run = (
        ResultRun.objects.select_for_update(of=("self",))
        .select_related("contest", "position", "after_phase")
        .get(pk=run.pk)
    )
    if run.is_published:
        raise ValidationError("Esta lista já foi publicada; uma alteração exige novo cálculo.")
    if kind not in ResultRun.Kind.values:
        raise ValidationError({"kind": "Escolha lista preliminar ou final."})
    kind = ResultRun.kind_for(kind, after_phase=run.after_phase_id is not None)
    positions = _scope(run.contest, run.position)
    digest = _gather(
        run.contest, positions, run.after_phase, whole_contest=run.position_id is None, rows=False
    ).digest
    if digest != run.inputs_hash:
        raise ValidationError(
            "Os dados mudaram depois deste cálculo (inscrições, notas, fases, critérios ou política): "
            "calcule a lista de novo e revise-a antes de publicar."
        )
    if kind == ResultRun.Kind.FINAL:
        started = (
            AllocationLedger.objects.filter(position__in=positions)
            .exclude(run=run)
            .select_related("position")
        )
        codes = sorted(ledger.position.code for ledger in started)
        if codes:
            raise ValidationError(
                f"Já há nomeações a partir de outra lista final em: {', '.join(codes)}. A ordem de nomeação "
                "continua da lista de que partiu; mudanças posteriores se fazem por eliminação ou exclusão."
            )
    run.kind = kind
    run.status = ResultRun.Status.PUBLISHED
    run.published_at = timezone.now()
    run.published_by = by
    run.previous = _last_published(run.contest, run.position, exclude=run.pk, after_phase=run.after_phase)
    audited_save(run, by=by, reason=f"Lista publicada como {run.get_kind_display().lower()}")
    if kind == ResultRun.Kind.FINAL:
        contest_record_final_result(
            contest=run.contest, by=by, on=timezone.localtime(run.published_at).date()
        )
    publication_record(
        contest=run.contest,
        kind=Publication.Kind.RESULT_LIST,
        title=run.name,
        by=by,
        url=reverse("public:run", args=[run.contest.slug, run.pk]),
    )
    return run


@transaction.atomic
def result_run_discard(*, run: ResultRun, by: User | None) -> None:
    """Delete a draft run (a published one is a document and stays)."""
    run = ResultRun.objects.select_for_update().get(pk=run.pk)
    if run.is_published:
        raise ValidationError("Uma lista publicada não pode ser descartada.")
    audited_delete(run, by=by, reason="Rascunho descartado")


def final_run_for(position: Position) -> ResultRun | None:
    """The latest published final run that covers ``position`` (nominations start from it)."""
    return (
        ResultRun.objects.filter(contest_id=position.contest_id, status=ResultRun.Status.PUBLISHED)
        .filter(kind=ResultRun.Kind.FINAL)
        .filter(Q(position=position) | Q(position__isnull=True))
        .order_by("-published_at", "-pk")
        .first()
    )


def runs_for(contest: Contest) -> QuerySet[ResultRun]:
    return ResultRun.objects.filter(contest=contest).select_related(
        "contest", "position", "computed_by", "published_by", "after_phase"
    )
