"""The law's report screen (issue 23): Gestão, Auditoria and Monitoramento choose the policy, the period and
the contests and see the indicators, aggregates only (``monitoring.tables``: privacy applied) with their
charts; and the filed reports, which Gestão records."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from contests.views.access import AuthenticatedHttpRequest, form_data, staff_view
from monitoring import acts, privacy
from monitoring.forms import FiledReportForm, LawReportForm, ReportForm, default_data
from monitoring.models import FiledReport


@staff_view("monitoring.view_law_report")
def report(request: AuthenticatedHttpRequest) -> HttpResponse:
    data = request.GET if "policy" in request.GET else default_data(timezone.localdate())
    form = ReportForm(data)
    context: dict[str, object] = {"form": form, "privacy": privacy}
    if data is not None and form.is_valid():
        scope = form.scope()
        context.update(
            scope=scope,
            query=request.GET.urlencode() if "policy" in request.GET else "",
            **acts.figures(scope),
        )
    return render(request, "monitoring/report.html", context)


@staff_view("monitoring.add_lawreport")
def generate(request: AuthenticatedHttpRequest) -> HttpResponse:
    """ "Gerar relatório": the report as an act, with the section the monitoring body writes, published through
    the documents pipeline (signed, versioned, verifiable, public)."""
    if request.method == "POST":
        form = LawReportForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            written = acts.Written(
                data["kind"],
                data["number"],
                data["conclusions"],
                data["recommendation"],
                data["signer_name"],
                data["signer_office"],
            )
            try:
                made = acts.law_report_publish(
                    scope=form.scope(), written=written, summary=data["summary"], by=request.user
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, f"{made} publicado: código de verificação {made.document.code}.")
                return redirect("public:verify", code=made.document.code)
    else:
        initial: dict[str, object] = {**(default_data(timezone.localdate()) or {})}
        initial.update({key: request.GET[key] for key in ("policy", "start", "end") if request.GET.get(key)})
        initial["contests"] = request.GET.getlist("contests")
        form = LawReportForm(initial=initial)
    return render(request, "monitoring/generate.html", {"form": form})


@staff_view("monitoring.view_filedreport")
def filed(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The filed reports; Gestão records one (the Pendências warning of that report goes)."""
    can_add = request.user.has_perm("monitoring.add_filedreport")
    form = FiledReportForm(form_data(request)) if can_add else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied
        if form.is_valid():
            report = form.save(commit=False)
            report.recorded_by = request.user
            report.save()
            messages.success(request, f"{report} registrado.")
            return redirect("monitoring:filed")
    reports = FiledReport.objects.select_related("policy").order_by("-filed_on", "-pk")
    return render(request, "monitoring/filed.html", {"form": form, "reports": reports})
