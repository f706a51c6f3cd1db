"""Nominations per position (Secretaria calls and records; Gestão, Auditoria and Jurídico read).

The seat strip (each seat's number, kind and state, in words as well as colour), the nominations with
their acts, the call of the next k seats (the screen shows who would be called, and why, before the
clerk confirms), took office, withdrawal with the signed statement, no-show after the deadline, end of
list, and vacancies opened during validity. Writes go through ``candidates.services.nominations``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from candidates import documents as candidate_documents
from candidates import selectors
from candidates.acts import nomination_acts
from candidates.engine.schedule import kind_label
from candidates.forms import CallConfirmForm, CallForm, DateForm, NoShowForm, OpenForm, WithdrawForm
from candidates.models import Nomination
from candidates.services import nominations as services
from candidates.services.results import final_run_for
from contests.audit import log_access
from contests.documents.models import Document
from contests.documents.services import signer_initial
from contests.forms import DocumentForm, add_service_errors
from contests.models import Position
from contests.views import (
    AuthenticatedHttpRequest,
    get_contest_for_user,
    get_position_for_user,
    staff_view,
)
from contests.views.breadcrumbs import contest_trail, here, position_trail
from contests.views.published import published_message
from contests.wording import plural

SEATS_PER_PAGE = 100
VIEW_PERMS = ("contests.view_contest", "contests.view_position", "candidates.view_nomination")
CALL_PERMS = (*VIEW_PERMS, "candidates.call_nomination")


# Helpers -----------------------------------------------------------------------------------------------


def _nomination_for(position: Position, pk: int) -> Nomination:
    nomination = get_object_or_404(
        Nomination.objects.select_related("registration__candidate", "run"), position=position, pk=pk
    )
    nomination.position = position
    return nomination


def _list_url(position: Position) -> str:
    return reverse("candidates:nomination_list", args=[position.contest.slug, position.pk])


def _reason(row: services.PreviewRow) -> str:
    """The preview row's reason without the seat's number and open kind, which the screen already shows
    in bold (the engine's structured reason formats it: ``Reason.detail``)."""
    return row.reason.detail() if row.reason is not None else row.why


def _call_rows(preview: services.Preview | None, group_label: str) -> list[dict]:
    if preview is None:
        return []
    return [
        {"row": row, "kind_label": kind_label(row.kind, group_label), "reason": _reason(row)}
        for row in preview.rows
    ]


def _strip(request: AuthenticatedHttpRequest, position: Position) -> dict:
    """The seat strip and the page of it shown (a bounded number of seats per page)."""
    strip = selectors.seat_strip(position)
    return {
        "strip": strip,
        "strip_page": Paginator(strip.seats, SEATS_PER_PAGE).get_page(request.GET.get("pagina")),
    }


def _context(position: Position, page: object = None, **extra) -> dict:
    """What every nomination page shows; ``page`` names the page under the position's nominations."""
    if page is None:
        breadcrumbs = position_trail(position, here("Nomeações"))
    else:
        breadcrumbs = position_trail(position, ("Nomeações", _list_url(position)), here(page))
    return {"position": position, "contest": position.contest, "breadcrumbs": breadcrumbs, **extra}


# Views -------------------------------------------------------------------------------------------------


@staff_view(*VIEW_PERMS)
def nomination_list(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    nominations = selectors.position_nominations(position)
    today = timezone.localdate()
    return render(
        request,
        "candidates/nomination_list.html",
        _context(
            position,
            **_strip(request, position),
            nominations=nominations,
            final_run=final_run_for(position),
            today=today,
            can_call=position.contest.is_valid_on(today),
            acts=nomination_acts(position=position),
            chosen_act=request.GET.get("ato", ""),
            act_form=(
                DocumentForm(initial=signer_initial(Document.Kind.NOMINATION_ACT))
                if request.user.has_perm("contests.publish_document")
                else None
            ),
        ),
    )


@staff_view(*CALL_PERMS)
def nomination_call(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Two steps on one page: the act's data and how many seats → who would be called and why → confirm."""
    position = get_position_for_user(request.user, slug, pk)
    today = timezone.localdate()
    form = CallForm(request.POST or None, initial={"act_date": today})
    preview = None
    step = request.POST.get("step", "")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        confirmation = CallConfirmForm(request.POST)
        if step == "confirm" and confirmation.value("previewed") != data["count"]:
            messages.warning(request, "A quantidade de vagas mudou depois da prévia: confira a nova prévia.")
            step = "preview"
        if step == "confirm":
            try:
                created = services.nominations_call(
                    position=position,
                    by=request.user,
                    today=today,
                    expected_version=confirmation.value("version"),
                    **data,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                names = ", ".join(f"{n.seat}ª vaga: inscrição {n.registration.number}" for n in created)
                messages.success(
                    request,
                    f"{plural(len(created), 'nomeação registrada', 'nomeações registradas')} ({names}).",
                )
                if data["notified_email"]:
                    _email_message(request, created)
                return redirect(_list_url(position))
        try:
            preview = services.nominations_preview(position=position, count=data["count"])
        except ValidationError as error:
            add_service_errors(form, error)
    return render(
        request,
        "candidates/nomination_call.html",
        _context(
            position,
            "Convocar",
            form=form,
            preview=preview,
            rows=_call_rows(preview, position.contest.policy.group_label),
            **_strip(request, position),
        ),
    )


@staff_view(*VIEW_PERMS)
def nomination_detail(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    history = selectors.nomination_history(nomination)
    today = timezone.localdate()
    return render(
        request,
        "candidates/nomination_detail.html",
        _context(
            position,
            nomination,
            nomination=nomination,
            history=history,
            today=today,
            deadline_passed=today > nomination.office_deadline,
        ),
    )


def _record(request, slug, pk, nomination_pk, *, action: str):
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    today = timezone.localdate()
    if nomination.status != Nomination.Status.ACTIVE:
        messages.info(request, f"Esta nomeação está “{nomination.get_status_display()}”.")
        return redirect(nomination)
    data = request.POST or None
    form: forms.Form
    if action == "took_office":
        form = DateForm(data, today=today, date_label="Data da posse", reason=False, initial={"date": today})
    elif action == "withdraw":
        form = WithdrawForm(data, request.FILES or None, today=today, date_label="Data da desistência")
    elif action == "no_show":
        form = NoShowForm(data)
    else:
        form = DateForm(data, today=today, date_label="Data do pedido")
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        try:
            if action == "took_office":
                services.nomination_took_office(nomination=nomination, date=cleaned["date"], by=request.user)
                done = "Posse registrada."
            elif action == "withdraw":
                services.nomination_withdraw(
                    nomination=nomination,
                    statement_file=cleaned["statement"],
                    by=request.user,
                    date=cleaned["date"],
                    reason=cleaned["reason"],
                )
                done = (
                    f"Desistência registrada: a {nomination.seat}ª vaga será preenchida na próxima chamada."
                )
            elif action == "no_show":
                services.nomination_no_show(
                    nomination=nomination, by=request.user, today=today, act_number=cleaned["act_number"]
                )
                done = (
                    f"Nomeação sem efeito por falta de posse: a {nomination.seat}ª vaga será preenchida na "
                    "próxima chamada."
                )
            else:
                services.nomination_end_of_list(
                    nomination=nomination, by=request.user, date=cleaned["date"], reason=cleaned["reason"]
                )
                done = f"Candidato reclassificado para o fim da lista: a {nomination.seat}ª vaga fica livre."
        except ValidationError as error:
            add_service_errors(form, error, {"statement_file": "statement"})
        else:
            messages.success(request, done)
            return redirect(_list_url(position))
    titles = {
        "took_office": "Registrar posse",
        "withdraw": "Registrar desistência",
        "no_show": "Registrar que não tomou posse",
        "end_of_list": "Reclassificar para o fim da lista",
    }
    return render(
        request,
        "candidates/nomination_action.html",
        _context(
            position,
            titles[action],
            nomination=nomination,
            form=form,
            action=action,
            title=titles[action],
            today=today,
            deadline_passed=today > nomination.office_deadline,
        ),
    )


@staff_view(*CALL_PERMS)
def nomination_took_office(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="took_office")


@staff_view(*CALL_PERMS)
def nomination_withdraw(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="withdraw")


@staff_view(*CALL_PERMS)
def nomination_no_show(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="no_show")


@staff_view(*CALL_PERMS)
def nomination_end_of_list(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="end_of_list")


@staff_view(*VIEW_PERMS)
def nomination_statement(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> FileResponse:
    """The signed withdrawal statement, only to staff who may see the nomination (never a public URL)."""
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    if not nomination.withdrawal_statement:
        raise Http404
    try:
        handle = nomination.withdrawal_statement.open("rb")
    except FileNotFoundError:
        raise Http404 from None
    filename = (
        f"termo-desistencia-{nomination.registration.number}{_suffix(nomination.withdrawal_statement.name)}"
    )
    return FileResponse(handle, as_attachment=True, filename=filename)


@staff_view(*CALL_PERMS)
def nomination_letter(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    """The personal letter to the nominee (PDF, to print and send): the act, the deadline and the
    candidate's access code, computed now. Secretaria only; each print goes into the access log."""
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    log_access(
        user=request.user,
        obj=nomination.registration,
        action="view",
        detail="carta de nomeação impressa (com o código de acesso e o endereço do candidato)",
        request=request,
    )
    response = HttpResponse(
        candidate_documents.render_nomination_letter(nomination), content_type="application/pdf"
    )
    response["Content-Disposition"] = (
        f'inline; filename="carta-nomeacao-{nomination.registration.number.replace("/", "-")}.pdf"'
    )
    response["Cache-Control"] = "private, no-store"
    return response


def _email_message(request: AuthenticatedHttpRequest, created: list) -> None:
    """What happened to the e-mail a call chose: queued for those with an address; the others get none,
    and the message says whose letter to print."""
    queued = [n for n in created if n.notified_email]
    without = [n.registration.number for n in created if not n.notified_email]
    if queued:
        messages.info(
            request,
            f"E-mail da nomeação posto na fila de envio para {plural(len(queued), 'candidato', 'candidatos')}: "
            "a data do envio aparece em cada nomeação.",
        )
    if without:
        messages.warning(
            request,
            f"Sem e-mail cadastrado, nada foi enviado por e-mail a: inscrição {', '.join(without)}. Imprima a "
            "carta de nomeação de cada um (na página da nomeação).",
        )


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > name.rfind("/") else ""


@staff_view(*CALL_PERMS, "contests.add_vacancyopening")
def nomination_open_vacancies(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    form = OpenForm(request.POST or None, initial={"date": timezone.localdate()})
    session_key = f"vacancies_opened:{position.pk}"
    if request.method == "POST" and form.is_valid():
        try:
            opened = services.vacancies_open(position=position, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            # Redirect after the write (a reload must not post again); the page after it shows, once, how
            # the order extended.
            if opened.repeated:
                messages.info(request, "Estas vagas já tinham sido abertas por este mesmo envio: nada mudou.")
            else:
                messages.success(
                    request,
                    f"{plural(opened.opening.count, 'vaga aberta', 'vagas abertas')}. Veja abaixo como a ordem se estende.",
                )
                request.session[session_key] = {
                    "before": list(opened.before),
                    "after": list(opened.after),
                    "messages": list(opened.messages),
                }
            return redirect(reverse("candidates:nomination_open_vacancies", args=[slug, pk]))
    shown = request.session.pop(session_key, None) if request.method == "GET" else None
    rows = selectors.seat_kind_changes(position, shown["before"], shown["after"]) if shown else []
    return render(
        request,
        "candidates/nomination_open.html",
        _context(
            position,
            "Abrir novas vagas",
            form=form,
            opened=shown,
            rows=rows,
            **_strip(request, position),
            reservation=position.reservation(),
        ),
    )


@staff_view(*VIEW_PERMS)
def contest_nominations(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """All positions of a contest on one page: free seats, deadlines, and the next call per position."""
    contest = get_contest_for_user(request.user, slug)
    if not request.user.has_perm("contests.view_position"):
        raise Http404
    today = timezone.localdate()
    rows = selectors.contest_nominations(contest, today=today)
    blockers = {
        row.position.pk: selectors.contest_nomination_blocker(
            contest, today=today, has_final_run=row.has_final_run
        )
        for row in rows
    }
    return render(
        request,
        "candidates/contest_nominations.html",
        {
            "contest": contest,
            "rows": [(row, blockers[row.position.pk]) for row in rows],
            "today": today,
            "breadcrumbs": contest_trail(contest, here("Nomeações")),
        },
    )


@staff_view(*VIEW_PERMS)
def nomination_act(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The nomination act (``?ato=``, the act's number) of the contest: the draft PDF ("minuta") on GET;
    on POST, Gestão publishes it as a signed, verifiable document (again: a rectification)."""
    position = get_position_for_user(request.user, slug, pk)
    act_number = (request.POST if request.method == "POST" else request.GET).get("ato", "").strip()
    if not act_number or not Nomination.objects.filter(position=position, act_number=act_number).exists():
        raise Http404
    contest = position.contest
    if request.method != "POST":
        response = HttpResponse(
            candidate_documents.render_nomination_act(contest, act_number), content_type="application/pdf"
        )
        response["Content-Disposition"] = 'inline; filename="ato-de-nomeacao-minuta.pdf"'
        return response
    if not request.user.has_perm("contests.publish_document"):
        raise PermissionDenied
    form = DocumentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Informe quem assina e o cargo para publicar o ato.")
        return redirect("candidates:nomination_list", slug=slug, pk=pk)
    try:
        document = candidate_documents.nomination_act_publish(
            contest=contest, act_number=act_number, by=request.user, **form.cleaned_data
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("candidates:nomination_list", slug=slug, pk=pk)
    published_message(request, f"{document.title} publicado.", document)
    return redirect("candidates:nomination_list", slug=slug, pk=pk)
