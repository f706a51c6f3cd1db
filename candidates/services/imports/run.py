"""An import's two entry points: ``preview`` (what the file would do, and every problem; writes nothing) and
``commit`` (all or nothing, planned once under the contest's lock). The planning itself is ``plan``'s."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from candidates.services.imports.files import Table
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
    return planner.preview


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
        planner.build()
        preview = planner.preview
        if preview.problems:
            raise ImportRejected(preview)
        if expected is not None and preview.fingerprint != expected:
            raise ImportChanged(preview)
        reason = f"Importação: {table.filename or 'arquivo'}"
        if preview.left_out_rows:
            reason += f". {preview.left_out_text}"
        planner.write(by=by, reason=reason)
        names_changed(candidate_ids=planner.renamed, registration_ids=planner.moved, by=by)
        import_mapping_save(contest=contest, by=by, columns=planner.mapping)
    return Result(
        created=preview.new,
        updated=preview.updated,
        unchanged=preview.unchanged,
        phases_created=[spec.name for spec in preview.phases_to_create],
        preview=preview,
    )
