"""Registrations of a contest: list with search and filters, create, edit, detail with history, and the
racial option (added while registrations are open, given up, or corrected by a clerk with a justification).

LGPD (RULES §7): the self-declaration and the PcD condition are sensitive, and so is a full CPF. Every
display of one of them is logged with ``log_access``, or the page does not show it. The list shows
neither (its filter by reserve is logged); the detail shows them on request (to users with
``candidates.view_sensitive``; the full CPF to users who may see candidates), logged; the edit form shows
the CPF and, to those users, the PcD condition, so every rendering of it is logged (a form error may
reveal the stored option).
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from candidates import access, seat_notices, selectors
from candidates.forms import (
    CorrectionForm,
    GiveUpForm,
    RacialOptionForm,
    RegistrationFilterForm,
    RegistrationForm,
    RegistrationStatusForm,
    racial_category,
    racial_choice,
)
from candidates.models import Registration, SeatNotice, SelfDeclaration
from candidates.services import registrations as services
from candidates.services.access import access_code_reissue, awaiting_letter, without_email
from candidates.services.status import registration_change_status
from candidates.tasks import page_url
from contests.audit import User, log_access
from contests.documents.letters import BATCH
from contests.forms import add_service_errors
from contests.models import Contest
from contests.views import PAGE_SIZE, AuthenticatedHttpRequest, form_data, get_contest_for_user, staff_view
from contests.views.breadcrumbs import Crumb, contest_trail, here

SENSITIVE = services.SENSITIVE_PERMISSION
SENSITIVE_PARAM = "dados_sensiveis"
CPF_PARAM = "cpf_completo"
CATEGORY_FIELD = {"category": "racial"}


# Access helpers ------------------------------------------------------------------------------------------


def get_registration_for_user(user: User, slug: str, pk: int, *, change: bool = False) -> Registration:
    """The registration ``pk`` of contest ``slug``: 404 when the user may not see registrations, 403 when
    they may see but not change."""
    contest = get_contest_for_user(user, slug)
    if not user.has_perm("candidates.view_registration"):
        raise Http404
    registration = get_object_or_404(
        Registration.objects.select_related("candidate", "position"), contest=contest, pk=pk
    )
    registration.contest = contest
    if change and not user.has_perm("candidates.change_registration"):
        raise PermissionDenied
    return registration


def _detail_url(registration: Registration) -> str:
    return reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])


def _trail(contest: Contest, *tail: Crumb) -> list[Crumb]:
    """Concursos › Concurso › Inscrições › ``tail``."""
    return contest_trail(
        contest, ("Inscrições", reverse("candidates:registration_list", args=[contest.slug])), *tail
    )


def _registration_trail(registration: Registration, *tail: Crumb) -> list[Crumb]:
    return _trail(registration.contest, (registration.number, _detail_url(registration)), *tail)


# Views ---------------------------------------------------------------------------------------------------


@staff_view("contests.view_contest", "candidates.view_registration")
def registration_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    sensitive = request.user.has_perm(SENSITIVE)
    cpf = request.user.has_perm("candidates.view_candidate")
    form = RegistrationFilterForm(request.GET or None, contest=contest, sensitive=sensitive, cpf=cpf)
    data = form.cleaned_data if form.is_valid() else {}
    registrations = selectors.registrations_listed(
        contest,
        term=data.get("busca", ""),
        position=data.get("cargo"),
        status=data.get("situacao", ""),
        reserve=data.get("reserva", ""),
        cpf=cpf,
    )
    if data.get("reserva"):
        # Who opted for a reserve is sensitive (PcD above all): the query is logged like a view.
        choices = cast(list[tuple[str, str]], cast(forms.ChoiceField, form.fields["reserva"]).choices)
        label = dict(choices)[data["reserva"]]
        log_access(
            user=request.user,
            obj=contest,
            action="view_sensitive",
            detail=f"lista de inscrições filtrada por reserva: {label}",
            request=request,
        )
    page = Paginator(registrations, PAGE_SIZE).get_page(request.GET.get("pagina"))
    letters = None
    if request.user.has_perm("candidates.change_registration"):
        without = without_email(contest).count()
        if without:
            letters = {"without_email": without, "pending": awaiting_letter(contest).count(), "batch": BATCH}
    return render(
        request,
        "candidates/registration_list.html",
        {
            "contest": contest,
            "breadcrumbs": contest_trail(contest, here("Inscrições")),
            "form": form,
            "page": page,
            "total": selectors.registration_count(contest),
            "show_cpf": cpf,
            "reserve_filter": sensitive,
            "filtered": form.is_bound and any(form.data.get(name) for name in form.fields),
            "letters": letters,
        },
    )


@staff_view("contests.view_contest", "candidates.add_registration", "candidates.add_candidate")
def registration_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = RegistrationForm(form_data(request), contest=contest)
    if request.method == "POST" and form.is_valid():
        known = selectors.cpf_known(form.cleaned_data["cpf"])
        try:
            registration = services.registration_register(
                contest=contest,
                by=request.user,
                candidate_data=form.candidate_data(),
                data=form.registration_data(),
                racial_category=racial_category(form.cleaned_data["racial"]),
                declared_on=form.cleaned_data["declared_on"],
            )
        except ValidationError as error:
            add_service_errors(form, error, CATEGORY_FIELD)
        else:
            registration.contest = contest
            note = " O CPF já estava cadastrado: a inscrição foi ligada ao mesmo candidato." if known else ""
            messages.success(request, f"Inscrição {registration.number} registrada.{note}")
            return redirect(_detail_url(registration))
    closed = contest.registrations_closed_on(timezone.localdate())
    breadcrumbs = _trail(contest, here("Nova inscrição"))
    context = {"form": form, "contest": contest, "closed": closed, "breadcrumbs": breadcrumbs}
    return render(request, "candidates/registration_form.html", context)


@staff_view("contests.view_contest", "candidates.change_registration", "candidates.change_candidate")
def registration_edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    contest = registration.contest
    sensitive = request.user.has_perm(SENSITIVE)
    # The form validates a copy, so the page keeps showing the stored values when the save is refused.
    copy = Registration.objects.select_related("candidate").get(pk=registration.pk)
    form = RegistrationForm(form_data(request), contest=contest, registration=copy, sensitive=sensitive)
    if request.method == "POST" and form.is_valid():
        try:
            services.registration_edit(
                registration=registration,
                by=request.user,
                candidate_data=form.candidate_data(),
                data=form.registration_data(),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Inscrição alterada.")
            return redirect(_detail_url(registration))
    # Rendered (first or after an error that may name the stored option): the CPF and, for users who may
    # see them, the PcD condition and the preferred reserve are on the page.
    log_access(
        user=request.user,
        obj=registration,
        action="view_sensitive",
        detail="formulário de edição: CPF completo"
        + (", condição PcD e reserva preferida" if sensitive else ""),
        request=request,
    )
    return render(
        request,
        "candidates/registration_form.html",
        {
            "form": form,
            "contest": contest,
            "registration": registration,
            "breadcrumbs": _registration_trail(registration, here("Editar")),
        },
    )


@staff_view("contests.view_contest", "candidates.view_registration")
def registration_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk)
    contest = registration.contest
    user = request.user
    sensitive = declaration = None
    if request.GET.get(SENSITIVE_PARAM):
        # Refused (403) without the permission; logged when shown.
        sensitive = services.registration_sensitive_details(
            registration=registration, user=user, request=request
        )
        declaration = selectors.self_declaration(registration)
    see_candidate = user.has_perm("candidates.view_candidate")
    full_cpf = see_candidate and bool(request.GET.get(CPF_PARAM))
    if full_cpf:
        log_access(
            user=user, obj=registration, action="view_sensitive", detail="CPF completo", request=request
        )
    phases = selectors.registration_phase_results(registration)
    nominations = (
        selectors.person_nominations(registration) if user.has_perm("candidates.view_nomination") else None
    )
    entries = selectors.registration_history(
        registration, sensitive=sensitive is not None, candidate=see_candidate, full_cpf=full_cpf
    )
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("pagina"))
    status_form = None
    access_deliveries: list = []
    if user.has_perm("candidates.change_registration"):
        status_form = RegistrationStatusForm(initial={"status": ""})
        access_deliveries = list(
            registration.access_code_deliveries.filter(version=registration.access_code_version)
            .select_related("printed_by")
            .order_by("channel")
        )
    return render(
        request,
        "candidates/registration_detail.html",
        {
            "contest": contest,
            "registration": registration,
            "seat_notices": (
                list(registration.seat_notices.all())
                if user.has_perm("candidates.call_nomination") and nominations is not None
                else None
            ),
            "phase_make_ups": (
                seat_notices.phase_make_ups(registration)
                if user.has_perm("candidates.call_nomination") and nominations is not None
                else None
            ),
            "breadcrumbs": _trail(contest, here(registration.number)),
            "candidate": registration.candidate,
            "phases": phases,
            "nominations": nominations,
            "other_registrations": selectors.person_other_registrations(registration),
            "sensitive": sensitive,
            "declaration": declaration,
            "can_see_sensitive": user.has_perm(SENSITIVE),
            "sensitive_param": SENSITIVE_PARAM,
            "full_cpf": full_cpf,
            "cpf_param": CPF_PARAM,
            "page": page,
            "status_form": status_form,
            "access_deliveries": access_deliveries,
        },
    )


@require_POST
@staff_view("contests.view_contest", "candidates.change_registration")
def registration_status(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    form = RegistrationStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Escolha a nova situação e informe o motivo.")
        return redirect(_detail_url(registration))
    try:
        change = registration_change_status(
            registration=registration,
            status=form.cleaned_data["status"],
            reason=form.cleaned_data["reason"],
            by=request.user,
            today=timezone.localdate(),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        seats = f" Nomeações do cargo: {' '.join(change.messages)}" if change.messages else ""
        messages.success(
            request, f"Situação alterada para “{change.registration.get_status_display()}”.{seats}"
        )
    return redirect(_detail_url(registration))


@require_POST
@staff_view("contests.view_contest", "candidates.change_registration")
def registration_access_code(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Reissue the candidate's access code (the old one stops working): e-mailed when there is an address,
    otherwise shown here, once, for the clerk to hand over (the answer to this POST, never stored)."""
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    contest = registration.contest
    registration = access_code_reissue(registration=registration, by=request.user)
    registration.contest = contest
    if registration.candidate.email:
        messages.success(
            request,
            "Novo código de acesso gerado; o anterior deixou de valer. O e-mail com o novo código foi posto na "
            "fila de envio: a situação do envio aparece abaixo, em “Código de acesso do candidato”.",
        )
        return redirect(_detail_url(registration))
    log_access(
        user=request.user,
        obj=registration,
        action="view_sensitive",
        detail="código de acesso reemitido e mostrado para entrega ao candidato",
        request=request,
    )
    response = render(
        request,
        "candidates/registration_access_code.html",
        {
            "contest": registration.contest,
            "registration": registration,
            "candidate": registration.candidate,
            "code": access.code_for(registration),
            "page_url": page_url(),
            "breadcrumbs": _registration_trail(registration, here("Código de acesso")),
        },
    )
    response["Cache-Control"] = "private, no-store"
    return response


# The racial option -------------------------------------------------------------------------------------


DECLARATION_PERMS = ("contests.view_contest", "candidates.change_selfdeclaration", SENSITIVE)


def _declaration_page(
    request: AuthenticatedHttpRequest,
    registration: Registration,
    *,
    option_form: RacialOptionForm | None = None,
    give_up_form: GiveUpForm | None = None,
    correction_form: CorrectionForm | None = None,
) -> HttpResponse:
    """The self-declaration (a sensitive view, logged) and what can be done with it now."""
    contest: Contest = registration.contest
    policy = contest.policy
    today = timezone.localdate()
    log_access(
        user=request.user,
        obj=registration,
        action="view_sensitive",
        detail=f"autodeclaração (página da opção pela reserva a {policy.group_label})",
        request=request,
    )
    declaration = selectors.self_declaration(registration)
    active = declaration is not None and declaration.is_active
    closed = contest.registrations_closed_on(today)
    if not active and not closed:
        option_form = option_form or RacialOptionForm(policy=policy)
    if active:
        give_up_form = give_up_form or GiveUpForm(initial={"on": today})
    correction_form = correction_form or CorrectionForm(policy=policy, current=_current_option(declaration))
    return render(
        request,
        "candidates/registration_declaration.html",
        {
            "contest": contest,
            "registration": registration,
            "breadcrumbs": _registration_trail(registration, here("Autodeclaração")),
            "declaration": declaration,
            "active": active,
            "closed": closed,
            "option_form": option_form,
            "give_up_form": give_up_form,
            "correction_form": correction_form,
        },
    )


def _current_option(declaration: SelfDeclaration | None) -> str:
    """The racial option as ``CorrectionForm`` names it: none, "negra" or the category."""
    if declaration is None or not declaration.is_active:
        return racial_choice(None)
    return racial_choice(declaration.category)


@staff_view(*DECLARATION_PERMS)
def registration_declaration(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    return _declaration_page(request, registration)


@require_POST
@staff_view(*DECLARATION_PERMS)
def registration_racial_option(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    form = RacialOptionForm(request.POST, policy=registration.contest.policy)
    if form.is_valid():
        try:
            services.self_declaration_add(
                registration=registration,
                category=racial_category(form.cleaned_data["racial"]) or "",
                declared_on=timezone.localdate(),
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error, CATEGORY_FIELD)
        else:
            group = registration.contest.policy.group_label
            messages.success(request, f"Opção pela reserva a {group} registrada, com a autodeclaração.")
            return redirect(_detail_url(registration))
    return _declaration_page(request, registration, option_form=form)


@require_POST
@staff_view(*DECLARATION_PERMS)
def registration_give_up(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    form = GiveUpForm(request.POST)
    if form.is_valid():
        try:
            services.self_declaration_give_up(
                registration=registration,
                by=request.user,
                on=form.cleaned_data["on"],
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            group = registration.contest.policy.group_label
            messages.success(
                request,
                f"Renúncia à reserva a {group} registrada: o candidato permanece na ampla concorrência.",
            )
            return redirect(_detail_url(registration))
    return _declaration_page(request, registration, give_up_form=form)


@require_POST
@staff_view(*DECLARATION_PERMS)
def registration_correct(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    declaration = selectors.self_declaration(registration)
    form = CorrectionForm(
        request.POST, policy=registration.contest.policy, current=_current_option(declaration)
    )
    if form.is_valid():
        category = racial_category(form.cleaned_data["racial"])
        try:
            services.self_declaration_correct(
                registration=registration,
                by=request.user,
                justification=form.cleaned_data["justification"],
                on=timezone.localdate(),
                racial=category is not None,
                category=category or "",
                declared_on=form.cleaned_data["declared_on"],
            )
        except ValidationError as error:
            add_service_errors(form, error, CATEGORY_FIELD)
        else:
            messages.success(request, "Correção registrada, com a justificativa, no histórico da inscrição.")
            return redirect(_detail_url(registration))
    return _declaration_page(request, registration, correction_form=form)


@staff_view(
    "contests.view_contest",
    "contests.view_position",
    "candidates.view_nomination",
    "candidates.call_nomination",
)
def seat_notice_letter(request: AuthenticatedHttpRequest, slug: str, pk: int, notice_pk: int) -> HttpResponse:
    """The personal letter of a seat notice (reinstated, displaced, held, released; PDF to print and send),
    with the candidate's access code computed now. Each print goes into the access log."""
    registration = get_registration_for_user(request.user, slug, pk)
    notice = get_object_or_404(SeatNotice, pk=notice_pk, registration=registration)
    log_access(
        user=request.user,
        obj=registration,
        action="view",
        detail=f"carta impressa: {notice.get_kind_display()} (com o código de acesso e o endereço)",
        request=request,
    )
    response = HttpResponse(seat_notices.render_seat_notice_letter(notice), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="carta-{notice.kind}-{registration.number.replace("/", "-")}.pdf"'
    )
    response["Cache-Control"] = "private, no-store"
    return response
