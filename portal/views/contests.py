"""The portal's home (the published contests by stage, and a search), a contest's page (its documents,
results, vacancy table and schedule), and the fixed pages (accessibility, privacy).

Only published snapshots are read: a contest whose edital is not published is a 404 (never a preview);
its documents are the published versions (``Document``) minus the restricted kinds; its schedule, its
positions and their edital vacancies are as they stood when the current version of the edital was published
(openings during validity count when recorded, each with its act). Each page is rendered once per
publication and served from the cache (``portal/pages.py``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from candidates import published
from contests import lifecycle
from contests import selectors as contest_selectors
from portal.pages import Page, query_key, search_text, serve
from portal.views.frame import contest_stage, html_page, published_contest

# Home ----------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def home(request: HttpRequest) -> HttpResponse:
    query = search_text(request)
    return serve(
        request,
        key="home?" + query_key(request, "q"),
        build=lambda: _home_page(query),
        params=("q",),
        search=query,
    )


def _home_page(query: str) -> Page:
    today = timezone.localdate()
    groups: dict[lifecycle.PublicStage, list[dict[str, Any]]] = {stage: [] for stage in lifecycle.PublicStage}
    for contest in contest_selectors.published_contests(query):
        stage = contest_stage(contest, today)
        if stage is not None:
            groups[stage].append({"contest": contest, "stage": stage})
    sections = [
        {"id": stage.value, "label": lifecycle.PUBLIC_STAGE_LABELS[stage], "items": items}
        for stage, items in groups.items()
    ]
    context = {"sections": sections, "query": query, "found": sum(len(s["items"]) for s in sections)}
    page = html_page("public/home.html", context, breadcrumbs=[])
    return page if not query else dataclasses.replace(page, store=False)  # a search: not stored


# A contest -----------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def contest_page(request: HttpRequest, slug: str) -> HttpResponse:
    return serve(request, key=f"contest:{slug}", build=lambda: _contest_page(slug))


def _contest_page(slug: str) -> Page:
    contest = published_contest(slug)
    stage = contest_stage(contest, timezone.localdate())
    edital = contest_selectors.current_edital(contest)
    context = {
        "contest": contest,
        "stage_label": lifecycle.PUBLIC_STAGE_LABELS[stage] if stage else "",
        "status_label": contest.get_status_display(),
        "documents": contest_selectors.public_documents(contest),
        "schedule": contest_selectors.published_schedule(contest, edital=edital),
        "vacancies": contest_selectors.vacancy_table(contest, edital=edital),
        "with_nominations": published.positions_with_nominations(contest),
        "group_label": contest.policy.group_label,
        "runs": published.published_runs(contest),
    }
    crumbs = [(f"Concurso {contest.number}/{contest.year}", None)]
    return html_page("public/contest.html", context, breadcrumbs=crumbs)


# Fixed pages --------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def accessibility(request: HttpRequest) -> HttpResponse:
    return serve(
        request,
        key="acessibilidade",
        build=lambda: html_page("public/accessibility.html", {}, breadcrumbs=[("Acessibilidade", None)]),
    )


@require_http_methods(["GET", "HEAD"])
def privacy(request: HttpRequest) -> HttpResponse:
    return serve(
        request,
        key="privacidade",
        build=lambda: html_page(
            "public/privacy.html", {}, breadcrumbs=[("Privacidade e proteção de dados", None)]
        ),
    )
