"""A published run's page (its positions and lists, and a search by name or inscription number across them)
and each of its lists (paginated, searchable without accents).

Only published snapshots: a contest without a published edital, a draft run, a position the run does not
cover are 404s. Each page is rendered once per publication and served from the cache with validators
(``portal/pages.py``); lists of names say ``noindex``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods

from candidates import published
from candidates.models import ResultRun
from contests.documents.models import Document
from contests.models import Contest, Position
from contests.publication import GenerationMemo
from portal.pages import Page, query_key, search_text, serve
from portal.views.frame import (
    contest_crumb,
    html_page,
    page_links,
    page_number,
    published_contest,
    run_crumb,
    storable,
)

# A published run: its positions and lists, and a search across them ----------------------------------------


@require_http_methods(["GET", "HEAD"])
def run_page(request: HttpRequest, slug: str, run_pk: int) -> HttpResponse:
    query, number = search_text(request), page_number(request)
    key = f"run:{slug}:{run_pk}?" + query_key(request, "q", "pagina")
    return serve(
        request,
        key=key,
        build=lambda: _run_page(slug, run_pk, query, number),
        frozen=True,
        noindex=True,
        params=("q", "pagina"),
        search=query,
    )


# What a published page shows around its lines, the same for every search and page of it: kept per
# generation in each process (``GenerationMemo``), so a search costs its own lines only.
_scopes: GenerationMemo[Any] = GenerationMemo(size=1024)
# Where a list page's lines go in the page kept around them: a character no page holds otherwise.
FOUND = mark_safe("\x00lines\x00")


@dataclasses.dataclass(frozen=True)
class RunScope:
    contest: Contest
    run: ResultRun
    lists: list[published.PublicList]
    positions: list[Position]
    blocks: list[dict[str, Any]]
    document: Document | None


def run_scope(slug: str, run_pk: int) -> RunScope:
    """A published run, its lists and positions with how many are on each list, and its PDF (404s else)."""

    def build() -> RunScope:
        contest = published_contest(slug)
        run = published.published_run(contest, run_pk)
        lists = published.contest_lists(contest)
        counts = published.list_counts(run)
        positions = published.run_positions(run)
        blocks = [
            {
                "position": position,
                "lists": [
                    {"list": item, "count": counts.get((position.pk, item.value), 0)} for item in lists
                ],
            }
            for position in positions
        ]
        return RunScope(contest, run, lists, positions, blocks, published.run_document(run))

    return _scopes.get(("run", slug, run_pk), build)


def _run_page(slug: str, run_pk: int, query: str, number: str) -> Page:
    scope = run_scope(slug, run_pk)
    contest, run, lists, positions = scope.contest, scope.run, scope.lists, scope.positions
    context: dict[str, Any] = {
        "contest": contest,
        "run": run,
        "blocks": scope.blocks,
        "document": scope.document,
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
                **published.row_text(row),
                "position": by_pk.get(row["position_id"]),
                "list": label.get(row["list"]),
            }
            for row in page.object_list
        ]
        context["page"] = page
        context["pages"] = page_links(base, page, query)
    crumbs = [contest_crumb(contest), (run.name, None)]
    rendered = html_page("public/run.html", context, breadcrumbs=crumbs, last_modified=run.published_at)
    found = context["page"].paginator.count > 0 if query else False
    return (
        rendered
        if storable(query, number, context.get("page"), found)
        else dataclasses.replace(rendered, store=False)
    )


# One list ------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def list_page(request: HttpRequest, slug: str, run_pk: int, pk: int, list_slug: str) -> HttpResponse:
    query, number = search_text(request), page_number(request)
    key = f"list:{slug}:{run_pk}:{pk}:{list_slug}?" + query_key(request, "q", "pagina")
    return serve(
        request,
        key=key,
        build=lambda: _list_page(slug, run_pk, pk, list_slug, query, number),
        frozen=True,
        noindex=True,
        params=("q", "pagina"),
        search=query,
    )


def list_scope(
    slug: str, run_pk: int, pk: int, list_slug: str
) -> tuple[Contest, ResultRun, Position, published.PublicList]:
    """The contest, the published run, the position it covers and the list an address names (404s else)."""

    def build() -> tuple[Contest, ResultRun, Position, published.PublicList]:
        contest = published_contest(slug)
        run = published.published_run(contest, run_pk)
        position = published.run_position(run, pk)
        return contest, run, position, published.public_list(contest, list_slug)

    return _scopes.get(("list", slug, run_pk, pk, list_slug), build)


def _list_context(slug: str, run_pk: int, pk: int, list_slug: str) -> dict[str, Any]:
    """What a list page's context holds whatever the search or page: its scope, its addresses and its
    breadcrumbs, kept per generation (three ``reverse`` and the crumbs were a tenth of a search's own cost)."""

    def build() -> dict[str, Any]:
        contest, run, position, the_list = list_scope(slug, run_pk, pk, list_slug)
        return {
            "contest": contest,
            "run": run,
            "position": position,
            "list": the_list,
            "other_lists": published.contest_lists(contest),
            "here": reverse("public:list", args=[slug, run_pk, pk, list_slug]),
            "csv_url": reverse("public:list_data", args=[slug, run_pk, pk, list_slug, "csv"]),
            "json_url": reverse("public:list_data", args=[slug, run_pk, pk, list_slug, "json"]),
            "crumbs": (  # a tuple: the dict is shared by every request of the generation
                contest_crumb(contest),
                run_crumb(run),
                (f"{position.code}: {the_list.label}", None),
            ),
        }

    return _scopes.get(("list-context", slug, run_pk, pk, list_slug), build)


def _list_page(slug: str, run_pk: int, pk: int, list_slug: str, query: str, number: str) -> Page:
    fixed = _list_context(slug, run_pk, pk, list_slug)
    run, position, the_list = fixed["run"], fixed["position"], fixed["list"]
    lines = (
        published.list_search(run, position, the_list.value, query)
        if query
        else published.list_rows(run, position, the_list.value)
    )
    page = Paginator(lines, published.PAGE_SIZE).get_page(number)
    rows = [published.row_text(row) for row in page.object_list]
    context = {
        **fixed,
        "rows": rows,
        "page": page,
        "pages": page_links(fixed["here"], page, query),
        "query": query,
        "noindex": True,
        "search_target": "busca",
    }
    crumbs = context.pop("crumbs")

    def frame() -> Page:
        return html_page(
            "public/list.html",
            {**context, "found": FOUND},
            breadcrumbs=crumbs,
            last_modified=run.published_at,
        )

    # The page around its lines is the same for every search and page of the list: rendered once per
    # generation, and the lines (``_list_found.html``) put in their place.
    kept = _scopes.get(("list-frame", slug, run_pk, pk, list_slug), frame)
    found = render_to_string("public/_list_found.html", context).encode()
    listed = dataclasses.replace(kept, body=kept.body.replace(FOUND.encode(), found, 1))
    stored = storable(query, number, page, page.paginator.count > 0)
    return listed if stored else dataclasses.replace(listed, store=False)
