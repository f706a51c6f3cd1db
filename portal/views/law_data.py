"""Open data of the law's reports (issue 23): each published report's figures, as published (aggregates only,
small cells suppressed as in the report), in CSV and JSON; the columns are in the data dictionary."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from monitoring import tables
from monitoring.selectors import published_report
from portal.pages import Page, serve
from portal.views.open_data import _check_format, _csv_page, _json_page


@require_http_methods(["GET", "HEAD"])
def law_report_data(request: HttpRequest, code: str, fmt: str) -> HttpResponse:
    return serve(request, key=f"law-report-data:{code}:{fmt}", build=lambda: _law_report_data(code, fmt))


def _law_report_data(code: str, fmt: str) -> Page:
    _check_format(fmt)
    report = published_report(code)
    if report is None:
        raise Http404("Nenhum relatório da lei publicado tem este código.")
    document = report.document
    name = f"relatorio-da-lei-{report.policy.slug}-{report.kind}-{report.number}-v{document.version}"
    if fmt == "csv":
        table = ([row.get(column, "") for column in tables.COLUMNS] for row in report.rows)
        return _csv_page(name, tables.COLUMNS, table, document.published_at)
    data = {
        "politica": {"identificador": report.policy.slug, "nome": report.policy.name},
        "relatorio": {
            "tipo": report.kind,
            "numero": report.number,
            "versao": document.version,
            "codigo_de_verificacao": document.code,
            "publicado_em": document.published_at.isoformat(),
        },
        "periodo": {"de": report.period_start.isoformat(), "ate": report.period_end.isoformat()},
        "concursos": report.contests,
        "dicionario": tables.DICTIONARY,
        "linhas": report.rows,
    }
    return _json_page(name, data, document.published_at)
