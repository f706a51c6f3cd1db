"""The contest's phases (Secretaria sets them up as the edital says; everyone with the role reads them).

Order, weight, maximum, pass mark and the cut-off K per list (SM art. 4 §§1–2, RULES §3), with the split
between the lists shown live while the K is typed (``phase_cut_preview``, asked by
``static/js/cut-preview.js``: the rule is never redone in the browser); the contest's minimum final
score. Writes go through ``candidates.services.phases``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from candidates import selectors
from candidates.engine.ranking import RankingError, describe_cut_quota
from candidates.models import Phase
from candidates.phase_forms import CutPreviewForm, MinimumFinalScoreForm, PhaseForm, PhaseMoveForm
from candidates.services import phases as services
from contests.forms import add_service_errors
from contests.models import Contest
from contests.views import AuthenticatedHttpRequest, form_data, get_contest_for_user, staff_view
from contests.views.breadcrumbs import contest_trail, here
from contests.wording import plural

VIEW_PERMS = ("contests.view_contest", "candidates.view_phase")


def _phase_for(request: AuthenticatedHttpRequest, slug: str, pk: int) -> Phase:
    contest = get_contest_for_user(request.user, slug)
    phase = get_object_or_404(Phase, contest=contest, pk=pk)
    phase.contest = contest
    return phase


def _list_url(contest: Contest) -> str:
    return reverse("candidates:phase_list", args=[contest.slug])


def _split_rows(phase: Phase, contest: Contest) -> list[tuple[str, int, str]]:
    """Each list's K in force for ``phase``, and why (the edital's, or the default split)."""
    quota = phase.cut_quota(contest)
    if quota is None:
        return []
    labels = {"racial": contest.policy.group_label}
    rule = contest.policy.racial_rule()
    return describe_cut_quota(phase.cutoff or 0, quota, racial=rule, pcd=contest.pcd_rule(), labels=labels)


@staff_view(*VIEW_PERMS)
def phase_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    phases = selectors.contest_phases(contest)
    rows = []
    for phase in phases:
        phase.contest = contest
        try:
            split = _split_rows(phase, contest)
        except RankingError as error:  # a phase saved before the rule was checked: say so, do not fail
            split = [("", 0, str(error))]
        rows.append({"phase": phase, "split": split, "refusal": ""})
    minimum_form = None
    if request.user.has_perm("contests.change_contest") and request.user.has_perm("candidates.change_phase"):
        minimum_form = MinimumFinalScoreForm(initial={"minimum_final_score": contest.minimum_final_score})
    return render(
        request,
        "candidates/phase_list.html",
        {
            "contest": contest,
            "rows": rows,
            "minimum_form": minimum_form,
            "breadcrumbs": contest_trail(contest, here("Fases e notas de corte")),
        },
    )


def _form_page(
    request: AuthenticatedHttpRequest, contest: Contest, form: PhaseForm, phase: Phase | None
) -> HttpResponse:
    title = f"Editar a fase {phase.name}" if phase else "Nova fase"
    return render(
        request,
        "candidates/phase_form.html",
        {
            "contest": contest,
            "phase": phase,
            "form": form,
            "title": title,
            "preview_url": reverse("candidates:phase_cut_preview", args=[contest.slug]),
            "has_pcd": contest.pcd_rule() is not None,
            "breadcrumbs": contest_trail(
                contest, ("Fases e notas de corte", _list_url(contest)), here(title)
            ),
        },
    )


@staff_view(*VIEW_PERMS, "candidates.add_phase")
def phase_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = PhaseForm(form_data(request), contest=contest, instance=Phase(contest=contest, order=1))
    if request.method == "POST" and form.is_valid():
        try:
            phase = services.phase_create(contest=contest, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Fase {phase.name} criada: é a {phase.order}ª do concurso.")
            return redirect("candidates:phase_list", contest.slug)
    return _form_page(request, contest, form, None)


@staff_view(*VIEW_PERMS, "candidates.change_phase")
def phase_edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    phase = _phase_for(request, slug, pk)
    contest = phase.contest
    # The form validates a copy, so the page keeps the stored name in its title when the save is refused.
    copy = Phase.objects.get(pk=phase.pk)
    copy.contest = contest
    form = PhaseForm(form_data(request), contest=contest, instance=copy)
    if request.method == "POST" and form.is_valid():
        try:
            phase = services.phase_update(phase=phase, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Fase {phase.name} alterada.")
            return redirect("candidates:phase_list", contest.slug)
    return _form_page(request, contest, form, phase)


@require_POST
@staff_view(*VIEW_PERMS, "candidates.change_phase")
def phase_move(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    phase = _phase_for(request, slug, pk)
    form = PhaseMoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Escolha subir ou descer a fase.")
        return redirect("candidates:phase_list", phase.contest.slug)
    try:
        moved = services.phase_move(phase=phase, by=request.user, direction=form.cleaned_data["direction"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Fase {moved.name} agora é a {moved.order}ª.")
    return redirect("candidates:phase_list", phase.contest.slug)


@staff_view(*VIEW_PERMS, "candidates.delete_phase")
def phase_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    phase = _phase_for(request, slug, pk)
    contest = phase.contest
    if request.method == "POST":
        try:
            services.phase_delete(phase=phase, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, f"Fase {phase.name} excluída.")
        return redirect("candidates:phase_list", contest.slug)
    title = f"Excluir a fase {phase.name}"
    return render(
        request,
        "candidates/phase_confirm_delete.html",
        {
            "contest": contest,
            "phase": phase,
            "refusal": services.phase_delete_refusal(phase),
            "breadcrumbs": contest_trail(
                contest, ("Fases e notas de corte", _list_url(contest)), here(title)
            ),
        },
    )


@require_POST
@staff_view(*VIEW_PERMS, "candidates.change_phase", "contests.change_contest")
def phase_minimum_score(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug, change=True)
    form = MinimumFinalScoreForm(request.POST)
    if not form.is_valid():
        errors = [str(message) for messages_ in form.errors.values() for message in messages_]
        messages.error(request, "Nota final mínima: " + " ".join(errors))
        return redirect("candidates:phase_list", contest.slug)
    value = form.cleaned_data["minimum_final_score"]
    try:
        services.contest_minimum_final_score_set(contest=contest, by=request.user, value=value)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if value is None:
            messages.success(request, "O concurso não tem nota final mínima para aprovação.")
        else:
            shown = f"{value:.2f}".replace(".", ",")
            messages.success(request, f"Nota final mínima para aprovação: {shown}.")
    return redirect("candidates:phase_list", contest.slug)


@require_GET
@staff_view(*VIEW_PERMS)
def phase_cut_preview(request: AuthenticatedHttpRequest, slug: str) -> JsonResponse:
    """The split of a cut-off between the lists while a clerk types K (and any K per list), as the engine
    computes it (``Phase.cut_quota``: RULES §3)."""
    contest = get_contest_for_user(request.user, slug)
    form = CutPreviewForm(request.GET)
    if not form.is_valid():
        if form.has_error("k", "required"):
            return JsonResponse(
                {"error": "Informe quantos passam (K) para ver a divisão entre as listas."}, status=400
            )
        return JsonResponse({"error": "Informe números inteiros, zero ou mais."}, status=400)
    data = form.cleaned_data
    phase = Phase(
        contest=contest,
        cutoff=data["k"],
        cutoff_open=data["open"],
        cutoff_racial=data["racial"],
        cutoff_pcd=data["pcd"],
    )
    try:
        rows = _split_rows(phase, contest)
    except RankingError as error:
        return JsonResponse({"error": str(error)}, status=400)
    total = sum(count for _, count, _ in rows)
    k = data["k"]
    summary = f"Em cada cargo passam {plural(total, 'candidato', 'candidatos')}, além dos empatados com o último de cada lista."
    if total != k:
        summary += f" Atenção: a soma dos K por lista ({total}) difere de K ({k})."
    return JsonResponse(
        {
            "k": k,
            "total": total,
            "summary": summary,
            "rows": [{"label": label, "count": count, "why": why} for label, count, why in rows],
        }
    )
