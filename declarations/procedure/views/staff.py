"""Screens for Jurídico: procedures by next deadline, the case page (timeline of acts and deadlines), forms
for each act with a preview of its document. Auditoria reads; Secretaria gets 403 (it sees only the status
on the registration page). Every view of a case and every download is logged (LGPD)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from candidates.models import Registration
from contests.audit import User, log_access
from contests.documents.letters import render_letters
from contests.forms import add_service_errors
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import Crumb, here
from contests.views.gazette import export_response
from contests.wording import said
from declarations import links
from declarations.models import Attachment, Procedure, ProcedureAct, ProcedureLink
from declarations.procedure import documents, notices, rules, selectors, services
from declarations.procedure import rules_labels as labels
from declarations.procedure.forms import (
    ActForm,
    LinkForm,
    NoticeForm,
    OpenChooseForm,
    OpenForm,
    ReceiptForm,
    ReferralForm,
)
from declarations.procedure.selectors import case_state, desk_rows

VIEW = "declarations.view_procedure"
CONDUCT = "declarations.conduct_procedure"


def get_procedure_for_user(user: User, year: int, number: int, *, conduct: bool = False) -> Procedure:
    """The case ``number/year``: 403 without the permission to read cases (Secretaria sees the status only
    on the registration page), 403 when the user may read but not conduct it."""
    if not user.has_perm(VIEW):
        raise PermissionDenied
    procedure = get_object_or_404(
        Procedure.objects.select_related(
            "registration__candidate", "registration__contest", "registration__position", "opened_by"
        ),
        year=year,
        number=number,
    )
    if conduct and not user.has_perm(CONDUCT):
        raise PermissionDenied
    return procedure


def trail(procedure: Procedure | None = None, *tail: Crumb) -> list[Crumb]:
    crumbs: list[Crumb] = [("Processos administrativos", reverse("declarations:list"))]
    if procedure is not None:
        crumbs.append((str(procedure), procedure.get_absolute_url()))
    return [*crumbs, *tail]


@staff_view(VIEW)
def procedure_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    today = timezone.localdate()
    return render(
        request,
        "declarations/procedure_list.html",
        {
            "rows": desk_rows(today=today),
            "closed": selectors.closed_procedures(),
            "today": today,
            "breadcrumbs": [here("Processos administrativos")],
            "can_conduct": request.user.has_perm(CONDUCT),
        },
    )


@staff_view(VIEW, CONDUCT)
def procedure_open_choose(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Which registration the new procedure is about: then the opening form of that registration. A search
    (GET): choosing changes nothing, the opening form is where the procedure is made."""
    form = OpenChooseForm(request.GET or None)
    if form.is_bound and form.is_valid():
        return redirect("declarations:open", form.cleaned_data["registration"].pk)
    return render(
        request,
        "declarations/procedure_open_choose.html",
        {"form": form, "breadcrumbs": trail(None, here("Instaurar processo"))},
    )


@staff_view(VIEW, CONDUCT)
def procedure_open(request: AuthenticatedHttpRequest, registration_pk: int) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("candidate", "contest__policy", "position"), pk=registration_pk
    )
    form = OpenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token = form.cleaned_data["form_token"]
        repeated = bool(token) and Procedure.objects.filter(form_token=token).exists()
        try:
            procedure = services.procedure_open(
                registration=registration, by=request.user, today=timezone.localdate(), **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if repeated:
                messages.info(
                    request, f"Este formulário já instaurou o {procedure}: nada foi instaurado de novo."
                )
            else:
                messages.success(request, f"{procedure} instaurado.")
            return redirect(procedure)
    return render(
        request,
        "declarations/procedure_open.html",
        {"form": form, "registration": registration, "breadcrumbs": trail(None, here("Instaurar processo"))},
    )


@staff_view(VIEW)
def procedure_detail(request: AuthenticatedHttpRequest, year: int, number: int) -> HttpResponse:
    procedure = get_procedure_for_user(request.user, year, number)
    log_access(user=request.user, obj=procedure, request=request)
    state = case_state(procedure, today=timezone.localdate())
    return render(
        request,
        "declarations/procedure_detail.html",
        {
            "procedure": procedure,
            "state": state,
            "registration": procedure.registration,
            "can_conduct": request.user.has_perm(CONDUCT),
            "act_labels": labels.ACT_LABELS,
            "allowed": [(a.value, labels.ACT_LABELS[a]) for a in state.allowed if a not in rules.NOTICES],
            "due_notices": [(a.value, labels.ACT_LABELS[a]) for a in state.allowed if a in rules.NOTICES],
            "links": selectors.case_links(procedure),
            "receipts": selectors.case_receipts(procedure),
            "breadcrumbs": trail(None, here(procedure)),
            "referral_form": ReferralForm(initial={"text": procedure.prosecutor_referral}),
            "receipt_form": ReceiptForm(),
            "link_form": LinkForm(),
            "effects_document": documents.effects_document(procedure),
            # Only where the policy records a legal basis (RULES §5); otherwise not offered at all.
            "tacit_offered": notices.tacit_acknowledgement_offered(procedure.policy),
        },
    )


@staff_view(VIEW, CONDUCT)
def act_create(request: AuthenticatedHttpRequest, year: int, number: int, kind: str) -> HttpResponse:
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    try:
        act_kind = rules.Act(kind)
    except ValueError:
        raise Http404 from None
    if act_kind in rules.NOTICES:
        return redirect("declarations:notify", year=year, number=number)
    today = timezone.localdate()
    state = case_state(procedure, today=today)
    current = rules.current_outcome(state.records)
    form = ActForm(request.POST or None, request.FILES or None, kind=act_kind, current=current)
    preview = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if "preview" in request.POST:
            draft = ProcedureAct(
                procedure=procedure,
                kind=act_kind,
                on=today,
                text=data["text"],
                outcome=data.get("outcome", ""),
                ground=data.get("ground", ""),
                by=request.user,
            )
            preview = (
                documents.act_document(draft)
                or "Este ato não tem documento próprio: o texto entra nos autos."
            )
        else:
            try:
                services.act_record(
                    procedure=procedure,
                    kind=act_kind,
                    by=request.user,
                    today=today,
                    text=data["text"],
                    outcome=data.get("outcome", ""),
                    hearing_on=data.get("hearing_on"),
                    hearing_time=data.get("hearing_time"),
                    hearing_place=data.get("hearing_place", ""),
                    uploads=data["attachments"],
                    protected=data["protected"],
                    filed_by=data.get("filed_by", ""),
                    standing=data.get("standing", ""),
                    ground=data.get("ground", ""),
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request, f"{said(labels.ACT_LABELS[act_kind], 'registrado')} no {procedure}."
                )
                return redirect(procedure)
    refusal = case_state(procedure, today=today).form_refusal(act_kind)
    # The form shows the case (and its draft document): a view of the case, logged like its page.
    log_access(
        user=request.user, obj=procedure, request=request, detail=f"ato: {labels.ACT_LABELS[act_kind]}"
    )
    return render(
        request,
        "declarations/act_form.html",
        {
            "procedure": procedure,
            "form": form,
            "kind": act_kind,
            "label": labels.ACT_LABELS[act_kind],
            "citation": labels.ACT_CITATIONS[act_kind],
            "refusal": refusal,
            "preview": preview,
            "breadcrumbs": trail(procedure, here(labels.ACT_LABELS[act_kind])),
        },
    )


def notice_kind_due(state: selectors.CaseState, kind: str | None) -> rules.Act:
    """The notice a form issues: ``kind`` (404 when it names no notice), else the first one due now."""
    if kind is not None:
        try:
            found = rules.Act(kind)
        except ValueError:
            raise Http404 from None
        if found not in rules.NOTICES:
            raise Http404
        return found
    due = [a for a in state.allowed if a in rules.NOTICES]
    return due[0] if due else rules.Act.NOTICE


@staff_view(VIEW, CONDUCT)
def notify(
    request: AuthenticatedHttpRequest, year: int, number: int, kind: str | None = None
) -> HttpResponse:
    """The form that issues a notice of ``kind`` (any of ``rules.NOTICES``; by default the one due now): the
    means, the draft's preview and, where the case does not allow it now, the reason."""
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    today = timezone.localdate()
    notice_kind = notice_kind_due(case_state(procedure, today=today), kind)
    form = NoticeForm(request.POST or None, initial={"recipient": procedure.registration.candidate.email})
    preview = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if "preview" in request.POST:
            draft = ProcedureAct(
                procedure=procedure,
                kind=notice_kind,
                text=data["text"],
                means=data["means"],
                issued_on=today,
                by=request.user,
            )
            preview = documents.act_document(draft)
        else:
            try:
                act = services.notice_send(
                    procedure=procedure, by=request.user, today=today, kind=notice_kind, **data
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"{said(act.get_kind_display(), 'registrado')}."
                    f"{NEXT_STEP.get(notices.Means(act.means), '')}",
                )
                return redirect(procedure)
    # The form shows the candidate's address and the draft notice: a view of the case, logged.
    log_access(user=request.user, obj=procedure, request=request, detail="intimação")
    return render(
        request,
        "declarations/notice_form.html",
        {
            "procedure": procedure,
            "form": form,
            "preview": preview,
            "kind": notice_kind,
            "label": labels.ACT_LABELS[notice_kind],
            "citation": labels.ACT_CITATIONS[notice_kind],
            "refusal": case_state(procedure, today=today).refusal(notice_kind),
            "tacit": notices.tacit_acknowledgement_offered(procedure.policy),
            "breadcrumbs": trail(procedure, here(labels.ACT_LABELS[notice_kind])),
        },
    )


NEXT_STEP = {
    notices.Means.EMAIL: " O e-mail foi posto na fila de envio: a situação do envio aparece na linha do tempo.",
    notices.Means.LETTER: (
        " Imprima a carta da intimação (na linha do tempo) e envie-a com aviso de recebimento: o prazo corre "
        "da data do recebimento, que se registra quando o aviso voltar."
    ),
    notices.Means.IN_PERSON: " Imprima a carta da intimação (na linha do tempo) e entregue-a ao candidato.",
}


@require_POST
@staff_view(VIEW, CONDUCT)
def notice_letter(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> HttpResponse:
    """The notice on paper (PDF): its text, a private link issued for the letter and the candidate's access
    code. Never stored; each print is logged and noted on the act."""
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    act = get_object_or_404(selectors.case_acts_of(procedure), pk=pk)
    now = timezone.now()
    try:
        link, token = services.notice_letter_printed(act=act, by=request.user, now=now)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(procedure)
    letter = documents.notice_letter(
        act,
        url=links.link_url("declarations:portal", token),
        expires_on=timezone.localdate(link.expires_at),
        today=timezone.localdate(now),
    )
    log_access(
        user=request.user,
        obj=procedure,
        action="document",
        detail="carta da intimação impressa (com link privado e código de acesso)",
        request=request,
    )
    response = HttpResponse(
        render_letters([letter], title=f"{act.get_kind_display()} – {procedure}"),
        content_type="application/pdf",
    )
    response["Content-Disposition"] = (
        f'attachment; filename="carta-intimacao-{procedure.number}-{procedure.year}.pdf"'
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@staff_view(VIEW, CONDUCT)
def receipt(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> HttpResponse:
    """The day a pending notice took effect: the letter's receipt, a personal acknowledgement, or tacit
    acknowledgement where the policy allows it."""
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    act = get_object_or_404(selectors.case_acts_of(procedure), pk=pk)
    try:
        if "tacit" in request.POST:
            services.notice_acknowledge_tacitly(act=act, by=request.user, today=timezone.localdate())
        else:
            form = ReceiptForm(request.POST)
            if not form.is_valid():
                raise ValidationError("Informe a data da ciência ou do recebimento (dd/mm/aaaa).")
            if form.cleaned_data["on"] > timezone.localdate():
                raise ValidationError("A data da ciência não pode ser futura.")
            services.notice_acknowledge(
                act=act, on=form.cleaned_data["on"], by=request.user, how="registrada pelo setor jurídico"
            )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "Ciência registrada: o prazo corre a partir dela.")
    return redirect(procedure)


@require_POST
@staff_view(VIEW, CONDUCT)
def referral(request: AuthenticatedHttpRequest, year: int, number: int) -> HttpResponse:
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    try:
        services.prosecutor_referral_record(
            procedure=procedure, text=request.POST.get("text", ""), by=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "Encaminhamento ao Ministério Público registrado.")
    return redirect(procedure)


@require_POST
@staff_view(VIEW, CONDUCT)
def link_create(request: AuthenticatedHttpRequest, year: int, number: int) -> HttpResponse:
    """A private link for the candidate, shown once on the page that answers (never stored in clear)."""
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    form = LinkForm(request.POST)
    email = form.cleaned_data["email"] if form.is_valid() else ""
    candidate = procedure.registration.candidate
    link, token = links.link_issue(
        procedure=procedure,
        holder=ProcedureLink.Holder.CANDIDATE,
        name=candidate.display_name,
        email=email,
        by=request.user,
        now=timezone.now(),
    )
    url = request.build_absolute_uri(reverse("declarations:portal", args=[token]))
    return render(
        request,
        "declarations/link_created.html",
        {
            "procedure": procedure,
            "link": link,
            "url": url,
            "breadcrumbs": trail(procedure, here("Link privado")),
        },
    )


@require_POST
@staff_view(VIEW, CONDUCT)
def link_revoke(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> HttpResponse:
    procedure = get_procedure_for_user(request.user, year, number, conduct=True)
    link = get_object_or_404(selectors.case_links(procedure), pk=pk)
    links.link_revoke(link=link, by=request.user, now=timezone.now())
    messages.success(request, f"Link de {link.name} revogado.")
    return redirect(procedure)


@staff_view(VIEW)
def act_document(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> HttpResponse:
    """The act's published PDF (an act recorded before the PDFs existed: its HTML), logged."""
    procedure = get_procedure_for_user(request.user, year, number)
    act = get_object_or_404(selectors.case_acts_of(procedure), pk=pk)
    if act.document is None and not act.has_document:
        raise Http404
    log_access(
        user=request.user, obj=procedure, action="document", detail=act.get_kind_display(), request=request
    )
    if act.document is not None:
        return serve_act_pdf(act)
    return render(
        request,
        "declarations/document_page.html",
        {"procedure": procedure, "act": act, "html": documents.act_document(act)},
    )


@staff_view(VIEW)
def act_document_text(
    request: AuthenticatedHttpRequest, year: int, number: int, pk: int, fmt: str
) -> HttpResponse:
    """The act's text for the official gazette (txt, docx, odt) from its published PDF, logged like it."""
    procedure = get_procedure_for_user(request.user, year, number)
    act = get_object_or_404(selectors.case_acts_of(procedure), pk=pk)
    if act.document is None:
        raise Http404
    log_access(
        user=request.user,
        obj=procedure,
        action="document",
        detail=f"{act.get_kind_display()} (texto)",
        request=request,
    )
    filename = f"PA-{procedure.number}-{procedure.year}-{act.kind}-{act.document.code}"
    return export_response(act.document, fmt, filename=filename, public=False)


def serve_act_pdf(act: ProcedureAct) -> HttpResponse:
    """An act's PDF to someone entitled to the file (staff with the permission, the holder of a link)."""
    assert act.document is not None
    document = act.document
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    filename = f"PA-{act.procedure.number}-{act.procedure.year}-{act.kind}-{document.code}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


@staff_view(VIEW)
def attachment_download(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> FileResponse:
    procedure = get_procedure_for_user(request.user, year, number)
    attachment = get_object_or_404(selectors.case_attachments(procedure), pk=pk)
    log_access(user=request.user, obj=procedure, action="download", detail=attachment.name, request=request)
    return serve_attachment(attachment)


def serve_attachment(attachment: Attachment) -> FileResponse:
    response = FileResponse(
        attachment.file.open("rb"),
        as_attachment=True,
        filename=attachment.download_name,
        content_type=attachment.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
