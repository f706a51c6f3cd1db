"""An import's two entry points: ``preview`` (what the file would do, and every problem; writes nothing) and
``commit`` (all or nothing, planned once under the contest's lock). The planning itself is ``plan``'s."""

from __future__ import annotations

import datetime
import threading
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.utils import timezone

from candidates.models import Candidate, Phase, PhaseResult, Registration
from candidates.services.imports import references, writing
from candidates.services.imports.files import Table, paused_gc
from candidates.services.imports.plan import Progress, _Planner
from candidates.services.imports.report import ImportChanged, ImportRejected, PhaseSpec, Preview, Result
from candidates.services.imports.suggestions import suggest_mapping
from candidates.services.names import names_changed
from candidates.services.registrations import import_mapping_save
from contests import lifecycle
from contests.audit import User
from contests.models import Contest


def import_refusal(contest: Contest, *, today: datetime.date | None = None) -> str | None:
    """Why no file may be imported into ``contest`` today: before its registrations open, there is no
    registration to import (``lifecycle.registrations_refusal``)."""
    return lifecycle.registrations_refusal(
        today or timezone.localdate(), contest.schedule, what="a importação de inscrições e notas"
    )


def _planner(contest, table, mapping, *, today, phase_specs, progress, only_contest_positions) -> _Planner:

    if mapping is None:
        mapping = suggest_mapping(contest, table.headers)
    return _Planner(
        contest,
        table,
        mapping,
        today=today or timezone.localdate(),
        phase_specs=phase_specs,
        progress=progress,
        only_contest_positions=only_contest_positions,
    )


def preview(
    contest: Contest,
    table: Table,
    mapping: Mapping[str, str] | None = None,
    *,
    today: datetime.date | None = None,
    phase_specs: Mapping[str, PhaseSpec] | None = None,
    progress: Progress | None = None,
    only_contest_positions: bool = False,
) -> Preview:
    """What ``commit`` would do with this file, and every problem; writes nothing. With
    ``only_contest_positions`` the rows naming a position the contest does not have are left out (and
    counted in ``Preview.other_positions``) instead of being problems."""
    # The collector stays paused until the planner is gone (see ``commit``).
    with paused_gc():
        planner = _planner(
            contest,
            table,
            mapping,
            today=today,
            phase_specs=phase_specs,
            progress=progress,
            only_contest_positions=only_contest_positions,
        )
        planner.build()
        result = planner.preview
        _release(planner)
        del planner  # freed here, before the collector resumes
    return result


def commit(
    contest: Contest,
    table: Table,
    mapping: Mapping[str, str] | None,
    by: User | None,
    *,
    today: datetime.date | None = None,
    phase_specs: Mapping[str, PhaseSpec] | None = None,
    progress: Progress | None = None,
    expected: str | None = None,
    only_contest_positions: bool = False,
) -> Result:
    """Import the file, all or nothing; raises ``ImportRejected`` (writing nothing) if any row is bad, and
    ``ImportChanged`` when ``expected`` (the ``fingerprint`` of the preview the clerk saw) is given and the
    plan made now, under the contest's lock, differs from it. ``only_contest_positions``: as ``preview``'s,
    the rows left out named in the history reason of every row written."""

    by = by if getattr(by, "pk", None) else None
    # The cyclic garbage collector stays paused from the planning to the commit: resumed in between, its
    # next collections walk every one of the planner's half a million objects (100,000 rows), to free
    # nothing (0.3 to 0.6 s of CPU). At the end what is still alive, the planner included, goes to the
    # oldest generation without a walk (``paused_gc``).
    held: list[_Planner] = []
    with paused_gc():
        preview = _write(
            contest,
            table,
            mapping,
            by,
            today=today,
            phase_specs=phase_specs,
            progress=progress,
            expected=expected,
            only_contest_positions=only_contest_positions,
            held=held,
        )
    # The planner, once the import is committed, freed on another thread while the caller goes on (0.35 s
    # of Python for 100,000 rows). Freed beside the ANALYZE and the checks, as it was, it took the
    # interpreter from them each time PostgreSQL answered: 0.36 s for the two against 0.24 s.
    _free_meanwhile(held)
    return Result(
        created=preview.new,
        updated=preview.updated,
        unchanged=preview.unchanged,
        phases_created=[spec.name for spec in preview.phases_to_create],
        preview=preview,
    )


def _write(
    contest: Contest,
    table: Table,
    mapping: Mapping[str, str] | None,
    by: User | None,
    *,
    today: datetime.date | None,
    phase_specs: Mapping[str, PhaseSpec] | None,
    progress: Progress | None,
    expected: str | None,
    only_contest_positions: bool,
    held: list[_Planner],
) -> Preview:
    """``commit``'s transaction: plans under the contest's lock, writes, and returns the plan's preview;
    the planner, once written, is left in ``held``."""
    with transaction.atomic():
        contest = Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)
        refusal = import_refusal(contest, today=today)
        if refusal:
            raise ValidationError(refusal)
        planner = _planner(
            contest,
            table,
            mapping,
            today=today,
            phase_specs=phase_specs,
            progress=progress,
            only_contest_positions=only_contest_positions,
        )
        if connection.vendor == "postgresql":
            planner.open_stream = lambda preview, models: writing.Stream(
                user=by,
                reason=_reason(table, preview),
                now=timezone.now(),
                written=models,
                deferred=[Phase],  # the phases the file creates are saved last
            )
        try:
            planner.build()
            preview = planner.preview
            if preview.problems:
                raise ImportRejected(preview)
            if expected is not None and preview.fingerprint != expected:
                raise ImportChanged(preview)
            planner.write(by=by, reason=_reason(table, preview))
        finally:
            if planner.stream is not None:  # the writing thread is done before the transaction ends
                planner.stream.close()
        written = planner.stream.written_ids() if planner.stream is not None else None
        renamed, moved, columns = planner.renamed, planner.moved, planner.mapping
        held.append(planner)  # ``commit`` frees it once this transaction is over
        del planner
        _analyze_after_bulk(preview)  # first: the checks below are then planned with the new figures
        if written is not None:
            with connection.cursor() as cursor:
                references.check(cursor, written)
        names_changed(candidate_ids=renamed, registration_ids=moved, by=by)
        import_mapping_save(contest=contest, by=by, columns=columns)
    return preview


# An import of thousands of rows changes what PostgreSQL knows of its tables, and autovacuum's analyze,
# where it is on, comes a minute or more after the commit. Without it, the lists computed right after an
# import of 100,000 joined the candidates by a nested loop and sorted on disk: their two reads took 224 ms
# of the server's time, 113 ms once the tables were analysed (and ``work_mem`` raised, in ``results``).
# ANALYZE within the import's transaction counts the rows it wrote. Only the columns the lists' reads
# filter, join and sort on (``results``), and the ids the reference checks select by: the table's row
# count is renewed all the same, and the names, CPFs and e-mails were most of the work (100,000
# registrations: 134 to 168 ms for the three tables, 60 to 65 ms for these columns). An ANALYZE naming
# columns leaves PostgreSQL's count of changes since the last analyze as it was, so autovacuum still
# analyses every column afterwards.
BULK_ANALYZE_ROWS = 1_000
_ANALYZED: dict[type[models.Model], tuple[str, ...]] = {
    Registration: ("id", "contest_id", "position_id", "candidate_id"),
    Candidate: ("id",),
    PhaseResult: ("id", "registration_id", "phase_id"),
}


def _analyze_after_bulk(preview: Preview) -> None:
    """PostgreSQL's statistics of the tables the lists read, renewed after an import of many rows."""
    if connection.vendor != "postgresql" or preview.new + preview.updated < BULK_ANALYZE_ROWS:
        return
    quote = connection.ops.quote_name
    tables = ", ".join(
        f"{quote(model._meta.db_table)} ({', '.join(quote(column) for column in columns)})"
        for model, columns in _ANALYZED.items()
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {tables}")


def _reason(table: Table, preview: Preview) -> str:
    """The history's reason for every object an import writes: the file, and the rows left out."""
    reason = f"Importação: {table.filename or 'arquivo'}"
    if preview.left_out_rows:
        reason += f". {preview.left_out_text}"
    return reason


FREEING = "import-free"  # the freeing thread's name


def _free_meanwhile(held: list[_Planner]) -> None:
    """Free the planner ``held`` holds, if any, the only reference to it left, on a thread of its own
    while this one goes on. Nothing waits for it: nobody reads what it holds, and a process that ends
    meanwhile (a daemon thread) lets go of it all at once."""
    if held:
        threading.Thread(target=_free, args=(held,), name=FREEING, daemon=True).start()


FREE_SLICE = 2000  # new objects freed at a time: between two slices the thread lets go of the interpreter


def _free(held: list[_Planner]) -> None:
    # Freeing a list frees all it holds in one go, without letting another thread run: the planner's
    # lists of new objects (and the stream's, the same objects) and of rows are emptied a slice at a time.
    planner = held.pop()
    _release(planner)
    stream = planner.stream
    lists: list[list[Any]] = [*planner.new.values(), getattr(planner, "rows", [])]
    for items in (*lists, stream.sent if stream is not None else []):
        while items:
            del items[-FREE_SLICE:]


def _release(planner: _Planner) -> None:
    """Break the planner's one reference cycle (its racial checker holds two of its bound methods), so that
    dropping it frees its objects at once rather than at the collector's next walk over all of them. A
    planner that stopped at the mapping never built one."""
    if hasattr(planner, "racial"):
        del planner.racial
