"""Staff screens of the edital: Secretaria writes its sections beside the preview; Gestão checks and
publishes it, or a rectification; anyone who may see the contest downloads the draft PDF ("minuta")."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from contests.documents import edital, gazette
from contests.documents.models import Document
from contests.documents.services import (
    current_version,
    edital_publish,
    edital_rectify,
    edital_text_save,
)
from contests.forms import EditalPublishForm, EditalRectifyForm, EditalTextForm
from contests.views.access import AuthenticatedHttpRequest, form_data, get_contest_for_user, staff_view
from contests.views.published import published_message


def _signer(contest) -> dict[str, str]:
    """The edital's signer (its text's, else the organisation's for editais), editable on the form."""
    text = edital.edital_text_for(contest)
    return {"signer_name": text.signer_name, "signer_office": text.signer_office}


@staff_view("contests.view_contest", "contests.view_editaltext")
def edital_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    text = edital.edital_text_for(contest)
    can_change = request.user.has_perm("contests.change_editaltext")
    form = EditalTextForm(form_data(request), instance=text)
    if request.method == "POST":
        if not can_change:
            raise PermissionDenied
        if form.is_valid():
            edital_text_save(contest=contest, by=request.user, data=form.cleaned_data)
            messages.success(request, "Texto do edital salvo.")
            return redirect("contests:edital_edit", slug=contest.slug)
    context = {
        "contest": contest,
        "form": form,
        "can_change": can_change,
        "can_publish": request.user.has_perm("contests.publish_document"),
        "report": edital.check(contest),
        "preview": edital.edital_context(contest),
        "published": current_version(contest, Document.Kind.EDITAL),
    }
    return render(request, "contests/edital_edit.html", context)


@staff_view("contests.view_contest", "contests.view_editaltext")
def edital_draft_pdf(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    response = HttpResponse(edital.render_edital(contest), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="edital-{contest.slug}-minuta.pdf"'
    return response


@staff_view("contests.view_contest", "contests.view_editaltext")
def edital_draft_text(request: AuthenticatedHttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The draft's text (txt, docx, odt), read from the draft PDF as a published act's is from its PDF."""
    contest = get_contest_for_user(request.user, slug)
    if fmt not in gazette.FORMATS:
        raise Http404("Formatos do texto: txt, docx, odt.")
    data = gazette.export(edital.render_edital(contest), fmt, title=edital.edital_title(contest))
    response = HttpResponse(data, content_type=gazette.FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="edital-{contest.slug}-minuta.{fmt}"'
    return response


@staff_view("contests.view_contest", "contests.publish_document")
def edital_publish_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = EditalPublishForm(form_data(request), initial=_signer(contest))
    if request.method == "POST" and form.is_valid():
        try:
            document = edital_publish(contest=contest, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            published_message(request, "Edital publicado.", document)
            return redirect(contest)
    context = {"contest": contest, "form": form, "report": edital.check(contest), "rectify": False}
    return render(request, "contests/edital_publish.html", context)


@staff_view("contests.view_contest", "contests.publish_document")
def edital_rectify_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = EditalRectifyForm(form_data(request), initial=_signer(contest))
    if request.method == "POST" and form.is_valid():
        try:
            document = edital_rectify(contest=contest, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            published_message(
                request, f"Retificação do edital publicada (versão {document.version}).", document
            )
            return redirect(contest)
    context = {"contest": contest, "form": form, "report": edital.check(contest), "rectify": True}
    return render(request, "contests/edital_publish.html", context)
