"""The public site of the candidates app (anonymous).

- A contest's page with its published results and nominations, each published run's lists (paginated,
  searchable by name or inscription number without accents), the nomination order of a position, and the
  open data (CSV and JSON) of both. Only published snapshots: a contest without a published edital, a
  draft run, a position the run does not cover are 404s. Each page is rendered once per publication and
  served from the cache with validators (``portal/pages.py``); lists of names say ``noindex``.
- ``candidate_lookup``: the candidate's own page, opened with the contest, the inscription number and the
  personal access code (``candidates.access``); no search by CPF. The code travels only in a POST body,
  never in a URL; the answer is ``private, no-store`` and ``noindex``. Wrong codes are throttled per
  client address and per inscription (Django's cache: with several workers, a shared ``CACHE_URL``), and an
  unknown inscription and a wrong code get the same answer, so the page tells nobody which numbers exist.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
from typing import Any, cast

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from candidates import access, published
from candidates.forms import CandidateLookupForm
from candidates.models import Registration, ResultRun
from candidates.standing import candidate_standing
from contests import lifecycle
from contests.models import Contest, Position
from portal.pages import Page, query_key, query_text, serve
from portal.views.contests import (
    contest_crumb,
    contest_stage,
    html_page,
    portal_context,
    public_documents,
    published_contest,
    published_schedule,
    vacancy_table,
)

# The candidate's own page ---------------------------------------------------------------------------------

# Failures before a lockout, and its length: 20 wrong tries from one address in 15 minutes, or 10 on one
# inscription in an hour (from anywhere). With 30¹⁰ codes, guessing one is out of reach either way.
MAX_FAILURES_PER_ADDRESS = 20
ADDRESS_WINDOW = 15 * 60
MAX_FAILURES_PER_REGISTRATION = 10
REGISTRATION_WINDOW = 60 * 60

REFUSED = (
    "Não encontramos uma inscrição com este número e este código de acesso neste concurso. Confira os "
    "dados (o código tem 10 letras e números, como ABCD-EFGH-JK) e tente de novo."
)
LOCKED = (
    "Muitas tentativas sem sucesso. Por segurança, a consulta está bloqueada por algum tempo (até "
    "{minutes} minutos). Tente mais tarde ou, se perdeu o código, peça outro à Secretaria do concurso."
)


def _keys(request: HttpRequest, contest: Contest, number: str) -> list[tuple[str, int, int]]:
    """(cache key, limit, window) of the counters a failure adds to; the inscription hashed, so the
    cache holds no personal data."""
    address = request.META.get("REMOTE_ADDR") or "desconhecido"
    inscription = hashlib.sha256(f"{contest.pk}:{number.upper()}".encode()).hexdigest()[:32]
    return [
        (f"access-code:address:{address}", MAX_FAILURES_PER_ADDRESS, ADDRESS_WINDOW),
        (f"access-code:registration:{inscription}", MAX_FAILURES_PER_REGISTRATION, REGISTRATION_WINDOW),
    ]


def _locked_out(keys: list[tuple[str, int, int]]) -> int:
    """The window (seconds) of the first counter at its limit, or 0."""
    for key, limit, window in keys:
        if (cache.get(key) or 0) >= limit:
            return window
    return 0


def _count_failure(keys: list[tuple[str, int, int]]) -> None:
    for key, _, window in keys:
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=window)


def _check(contest: Contest, number: str, code: str) -> Registration | None:
    registration = (
        Registration.objects.select_related("candidate", "position", "contest__policy")
        .filter(contest=contest, number=number)
        .first()
    )
    if registration is None:
        access.derive(key="-", registration_id=0, version=0)  # about the same work as a real check
        return None
    return registration if access.matches(registration, code) else None


def _forget_code(form: CandidateLookupForm) -> None:
    """A refused code is not written back into the page."""
    data = cast(QueryDict, form.data).copy()  # request.POST, immutable
    data["code"] = ""
    form.data = data


def _page(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    # The portal's frame (templates/public/base.html), with this page's trail.
    frame = {"search_target": "id_number"} if "form" in context else {}  # Alt+3: the number, when asked
    context = {**portal_context([("Minha inscrição", None)], **frame), **context}
    response = render(request, "public/candidate_lookup.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache  # private, no-store: the page is one person's
@require_http_methods(["GET", "POST"])
def candidate_lookup(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        initial = {}
        slug = request.GET.get("concurso", "")
        if slug:
            contest = Contest.objects.exclude(status=Contest.Status.DRAFT).filter(slug=slug[:80]).first()
            if contest is not None:
                initial["contest"] = contest.pk
        return _page(request, {"form": CandidateLookupForm(initial=initial)})
    form = CandidateLookupForm(request.POST)
    if not form.is_valid():
        return _page(request, {"form": form})
    contest = form.cleaned_data["contest"]
    number = form.cleaned_data["number"]
    keys = _keys(request, contest, number)
    window = _locked_out(keys)
    if window:
        form.add_error(None, LOCKED.format(minutes=window // 60))
        _forget_code(form)
        return _page(request, {"form": form, "locked": True}, status=429)
    registration = _check(contest, number, form.cleaned_data["code"])
    if registration is None:
        _count_failure(keys)
        form.add_error(None, REFUSED)
        _forget_code(form)
        return _page(request, {"form": form})
    return _page(request, {"standing": candidate_standing(registration)})


# The portal's published pages ------------------------------------------------------------------------


def _query(request: HttpRequest) -> str:
    return query_text(request)


def _page_number(request: HttpRequest) -> str:
    return query_text(request, "pagina")[:10] or "1"


def _run_crumb(run: ResultRun) -> tuple[str, str]:
    return (run.name, reverse("public:run", args=[run.contest.slug, run.pk]))


def _pages(base: str, page: Any, query: str) -> dict[str, str | None]:
    """Links to the previous and next pages, keeping the search (no request in the template)."""

    def link(number: int) -> str:
        params = {"q": query} if query else {}
        if number > 1:
            params["pagina"] = str(number)
        return base + ("?" + urlencode(params) if params else "")

    return {
        "previous": link(page.previous_page_number()) if page.has_previous() else None,
        "next": link(page.next_page_number()) if page.has_next() else None,
    }


# A contest -----------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def contest_page(request: HttpRequest, slug: str) -> HttpResponse:
    return serve(request, key=f"contest:{slug}", build=lambda: _contest_page(slug))


def _contest_page(slug: str) -> Page:
    contest = published_contest(slug)
    stage = contest_stage(contest, timezone.localdate())
    with_nominations = published.positions_with_nominations(contest)
    vacancies = vacancy_table(contest)
    for row in vacancies:
        row["has_nominations"] = row["position"].pk in with_nominations
    context = {
        "contest": contest,
        "stage_label": lifecycle.PUBLIC_STAGE_LABELS[stage] if stage else "",
        "status_label": contest.get_status_display(),
        "documents": public_documents(contest),
        "schedule": published_schedule(contest),
        "vacancies": vacancies,
        "group_label": contest.policy.group_label,
        "runs": published.published_runs(contest),
    }
    crumbs = [(f"Concurso {contest.number}/{contest.year}", None)]
    return html_page("public/contest.html", context, breadcrumbs=crumbs)


# A published run: its positions and lists, and a search across them ----------------------------------------


@require_http_methods(["GET", "HEAD"])
def run_page(request: HttpRequest, slug: str, run_pk: int) -> HttpResponse:
    query, number = _query(request), _page_number(request)
    key = f"run:{slug}:{run_pk}?" + query_key(request, "q", "pagina")
    return serve(
        request,
        key=key,
        build=lambda: _run_page(slug, run_pk, query, number),
        frozen=True,
        noindex=True,
        params=("q", "pagina"),
    )


def _run_page(slug: str, run_pk: int, query: str, number: str) -> Page:
    contest = published_contest(slug)
    run = published.published_run(contest, run_pk)
    lists = published.contest_lists(contest)
    counts = published.list_counts(run)
    positions = published.run_positions(run)
    blocks = [
        {
            "position": position,
            "lists": [{"list": item, "count": counts.get((position.pk, item.value), 0)} for item in lists],
        }
        for position in positions
    ]
    context: dict[str, Any] = {
        "contest": contest,
        "run": run,
        "blocks": blocks,
        "document": published.run_document(run),
        "query": query,
        "noindex": True,
        "search_target": "busca",
    }
    if query:
        base = reverse("public:run", args=[slug, run_pk])
        page = Paginator(published.run_search(run, query), published.PAGE_SIZE).get_page(number)
        by_pk = {p.pk: p for p in positions}
        label = {item.value: item for item in lists}
        context["results"] = [
            {
                **row,
                "position": by_pk.get(row["position_id"]),
                "list": label.get(row["list"]),
                "score": published.score_text(row["score"]),
            }
            for row in page.object_list
        ]
        context["page"] = page
        context["pages"] = _pages(base, page, query)
    crumbs = [contest_crumb(contest), (run.name, None)]
    rendered = html_page("public/run.html", context, breadcrumbs=crumbs, last_modified=run.published_at)
    found = context["page"].paginator.count > 0 if query else False
    return (
        rendered
        if _storable(query, number, context.get("page"), found)
        else dataclasses.replace(rendered, store=False)
    )


def _storable(query: str, number: str, page: Any, found: bool) -> bool:
    """Whether a list or run page is kept in the cache. Stored: the page's own pages, each under its one
    number, and a search that finds somebody (on result day everyone searches their own name: rendering each
    search again saturated the CPUs, bench/public_load.py). Not stored: a search that finds nobody or a page
    number the page does not have (?pagina=01, past the last), which anyone could vary without limit; what
    is stored is bounded by the published names themselves."""
    if page is None:  # the run page without a search has no pages
        return number == "1"
    return str(page.number) == number and (not query or found)


# One list ------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def list_page(request: HttpRequest, slug: str, run_pk: int, pk: int, list_slug: str) -> HttpResponse:
    query, number = _query(request), _page_number(request)
    key = f"list:{slug}:{run_pk}:{pk}:{list_slug}?" + query_key(request, "q", "pagina")
    return serve(
        request,
        key=key,
        build=lambda: _list_page(slug, run_pk, pk, list_slug, query, number),
        frozen=True,
        noindex=True,
        params=("q", "pagina"),
    )


def _list_scope(slug: str, run_pk: int, pk: int, list_slug: str):
    contest = published_contest(slug)
    run = published.published_run(contest, run_pk)
    position = published.run_position(run, pk)
    return contest, run, position, published.public_list(contest, list_slug)


def _list_page(slug: str, run_pk: int, pk: int, list_slug: str, query: str, number: str) -> Page:
    contest, run, position, the_list = _list_scope(slug, run_pk, pk, list_slug)
    page = Paginator(published.list_rows(run, position, the_list.value, query), published.PAGE_SIZE).get_page(
        number
    )
    base = reverse("public:list", args=[slug, run_pk, pk, list_slug])
    rows = [{**row, "score": published.score_text(row["score"])} for row in page.object_list]
    context = {
        "contest": contest,
        "run": run,
        "position": position,
        "list": the_list,
        "other_lists": published.contest_lists(contest),
        "rows": rows,
        "page": page,
        "pages": _pages(base, page, query),
        "query": query,
        "noindex": True,
        "search_target": "busca",
        "csv_url": reverse("public:list_data", args=[slug, run_pk, pk, list_slug, "csv"]),
        "json_url": reverse("public:list_data", args=[slug, run_pk, pk, list_slug, "json"]),
    }
    crumbs = [contest_crumb(contest), _run_crumb(run), (f"{position.code}: {the_list.label}", None)]
    listed = html_page("public/list.html", context, breadcrumbs=crumbs, last_modified=run.published_at)
    stored = _storable(query, number, page, page.paginator.count > 0)
    return listed if stored else dataclasses.replace(listed, store=False)


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
    contest, run, position, the_list = _list_scope(slug, run_pk, pk, list_slug)
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


def _nomination_scope(slug: str, pk: int) -> tuple[Contest, Position]:
    from django.http import Http404

    contest = published_contest(slug)
    position = Position.objects.filter(contest=contest, pk=pk).first()
    if position is None:
        raise Http404("Este cargo não existe neste concurso.")
    position.contest = contest
    return contest, position


@require_http_methods(["GET", "HEAD"])
def nominations_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return serve(
        request, key=f"nominations:{slug}:{pk}", build=lambda: _nominations_page(slug, pk), noindex=True
    )


def _nominations_page(slug: str, pk: int) -> Page:
    contest, position = _nomination_scope(slug, pk)
    context = {
        "contest": contest,
        "position": position,
        "rows": published.nomination_rows(position),
        "noindex": True,
        "csv_url": reverse("public:nominations_data", args=[slug, pk, "csv"]),
        "json_url": reverse("public:nominations_data", args=[slug, pk, "json"]),
    }
    crumbs = [contest_crumb(contest), (f"Nomeações: {position.code}", None)]
    return html_page("public/nominations.html", context, breadcrumbs=crumbs)


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
    contest, position = _nomination_scope(slug, pk)
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
    from candidates.models import Nomination, ResultEntry

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
    }
    return html_page("public/data_dictionary.html", context, breadcrumbs=[("Dados abertos", None)])


# Open data helpers ---------------------------------------------------------------------------------------


def _check_format(fmt: str) -> None:
    from django.http import Http404

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


def _csv_page(name: str, header: tuple[str, ...], table, last_modified=None) -> Page:
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


def _json_page(name: str, document: dict[str, Any], last_modified=None) -> Page:
    body = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
    return Page(
        body,
        content_type="application/json; charset=utf-8",
        last_modified=last_modified or timezone.now(),
        headers={"Content-Disposition": f'inline; filename="{name}.json"'},
    )


RUN = "publico/concursos/<slug:slug>/resultados/<int:run_pk>/"
public_urlpatterns = [
    path("publico/minha-inscricao/", candidate_lookup, name="candidate"),
    path("dados-abertos/", data_dictionary, name="data_dictionary"),
    path("publico/concursos/<slug:slug>/", contest_page, name="contest"),
    path(RUN, run_page, name="run"),
    path(RUN + "cargos/<int:pk>/<str:list_slug>/", list_page, name="list"),
    path(RUN + "cargos/<int:pk>/<str:list_slug>.<str:fmt>", list_data, name="list_data"),
    path("publico/concursos/<slug:slug>/cargos/<int:pk>/nomeacoes/", nominations_page, name="nominations"),
    path(
        "publico/concursos/<slug:slug>/cargos/<int:pk>/nomeacoes.<str:fmt>",
        nominations_data,
        name="nominations_data",
    ),
]
