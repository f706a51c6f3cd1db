"""What every public page shares: the portal's frame (``templates/public/base.html``), its trail, a page
rendered for the cache (``portal/pages.py``), the published contest an address names, and the links
between the pages of a paginated list."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.paginator import Page as PaginatorPage
from django.http import Http404, HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from candidates.models import ResultRun
from contests import lifecycle
from contests import selectors as contest_selectors
from contests.models import Contest, Organization
from contests.publication import GenerationMemo
from portal.pages import Page, query_text

Crumb = tuple[str, str | None]

# The organisation's data changes only through a publication (``contests.publication``): read once per
# generation in each process, not on every page rendered.
_organization: GenerationMemo[Organization | None] = GenerationMemo(size=1)


def portal_context(breadcrumbs: Sequence[Crumb] | None = None, **extra: Any) -> dict[str, Any]:
    """What every public page's frame needs. No request: the page is the same for everyone, so it can be
    stored and served to anyone."""
    organization = _organization.get("organization", Organization.current)
    return {
        "organization": organization,
        "organization_name": organization.name if organization else "Portal de concursos",
        "breadcrumbs": [("Início", reverse("public:home")), *breadcrumbs] if breadcrumbs else [],
        **extra,
    }


def html_page(
    template: str,
    context: Mapping[str, Any],
    *,
    breadcrumbs: Sequence[Crumb] | None = None,
    last_modified: datetime.datetime | None = None,
) -> Page:
    body = render_to_string(template, portal_context(breadcrumbs, **context))
    return Page(body.encode(), last_modified=last_modified or timezone.now())


def published_contest(slug: str) -> Contest:
    """The contest at ``slug`` if its edital is published; a draft is a 404 like a contest that does not
    exist (no preview, and no hint that it exists)."""
    contest = contest_selectors.published_contest(slug)
    if contest is None:
        raise Http404("Nenhum concurso publicado tem este endereço.")
    return contest


def contest_stage(contest: Contest, today: datetime.date) -> lifecycle.PublicStage | None:
    return lifecycle.public_stage(
        contest.status,
        contest.lifecycle_facts,
        registration_start=contest.registration_start,
        registration_end=contest.registration_end,
        today=today,
    )


def contest_crumb(contest: Contest) -> Crumb:
    return (f"Concurso {contest.number}/{contest.year}", reverse("public:contest", args=[contest.slug]))


def run_crumb(run: ResultRun) -> Crumb:
    return (run.name, reverse("public:run", args=[run.contest.slug, run.pk]))


# Paginated lists ---------------------------------------------------------------------------------------


def page_number(request: HttpRequest) -> str:
    return query_text(request, "pagina")[:10] or "1"


def page_links(base: str, page: PaginatorPage, query: str) -> dict[str, str | None]:
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


def storable(query: str, number: str, page: PaginatorPage | None, found: bool) -> bool:
    """Whether a list or run page is kept in the cache. Stored: the page's own pages, each under its one
    number, and a search that finds somebody (on result day everyone searches their own name: rendering each
    search again saturated the CPUs, bench/public_load.py). Not stored: a search that finds nobody or a page
    number the page does not have (?pagina=01, past the last), which anyone could vary without limit; what
    is stored is bounded by the published names themselves."""
    if page is None:  # the run page without a search has no pages
        return number == "1"
    return str(page.number) == number and (not query or found)
