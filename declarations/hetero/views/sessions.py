"""Heteroidentification screens (RULES §5): Comissão sees only the sessions of its own commission and
records its own opinion there (403 elsewhere); Jurídico and Auditoria see every session and its results,
Jurídico applies a final result (a procedure opens, or the candidate leaves the reserve, through the
services); Secretaria and Gestão see each registration's status only. The draw's record is public: anyone
can recompute it. Every view of a session or of the statuses is logged (LGPD)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from contests.audit import User, log_access
from contests.forms import add_service_errors
from contests.models import Contest
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from contests.wording import plural
from declarations.calendars import organization_calendar
from declarations.hetero import rules, selectors
from declarations.hetero import services as hs
from declarations.hetero.forms import OpinionForm
from declarations.models import Session, Verification

RECORD = "declarations.record_opinion"
VIEW = "declarations.view_session"
MANAGE = "declarations.manage_heteroidentification"
STATUS = "declarations.view_heteroidentification_status"


def session_for_user(user: User, pk: int) -> tuple[Session, bool]:
    """The session ``pk`` and whether ``user`` sits on its commission: Jurídico and Auditoria read every
    session; a Comissão member only those of their own commission (403 on the others)."""
    session = get_object_or_404(
        Session.objects.select_related("commission__contest__policy__procedure_law"), pk=pk
    )
    seat = selectors.member_for(session=session, user=user) if user.has_perm(RECORD) else None
    if seat is None and not user.has_perm(VIEW):
        raise PermissionDenied
    return session, seat is not None


@login_required
def session_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    every = user.has_perm(VIEW)
    if not every and not user.has_perm(RECORD):
        raise PermissionDenied
    return render(
        request,
        "declarations/hetero_session_list.html",
        {
            "sessions": selectors.sessions_for(user, every=every),
            "contests": selectors.contests_with_heteroidentification() if every else (),
            "breadcrumbs": [here("Heteroidentificação")],
        },
    )


@login_required
def session_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session, sits = session_for_user(request.user, pk)
    log_access(user=request.user, obj=session, request=request)
    return _render_session(request, session, sits)


def _render_session(request, session: Session, sits: bool, bad: dict[int, OpinionForm] | None = None):
    seat = selectors.member_for(session=session, user=request.user) if sits else None
    # Results and every opinion: to Jurídico and Auditoria, and to the members once closed.
    rows = selectors.session_rows(
        session, seat=seat, every_opinion=request.user.has_perm(VIEW) or session.is_closed
    )
    forms = [
        (bad or {}).get(row.verification.pk)
        or OpinionForm(
            initial={"confirms": "1" if row.own.confirms else "0", "reasons": row.own.reasons}
            if row.own
            else None,
            prefix=f"v{row.verification.pk}",
        )
        for row in rows
    ]
    return render(
        request,
        "declarations/hetero_session.html",
        {
            "session": session,
            "present": selectors.present_members(session),
            "rows": list(zip(rows, forms, strict=True)),
            "seat": seat,
            # The appeal's reasons and files: to Jurídico and Auditoria, and to the appeal commission that judges it.
            "appeal_visible": request.user.has_perm(VIEW)
            or (seat is not None and session.commission.kind == rules.Kind.APPEAL),
            "can_manage": request.user.has_perm(MANAGE),
            "to_apply": selectors.results_to_apply(session, today=timezone.localdate())
            if request.user.has_perm(MANAGE) and session.is_closed
            else [],
            "no_show": session.commission.contest.policy.procedure_law.get_hetero_no_show_display(),
            "non_confirmation": session.commission.contest.policy.procedure_law.get_non_confirmation_display(),
            "breadcrumbs": [
                ("Heteroidentificação", reverse("declarations:hetero_sessions")),
                here(str(session)),
            ],
        },
    )


@require_POST
@login_required
def opinion_record(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    verification = get_object_or_404(Verification.objects.select_related("session__commission"), pk=pk)
    session = verification.session
    if not request.user.has_perm(RECORD) or selectors.member_for(session=session, user=request.user) is None:
        raise PermissionDenied
    form = OpinionForm(request.POST, prefix=f"v{verification.pk}")
    if form.is_valid():
        try:
            hs.opinion_record(verification=verification, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request, f"Parecer sobre a inscrição {verification.registration.number} registrado."
            )
            return redirect("declarations:hetero_session", pk=session.pk)
    log_access(user=request.user, obj=session, request=request, action="change")
    return _render_session(request, session, True, bad={verification.pk: form})


@require_POST
@staff_view(MANAGE)
def result_apply(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    verification = get_object_or_404(Verification.objects.select_related("session"), pk=pk)
    try:
        applied = hs.result_apply(verification=verification, by=request.user, today=timezone.localdate())
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, f"Resultado aplicado: {rules.CONSEQUENCE_LABELS[applied.consequence]}.")
        for message in applied.messages:
            messages.info(request, message)
        if applied.procedure is not None:
            return redirect(applied.procedure)
    return redirect("declarations:hetero_session", pk=verification.session_id)


@require_POST
@staff_view(MANAGE)
def attendance(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    verification = get_object_or_404(Verification, pk=pk)
    attended = request.POST.get("attended")
    if attended not in ("1", "0"):
        messages.error(request, "Informe se o candidato compareceu.")
    else:
        try:
            hs.attendance_record(verification=verification, attended=attended == "1", by=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
    return redirect("declarations:hetero_session", pk=verification.session_id)


def _checked(request: AuthenticatedHttpRequest, name: str) -> list[int] | None:
    """The pks ticked in a table's checkboxes (``None``: one of them is not a pk)."""
    values = request.POST.getlist(name)
    if not all(v.isascii() and v.isdigit() and 0 < int(v) < 2**63 for v in values):
        return None
    return [int(v) for v in values]


@require_POST
@staff_view(MANAGE)
def attendance_many(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The attendance table: the ticked candidates attended, the others did not (one act per change)."""
    session = get_object_or_404(Session, pk=pk)
    attended = _checked(request, "compareceu")
    if attended is None:
        messages.error(request, "Marcação inválida: recarregue a página e marque de novo.")
        return redirect("declarations:hetero_session", pk=session.pk)
    try:
        changed = hs.attendance_record_many(session=session, attended=attended, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            f"Comparecimento registrado: {plural(len(attended), 'compareceu', 'compareceram')}; "
            f"{plural(changed, 'registro alterado', 'registros alterados')}.",
        )
    return redirect("declarations:hetero_session", pk=session.pk)


@require_POST
@staff_view(MANAGE)
def apply_many(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Apply the final result of every ticked candidate (one act each, all or none)."""
    session = get_object_or_404(Session, pk=pk)
    chosen = _checked(request, "aplicar")
    if chosen is None:
        messages.error(request, "Marcação inválida: recarregue a página e marque de novo.")
        return redirect("declarations:hetero_session", pk=session.pk)
    verifications = list(
        session.verifications.filter(pk__in=chosen)
        .select_related("registration")
        .order_by("registration__number")
    )
    if len(verifications) != len(set(chosen)):
        messages.error(request, "Há candidatos marcados que não são desta sessão.")
        return redirect("declarations:hetero_session", pk=session.pk)
    try:
        applied = hs.result_apply_many(
            verifications=verifications, by=request.user, today=timezone.localdate()
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("declarations:hetero_session", pk=session.pk)
    messages.success(
        request, f"Resultado definitivo aplicado a {plural(len(applied), 'candidato', 'candidatos')}."
    )
    for done in applied:
        number = done.verification.registration.number
        messages.info(request, f"Inscrição {number}: {rules.CONSEQUENCE_LABELS[done.consequence]}.")
        for message in done.messages:
            messages.info(request, message)
    return redirect("declarations:hetero_session", pk=session.pk)


@require_POST
@staff_view(MANAGE)
def session_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(Session, pk=pk)
    now = timezone.now()
    year = timezone.localdate(now).year  # the local year (31/12 after 21h is already next year in UTC)
    try:
        hs.session_close(
            session=session, by=request.user, now=now, calendar=organization_calendar([year, year + 1])
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, "Sessão encerrada; resultados apurados pela maioria dos pareceres.")
    return redirect("declarations:hetero_session", pk=session.pk)


@staff_view(STATUS)
def status(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Each called registration's situation: no opinion, no category, no recording."""
    contest = get_object_or_404(Contest, slug=slug)
    log_access(user=request.user, obj=contest, request=request, detail="situação da heteroidentificação")
    return render(
        request,
        "declarations/hetero_status.html",
        {
            "contest": contest,
            "verifications": selectors.contest_verifications(contest),
            "breadcrumbs": [here(f"Heteroidentificação: {contest}")],
        },
    )
