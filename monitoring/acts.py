"""The law's report as an act (issue 23): the biennial (periodic) or final report rendered to PDF with the
period, the method, the tables and the charts (the same figures and SVGs as the report screen, each chart
with its text alternative) and the section the monitoring body writes; published through the documents
pipeline (``contests.documents.services.document_publish``: signed when a certificate is configured, hashed,
versioned, verifiable at /verificar/, public), and its figures kept for the open data."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from contests import publication
from contests.documents.models import Document
from contests.documents.render import Stamp, render_pdf
from contests.documents.services import document_publish
from contests.documents.signatures import signature_block
from monitoring import charts, privacy, tables
from monitoring.indicators import Scope, contests_in
from monitoring.models import FiledReport, LawReport

SECTIONS = {
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

METHOD = (
    "Os números saem dos registros do sistema de concursos: inscrições, fases, listas publicadas, nomeações, "
    "heteroidentificação, processos administrativos e ordens judiciais. O período escolhe os concursos da "
    "política cujo edital tem data nele; dentro deles contam todas as inscrições e as nomeações feitas até o "
    "último dia do período. Somente agregados (Lei nº 13.709/2018, art. 11): uma célula com 1 a 4 pessoas é "
    "suprimida ('<5'); quando ela poderia ser deduzida do total por subtração, outra célula da mesma soma é "
    "suprimida também ('X'); um percentual calculado sobre menos de 10 casos é marcado com '*'."
)


def sections(found: list[tables.Row]) -> list[dict[str, object]]:
    grouped: dict[str, list[tables.Row]] = {}
    for row in found:
        grouped.setdefault(row.indicador, []).append(row)
    return [
        {"key": key, "title": SECTIONS.get(key, key), "rows": rows}
        for key, rows in sorted(grouped.items(), key=lambda item: int(item[0][1:]))
    ]


def figures(scope: Scope) -> dict[str, object]:
    """What the screen and the PDF both show: the rows, their sections and the charts."""
    found = tables.rows(scope)
    chart_list = [*charts.funnel_charts(found)]
    seats = charts.seats_chart(scope)
    if seats is not None:
        chart_list.append(seats)
    life = charts.lifetime_chart(scope.policy, scope.end)
    if life is not None:
        chart_list.append(life)
    return {
        "rows": found,
        "sections": sections(found),
        "charts": chart_list,
        "contests": list(contests_in(scope)),
        "suppressed": any(row.nota == privacy.SUPPRESSED_NOTE for row in found),
        "complemented": any(row.nota == privacy.COMPLEMENTARY_NOTE for row in found),
        "few_cases": any(row.nota == privacy.FEW_CASES_NOTE for row in found),
        "dictionary": tables.DICTIONARY,
    }


@dataclass(frozen=True)
class Written:
    """The report's kind and number, and what the monitoring body writes."""

    kind: str
    number: int
    conclusions: str
    recommendation: str
    signer_name: str
    signer_office: str


def title_of(written: Written, scope: Scope) -> str:
    kind = dict(FiledReport.Kind.choices)[written.kind]
    number = f" nº {written.number}" if written.kind == FiledReport.Kind.PERIODIC else ""
    return f"{kind}{number} — {scope.policy.name}"


def render(scope: Scope, written: Written, stamp: Stamp, shown: dict[str, object] | None = None) -> bytes:
    shown = shown or figures(scope)
    title = title_of(written, scope)
    context = {
        **shown,
        "scope": scope,
        "written": written,
        "method": METHOD,
        "privacy": privacy,
        "signature": signature_block(written.signer_name, written.signer_office, on=timezone.localdate()),
        "today": timezone.localdate(),
    }
    return render_pdf("pdf/law_report.html", context, stamp, title=title)


def current_report(scope: Scope, written: Written) -> Document | None:
    return (
        Document.objects.filter(
            policy=scope.policy,
            contest__isnull=True,
            kind=Document.Kind.LAW_REPORT,
            subject=f"{written.kind}-{written.number}",
            rectification__isnull=True,
        )
        .order_by("-version")
        .first()
    )


def law_report_publish(*, scope: Scope, written: Written, summary: str, by: User) -> LawReport:
    """Render, sign and publish the report (a new version when one of the same kind and number exists: then
    ``summary`` says what changes) and keep its figures."""
    if not written.conclusions.strip():
        raise ValidationError("Escreva as conclusões do órgão de acompanhamento.")
    if written.kind == FiledReport.Kind.FINAL and not written.recommendation.strip():
        raise ValidationError(
            "O relatório final recomenda se a lei deve ser prorrogada: escreva a recomendação."
        )
    shown = figures(scope)
    with transaction.atomic():
        previous = current_report(scope, written)
        document = document_publish(
            contest=None,
            policy=scope.policy,
            kind=Document.Kind.LAW_REPORT,
            subject=f"{written.kind}-{written.number}",
            title=title_of(written, scope),
            render=lambda stamp: render(scope, written, stamp, shown),
            by=by,
            signer_name=written.signer_name,
            signer_office=written.signer_office,
            previous=previous,
            summary=summary,
        )
        transaction.on_commit(publication.bump)  # the open data's page lists it at once
        return LawReport.objects.create(
            policy=scope.policy,
            kind=written.kind,
            number=written.number,
            period_start=scope.start,
            period_end=scope.end,
            contests=[c.slug for c in shown["contests"]],  # type: ignore[attr-defined]
            conclusions=written.conclusions.strip(),
            recommendation=written.recommendation.strip(),
            rows=[row.as_dict() for row in shown["rows"]],  # type: ignore[attr-defined]
            document=document,
            created_by=by,
        )
