"""The candidate's side, without an account (RULES §5): through a private link they read the notice,
acknowledge it (the deadline starts), see the file and download copies (third parties' protected data
withheld, Lei 9.784 art. 46), name a representative, and file defence, evidence, final statement and
appeal before the deadline. An altered, expired or revoked link gets a clear page, never a traceback."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from contests.audit import log_access
from contests.wording import said
from declarations import links
from declarations.models import ProcedureLink
from declarations.procedure import documents, rules, selectors, services
from declarations.procedure.forms import FilingForm, RepresentativeForm
from declarations.procedure.selectors import case_state
from declarations.procedure.views.staff import serve_act_pdf, serve_attachment


def link_holder(link: ProcedureLink) -> str:
    """Who opens ``link``, for the access log ("Candidato(a)", "Procurador(a)")."""
    return "Procurador(a)" if link.holder == ProcedureLink.Holder.REPRESENTATIVE else "Candidato(a)"


def _link_or_error(request: HttpRequest, token: str) -> ProcedureLink | HttpResponse:
    try:
        return links.link_resolve(token, now=timezone.now())
    except links.LinkError as error:
        return render(request, "declarations/portal_error.html", {"message": str(error)}, status=403)


@never_cache
def portal(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    procedure = link.procedure
    log_access(
        user=None,
        via_link=link_holder(link),
        obj=procedure,
        action="portal",
        detail=f"{link.get_holder_display()}: {link.name}",
        request=request,
    )
    today = timezone.localdate()
    state = case_state(procedure, today=today)
    filings = tuple(a for a in state.allowed if a in rules.CANDIDATE_ACTS)
    running = [r for r in state.running if r.start.candidate_files and not r.done]
    return render(
        request,
        "declarations/portal.html",
        {
            "link": link,
            "token": token,
            "procedure": procedure,
            "registration": procedure.registration,
            "state": state,
            "acts": selectors.visible_acts(state.acts),
            "receipts": selectors.case_receipts(procedure),
            "pending": state.pending_notice,
            "running": running,
            "late_appeal_warning": state.late_appeal_warning,
            "filing_form": FilingForm(kinds=filings) if filings else None,
            "representative_form": RepresentativeForm()
            if link.holder == ProcedureLink.Holder.CANDIDATE
            else None,
        },
    )


@require_POST
def file(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    form = FilingForm(request.POST, request.FILES)
    if set(request.FILES) - {"attachments"}:  # a file field the form does not have: refused, not ignored
        messages.error(request, "O envio trouxe arquivos fora do campo “Arquivos”: nada foi recebido.")
        return redirect("declarations:portal", token=token)
    if not form.is_valid():
        problems = " ".join(str(message) for errors in form.errors.values() for message in errors)
        messages.error(request, f"Confira o formulário: {problems}")
        return redirect("declarations:portal", token=token)
    try:
        act = services.candidate_file(
            link=link,
            kind=form.cleaned_data["kind"],
            text=form.cleaned_data["text"],
            uploads=form.cleaned_data["attachments"],
            now=timezone.now(),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            f"{said(act.get_kind_display(), 'recebido')} em {timezone.localtime():%d/%m/%Y %H:%M}. "
            f"Protocolo nº {act.receipt.protocol}: o recibo está em “Seus protocolos” e foi enviado por e-mail "
            "quando há e-mail cadastrado.",
        )
    return redirect("declarations:portal", token=token)


@require_POST
def representative(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    form = RepresentativeForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "Informe o nome do procurador e anexe a procuração.")
        return redirect("declarations:portal", token=token)
    try:
        rep, rep_token = services.representative_name(link=link, now=timezone.now(), **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("declarations:portal", token=token)
    url = request.build_absolute_uri(reverse("declarations:portal", args=[rep_token]))
    return render(
        request, "declarations/portal_representative.html", {"link": rep, "url": url, "token": token}
    )


@never_cache
def document(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The act's published PDF (an act recorded before the PDFs existed: its HTML), logged."""
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    act = get_object_or_404(selectors.case_acts_of(link.procedure), pk=pk)
    if act.document is None and not act.has_document:
        raise Http404
    log_access(
        user=None,
        via_link=link_holder(link),
        obj=link.procedure,
        action="document",
        detail=f"{link.name}: {act.get_kind_display()}",
        request=request,
    )
    if act.document is not None:
        return serve_act_pdf(act)
    return render(
        request,
        "declarations/document_page.html",
        {"procedure": act.procedure, "act": act, "html": documents.act_document(act), "token": token},
    )


def download(request: HttpRequest, token: str, pk: int) -> FileResponse | HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    attachment = get_object_or_404(selectors.case_attachments(link.procedure, for_candidate=True), pk=pk)
    log_access(
        user=None,
        via_link=link_holder(link),
        obj=link.procedure,
        action="download",
        detail=f"{link.name}: {attachment.name}",
        request=request,
    )
    return serve_attachment(attachment)
