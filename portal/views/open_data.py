"""Open data: a published list and a position's nomination order as CSV and JSON, with stable column names,
and the data dictionary that explains them. Rendered once per publication and served from the cache; lists
of names say ``noindex``."""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Iterable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from candidates import published
from candidates.models import Nomination, ResultEntry, ResultRun
from contests.models import Contest
from monitoring import tables
from monitoring.selectors import published_reports
from portal.pages import Page, serve
from portal.views.frame import html_page
from portal.views.lists import list_scope
from portal.views.nominations import nomination_scope

# A published list ----------------------------------------------------------------------------------------

LIST_COLUMNS = (
    "concurso",
    "resultado",
    "resultado_especie",
    "cargo",
    "lista",
    "classificacao",
    "classificacao_geral",
    "inscricao",
    "nome",
    "nota_final",
)


@require_http_methods(["GET", "HEAD"])
def list_data(
    request: HttpRequest, slug: str, run_pk: int, pk: int, list_slug: str, fmt: str
) -> HttpResponse:
    key = f"list-data:{slug}:{run_pk}:{pk}:{list_slug}:{fmt}"
    return serve(
        request,
        key=key,
        build=lambda: _list_data(slug, run_pk, pk, list_slug, fmt),
        frozen=True,
        noindex=True,
    )


def _list_data(slug: str, run_pk: int, pk: int, list_slug: str, fmt: str) -> Page:
    contest, run, position, the_list = list_scope(slug, run_pk, pk, list_slug)
    _check_format(fmt)
    rows = published.list_rows(run, position, the_list.value)
    name = f"{contest.slug}-resultado-{run.pk}-{position.code}-{the_list.slug}"
    if fmt == "csv":
        table = (
            [
                contest.slug,
                run.pk,
                run.kind,
                position.code,
                the_list.slug,
                row["rank"],
                row["general_rank"],
                row["number"],
                row["name"],
                published.score_text(row["score"]) if row["score"] is not None else "",
            ]
            for row in rows.iterator(chunk_size=5000)
        )
        return _csv_page(name, LIST_COLUMNS, table, run.published_at)
    document = {
        "concurso": _contest_json(contest),
        "resultado": {
            "id": run.pk,
            "especie": run.kind,
            "publicado_em": run.published_at.isoformat() if run.published_at else None,
        },
        "cargo": {"codigo": position.code, "denominacao": position.title},
        "lista": {"identificador": the_list.slug, "nome": the_list.label},
        "linhas": [
            {
                "classificacao": row["rank"],
                "classificacao_geral": row["general_rank"],
                "inscricao": row["number"],
                "nome": row["name"],
                "nota_final": None if row["score"] is None else f"{row['score']:f}",
            }
            for row in rows.iterator(chunk_size=5000)
        ],
    }
    return _json_page(name, document, run.published_at)


# Nomination order ----------------------------------------------------------------------------------------

NOMINATION_COLUMNS = (
    "concurso",
    "cargo",
    "ordem",
    "vaga",
    "tipo_da_vaga",
    "lista_de_origem",
    "vaga_revertida",
    "situacao",
    "inscricao",
    "nome",
    "ato",
    "data_do_ato",
    "data_da_publicacao",
    "codigo_de_verificacao_do_ato",
)


@require_http_methods(["GET", "HEAD"])
def nominations_data(request: HttpRequest, slug: str, pk: int, fmt: str) -> HttpResponse:
    return serve(
        request,
        key=f"nominations-data:{slug}:{pk}:{fmt}",
        build=lambda: _nominations_data(slug, pk, fmt),
        noindex=True,
    )


def _nominations_data(slug: str, pk: int, fmt: str) -> Page:
    contest, position = nomination_scope(slug, pk)
    _check_format(fmt)
    rows = published.nomination_rows(position)
    name = f"{contest.slug}-nomeacoes-{position.code}"
    lines = [
        {
            "concurso": contest.slug,
            "cargo": position.code,
            "ordem": row["order"],
            "vaga": row["seat"],
            "tipo_da_vaga": row["seat_kind"],
            "lista_de_origem": row["source_list"],
            "vaga_revertida": row["reverted"],
            "situacao": row["status"],
            "inscricao": row["number"],
            "nome": row["name"],
            "ato": row["act_number"],
            "data_do_ato": row["act_date"].isoformat(),
            "data_da_publicacao": row["publication_date"].isoformat(),
            "codigo_de_verificacao_do_ato": row["act_document"].code if row["act_document"] else "",
        }
        for row in rows
    ]
    if fmt == "csv":
        table = ([_csv_cell(line[column]) for column in NOMINATION_COLUMNS] for line in lines)
        return _csv_page(name, NOMINATION_COLUMNS, table)
    document = {
        "concurso": _contest_json(contest),
        "cargo": {"codigo": position.code, "denominacao": position.title},
        "nomeacoes": [{k: v for k, v in line.items() if k not in ("concurso", "cargo")} for line in lines],
    }
    return _json_page(name, document)


# Open data ------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def data_dictionary(request: HttpRequest) -> HttpResponse:
    return serve(request, key="dados-abertos", build=_data_dictionary)


def _data_dictionary() -> Page:
    context = {
        "list_columns": LIST_COLUMNS,
        "nomination_columns": NOMINATION_COLUMNS,
        "lists": [
            (published.SLUG_OF[value], label)
            for value, label in ResultEntry.List.choices
            if value in published.SLUG_OF
        ],
        "kinds": [
            (value, label) for value, label in ResultEntry.List.choices if value != ResultEntry.List.OUT
        ],
        "statuses": Nomination.Status.choices,
        "run_kinds": ResultRun.Kind.choices,
        "law_reports": list(published_reports()),
        "law_dictionary": tables.DICTIONARY,
    }
    return html_page("public/data_dictionary.html", context, breadcrumbs=[("Dados abertos", None)])


# Open data helpers ---------------------------------------------------------------------------------------


def _check_format(fmt: str) -> None:
    if fmt not in ("csv", "json"):
        raise Http404("Formatos: csv ou json.")


def _csv_cell(value: object) -> object:
    if isinstance(value, bool):
        return "sim" if value else "não"
    return value


def _contest_json(contest: Contest) -> dict[str, Any]:
    return {
        "identificador": contest.slug,
        "numero": f"{contest.number}/{contest.year}",
        "titulo": contest.title,
    }


def _csv_page(
    name: str,
    header: tuple[str, ...],
    table: Iterable[list[Any]],
    last_modified: datetime.datetime | None = None,
) -> Page:
    """``;``-separated, UTF-8 with BOM (a spreadsheet in Portuguese opens it as it is)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(table)
    body = ("\ufeff" + buffer.getvalue()).encode("utf-8")
    return Page(
        body,
        content_type="text/csv; charset=utf-8",
        last_modified=last_modified or timezone.now(),
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )


def _json_page(name: str, document: dict[str, Any], last_modified: datetime.datetime | None = None) -> Page:
    body = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
    return Page(
        body,
        content_type="application/json; charset=utf-8",
        last_modified=last_modified or timezone.now(),
        headers={"Content-Disposition": f'inline; filename="{name}.json"'},
    )
