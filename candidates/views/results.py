"""Classification lists (Secretaria computes, Gestão publishes; everyone with the role reads them).

A run's lists per position: the general list and each reserve, with scores, places and why; the
registrations on no list with the reason. Compute (a draft), review, publish as preliminary or final,
compare with the previous published run. Writes go through ``candidates.services.results``.

LGPD: every list shows who opted for which reserve (the reserved lists by their names, the general list and
the comparison in their "why"), drafts before any publication: each page of entries shown is logged.

A run whose PDF prints more than ``DOCUMENTS_TASK_ROWS`` rows never has it rendered in the request: the
export and the publication go to the task queue (``candidates.jobs``) and the person follows the job.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from candidates import comparison, selectors
from candidates import documents as candidate_documents
from candidates import jobs as candidate_jobs
from candidates.engine.schedule import list_label
from candidates.forms import CompareForm, ComputeForm, PublishForm, ResultDocumentForm
from candidates.models import Phase, ResultRun
from candidates.services import results
from contests.audit import User, log_access
from contests.documents.models import Document
from contests.documents.services import current_version, signer_initial, suggested_edital_number
from contests.models import Position
from contests.views import PAGE_SIZE, AuthenticatedHttpRequest, get_contest_for_user, staff_view
from contests.views.breadcrumbs import Crumb, contest_trail, here
from contests.views.published import published_message

VIEW_PERMS = ("contests.view_contest", "candidates.view_resultrun")
LIST_SLUGS = {"geral": "open", "racial": "racial", "pcd": "pcd", "fora": "out"}


def _run_for(user: User, slug: str, run_pk: int) -> ResultRun:
    contest = get_contest_for_user(user, slug)
    run = get_object_or_404(
        ResultRun.objects.select_related(
            "position", "computed_by", "published_by", "previous", "after_phase"
        ),
        contest=contest,
        pk=run_pk,
    )
    run.contest = contest
    return run


def _list_labels(run: ResultRun) -> dict[str, str]:
    """Each list's name, the one the published documents print (``schedule.list_label``)."""
    group = run.contest.policy.group_label
    labels = {kind: list_label(kind, group) for kind in ("open", "racial", "pcd", "out")}
    if not (run.summary.get("params") or {}).get("pcd"):
        del labels["pcd"]
    return labels


def _chosen_position(request: AuthenticatedHttpRequest, positions: list[Position]) -> Position | None:
    if not positions:
        return None
    wanted = request.GET.get("cargo", "")
    for position in positions:
        if str(position.pk) == wanted:
            return position
    return positions[0]


def _trail(run: ResultRun, *tail: Crumb) -> list[Crumb]:
    """Concursos › Concurso › Listas de classificação › ``tail``."""
    runs = reverse("candidates:result_list", args=[run.contest.slug])
    return contest_trail(run.contest, ("Listas de classificação", runs), *tail)


@staff_view(*VIEW_PERMS)
def result_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    runs = results.runs_for(contest).order_by("-number")
    phases = selectors.contest_phases(contest)
    waiting = _waiting_phase(phases)
    form = None
    if request.user.has_perm("candidates.add_resultrun"):
        form = ComputeForm(contest=contest, initial={"after_phase": waiting[0] if waiting else None})
    breadcrumbs = contest_trail(contest, here("Listas de classificação"))
    context = {"contest": contest, "runs": runs, "form": form, "breadcrumbs": breadcrumbs, "waiting": waiting}
    return render(request, "candidates/result_list.html", context)


def _waiting_phase(phases: list[Phase]) -> tuple[Phase, Phase] | None:
    """The last phase with results and the next one, still without any (RULES §3: who goes on to it is
    what the lists after the former say), or None when every phase has results or none has."""
    has_results = [bool(p.scored or p.absentees) for p in phases]  # type: ignore[attr-defined]  # annotated
    for (done, next_), (scored, scored_next) in zip(
        itertools.pairwise(phases), itertools.pairwise(has_results), strict=True
    ):
        if scored and not scored_next:
            return done, next_
    return None


@require_POST
@staff_view("contests.view_contest", "candidates.add_resultrun")
def result_compute(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = ComputeForm(request.POST, contest=contest)
    if form.is_valid():
        try:
            run = results.result_run_compute(
                contest=contest,
                by=request.user,
                position=form.cleaned_data["position"],
                kind=form.cleaned_data["kind"],
                notes=form.cleaned_data["notes"],
                after_phase=form.cleaned_data["after_phase"],
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, f"Lista calculada: {run}. Revise-a antes de publicar.")
            return redirect(run)
    else:
        messages.error(request, "Não foi possível calcular: confira os campos.")
    return redirect("candidates:result_list", contest.slug)


@staff_view(*VIEW_PERMS)
def result_detail(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    run = _run_for(request.user, slug, run_pk)
    positions = selectors.run_positions(run)
    position = _chosen_position(request, positions)
    list_slug = request.GET.get("lista", "geral")
    if list_slug not in LIST_SLUGS:
        raise Http404
    list_name = LIST_SLUGS[list_slug]
    page = None
    summary = {}
    if position is not None:
        page = Paginator(selectors.run_entries(run, position, list_name), PAGE_SIZE).get_page(
            request.GET.get("pagina")
        )
        summary = (run.summary.get("positions") or {}).get(str(position.pk), {})
    labels = _list_labels(run)
    if position is not None and page is not None and page.object_list:
        log_access(
            user=request.user,
            obj=run,
            action="view_sensitive",
            detail=f"{labels.get(list_name, list_name)}, {position.code}, página {page.number}",
            request=request,
        )
    tabs = [
        {"slug": slug_, "label": labels[name], "count": summary.get(name, 0), "current": slug_ == list_slug}
        for slug_, name in LIST_SLUGS.items()
        if name in labels
    ]
    publish_form = None
    signer = {
        **signer_initial(Document.Kind.RESULT_LIST),
        "edital_number": suggested_edital_number(timezone.localdate().year),
    }
    if (
        not run.is_published
        and request.user.has_perm("candidates.publish_resultrun")
        and request.user.has_perm("contests.publish_document")
    ):
        kind = ResultRun.Kind.FINAL if run.kind in (ResultRun.Kind.FINAL, ResultRun.Kind.PHASE_FINAL) else ""
        publish_form = PublishForm(
            initial={"kind": kind or ResultRun.Kind.PRELIMINARY, **signer}, after_phase=run.after_phase
        )
    return render(
        request,
        "candidates/result_detail.html",
        {
            "contest": run.contest,
            "breadcrumbs": _trail(run, here(run.name)),
            "run": run,
            "positions": positions,
            "position": position,
            "list_name": list_name,
            "list_label": labels.get(list_name, ""),
            "labels": labels,
            "list_slug": list_slug,
            "tabs": tabs,
            "document_form": ResultDocumentForm(initial=signer) if run.is_published else None,
            "document": (
                current_version(
                    run.contest, Document.Kind.RESULT_LIST, candidate_documents.result_list_subject(run)
                )
                if run.is_published
                else None
            ),
            "page": page,
            "summary": summary,
            "publish_form": publish_form,
            "previous": selectors.previous_run(run),
            "pdf_rows": candidate_documents.result_list_rows(run),
            "pdf_in_background": _pdf_in_background(run),
        },
    )


def _pdf_in_background(run: ResultRun) -> bool:
    return candidate_documents.result_list_rows(run) > settings.DOCUMENTS_TASK_ROWS


@require_POST
@staff_view(*VIEW_PERMS, "candidates.publish_resultrun", "contests.publish_document")
def result_publish(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    """Publish the draft run and its signed document in one step; the person stays on the run's page."""
    run = _run_for(request.user, slug, run_pk)
    form = PublishForm(request.POST, after_phase=run.after_phase)
    if not form.is_valid():
        messages.error(
            request,
            "Nada foi publicado: escolha se a lista é preliminar ou final e informe o número do edital e quem "
            "assina.",
        )
        return redirect(run)
    data = dict(form.cleaned_data)
    kind = data.pop("kind")
    try:
        if _pdf_in_background(run):
            run, job = candidate_jobs.result_run_publish_and_enqueue_document(
                run=run, kind=kind, by=request.user, origin_url=run.get_absolute_url(), **data
            )
            messages.success(
                request,
                f"Lista publicada: {run}. O documento assinado está sendo gerado em segundo plano: acompanhe a "
                "tarefa.",
            )
            return redirect(job)
        run, document = candidate_documents.result_run_publish_with_document(
            run=run, kind=kind, by=request.user, **data
        )
    except ValidationError as error:
        messages.error(request, "Nada foi publicado. " + " ".join(error.messages))
        return redirect(run)
    published_message(
        request,
        f"Lista publicada: {run}, com o seu documento assinado. Ela não muda mais; uma alteração exige novo "
        "cálculo.",
        document,
    )
    return redirect(run)


@require_POST
@staff_view(*VIEW_PERMS, "candidates.add_resultrun")
def result_discard(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    run = _run_for(request.user, slug, run_pk)
    try:
        results.result_run_discard(run=run, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(run)
    messages.success(request, "Rascunho descartado.")
    return redirect("candidates:result_list", run.contest.slug)


@staff_view(*VIEW_PERMS)
def result_compare(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    run = _run_for(request.user, slug, run_pk)
    query = CompareForm(request.GET)
    other_pk = query.cleaned_data["com"] if query.is_valid() else None
    previous: ResultRun | None
    if other_pk is not None:
        previous = get_object_or_404(ResultRun, contest=run.contest, pk=other_pk)
    else:
        previous = selectors.previous_run(run)
    positions = selectors.run_positions(run)
    position = _chosen_position(request, positions)
    page = None
    if previous is not None and position is not None:
        moves = comparison.compare_runs(run, previous, position)
        page = Paginator(moves, PAGE_SIZE).get_page(request.GET.get("pagina"))
        if page.object_list:
            log_access(
                user=request.user,
                obj=run,
                action="view_sensitive",
                detail=f"comparação com a lista {previous.number}, {position.code}, página {page.number}",
                request=request,
            )
    others = selectors.other_runs(run)
    return render(
        request,
        "candidates/result_compare.html",
        {
            "contest": run.contest,
            "breadcrumbs": _trail(run, (run.name, run.get_absolute_url()), here("Comparação")),
            "run": run,
            "previous": previous,
            "others": others,
            "positions": positions,
            "position": position,
            "page": page,
        },
    )


EXPORTS: dict[str, tuple[str, Callable[[ResultRun], bytes]]] = {
    "csv": ("text/csv; charset=utf-8", candidate_documents.result_csv),
    "xlsx": (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        candidate_documents.result_xlsx,
    ),
    "pdf": ("application/pdf", candidate_documents.render_result_list),
}


@staff_view(*VIEW_PERMS)
def result_export(request: AuthenticatedHttpRequest, slug: str, run_pk: int, fmt: str) -> HttpResponse:
    """Any run as CSV, XLSX or PDF for staff; a draft is marked "minuta". A published run's official PDF
    is its Document (the verification page serves it)."""
    run = _run_for(request.user, slug, run_pk)
    if fmt not in EXPORTS:
        raise Http404
    if fmt == "pdf" and _pdf_in_background(run):
        messages.info(
            request,
            "Esta lista é longa: o PDF é gerado em segundo plano. Use o botão “PDF (minuta, sem validade)” "
            "desta página e acompanhe a tarefa.",
        )
        return redirect(run)
    content_type, build = EXPORTS[fmt]
    # Every list of the run at once (the reserved ones, PcD included): logged like each of its pages.
    log_access(
        user=request.user,
        obj=run,
        action="view_sensitive",
        detail=f"exportação {fmt.upper()} de todas as listas",
        request=request,
    )
    response = HttpResponse(build(run), content_type=content_type)
    state = "publicada" if run.is_published else "minuta"
    response["Content-Disposition"] = f'attachment; filename="lista-{run.number}-{state}.{fmt}"'
    return response


@require_POST
@staff_view(*VIEW_PERMS)
def result_pdf_job(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    """The PDF of a long run's lists, rendered by the task queue: to the job's page, which links the file
    when it is ready."""
    run = _run_for(request.user, slug, run_pk)
    log_access(
        user=request.user,
        obj=run,
        action="view_sensitive",
        detail="exportação PDF de todas as listas (gerada em segundo plano)",
        request=request,
    )
    job = candidate_jobs.result_pdf_enqueue(run=run, by=request.user, origin_url=run.get_absolute_url())
    return redirect(job)


@require_POST
@staff_view(*VIEW_PERMS, "contests.publish_document")
def result_document_publish(request: AuthenticatedHttpRequest, slug: str, run_pk: int) -> HttpResponse:
    run = _run_for(request.user, slug, run_pk)
    form = ResultDocumentForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, "Informe o número do edital, quem assina e o cargo para publicar o documento da lista."
        )
        return redirect(run)
    if _pdf_in_background(run):
        try:
            job = candidate_jobs.result_document_enqueue(
                run=run, by=request.user, origin_url=run.get_absolute_url(), **form.cleaned_data
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect(run)
        return redirect(job)
    try:
        document = candidate_documents.result_list_publish(run=run, by=request.user, **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(run)
    published_message(request, "Documento da lista publicado.", document)
    return redirect(run)
