"""Jurídico's heteroidentification screens (RULES §5), per contest: form the commission and the appeal
commission from the members indicated (a drawn one is announced, then drawn: ``views.draw``), keep each
member's signed declaration of no conflict of interest, schedule sessions, call the candidates (and the appellants), publish the draw, the call, the
minutes and the confirmed list as acts. Auditoria reads the same pages. Every write: permission, form,
service, redirect; every view of members' or candidates' data goes to the access log (LGPD)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from contests.audit import log_access
from contests.documents.letters import render_letters
from contests.documents.models import Document
from contests.documents.services import signer_initial as organization_signer
from contests.forms import add_service_errors
from contests.models import Contest
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import contest_trail, here
from contests.views.gazette import export_response
from contests.wording import plural
from declarations.hetero import documents, rules, selectors
from declarations.hetero import jobs as hetero_jobs
from declarations.hetero import services as hs
from declarations.hetero.forms import (
    AppealCallForm,
    CallForm,
    CommissionForm,
    NoConflictForm,
    NoConflictManyForm,
    PublishForm,
    SessionForm,
    SessionRecordForm,
    member_formset,
    more_rows,
)
from declarations.links import link_url
from declarations.models import (
    Commission,
    CommissionMember,
    MemberDraw,
    Session,
    Verification,
)

MANAGE = "declarations.manage_heteroidentification"
VIEW = "declarations.view_session"


def trail(contest: Contest, *tail):
    return contest_trail(
        contest, ("Heteroidentificação", reverse("declarations:hetero_contest", args=[contest.slug])), *tail
    )


@staff_view(VIEW)
def contest_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The contest's heteroidentification: policy settings, commissions (warnings), draws, sessions, appeals,
    published acts."""
    contest = get_object_or_404(Contest.objects.select_related("policy__procedure_law"), slug=slug)
    commissions = selectors.contest_commissions(contest)
    log_access(user=request.user, obj=contest, request=request, detail="heteroidentificação: comissões")
    law = contest.policy.procedure_law
    return render(
        request,
        "declarations/hetero_contest.html",
        {
            "contest": contest,
            "law": law,
            "commissions": commissions,
            "formed": {row.commission.kind for row in commissions},
            "announcements": selectors.contest_announcements(contest),
            "appeals": selectors.pending_appeals(contest),
            "documents": selectors.published_acts(contest),
            "can_manage": request.user.has_perm(MANAGE),
            "no_show": law.get_hetero_no_show_display(),
            "non_confirmation": law.get_non_confirmation_display(),
            "breadcrumbs": contest_trail(contest, here("Heteroidentificação")),
        },
    )


def members_and_form(request: AuthenticatedHttpRequest, form) -> tuple[bool, object]:
    """The member table posted with ``form``: (ready to save, the formset to render). "Mais linhas" re-renders
    the typed rows with more empty ones below, and saves nothing."""
    if request.method != "POST":
        return False, member_formset()
    formset = member_formset(request.POST)
    if "mais_linhas" in request.POST:
        return False, more_rows(formset)
    valid = form.is_valid()
    return formset.is_valid() and valid, formset


@staff_view(MANAGE)
def commission_form(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_object_or_404(Contest.objects.select_related("policy__procedure_law"), slug=slug)
    form = CommissionForm(request.POST or None)
    ready, formset = members_and_form(request, form)
    if ready:
        data = form.cleaned_data
        try:
            formed = hs.commission_form(
                contest=contest,
                kind=data["kind"],
                pool=formset.members(),  # type: ignore[attr-defined]
                formed_on=data["formed_on"],
                act_reference=data["act_reference"],
                by=request.user,
                now=timezone.now(),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{formed.commission.get_kind_display()} constituída. Crie ou vincule o acesso de cada membro "
                "para que registre os próprios pareceres.",
            )
            for warning in formed.warnings:
                messages.warning(request, warning)
            return redirect("declarations:hetero_contest", slug=contest.slug)
    law = contest.policy.procedure_law
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "formset": formset,
            "formset_title": "Membros",
            "title": "Constituir comissão",
            "lead": f"Tamanhos pela política: {law.hetero_commission_size} membros na comissão de "
            f"heteroidentificação e {law.hetero_appeal_commission_size} na recursal, sem membro em comum. "
            "A comissão deve ser diversa em gênero e cor, como o edital exige. Se o concurso sorteia os membros, "
            "anuncie o sorteio em vez de indicá-los aqui.",
            "submit": "Constituir a comissão",
            "multipart": False,
            "breadcrumbs": trail(contest, here("Constituir comissão")),
        },
    )


def _session(pk: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("commission__contest__policy__procedure_law"), pk=pk
    )


def _member(pk: int) -> CommissionMember:
    return get_object_or_404(CommissionMember.objects.select_related("commission__contest"), pk=pk)


@staff_view(MANAGE)
def no_conflict_upload(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    member = _member(pk)
    contest = member.commission.contest
    form = NoConflictForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            hs.member_no_conflict_upload(
                member=member,
                upload=form.cleaned_data["file"],
                signed_on=form.cleaned_data["signed_on"],
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Declaração de {member.name} guardada.")
            return redirect("declarations:hetero_contest", slug=contest.slug)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": f"Declaração de ausência de conflito de interesses: {member.name}",
            "lead": f"{member.commission.get_kind_display()} do {contest}.",
            "submit": "Enviar a declaração",
            "multipart": True,
            "breadcrumbs": trail(contest, here(member.name)),
        },
    )


@staff_view(MANAGE)
def no_conflict_many(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Every member's signed declaration of no conflict of interest in one form (one act per member)."""
    commission = get_object_or_404(Commission.objects.select_related("contest"), pk=pk)
    contest = commission.contest
    form = NoConflictManyForm(
        request.POST or None, request.FILES or None, members=selectors.members_of(commission)
    )
    if request.method == "POST" and form.is_valid():
        try:
            done = hs.no_conflict_upload_many(uploads=form.uploads(), by=request.user)  # type: ignore[arg-type]
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Declarações guardadas: {', '.join(m.name for m in done)}.")
            return redirect("declarations:hetero_contest", slug=contest.slug)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": f"Declarações de ausência de conflito de interesses: {commission.get_kind_display().lower()}",
            "lead": "Um PDF assinado e a data da assinatura por membro; quem ficar em branco não muda. Cada "
            "arquivo é verificado pelo conteúdo (até 10 MB) e guardado em área restrita.",
            "submit": "Enviar as declarações",
            "multipart": True,
            "breadcrumbs": trail(contest, here("Declarações de ausência de conflito")),
        },
    )


@staff_view("declarations.view_commissionmember")
def no_conflict_file(request: AuthenticatedHttpRequest, pk: int) -> FileResponse:
    member = _member(pk)
    if not member.no_conflict_file:
        raise Http404
    log_access(
        user=request.user, obj=member, request=request, action="download", detail="declaração de conflito"
    )
    response = FileResponse(
        member.no_conflict_file.open("rb"),
        as_attachment=True,
        filename=f"declaracao-conflito-{member.pk}.pdf",
        content_type="application/pdf",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


@staff_view(MANAGE)
def session_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_object_or_404(Contest, slug=slug)
    form = SessionForm(request.POST or None, commissions=selectors.commissions_of(contest))
    if request.method == "POST" and form.is_valid():
        try:
            session = hs.session_schedule(
                commission=form.cleaned_data["commission"],
                starts_at=form.starts_at(),
                place=form.cleaned_data["place"],
                video_link=form.cleaned_data["video_link"],
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{session} agendada. Chame os candidatos e publique a convocação.")
            return redirect("declarations:hetero_session", pk=session.pk)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": "Agendar sessão",
            "lead": "Presencial (com o local) ou por videoconferência (com o link).",
            "submit": "Agendar a sessão",
            "multipart": False,
            "breadcrumbs": trail(contest, here("Agendar sessão")),
        },
    )


@staff_view(MANAGE)
def call(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Call candidates to a session: the first commission calls the reserve's optants who reached the phase;
    the appeal commission, the appellants."""
    session = _session(pk)
    contest = session.commission.contest
    appeal = session.commission.kind == rules.Kind.APPEAL
    form: CallForm | AppealCallForm
    if appeal:
        form = AppealCallForm(request.POST or None, appeals=selectors.pending_appeals(contest))
    else:
        form = CallForm(request.POST or None, phases=selectors.contest_phases(contest))
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # every appellant or none
                if appeal:
                    called = [
                        hs.appeal_call(appeal=a, session=session, by=request.user)
                        for a in form.cleaned_data["appeals"]
                    ]
                else:
                    called = hs.candidates_call(
                        session=session, by=request.user, phase=form.cleaned_data["phase"]
                    )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{plural(len(called), 'candidato chamado', 'candidatos chamados')}. Publique a convocação com data, "
                "hora e local.",
            )
            return redirect("declarations:hetero_session", pk=session.pk)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": f"Chamar candidatos: {session}",
            "lead": "Comissão recursal: somente os candidatos que recorreram."
            if appeal
            else "Optantes pela reserva racial, ativos, ainda não chamados.",
            "submit": "Chamar",
            "multipart": False,
            "breadcrumbs": trail(
                contest,
                (str(session), reverse("declarations:hetero_session", args=[session.pk])),
                here("Chamar"),
            ),
        },
    )


@staff_view(MANAGE)
def session_record(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The members present (while the session is open) and the recording's reference and hash."""
    session = _session(pk)
    initial = {
        "present": list(selectors.present_members(session)),
        "recording_reference": session.recording_reference,
        "recording_sha256": session.recording_sha256,
    }
    form = SessionRecordForm(request.POST or None, session=session, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # both or neither
                if "present" in form.fields:
                    hs.presence_record(
                        session=session, present=list(form.cleaned_data["present"]), by=request.user
                    )
                hs.session_recording(
                    session=session,
                    reference=form.cleaned_data["recording_reference"],
                    sha256=form.cleaned_data["recording_sha256"],
                    by=request.user,
                )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Presença e gravação registradas.")
            return redirect("declarations:hetero_session", pk=session.pk)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": f"Presença e gravação: {session}",
            "lead": "A presença não muda depois de encerrada a sessão; a gravação pode ser registrada depois.",
            "submit": "Registrar",
            "multipart": False,
            "breadcrumbs": trail(
                session.commission.contest,
                (str(session), reverse("declarations:hetero_session", args=[session.pk])),
                here("Presença e gravação"),
            ),
        },
    )


def _verification(pk: int) -> Verification:
    return get_object_or_404(
        Verification.objects.select_related(
            "registration__candidate", "registration__contest", "session__commission"
        ),
        pk=pk,
    )


@require_POST
@staff_view(MANAGE)
def notify(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Send the non-confirmed candidate their result and private link by e-mail (again, after a failure);
    without an e-mail on file, say so: the letter is printed instead (``result_letter``)."""
    verification = _verification(pk)
    if (
        verification.outcome != rules.Outcome.NOT_CONFIRMED
        or verification.session.commission.kind != rules.Kind.FIRST
    ):
        messages.error(
            request, "Só se comunica individualmente a não confirmação pela comissão de heteroidentificação."
        )
    elif hs.result_notify(verification=verification):
        messages.success(
            request,
            "O e-mail com o resultado e o link privado foi posto na fila de envio; a situação do envio aparece "
            "aqui, na inscrição.",
        )
    else:
        messages.error(
            request,
            f"A inscrição {verification.registration.number} não tem e-mail cadastrado: nada foi enviado. "
            "Use “Imprimir carta” e entregue a carta ao candidato.",
        )
    return redirect("declarations:hetero_session", pk=verification.session_id)


@require_POST
@staff_view(MANAGE)
def result_letter(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The result on paper (PDF) with a private link issued for it and the candidate's access code: never
    stored, each print logged and noted on the verification."""
    verification = _verification(pk)
    now = timezone.now()
    try:
        link, token = hs.result_letter_printed(verification=verification, by=request.user, now=now)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("declarations:hetero_session", pk=verification.session_id)
    verification.refresh_from_db(fields=["notified_on", "appeal_deadline", "notice"])  # the period it states
    letter = documents.result_letter(
        verification,
        url=link_url("declarations:hetero_portal", token),
        expires_on=timezone.localdate(link.expires_at),
        today=timezone.localdate(now),
    )
    log_access(
        user=request.user,
        obj=verification.registration,
        action="document",
        detail="carta do resultado da heteroidentificação impressa (link privado e código de acesso)",
        request=request,
    )
    response = HttpResponse(
        render_letters(
            [letter], title=f"Resultado da heteroidentificação – {verification.registration.number}"
        ),
        content_type="application/pdf",
    )
    number = verification.registration.number.replace("/", "-")
    response["Content-Disposition"] = f'attachment; filename="carta-heteroidentificacao-{number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


# Publication --------------------------------------------------------------------------------------------


def signer_initial(contest: Contest, kind: str) -> dict:
    """Who signs an act of ``kind``: the authority the organisation records for heteroidentification
    (editable on the form); the edital's signer when the organisation records none."""
    initial = organization_signer(kind)
    if initial["signer_name"]:
        return initial
    text = getattr(contest, "edital_text", None)
    return {"signer_name": text.signer_name, "signer_office": text.signer_office} if text else {}


def _publish_page(
    request, *, contest: Contest, title: str, lead: str, publish, back: str, initial: dict, queue=None
):
    """``queue``: for a long act, what puts its publication in the task queue instead (a ``Job``, whose
    page the person follows)."""
    form = PublishForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        signer = documents.Signer(
            name=form.cleaned_data["signer_name"],
            office=form.cleaned_data["signer_office"],
            summary=form.cleaned_data["summary"],
        )
        try:
            if queue is not None:
                return redirect(queue(signer))
            document = publish(signer)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Publicado: {document.title} (código {document.code}).")
            return redirect(back)
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": title,
            "lead": lead,
            "submit": "Publicar",
            "multipart": False,
            "breadcrumbs": trail(contest, here(title)),
        },
    )


@staff_view(MANAGE)
def draw_publish(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(MemberDraw.objects.select_related("commission__contest"), pk=pk)
    contest = record.commission.contest
    return _publish_page(
        request,
        contest=contest,
        title="Publicar o registro do sorteio",
        lead="Ato público: semente, algoritmo, lista de sorteáveis e classificação, para qualquer pessoa refazer.",
        publish=lambda signer: documents.draw_publish(record=record, by=request.user, signer=signer),
        back=reverse("declarations:hetero_contest", args=[contest.slug]),
        initial=signer_initial(contest, Document.Kind.HETERO_DRAW),
    )


@staff_view(MANAGE)
def call_publish(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    contest = session.commission.contest
    return _publish_page(
        request,
        contest=contest,
        title=f"Publicar a convocação: {session}",
        lead="Ato público: inscrição e nome dos chamados, com data, hora e local ou link.",
        publish=lambda signer: documents.call_publish(session=session, by=request.user, signer=signer),
        back=reverse("declarations:hetero_session", args=[session.pk]),
        initial=signer_initial(contest, Document.Kind.HETERO_CALL),
    )


@staff_view(MANAGE)
def minutes_publish(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = _session(pk)
    contest = session.commission.contest
    first = selectors.present_members(session).first()
    back = reverse("declarations:hetero_session", args=[session.pk])
    return _publish_page(
        request,
        contest=contest,
        title=f"Publicar a ata: {session}",
        lead="Ato de acesso restrito (contém pareceres): CPF mascarado, membros presentes com linha de "
        "assinatura, resultado e pareceres de cada candidato.",
        publish=lambda signer: documents.minutes_publish(session=session, by=request.user, signer=signer),
        queue=(
            lambda signer: hetero_jobs.minutes_enqueue(
                session=session, by=request.user, signer=signer, origin_url=back
            )
        )
        if hetero_jobs.minutes_in_background(session)
        else None,
        back=back,
        initial={
            "signer_name": first.name,
            "signer_office": first.office,
        }
        if first
        else {},
    )


@staff_view(MANAGE)
def result_publish(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_object_or_404(Contest, slug=slug)
    today, back = timezone.localdate(), reverse("declarations:hetero_contest", args=[contest.slug])
    return _publish_page(
        request,
        contest=contest,
        title="Publicar a lista de autodeclarações confirmadas",
        lead="Ato público: inscrição e nome dos candidatos confirmados em definitivo (após o prazo ou o julgamento "
        "do recurso). Pareceres e categorias nunca são publicados.",
        publish=lambda signer: documents.result_publish(
            contest=contest, by=request.user, signer=signer, today=today
        ),
        queue=(
            lambda signer: hetero_jobs.result_enqueue(
                contest=contest, by=request.user, signer=signer, today=today, origin_url=back
            )
        )
        if request.method == "POST" and hetero_jobs.result_in_background(contest, today=today)
        else None,
        back=back,
        initial=signer_initial(contest, Document.Kind.HETERO_RESULT),
    )


@staff_view(VIEW)
def document_pdf(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A published heteroidentification act as published (the minutes are restricted: only here, logged)."""
    document = get_object_or_404(selectors.acts_documents(), pk=pk)
    if document.kind == Document.Kind.HETERO_MINUTES:
        log_access(
            user=request.user,
            obj=document.contest or document,
            request=request,
            detail=f"ata: {document.code}",
        )
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{document.code}.pdf"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


@staff_view(VIEW)
def document_text(request: AuthenticatedHttpRequest, pk: int, fmt: str) -> HttpResponse:
    """The act's text for the official gazette (txt, docx, odt), with the access of its PDF."""
    document = get_object_or_404(selectors.acts_documents(), pk=pk)
    if document.kind == Document.Kind.HETERO_MINUTES:
        log_access(
            user=request.user,
            obj=document.contest or document,
            request=request,
            detail=f"ata (texto): {document.code}",
        )
    return export_response(document, fmt, filename=document.code, public=False)
