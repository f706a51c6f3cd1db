"""The law's report screen (issue 23): Gestão, Auditoria and Monitoramento choose the policy, the period and
the contests and see the indicators, aggregates only (``monitoring.tables``: privacy applied) with their
charts; and the filed reports, which Gestão records."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from contests.views.access import AuthenticatedHttpRequest, form_data, staff_view
from monitoring import charts, privacy, tables
from monitoring.forms import FiledReportForm, ReportForm, default_data
from monitoring.indicators import contests_in
from monitoring.models import FiledReport

INDICATORS = {
    "T1": "T1 — Funil: inscritos, cada fase, aprovados, nomeados e empossados, por grupo",
    "T2": "T2 — Vagas por cargo",
    "T3": "T3 — Cotistas na ampla concorrência e negros entre os nomeados",
    "T4": "T4 — Exposição: cargos sem reserva, cargos repartidos entre editais, concursos que reservam menos",
    "T5": "T5 — Heteroidentificação: convocados, presentes, resultados, recursos, consequências",
    "T6": "T6 — Processos por declaração falsa: instaurados, resultados, duração, encaminhamentos ao MP",
    "T7": "T7 — Ordens judiciais: candidatos sub judice por causa, vagas mantidas, ordens cumpridas e revogadas",
    "T8": "T8 — Dias da homologação à nomeação, por lista",
    "T10": "T10 — Conformidade por concurso e relatórios da lei entregues no prazo",
}


def _sections(found: list[tables.Row]) -> list[dict[str, object]]:
    sections: dict[str, list[tables.Row]] = {}
    for row in found:
        sections.setdefault(row.indicador, []).append(row)
    return [
        {"key": key, "title": INDICATORS.get(key, key), "rows": rows}
        for key, rows in sorted(sections.items(), key=lambda item: int(item[0][1:]))
    ]


@staff_view("monitoring.view_law_report")
def report(request: AuthenticatedHttpRequest) -> HttpResponse:
    data = request.GET if "policy" in request.GET else default_data(timezone.localdate())
    form = ReportForm(data)
    context: dict[str, object] = {"form": form, "privacy": privacy}
    if data is not None and form.is_valid():
        scope = form.scope()
        found = tables.rows(scope)
        context.update(
            scope=scope,
            contests=list(contests_in(scope)),
            sections=_sections(found),
            suppressed=any(row.nota == privacy.SUPPRESSED_NOTE for row in found),
            complemented=any(row.nota == privacy.COMPLEMENTARY_NOTE for row in found),
            few_cases=any(row.nota == privacy.FEW_CASES_NOTE for row in found),
            funnel_charts=charts.funnel_charts(found),
            seats_chart=charts.seats_chart(scope),
            dictionary=tables.DICTIONARY,
        )
    return render(request, "monitoring/report.html", context)


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
