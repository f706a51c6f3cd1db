"""A position's nomination order: each recorded nomination act, in order, with its seat, list, status and
act (RULES §7: name and inscription number, never anything else of the person). Rendered once per
publication and served from the cache; a list of names says ``noindex``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from candidates import published
from contests.models import Contest, Position
from portal.pages import Page, serve
from portal.views.frame import contest_crumb, html_page, published_contest


def nomination_scope(slug: str, pk: int) -> tuple[Contest, Position]:
    """The published contest and its position an address names (404s else)."""
    contest = published_contest(slug)
    position = get_object_or_404(Position, contest=contest, pk=pk)
    position.contest = contest
    return contest, position


@require_http_methods(["GET", "HEAD"])
def nominations_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return serve(
        request, key=f"nominations:{slug}:{pk}", build=lambda: _nominations_page(slug, pk), noindex=True
    )


def _nominations_page(slug: str, pk: int) -> Page:
    contest, position = nomination_scope(slug, pk)
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
