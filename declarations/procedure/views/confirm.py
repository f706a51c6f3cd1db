"""Acts with legal effect in two steps (issue 21): the button leads to a page saying what will happen (the
service rehearsed, ``previews``), then "Confirmar" (a POST; the service does it in one transaction; a
redirect after it). Jurídico's decisions and certificate of finality, the application of a decision's
effects, and the candidate's acknowledgement of a notice through the private link."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from contests.audit import log_access
from contests.forms import add_service_errors
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from contests.wording import said
from declarations.models import Procedure
from declarations.procedure import previews, rules, selectors, services
from declarations.procedure import rules_labels as labels
from declarations.procedure.forms import ActForm
from declarations.procedure.selectors import case_state
from declarations.procedure.views import staff
from declarations.procedure.views.candidate import _link_or_error as link_or_error
from declarations.procedure.views.candidate import link_holder
from declarations.procedure.views.staff import CONDUCT, VIEW, get_procedure_for_user, trail

# Jurídico: a decision, a reconsideration, a decision on appeal, the certificate of finality ---------------


@staff_view(VIEW, CONDUCT)
def act_create(request: AuthenticatedHttpRequest, year: int, number: int, kind: str) -> HttpResponse:
    """An act's form: in two steps for the acts that decide or end the case, else ``staff.act_create``."""
    try:
        act_kind = rules.Act(kind)
    except ValueError:
        raise Http404 from None
    if act_kind not in previews.CONFIRMED_ACTS:
        return staff.act_create(request, year=year, number=number, kind=kind)
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    return confirmed_act(request, procedure, act_kind)


def confirmed_act(request: AuthenticatedHttpRequest, procedure: Procedure, kind: rules.Act) -> HttpResponse:
    """The form of an act in ``previews.CONFIRMED_ACTS`` (the caller checked the permission): "Registrar"
    shows what recording it does, with its document; "Confirmar" records it."""
    today = timezone.localdate()
    confirming = "confirm" in request.POST
    # The outcome in force: a reconsideration's "Reconsiderar"/"Manter" maps to it (art. 56 §1º).
    current = rules.current_outcome(case_state(procedure, today=today).records)
    form = ActForm(
        request.POST or None,
        request.FILES or None,
        kind=kind,
        today=today,
        confirming=confirming,
        current=current,
    )
    label = labels.ACT_LABELS[kind]
    context = {
        "procedure": procedure,
        "kind": kind,
        "label": label,
        "citation": labels.ACT_CITATIONS[kind],
        "breadcrumbs": trail(procedure, here(label)),
    }
    if request.method == "POST" and "edit" not in request.POST and form.is_valid():
        data = form.cleaned_data
        fields = {
            "text": data["text"],
            "outcome": data.get("outcome", ""),
            "authority": data.get("authority"),
            "bad_faith": data.get("bad_faith", False),
        }
        if confirming:
            try:
                services.act_record(
                    procedure=procedure,
                    kind=kind,
                    by=request.user,
                    today=today,
                    uploads=data["attachments"],
                    protected=data["protected"],
                    **fields,
                )
            except ValidationError as error:
                form = ActForm(request.POST, kind=kind, today=today, current=current)
                add_service_errors(form, error)
            else:
                messages.success(request, f"{said(label, 'registrado')} no {procedure}.")
                return redirect(procedure)
        else:
            summary = previews.act_record_preview(
                procedure=procedure, kind=kind, by=request.user, today=today, **fields
            )
            if summary:
                log_access(user=request.user, obj=procedure, request=request, detail=f"confirmar: {label}")
                confirm_form = ActForm(request.POST, kind=kind, today=today, confirming=True, current=current)
                return render(
                    request,
                    "declarations/act_confirm.html",
                    {**context, "form": confirm_form, "summary": summary},
                )
            assert summary.error is not None
            add_service_errors(form, summary.error)
    elif "edit" in request.POST:
        form = ActForm(request.POST, kind=kind, today=today, current=current)
    log_access(user=request.user, obj=procedure, request=request, detail=f"ato: {label}")
    refusal = case_state(procedure, today=today).form_refusal(kind)
    return render(
        request,
        "declarations/act_form.html",
        {**context, "form": form, "refusal": refusal, "confirmed": True},
    )


# Jurídico: the effects of a decision of falsity ----------------------------------------------------------


@staff_view(VIEW, CONDUCT)
def effects(request: AuthenticatedHttpRequest, year: int, number: int) -> HttpResponse:
    """GET: what applying the effects does (the service rehearsed); POST ("Confirmar"): apply them."""
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    today = timezone.localdate()
    if request.method == "POST":
        try:
            result = services.effects_apply(procedure=procedure, by=request.user, today=today)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                f"Efeitos aplicados. {' '.join(result.messages)} Ato público publicado: {result.public_act}",
            )
        return redirect(procedure)
    summary = previews.effects_apply_preview(procedure=procedure, by=request.user, today=today)
    log_access(user=request.user, obj=procedure, request=request, detail="confirmar: aplicar os efeitos")
    return render(
        request,
        "declarations/effects_confirm.html",
        {
            "procedure": procedure,
            "summary": summary,
            "breadcrumbs": trail(procedure, here("Aplicar os efeitos")),
        },
    )


# The candidate: acknowledging a notice through the private link -------------------------------------------


def acknowledge(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """GET: what acknowledging the notice does (the period it starts, to its last day); POST
    ("Confirmar"): record the acknowledgement, today."""
    link = link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    act = get_object_or_404(selectors.case_acts_of(link.procedure), pk=pk)
    how = f"ciência pelo link privado ({link.name})"
    today = timezone.localdate()
    if request.method == "POST":
        try:
            services.notice_acknowledge(act=act, on=today, by=None, how=how)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, "Ciência registrada. O prazo começou a correr no dia seguinte a hoje.")
        return redirect("declarations:portal", token=token)
    summary = previews.notice_acknowledge_preview(act=act, on=today, how=how)
    log_access(
        user=None,
        via_link=link_holder(link),
        obj=link.procedure,
        action="portal",
        detail=f"{link.name}: ciência de {act.get_kind_display()}",
        request=request,
    )
    return render(
        request,
        "declarations/portal_acknowledge.html",
        {"link": link, "token": token, "procedure": link.procedure, "act": act, "summary": summary},
    )
