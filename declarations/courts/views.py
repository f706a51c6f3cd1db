"""Screens of court orders (issue 22): Jurídico records an order and changes its status; Secretaria (which
complies with it) and Auditoria read. Nothing here is public; every view of an order and every download of
its file is logged (LGPD)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from contests.audit import log_access
from contests.forms import add_service_errors
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import Crumb, here
from declarations.courts import effects, previews, rules, selectors, services
from declarations.courts.forms import CourtOrderForm, StatusForm
from declarations.models import CourtOrder

VIEW = "declarations.view_courtorder"
RECORD = "declarations.record_court_order"


def trail(*tail: Crumb) -> list[Crumb]:
    return [("Ordens judiciais", reverse("declarations:court_orders")), *tail]


@staff_view(VIEW)
def court_order_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    today = timezone.localdate()
    return render(
        request,
        "declarations/court_order_list.html",
        {
            "rows": selectors.order_rows(selectors.orders(), today=today),
            "today": today,
            "can_record": request.user.has_perm(RECORD),
            "breadcrumbs": [here("Ordens judiciais")],
        },
    )


@staff_view(VIEW, RECORD)
def court_order_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CourtOrderForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            order = services.court_order_record(
                **form.service_data(), by=request.user, today=timezone.localdate()
            )
        except ValidationError as error:
            add_service_errors(form, error, {"upload": "file"})
        else:
            messages.success(request, f"Ordem judicial registrada: {order}.")
            return redirect(order)
    return render(
        request,
        "declarations/court_order_form.html",
        {"form": form, "breadcrumbs": trail(here("Registrar ordem"))},
    )


def _order(pk: int) -> CourtOrder:
    return get_object_or_404(CourtOrder.objects.select_related("contest", "position", "recorded_by"), pk=pk)


def _detail(
    request: AuthenticatedHttpRequest, order: CourtOrder, form: StatusForm | None = None
) -> HttpResponse:
    log_access(user=request.user, obj=order, request=request)  # every display of the order, form errors too
    today = timezone.localdate()
    row = selectors.order_rows([order], today=today)[0]
    can_record = request.user.has_perm(RECORD)
    final = rules.Status(order.status) in rules.FINAL_STATUSES
    return render(
        request,
        "declarations/court_order_detail.html",
        {
            "order": order,
            "row": row,
            "registrations": order.registrations.select_related("candidate", "position").order_by("number"),
            "history": order.history.select_related("history_user").order_by("-history_date", "-history_id"),
            "can_record": can_record,
            "can_apply": can_record and effects.can_apply(order),
            "final": final,
            "status_form": form
            if form is not None
            else (StatusForm(current=order.status) if can_record and not final else None),
            "breadcrumbs": trail(here(order.case_number)),
        },
    )


@staff_view(VIEW)
def court_order_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    order = _order(pk)
    log_access(user=request.user, obj=order, request=request)
    return _detail(request, order)


@require_POST
@staff_view(VIEW, RECORD)
def court_order_status(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    order = _order(pk)
    form = StatusForm(request.POST, current=order.status)
    if form.is_valid():
        try:
            services.court_order_status(
                order=order, by=request.user, today=timezone.localdate(), **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            order.refresh_from_db()
            messages.success(request, f"Situação da ordem: {order.get_status_display()}.")
            return redirect(order)
    return _detail(request, order, form)


@staff_view(VIEW, RECORD)
def court_order_comply(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: what complying with the order does (the service rehearsed); POST ("Confirmar"): comply."""
    order = _order(pk)
    today = timezone.localdate()
    if request.method == "POST":
        try:
            done = effects.order_effects_apply(order=order, by=request.user, today=today)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, " ".join(["Ordem cumprida.", *done]))
        return redirect(order)
    summary = previews.order_effects_apply_preview(order=order, by=request.user, today=today)
    log_access(user=request.user, obj=order, request=request, detail="confirmar: cumprir a ordem")
    return render(
        request,
        "declarations/court_order_comply.html",
        {"order": order, "summary": summary, "breadcrumbs": trail(here("Cumprir a ordem"))},
    )


@staff_view(VIEW)
def court_order_file(request: AuthenticatedHttpRequest, pk: int) -> FileResponse:
    order = _order(pk)
    log_access(user=request.user, obj=order, action="download", detail=order.file_name, request=request)
    try:
        handle = order.file.open("rb")
    except FileNotFoundError as missing:  # the stored file is gone: a 404, never a 500
        raise Http404("O arquivo da decisão não está no armazenamento.") from missing
    response = FileResponse(
        handle, as_attachment=True, filename=order.file_name, content_type=order.file_type
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
