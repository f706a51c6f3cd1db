"""Registrations of a contest: list with search and filters, create, edit, detail with history, and the
racial option (added while registrations are open, given up, or corrected by a clerk with a justification).

LGPD (RULES §7): the self-declaration and the PcD condition are sensitive. The list never shows them (only
"cotista", to users with ``candidates.view_sensitive``); the detail shows them on request, to those users,
and every such view is logged with ``log_access``. CPFs are masked in lists and shown in full only on the
detail, to users who may see candidates.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import CharField, Func, Q
from django.db.models.functions import Length
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

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
from candidates.models import Candidate, PhaseResult, Registration, SelfDeclaration
from candidates.services import registrations as services
from candidates.services.status import registration_change_status
from candidates.validators import format_cpf
from contests.audit import User, log_access
from contests.forms import add_service_errors
from contests.history import HistoryEntry, field_label, field_label_model, history_entries
from contests.models import Contest
from contests.views import AuthenticatedHttpRequest, get_contest_for_user, staff_view
from contests.views.breadcrumbs import Crumb, contest_trail, here

PAGE_SIZE = 50
SENSITIVE = services.SENSITIVE_PERMISSION
SENSITIVE_PARAM = "dados_sensiveis"
# Registration fields that tell the reserves chosen: shown only with the sensitive data.
SENSITIVE_FIELDS = ("racial_reserve", "pcd_reserve", "preferred_reserve")
CATEGORY_FIELD = {"category": "racial"}

# Accent folding in SQL, for SQLite and PostgreSQL alike (no ``unaccent`` extension, no extra column):
# PostgreSQL translates the accented letters (both cases, and the combining marks of decomposed text are
# deleted); SQLite, whose LOWER() folds ASCII only and whose parser cannot nest enough REPLACE()s, calls
# ``fold_text`` itself, registered on the connection.
_ACCENTED = "áàâãäåéèêëíìîïóòôõöúùûüçñýÿ"
_PLAIN = "aaaaaaeeeeiiiiooooouuuucnyy"
_COMBINING = "\u0300\u0301\u0302\u0303\u0308\u0327"
_TRANSLATE_FROM = _ACCENTED + _ACCENTED.upper() + _COMBINING
_TRANSLATE_TO = _PLAIN + _PLAIN
_SQLITE_FUNCTION = "cotas_fold"
_CPF_LIKE = re.compile(r"^[\d.\-/]+$")


class Folded(Func):
    """A text column in lower case without accents (``fold_text`` in SQL)."""

    arity = 1
    output_field = CharField()

    def as_sql(self, compiler, connection, **extra_context):  # type: ignore[override]
        sql, params = compiler.compile(self.source_expressions[0])
        return f"LOWER({sql})", params

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"TRANSLATE(LOWER({sql}), %s, %s)", (*params, _TRANSLATE_FROM, _TRANSLATE_TO)

    def as_sqlite(self, compiler, connection, **extra_context):
        connection.ensure_connection()
        connection.connection.create_function(_SQLITE_FUNCTION, 1, _fold_or_none, deterministic=True)
        sql, params = compiler.compile(self.source_expressions[0])
        return f"{_SQLITE_FUNCTION}({sql})", params


def _fold_or_none(value: str | None) -> str | None:
    return None if value is None else fold_text(value)


def fold_text(text: str) -> str:
    """Lower case without accents: what the user typed, and (through ``Folded``) the stored names."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def mask_cpf(digits: str) -> str:
    """``***.881.690-**``: the middle six digits, as federal publications mask CPFs (LGPD)."""
    if len(digits) != 11:
        return "***"
    return f"***.{digits[3:6]}.{digits[6:9]}-**"


def search_registrations(registrations, term: str, *, cpf: bool):
    """Every word must match the name or social name (accents and case ignored), the inscription number,
    or (for users who may see it) the CPF: a whole CPF, or part of one typed with its punctuation."""
    words = term.split()
    if not words:
        return registrations
    registrations = registrations.annotate(
        search_name=Folded("candidate__full_name"), search_social=Folded("candidate__social_name")
    )
    for word in words:
        plain = fold_text(word)
        condition = (
            Q(search_name__contains=plain) | Q(search_social__contains=plain) | Q(number__icontains=word)
        )
        digits = re.sub(r"\D", "", word)
        if cpf and digits and _CPF_LIKE.match(word):
            if len(digits) == 11:
                condition |= Q(candidate__cpf=digits)
            elif len(digits) >= 3 and ("." in word or "-" in word):
                condition |= Q(candidate__cpf__contains=digits)
        registrations = registrations.filter(condition)
    return registrations


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


def _form_data(request: HttpRequest):
    return request.POST if request.method == "POST" else None


def _detail_url(registration: Registration) -> str:
    return reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])


def _trail(contest: Contest, *tail: Crumb) -> list[Crumb]:
    """Concursos › Concurso › Inscrições › ``tail``."""
    return contest_trail(
        contest, ("Inscrições", reverse("candidates:registration_list", args=[contest.slug])), *tail
    )


def _registration_trail(registration: Registration, *tail: Crumb) -> list[Crumb]:
    return _trail(registration.contest, (registration.number, _detail_url(registration)), *tail)


def _history(registration: Registration, *, sensitive: bool, candidate: bool) -> list[HistoryEntry]:
    """The registration's history, its scores' and (if allowed) its candidate's, field by field.

    Without ``sensitive`` the self-declaration's rows and the fields of the reserves chosen are left out,
    and so are the registration's rows that changed nothing else.
    """
    querysets = [registration.history.all(), PhaseResult.history.filter(registration_id=registration.pk)]
    if candidate:
        querysets.append(Candidate.history.filter(id=registration.candidate_id))
    if sensitive:
        querysets.append(SelfDeclaration.history.filter(registration_id=registration.pk))
    entries = [_with_cpf_formatted(entry) for entry in history_entries(*querysets)]
    if sensitive:
        return entries
    hidden = {field_label(Registration, name) for name in SENSITIVE_FIELDS}
    kind = field_label_model(Registration)
    shown = []
    for entry in entries:
        changes = tuple(change for change in entry.changes if change.field not in hidden)
        if entry.kind != kind or len(changes) == len(entry.changes):
            shown.append(entry)
        elif changes or entry.history_type != "~":
            shown.append(dataclasses.replace(entry, changes=changes))
    return shown


def _with_cpf_formatted(entry: HistoryEntry) -> HistoryEntry:
    label = field_label(Candidate, "cpf")
    if not any(change.field == label for change in entry.changes):
        return entry
    changes = tuple(
        dataclasses.replace(change, old=format_cpf(change.old), new=format_cpf(change.new))
        if change.field == label
        else change
        for change in entry.changes
    )
    return dataclasses.replace(entry, changes=changes)


# Views ---------------------------------------------------------------------------------------------------


@staff_view("contests.view_contest", "candidates.view_registration")
def registration_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    sensitive = request.user.has_perm(SENSITIVE)
    cpf = request.user.has_perm("candidates.view_candidate")
    form = RegistrationFilterForm(request.GET or None, contest=contest, sensitive=sensitive, cpf=cpf)
    registrations = Registration.objects.filter(contest=contest).select_related("candidate", "position")
    total = registrations.count()
    if form.is_valid():
        data = form.cleaned_data
        registrations = search_registrations(registrations, data["busca"], cpf=cpf)
        if data["cargo"]:
            registrations = registrations.filter(position=data["cargo"])
        if data["situacao"]:
            registrations = registrations.filter(status=data["situacao"])
        reserve = data.get("reserva")
        if reserve:
            registrations = registrations.filter(
                **{
                    "racial": {"racial_reserve": True},
                    "pcd": {"pcd_reserve": True},
                    "ampla": {"racial_reserve": False, "pcd_reserve": False},
                }[reserve]
            )
            # Who opted for a reserve is sensitive (PcD above all): the query is logged like a view.
            label = dict(form.fields["reserva"].choices)[reserve]  # type: ignore[attr-defined]  # a ChoiceField
            log_access(
                user=request.user,
                obj=contest,
                action="view_sensitive",
                detail=f"lista de inscrições filtrada por reserva: {label}",
                request=request,
            )
    registrations = registrations.order_by(Length("number"), "number", "pk")
    page = Paginator(registrations, PAGE_SIZE).get_page(request.GET.get("pagina"))
    for registration in page.object_list:
        registration.cpf_masked = mask_cpf(registration.candidate.cpf)
    return render(
        request,
        "candidates/registration_list.html",
        {
            "contest": contest,
            "breadcrumbs": contest_trail(contest, here("Inscrições")),
            "form": form,
            "page": page,
            "total": total,
            "show_cpf": cpf,
            "show_reserve": sensitive,
            "filtered": form.is_bound and any(form.data.get(name) for name in form.fields),
        },
    )


@staff_view("contests.view_contest", "candidates.add_registration", "candidates.add_candidate")
def registration_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = RegistrationForm(_form_data(request), contest=contest)
    if request.method == "POST" and form.is_valid():
        known = Candidate.objects.filter(cpf=form.cleaned_data["cpf"]).exists()
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
    if sensitive and request.method == "GET":
        log_access(
            user=request.user,
            obj=registration,
            action="view_sensitive",
            detail="formulário de edição: condição PcD e reserva preferida",
            request=request,
        )
    # The form validates a copy, so the page keeps showing the stored values when the save is refused.
    copy = Registration.objects.select_related("candidate").get(pk=registration.pk)
    form = RegistrationForm(_form_data(request), contest=contest, registration=copy, sensitive=sensitive)
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
        declaration = SelfDeclaration.objects.filter(registration=registration).first()
    results = {r.phase_id: r for r in registration.phase_results.all()}
    phases = [(phase, results.get(phase.pk)) for phase in contest.phases.order_by("order")]
    entries = _history(
        registration, sensitive=sensitive is not None, candidate=user.has_perm("candidates.view_candidate")
    )
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("pagina"))
    status_form = None
    if user.has_perm("candidates.change_registration"):
        status_form = RegistrationStatusForm(initial={"status": ""})
    return render(
        request,
        "candidates/registration_detail.html",
        {
            "contest": contest,
            "registration": registration,
            "breadcrumbs": _trail(contest, here(registration.number)),
            "candidate": registration.candidate,
            "cpf_masked": mask_cpf(registration.candidate.cpf),
            "phases": phases,
            "sensitive": sensitive,
            "declaration": declaration,
            "can_see_sensitive": user.has_perm(SENSITIVE),
            "sensitive_param": SENSITIVE_PARAM,
            "page": page,
            "status_form": status_form,
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
    declaration = SelfDeclaration.objects.filter(registration=registration).first()
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
    declaration = SelfDeclaration.objects.filter(registration=registration).first()
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


BASE = "concursos/<slug:slug>/inscricoes/"
urlpatterns = [
    path(BASE, registration_list, name="registration_list"),
    path(f"{BASE}nova/", registration_create, name="registration_create"),
    path(f"{BASE}<int:pk>/", registration_detail, name="registration_detail"),
    path(f"{BASE}<int:pk>/editar/", registration_edit, name="registration_edit"),
    path(f"{BASE}<int:pk>/situacao/", registration_status, name="registration_status"),
    path(f"{BASE}<int:pk>/autodeclaracao/", registration_declaration, name="registration_declaration"),
    path(
        f"{BASE}<int:pk>/autodeclaracao/opcao/", registration_racial_option, name="registration_racial_option"
    ),
    path(f"{BASE}<int:pk>/autodeclaracao/renuncia/", registration_give_up, name="registration_give_up"),
    path(f"{BASE}<int:pk>/autodeclaracao/correcao/", registration_correct, name="registration_correct"),
]
