"""The public site of the contests app (anonymous): the portal's home, a contest's page, the accessibility,
privacy and open-data pages, and the verification of a published document.

Only published snapshots are read: a contest whose edital is not published is a 404 (never a preview);
its documents are the published versions (``Document``) minus the restricted kinds; its schedule, its
positions and their edital vacancies are as they stood when the current version of the edital was published
(openings during validity count when recorded, each with its act). Every page but the verification is
rendered once per publication and served from the cache (``portal/pages.py``).

A restricted document (``RESTRICTED_KINDS``: procedure acts, heteroidentification minutes) is confirmed
authentic by its code, kind, date of issue, version and SHA-256, and its holder may upload the file to
compare; its title, any name and the PDF are never shown to the public (the PDF address is a 404).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.db.models import QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from contests import lifecycle
from contests.documents.checks import parse_schedule
from contests.documents.models import RESTRICTED_KINDS, Document, EditalText
from contests.documents.services import verify_file
from contests.models import Contest, Organization, Position, VacancyOpening
from contests.text_search import fold
from portal.pages import Page, query_key, query_text, serve

MAX_UPLOAD = 50 * 1024 * 1024
TOO_LARGE = "O arquivo passa de 50 MB: não é um documento publicado aqui."

Crumb = tuple[str, str | None]


# The portal's frame ------------------------------------------------------------------------------------


def portal_context(breadcrumbs: Sequence[Crumb] | None = None, **extra: Any) -> dict[str, Any]:
    """What every public page's frame (``templates/public/base.html``) needs. No request: the page is the
    same for everyone, so it can be stored and served to anyone."""
    organization = Organization.current()
    return {
        "organization": organization,
        "organization_name": organization.name if organization else "Portal de concursos",
        # The candidate's own page (inscription number and access code).
        "my_registration_url": reverse("public:candidate"),
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
    contest = Contest.objects.edital_published().select_related("policy").filter(slug=slug).first()
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


# Home ----------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def home(request: HttpRequest) -> HttpResponse:
    query = query_text(request)
    return serve(
        request, key="home?" + query_key(request, "q"), build=lambda: _home_page(query), params=("q",)
    )


def _home_page(query: str) -> Page:
    today = timezone.localdate()
    contests = Contest.objects.edital_published().order_by("-year", "-edital_date", "-pk")
    if query:
        words = fold(query).split()
        contests_list = [
            c for c in contests if all(w in fold(f"{c.number}/{c.year} {c.title}") for w in words)
        ]
    else:
        contests_list = list(contests)
    groups: dict[lifecycle.PublicStage, list[dict[str, Any]]] = {stage: [] for stage in lifecycle.PublicStage}
    for contest in contests_list:
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


# A contest (its page is in portal/views/lists.py, with its results and nominations) --------------------


def public_documents(contest: Contest) -> list[dict[str, Any]]:
    """Each public act of the contest with every version, newest act first (restricted kinds left out)."""
    versions = (
        Document.objects.filter(contest=contest)
        .exclude(kind__in=RESTRICTED_KINDS)
        .defer("pdf")
        .order_by("kind", "subject", "version")
    )
    acts: dict[tuple[str, str], dict[str, Any]] = {}
    for document in versions:
        act = acts.setdefault(
            (document.kind, document.subject), {"kind": document.get_kind_display(), "versions": []}
        )
        act["versions"].append(document)
        act["current"] = document
    ordered = sorted(acts.values(), key=lambda a: a["versions"][0].published_at, reverse=True)
    return ordered


def current_edital(contest: Contest) -> Document | None:
    """The current (latest) published version of the contest's edital, or None."""
    return (
        Document.objects.filter(contest=contest, kind=Document.Kind.EDITAL, rectification__isnull=True)
        .defer("pdf")
        .order_by("-version")
        .first()
    )


def published_schedule(contest: Contest) -> list[Any]:
    """The edital's schedule as the current published version printed it (the clerk's later edits wait for
    a rectification)."""
    edital = current_edital(contest)
    if edital is None:
        return []
    text = (
        EditalText.history.filter(contest_id=contest.pk, history_date__lte=edital.published_at)
        .order_by("-history_date", "-history_id")
        .first()
    )
    if text is None or text.history_type == "-":
        return []
    items, _problems = parse_schedule(text.schedule)
    return items


def _published_positions(contest: Contest, when: datetime.datetime) -> tuple[list[Position], dict[int, int]]:
    """The positions and their edital vacancies as they stood at ``when`` (django-simple-history)."""
    positions = list(
        Position.history.filter(contest_id=contest.pk, history_date__lte=when).latest_of_each().as_instances()
    )
    edital_openings = (
        VacancyOpening.history.filter(position_id__in=[p.pk for p in positions], history_date__lte=when)
        .latest_of_each()
        .as_instances()
    )
    counts: dict[int, int] = {}
    for opening in edital_openings:
        if opening.kind == VacancyOpening.Kind.EDITAL:
            counts[opening.position_id] = counts.get(opening.position_id, 0) + opening.count
    return positions, counts


def _sum_by_position(openings: QuerySet[VacancyOpening]) -> dict[int, int]:
    rows = openings.values("position_id").annotate(total=Sum("count")).values_list("position_id", "total")
    return {pk: total or 0 for pk, total in rows}


def vacancy_table(contest: Contest) -> list[dict[str, Any]]:
    """Each position with its cumulative vacancies and reserved counts, as the public may know them: the
    positions and the edital's vacancies as the current published version of the edital fixed them (a
    clerk's change before the freeze waits for a rectification), plus the openings during validity, each
    public when recorded with its act. Without a published edital document (a publication recorded by
    status only), the live rows."""
    edital = current_edital(contest)
    positions: list[Position]
    if edital is None:
        positions = list(Position.objects.filter(contest=contest))
        totals = _sum_by_position(VacancyOpening.objects.filter(position__contest=contest))
    else:
        positions, totals = _published_positions(contest, edital.published_at)
        later = VacancyOpening.objects.filter(
            position_id__in=[p.pk for p in positions], kind=VacancyOpening.Kind.LATER
        )
        for pk, count in _sum_by_position(later).items():
            totals[pk] = totals.get(pk, 0) + count
    contest._total_vacancies = sum(totals.get(p.pk, 0) for p in positions)  # type: ignore[attr-defined]
    rows = []
    for position in sorted(positions, key=lambda p: p.code):
        position.contest = contest
        # Position.reservation reads these numbers (the same rule as everywhere, contests/quotas.py).
        position._vacancies = totals.get(position.pk, 0)  # type: ignore[attr-defined]
        rows.append({"position": position, "reservation": position.reservation()})
    return rows


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


# Verification of a published document -----------------------------------------------------------------


class CodeForm(forms.Form):
    code = forms.CharField(label="Código de verificação", max_length=12)


class UploadForm(forms.Form):
    file = forms.FileField(label="Arquivo PDF a conferir")

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD:  # a backstop: LimitedUpload skips it while it is read
            raise forms.ValidationError(TOO_LARGE)
        return file


class LimitedUpload(FileUploadHandler):
    """Skips an uploaded file as soon as its received bytes pass ``limit``: the size is checked while the
    upload is read, not after it was stored whole."""

    def __init__(self, request: HttpRequest, limit: int | None = None) -> None:
        super().__init__(request)
        self.limit = MAX_UPLOAD if limit is None else limit
        self.too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > self.limit:
            self.too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler (memory or temporary file) builds the file


def _verify_context(request: HttpRequest, breadcrumbs: Sequence[Crumb], **extra: Any) -> dict[str, Any]:
    return portal_context(breadcrumbs, **extra)


@require_http_methods(["GET"])
def verify_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.GET or None)
    if form.is_valid():
        return redirect("public:verify", code=form.cleaned_data["code"].strip().upper())
    context = _verify_context(request, [("Verificar documento", None)], form=form)
    return render(request, "public/verify_home.html", context)


def is_restricted(document: Document | None) -> bool:
    return document is not None and document.kind in RESTRICTED_KINDS


@csrf_exempt
@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest, code: str) -> HttpResponse:
    # The size limit is checked while the upload is read (Django's pattern for changing the upload
    # handlers: before the CSRF check reads the body, then the CSRF check itself).
    handler = LimitedUpload(request)
    request.upload_handlers = [handler, *request.upload_handlers]
    return _verify(request, code, handler)


@csrf_protect
def _verify(request: HttpRequest, code: str, handler: LimitedUpload) -> HttpResponse:
    document = Document.objects.select_related("contest").defer("pdf").filter(code=code.upper()).first()
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    restricted = is_restricted(document)
    versions = [] if restricted else list(document.versions().defer("pdf"))
    form = UploadForm(request.POST, request.FILES) if request.method == "POST" else UploadForm()
    result = None
    if request.method == "POST":
        if handler.too_large:
            form.is_valid()
            form.errors.pop("file", None)
            form.add_error("file", TOO_LARGE)
        elif form.is_valid():
            try:
                result = verify_file(
                    stream=form.cleaned_data["file"].file, code=document.code, max_bytes=MAX_UPLOAD
                )
            except ValidationError as error:
                form.add_error("file", error.messages[0])
    crumbs: list[Crumb] = [("Verificar documento", reverse("public:verify_home")), (document.code, None)]
    context = _verify_context(
        request,
        crumbs,
        document=document,
        versions=versions,
        form=form,
        result=result,
        restricted=restricted,
        other_restricted=result is not None and is_restricted(result.document),
        contest_public=not restricted and document.contest.edital_published,
    )
    return render(request, "public/verify.html", context)


@require_http_methods(["GET"])
def document_pdf(request: HttpRequest, code: str) -> HttpResponse:
    document = Document.objects.filter(code=code.upper()).exclude(kind__in=RESTRICTED_KINDS).first()
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{document.kind}-{document.code}-v{document.version}.pdf"'
    )
    response["ETag"] = f'"{document.sha256}"'
    response["Cache-Control"] = "public, max-age=86400, immutable"
    return response


public_urlpatterns = [
    path("", home, name="home"),
    path("acessibilidade/", accessibility, name="accessibility"),
    path("privacidade/", privacy, name="privacy"),
    path("verificar/", verify_home, name="verify_home"),
    path("verificar/<str:code>/", verify, name="verify"),
    path("verificar/<str:code>/documento.pdf", document_pdf, name="document_pdf"),
]
