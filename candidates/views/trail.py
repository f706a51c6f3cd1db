"""A contest's audit trail: every change on one timeline, filtered by who, what and when, and as CSV."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render

from candidates import trail
from candidates.forms import TrailFilterForm
from contests.views import PAGE_SIZE, AuthenticatedHttpRequest, get_contest_for_user, staff_view
from contests.views.breadcrumbs import contest_trail, here


@staff_view("contests.view_contest", "contests.view_contest_history")
def contest_audit_trail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    entries = trail.contest_trail(contest, request.user)
    data = {k: v for k, v in request.GET.items() if k in ("who", "what", "start", "end")}
    form = TrailFilterForm(data or None, kinds=trail.trail_kinds(entries))
    if form.is_valid():
        keep = trail.TrailFilter(**form.cleaned_data)
        entries = [e for e in entries if keep.keeps(e)]
    if request.GET.get("formato") == "csv":
        response = HttpResponse(trail.trail_csv(entries), content_type="text/csv; charset=utf-8")
        filename = f"trilha-concurso-{contest.number}-{contest.year}.csv".replace("/", "-")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("pagina"))
    query = request.GET.copy()
    query.pop("pagina", None)
    query["formato"] = "csv"
    return render(
        request,
        "candidates/contest_audit_trail.html",
        {
            "contest": contest,
            "form": form,
            "page": page,
            "csv_query": query.urlencode(),
            "breadcrumbs": contest_trail(contest, here("Trilha de auditoria")),
        },
    )
