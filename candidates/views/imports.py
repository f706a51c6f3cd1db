"""Web import of the exam organiser's file (Secretaria): upload, column mapping, preview, commit.

The file uploaded is read once, at the upload, and the table read is kept between the steps in the
private ``imports`` storage (``candidates.services.imports.stored``) under a name the server makes; the
session holds only that name per contest, and the file is deleted after the commit or the cancellation.
The later steps load that table and never parse the upload again: the preview and the commit see the same
data, and a hostile file costs its reading once. Files above ``WEB_IMPORT_MAX_ROWS``
rows are refused with a message that asks to split the file or call the support staff (who run
``import_registrations``).

The commit is all or nothing (``candidates.services.imports.commit``) and does what the preview showed:
the preview keeps its fingerprint in the session, the commit plans once, under the contest's lock, and
refuses if the plan differs (the data changed since). A file of more than ``IMPORT_TASK_ROWS`` rows is
committed by the task queue (``candidates.jobs``), the clerk following its job's page.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from candidates import jobs as candidate_jobs
from candidates.forms import ImportMappingForm, ImportPhasesForm, ImportUploadForm
from candidates.services import registrations as services
from candidates.services.imports import (
    WEB_IMPORT_MAX_ROWS,
    ImportChanged,
    ImportFileError,
    ImportRejected,
    PhaseSpec,
    Preview,
    Table,
    commit,
    confirmed_phase_specs,
    import_refusal,
    mapping_choices,
    parse_upload,
    preview,
    suggest_mapping,
    target_label,
)
from candidates.services.imports.cells import text
from candidates.services.imports.model_sheet import MEDIA_TYPE, model_workbook
from candidates.services.imports.stored import (
    delete_stored,
    load_stored,
    purge_stale,
    store_table,
    stored_name,
)
from contests.audit import log_access
from contests.models import Contest, Job
from contests.views import AuthenticatedHttpRequest, get_contest_for_user, staff_view
from contests.views.breadcrumbs import Crumb, contest_trail, here

IMPORT_PERMS = ("contests.view_contest", "candidates.import_registrations")
SESSION_KEY = "candidate_imports"
SAMPLE_VALUES = 3
SAMPLE_CHARS = 60
PROBLEMS_PER_PAGE = 100


# The import in progress, kept in the session -------------------------------------------------------------


def _state(request: HttpRequest, contest: Contest) -> dict | None:
    return request.session.get(SESSION_KEY, {}).get(str(contest.pk))


def _save_state(request: HttpRequest, contest: Contest, state: dict) -> None:
    imports = dict(request.session.get(SESSION_KEY, {}))
    imports[str(contest.pk)] = state
    request.session[SESSION_KEY] = imports


def _discard(request: HttpRequest, contest: Contest) -> None:
    """Delete the stored file and forget the import in progress."""
    imports = dict(request.session.get(SESSION_KEY, {}))
    state = imports.pop(str(contest.pk), None)
    request.session[SESSION_KEY] = imports
    delete_stored((state or {}).get("token"))


def _stored_state(request: HttpRequest, contest: Contest) -> dict | None:
    """The import in progress whose file is still stored, or None (with a message) when there is none."""
    state = _state(request, contest)
    if state is None or stored_name(state.get("token")) is None:
        if state is not None:
            _discard(request, contest)
        messages.warning(request, "Nenhum arquivo em importação neste concurso: envie o arquivo.")
        return None
    return state


def _load(request: HttpRequest, contest: Contest) -> tuple[dict, Table] | None:
    """The import in progress and the table read at the upload, or None (with a message) when there is none."""
    state = _stored_state(request, contest)
    if state is None:
        return None
    try:
        table = load_stored(state["token"])
    except ImportFileError as error:
        _discard(request, contest)
        messages.error(request, str(error))
        return None
    return state, table


def _mapping(contest: Contest, state: dict, table: Table) -> dict[str, str]:
    return state.get("mapping") or suggest_mapping(contest, table.headers)


def _phase_specs(state: dict) -> dict[str, PhaseSpec]:
    return confirmed_phase_specs(state.get("phases") or {})


def _seen(result: Preview, unconfirmed: list[str]) -> dict[str, Any]:
    """What the preview showed, kept for the commit: whether it could be imported, and its fingerprint."""
    return {
        "fingerprint": result.fingerprint,
        "ok": result.ok,
        "summary": result.summary,
        "unconfirmed": unconfirmed,
    }


def _job_in_flight(state: dict) -> Job | None:
    """The job committing this import, while it is queued or running."""
    pk = state.get("job")
    if not pk:
        return None
    return Job.objects.filter(pk=pk, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).first()


def _unconfirmed_phases(result: Preview, state: dict) -> list[str]:
    """The phases the file creates whose maximum and pass mark the clerk has not confirmed yet: an inferred
    maximum or an empty pass mark would otherwise be imported unnoticed."""
    confirmed = state.get("phases") or {}
    return [spec.name for spec in result.phases_to_create if spec.name not in confirmed]


def _samples(table: Table, index: int) -> list[str]:
    values = []
    for _, row in table.rows:
        value = text(row[index]) if index < len(row) else ""
        if value:
            values.append(value if len(value) <= SAMPLE_CHARS else value[: SAMPLE_CHARS - 1] + "…")
            if len(values) == SAMPLE_VALUES:
                break
    return values


def _trail(contest: Contest) -> list[Crumb]:
    """Concursos › Concurso › Inscrições › Importação (the three steps share it)."""
    registrations = reverse("candidates:registration_list", args=[contest.slug])
    return contest_trail(contest, ("Inscrições", registrations), here("Importação"))


# Views ---------------------------------------------------------------------------------------------------


@staff_view(*IMPORT_PERMS)
def import_upload(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    refusal = import_refusal(contest)
    form = None if refusal else ImportUploadForm(request.POST or None, request.FILES or None)
    if form is not None and request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        filename = os.path.basename(upload.name or "arquivo")[:150]
        data = upload.read()
        try:
            table = parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS, filename=filename)
        except ImportFileError as error:
            form.add_error("file", str(error))
        else:
            _discard(request, contest)
            purge_stale()
            token = store_table(table)
            _save_state(
                request,
                contest,
                {
                    "token": token,
                    "filename": filename,
                    "rows": table.row_count,
                    "mapping": None,
                    "phases": {},
                },
            )
            unread = (
                f" {len(table.problems)} células não puderam ser lidas: veja os problemas na prévia."
                if table.problems
                else ""
            )
            messages.success(
                request,
                f"Arquivo “{filename}” recebido: {table.row_count} linhas de dados, {table.source}.{unread}",
            )
            return redirect("candidates:import_mapping", contest.slug)
    state = _state(request, contest)
    return render(
        request,
        "candidates/import_upload.html",
        {
            "contest": contest,
            "breadcrumbs": _trail(contest),
            "form": form,
            "refusal": refusal,
            "in_progress": state if stored_name((state or {}).get("token")) else None,
            "max_rows": WEB_IMPORT_MAX_ROWS,
        },
    )


@staff_view(*IMPORT_PERMS)
def import_mapping(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    loaded = _load(request, contest)
    if loaded is None:
        return redirect("candidates:import_upload", contest.slug)
    state, table = loaded
    suggested = _mapping(contest, state, table)
    choices = mapping_choices(contest, table.headers)
    known = {value for value, _ in choices}
    choices += [(target, target_label(target)) for target in suggested.values() if target not in known]
    form = ImportMappingForm(
        request.POST if request.method == "POST" else None,
        headers=table.headers,
        choices=choices,
        suggested=suggested,
    )
    if request.method == "POST" and form.is_valid():
        mapping = form.mapping()
        services.import_mapping_save(contest=contest, by=request.user, columns=mapping)
        state["mapping"] = mapping
        _save_state(request, contest, state)
        return redirect("candidates:import_preview", contest.slug)
    columns = [(form[f"col_{i}"], _samples(table, i)) for i in range(len(table.headers))]
    return render(
        request,
        "candidates/import_mapping.html",
        {
            "contest": contest,
            "breadcrumbs": _trail(contest),
            "form": form,
            "columns": columns,
            "state": state,
            "table": table,
        },
    )


@staff_view(*IMPORT_PERMS)
def import_preview(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    loaded = _load(request, contest)
    if loaded is None:
        return redirect("candidates:import_upload", contest.slug)
    state, table = loaded
    mapping = _mapping(contest, state, table)
    result = preview(
        contest,
        table,
        mapping,
        phase_specs=_phase_specs(state),
        only_contest_positions=bool(state.get("only_contest_positions")),
    )
    phases_form = None
    # While the file has blocking problems the phases' form is hidden: the clerk fixes the file
    # first, and confirming maxima of a file that will be sent again would be wasted work.
    if result.phases_to_create and result.ok:
        phases_form = ImportPhasesForm(
            request.POST if request.method == "POST" else None, phases=result.phases_to_create
        )
        if request.method == "POST" and phases_form.is_valid():
            state["phases"] = {**(state.get("phases") or {}), **phases_form.specs()}
            # The plan is the same with the maxima confirmed (its fingerprint leaves them out): the
            # preview the clerk saw stays the one the commit must match.
            state["seen"] = _seen(result, _unconfirmed_phases(result, state))
            _save_state(request, contest, state)
            messages.success(
                request, "Notas máxima e mínima das fases novas confirmadas para esta importação."
            )
            return redirect("candidates:import_preview", contest.slug)
    if result.rows:
        # The rows as understood show the reserves chosen: sensitive data (LGPD), logged like a view.
        log_access(
            user=request.user,
            obj=contest,
            action="view_sensitive",
            detail=f"prévia da importação “{state['filename']}”: reservas escolhidas no arquivo"[:200],
            request=request,
        )
    unconfirmed = _unconfirmed_phases(result, state)
    seen = _seen(result, unconfirmed)
    if state.get("seen") != seen:
        state["seen"] = seen
        _save_state(request, contest, state)
    problems = Paginator(result.problem_groups, PROBLEMS_PER_PAGE).get_page(request.GET.get("pagina"))
    return render(
        request,
        "candidates/import_preview.html",
        {
            "contest": contest,
            "breadcrumbs": _trail(contest),
            "state": state,
            "table": table,
            "result": result,
            "problems": problems,
            "phases_form": phases_form,
            "unconfirmed_phases": unconfirmed,
            "job": _job_in_flight(state),
            "in_background": table.row_count > settings.IMPORT_TASK_ROWS,
            "mapping": [(header, target_label(target)) for header, target in mapping.items()],
            "score_names": list(result.rows[0].scores) if result.rows else [],
        },
    )


@staff_view(*IMPORT_PERMS)
def import_template(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The model spreadsheet (.xlsx): the columns the importer recognises and the contest's phases."""
    contest = get_contest_for_user(request.user, slug)
    phases = list(contest.phases.order_by("order").values_list("name", flat=True))
    response = HttpResponse(model_workbook(phase_names=phases), content_type=MEDIA_TYPE)
    response["Content-Disposition"] = f'attachment; filename="modelo-inscricoes-{contest.slug}.xlsx"'
    return response


@require_POST
@staff_view(*IMPORT_PERMS)
def import_commit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Import what the preview showed: refused as the preview was (problems, phases not confirmed), or when
    the data changed since; a large file goes to the task queue and the clerk to its job's page."""
    contest = get_contest_for_user(request.user, slug)
    state = _stored_state(request, contest)
    if state is None:
        return redirect("candidates:import_upload", contest.slug)
    job = _job_in_flight(state)
    if job is not None:
        return redirect(job)
    seen = state.get("seen")
    if seen is None:
        messages.warning(request, "Confira a prévia antes de importar.")
        return redirect("candidates:import_preview", contest.slug)
    if not seen["ok"]:
        messages.error(request, f"Nada foi importado. {seen['summary']}")
        return redirect("candidates:import_preview", contest.slug)
    if seen["unconfirmed"]:
        messages.error(
            request,
            "Nada foi importado: confirme antes a nota máxima e a nota mínima das fases novas "
            f"({', '.join(seen['unconfirmed'])}).",
        )
        return redirect("candidates:import_preview", contest.slug)
    if state.get("rows", 0) > settings.IMPORT_TASK_ROWS:
        job = candidate_jobs.import_enqueue(
            contest=contest,
            by=request.user,
            token=state["token"],
            filename=state["filename"],
            rows=state["rows"],
            mapping=state.get("mapping"),
            phases=state.get("phases") or {},
            expected=seen["fingerprint"],
            origin_url=reverse("candidates:import_preview", args=[contest.slug]),
            only_contest_positions=bool(state.get("only_contest_positions")),
        )
        state["job"] = str(job.pk)
        _save_state(request, contest, state)
        return redirect(job)
    loaded = _load(request, contest)
    if loaded is None:
        return redirect("candidates:import_upload", contest.slug)
    state, table = loaded
    try:
        result = commit(
            contest,
            table,
            _mapping(contest, state, table),
            request.user,
            phase_specs=_phase_specs(state),
            expected=seen["fingerprint"],
            only_contest_positions=bool(state.get("only_contest_positions")),
        )
    except ImportChanged as changed:
        messages.error(request, str(changed))
        return redirect("candidates:import_preview", contest.slug)
    except ImportRejected as rejected:
        messages.error(request, f"Nada foi importado. {rejected.preview.summary}")
        return redirect("candidates:import_preview", contest.slug)
    except ValidationError as error:
        messages.error(request, f"Nada foi importado. {' '.join(error.messages)}")
        return redirect("candidates:import_upload", contest.slug)
    _discard(request, contest)
    messages.success(request, result.summary)
    return redirect("candidates:registration_list", contest.slug)


@require_POST
@staff_view(*IMPORT_PERMS)
def import_only_contest_positions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Leave out (``sim``) or take back (``nao``) the rows whose position this contest does not have. Only
    a choice of the import in progress: the preview shows what is left out, and the commit, all or nothing
    for the remaining rows, names it in the history of every row it writes."""
    contest = get_contest_for_user(request.user, slug)
    state = _stored_state(request, contest)
    if state is None:
        return redirect("candidates:import_upload", contest.slug)
    leave_out = request.POST.get("deixar_de_fora") == "sim"
    if _job_in_flight(state) is None and bool(state.get("only_contest_positions")) != leave_out:
        state["only_contest_positions"] = leave_out
        state.pop("seen", None)  # the commit waits for the preview of this choice
        _save_state(request, contest, state)
        messages.info(
            request,
            "Só os cargos deste concurso: as linhas de outros cargos ficam de fora. Confira a prévia e importe."
            if leave_out
            else "Todas as linhas do arquivo voltaram a ser consideradas.",
        )
    return redirect("candidates:import_preview", contest.slug)


@require_POST
@staff_view(*IMPORT_PERMS)
def import_cancel(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    _discard(request, contest)
    messages.info(request, "Importação cancelada: nada foi gravado e o arquivo enviado foi apagado.")
    return redirect("candidates:import_upload", contest.slug)
