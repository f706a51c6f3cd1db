"""Organisation settings, municipal holidays and the access log."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from contests import selectors, services
from contests.forms import (
    AccessLogFilterForm,
    HolidayForm,
    OrganizationForm,
    add_service_errors,
)
from contests.models import Holiday, Organization, Signatory
from contests.views.access import (
    PAGE_SIZE,
    AuthenticatedHttpRequest,
    form_data,
    staff_view,
)
from contests.views.breadcrumbs import here

# Organisation and holidays -------------------------------------------------------------------------------


@staff_view("contests.view_organization")
def organization_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    organization = Organization.current()
    can_edit = request.user.has_perm(
        "contests.change_organization" if organization else "contests.add_organization"
    )
    if request.method == "POST" and not can_edit:
        raise PermissionDenied
    form = None
    if can_edit:
        instance = Organization.objects.get(pk=organization.pk) if organization else None
        form = OrganizationForm(form_data(request), request.FILES or None, instance=instance)
        if request.method == "POST" and form.is_valid():
            data = dict(form.cleaned_data)
            if not data.get("logo"):  # False: "limpar" ticked; None: never had one
                data["logo"] = ""
            try:
                services.organization_save(by=request.user, data=data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Dados da organização salvos.")
                return redirect("contests:organization")
    return render(
        request,
        "contests/organization_form.html",
        {
            "organization": organization,
            "form": form,
            "signatories": Signatory.objects.select_related("authority").order_by("kind"),
        },
    )


@staff_view("contests.view_holiday")
def holiday_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    holidays = Holiday.objects.order_by("-date", "name")
    page = Paginator(holidays, PAGE_SIZE).get_page(request.GET.get("pagina"))
    return render(request, "contests/holiday_list.html", {"page": page})


@staff_view("contests.add_holiday")
def holiday_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _holiday_form(request, None)


@staff_view("contests.change_holiday")
def holiday_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _holiday_form(request, get_object_or_404(Holiday, pk=pk))


def _holiday_form(request: AuthenticatedHttpRequest, holiday: Holiday | None) -> HttpResponse:
    instance = Holiday.objects.get(pk=holiday.pk) if holiday else None
    form = HolidayForm(form_data(request), instance=instance)
    if request.method == "POST" and form.is_valid():
        try:
            services.holiday_save(by=request.user, data=form.cleaned_data, holiday=holiday)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Feriado salvo." if holiday else "Feriado registrado.")
            return redirect("contests:holiday_list")
    breadcrumbs = [
        ("Feriados", reverse("contests:holiday_list")),
        here("Editar" if holiday else "Novo feriado"),
    ]
    return render(
        request, "contests/holiday_form.html", {"form": form, "holiday": holiday, "breadcrumbs": breadcrumbs}
    )


@staff_view("contests.delete_holiday")
def holiday_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    holiday = get_object_or_404(Holiday, pk=pk)
    if request.method == "POST":
        services.holiday_delete(holiday=holiday, by=request.user)
        messages.success(request, "Feriado excluído.")
        return redirect("contests:holiday_list")
    return render(request, "contests/holiday_confirm_delete.html", {"holiday": holiday})


# Access log ----------------------------------------------------------------------------------------------


@staff_view("contests.view_accesslog")
def accesslog_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AccessLogFilterForm(request.GET or None)
    logs = selectors.access_logs(**form.cleaned_data) if form.is_valid() else selectors.access_logs()
    if request.GET.get("formato") == "csv":
        response = HttpResponse(selectors.access_logs_csv(logs), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="registro-de-acessos.csv"'
        return response
    page = Paginator(logs, PAGE_SIZE).get_page(request.GET.get("pagina"))
    query = request.GET.copy()
    query.pop("pagina", None)
    query["formato"] = "csv"
    context = {"form": form, "page": page, "csv_query": query.urlencode()}
    return render(request, "contests/accesslog_list.html", context)
