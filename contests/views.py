"""Staff workspace of the contests app: thin function views (access, form, service, redirect or render).

Every view needs a login and a permission: anonymous users go to the login page, users without the
permission get 403. Writes go through ``contests.services``; a service's ``ValidationError`` is shown on
the form and nothing changes.
"""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from contests import quotas, services
from contests.forms import (
    POLICY_FIELDSETS,
    AccessLogFilterForm,
    ContestForm,
    ContestStatusForm,
    ExtendValidityForm,
    HolidayForm,
    HomologationForm,
    OrganizationForm,
    PolicyForm,
    PositionForm,
    PreviewForm,
    VacancyOpeningForm,
    add_service_errors,
)
from contests.history import history_entries, value_display
from contests.models import AccessLog, Contest, Holiday, Organization, Policy, Position, VacancyOpening

PAGE_SIZE = 50
HOMOLOGATION_FIELDS = {
    "homologation_date": "date",
    "homologation_act": "act",
    "homologation_gazette": "gazette",
}


def staff_view(*perms: str):
    """``login_required`` then ``permission_required(..., raise_exception=True)``: 302 to login, or 403."""

    def decorator(view):
        return login_required(permission_required(perms, raise_exception=True)(view))

    return decorator


# Access helpers ------------------------------------------------------------------------------------------


def get_contest_for_user(user, slug: str, *, change: bool = False) -> Contest:
    """The contest ``slug``: 404 when the user may not see contests, 403 when they may see but not change."""
    if not user.has_perm("contests.view_contest"):
        raise Http404
    contest = get_object_or_404(Contest.objects.select_related("policy"), slug=slug)
    if change and not user.has_perm("contests.change_contest"):
        raise PermissionDenied
    return contest


def get_position_for_user(user, slug: str, pk: int, *, change: bool = False) -> Position:
    contest = get_contest_for_user(user, slug)
    if not user.has_perm("contests.view_position"):
        raise Http404
    position = get_object_or_404(Position, contest=contest, pk=pk)
    position.contest = contest
    if change and not user.has_perm("contests.change_position"):
        raise PermissionDenied
    return position


def get_opening_for_user(user, position: Position, pk: int) -> VacancyOpening:
    if not user.has_perm("contests.view_vacancyopening"):
        raise Http404
    opening = get_object_or_404(VacancyOpening, position=position, pk=pk)
    opening.position = position
    return opening


def _form_data(request: HttpRequest):
    return request.POST if request.method == "POST" else None


# Reservation read helpers -----------------------------------------------------------------------------


@dataclasses.dataclass
class PositionRow:
    position: Position
    reservation: quotas.Reservation | None
    error: str = ""

    @property
    def carried(self) -> str:
        """The fraction carried (SM art. 1 §4) with a decimal comma."""
        return quotas.format_fraction(self.reservation.carried_fraction) if self.reservation else ""


def _reservation_row(position: Position, vacancies: int | None = None) -> PositionRow:
    try:
        return PositionRow(position, position.reservation(vacancies=vacancies))
    except quotas.QuotaError as error:
        return PositionRow(position, None, str(error))


def _position_rows(contest: Contest) -> list[PositionRow]:
    positions = contest.positions.annotate(total=Coalesce(Sum("openings__count"), 0)).order_by("code", "pk")
    rows = []
    for position in positions:
        position.contest = contest
        position._vacancies = position.total
        rows.append(_reservation_row(position))
    return rows


def _fragmentation(contest: Contest, counts: list[int]) -> dict | None:
    """ADC 41: splitting the vacancies into positions must not empty the reserve of the whole contest."""
    if len(counts) < 2:
        return None
    rule = contest.policy.racial_rule()
    total = sum(counts)
    if contest.policy.threshold_basis == Policy.ThresholdBasis.CONTEST:
        # The threshold is tested on the contest: once reached, no position is below it.
        if total < rule.threshold:
            return None
        rule = dataclasses.replace(rule, threshold=0)
    shortfall = quotas.fragmentation_shortfall(counts, rule)
    if not shortfall:
        return None
    whole = rule.count(total)
    return {"shortfall": shortfall, "total": total, "whole": whole, "split": whole - shortfall}


def _preview_url(
    contest: Contest, position: Position | None = None, replaced: VacancyOpening | None = None
) -> str:
    url = reverse("contests:reservation_preview", args=[contest.slug])
    params = []
    if position is not None:
        params.append(f"cargo={position.pk}")
    if replaced is not None:
        params.append(f"substituir={replaced.pk}")
    return url + ("?" + "&".join(params) if params else "")


# Contests ------------------------------------------------------------------------------------------------


@staff_view("contests.view_contest")
def contest_list(request: HttpRequest) -> HttpResponse:
    contests = (
        Contest.objects.select_related("policy")
        .annotate(
            position_count=Count("positions", distinct=True),
            vacancy_total=Coalesce(Sum("positions__openings__count"), 0),
        )
        .order_by("-year", "-edital_date", "-pk")
    )
    status = request.GET.get("situacao", "")
    if status in Contest.Status.values:
        contests = contests.filter(status=status)
    page = Paginator(contests, PAGE_SIZE).get_page(request.GET.get("pagina"))
    return render(
        request,
        "contests/contest_list.html",
        {"page": page, "statuses": Contest.Status.choices, "status": status},
    )


@staff_view("contests.view_contest")
def contest_detail(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    rows = _position_rows(contest) if request.user.has_perm("contests.view_position") else []
    reservations = [row.reservation for row in rows if row.reservation]
    totals = {
        "vacancies": sum(r.vacancies for r in reservations),
        "open": sum(r.open for r in reservations),
        "racial": sum(r.racial for r in reservations),
        "pcd": sum(r.pcd for r in reservations),
    }
    try:
        fragmentation = _fragmentation(contest, [row.position.vacancies for row in rows])
    except quotas.QuotaError:
        fragmentation = None
    status_form = None
    if request.user.has_perm("contests.change_contest"):
        status_form = ContestStatusForm(initial={"status": contest.status})
    return render(
        request,
        "contests/contest_detail.html",
        {
            "contest": contest,
            "policy": contest.policy,
            "rows": rows,
            "totals": totals,
            "fragmentation": fragmentation,
            "status_form": status_form,
        },
    )


@staff_view("contests.add_contest")
def contest_create(request: HttpRequest) -> HttpResponse:
    form = ContestForm(_form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            contest = services.contest_create(by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Concurso criado.")
            return redirect(contest)
    return render(request, "contests/contest_form.html", {"form": form})


@staff_view("contests.change_contest")
def contest_edit(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug, change=True)
    # The form validates a copy, so the page keeps showing the stored values when the save is refused.
    form = ContestForm(_form_data(request), instance=Contest.objects.get(pk=contest.pk))
    if request.method == "POST" and form.is_valid():
        try:
            contest = services.contest_update(contest=contest, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Concurso alterado.")
            return redirect(contest)
    return render(request, "contests/contest_form.html", {"form": form, "contest": contest})


@require_POST
@staff_view("contests.change_contest")
def contest_status(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug, change=True)
    form = ContestStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Situação inválida.")
        return redirect(contest)
    try:
        contest = services.contest_set_status(
            contest=contest, status=form.cleaned_data["status"], by=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Situação alterada para “{contest.get_status_display()}”.")
    return redirect(contest)


@staff_view("contests.view_contest", "contests.homologate_contest")
def contest_homologate(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    if contest.is_homologated:
        messages.info(request, "Este concurso já está homologado.")
        return redirect(contest)
    form = HomologationForm(_form_data(request), initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            contest = services.contest_homologate(
                contest=contest,
                by=request.user,
                date=data["date"],
                act=data["act"],
                gazette=data["gazette"],
                validity_months=data["validity_months"],
            )
        except ValidationError as error:
            add_service_errors(form, error, HOMOLOGATION_FIELDS)
        else:
            messages.success(request, f"Concurso homologado. Validade até {contest.validity_end:%d/%m/%Y}.")
            return redirect(contest)
    return render(request, "contests/contest_homologate.html", {"form": form, "contest": contest})


@staff_view("contests.view_contest", "contests.homologate_contest")
def contest_extend_validity(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    if not contest.is_homologated or contest.validity_extended:
        messages.info(
            request,
            "A validade já foi prorrogada uma vez (CF art. 37, III)."
            if contest.validity_extended
            else "Só um concurso homologado tem validade a prorrogar.",
        )
        return redirect(contest)
    form = ExtendValidityForm(_form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            contest = services.contest_extend_validity(
                contest=contest, by=request.user, act=form.cleaned_data["act"]
            )
        except ValidationError as error:
            add_service_errors(form, error, {"validity_extension_act": "act"})
        else:
            messages.success(request, f"Validade prorrogada até {contest.validity_end:%d/%m/%Y}.")
            return redirect(contest)
    return render(request, "contests/contest_extend_validity.html", {"form": form, "contest": contest})


@staff_view("contests.view_contest", "contests.view_contest_history")
def contest_history(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    position_ids = list(
        Position.history.filter(contest_id=contest.pk).values_list("id", flat=True).distinct()
    )
    entries = history_entries(
        contest.history.all(),
        Position.history.filter(contest_id=contest.pk),
        VacancyOpening.history.filter(position_id__in=position_ids),
    )
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("pagina"))
    return render(request, "contests/contest_history.html", {"contest": contest, "page": page})


# Positions and vacancies ---------------------------------------------------------------------------------


@require_GET
@staff_view("contests.view_contest", "contests.view_position")
def reservation_preview(request: HttpRequest, slug: str) -> JsonResponse:
    """The quota engine's answer while a clerk types a vacancy count (the rule is never redone in JS).

    ``vagas``: the number typed; ``cargo``: an existing position (the typed vacancies add to its total);
    ``substituir``: an opening of that position whose count the typed number replaces.
    """
    contest = get_contest_for_user(request.user, slug)
    form = PreviewForm(request.GET)
    if not form.is_valid():
        raw = request.GET.get("vagas", "").strip()
        negative = raw.startswith("-") and raw[1:].isdigit()
        message = (
            "O número de vagas não pode ser negativo." if negative else "Informe um número inteiro de vagas."
        )
        return JsonResponse({"error": message}, status=400)
    typed = form.cleaned_data["vagas"]
    if form.cleaned_data["cargo"]:
        position = get_object_or_404(Position, contest=contest, pk=form.cleaned_data["cargo"])
        position.contest = contest
        base = position.vacancies
        if form.cleaned_data["substituir"]:
            replaced = get_object_or_404(
                VacancyOpening, position=position, pk=form.cleaned_data["substituir"]
            )
            base -= replaced.count
    else:
        position = Position(contest=contest)
        position._vacancies = 0
        base = 0
    row = _reservation_row(position, base + typed)
    if row.reservation is None:
        return JsonResponse({"error": row.error}, status=400)
    r = row.reservation
    label = contest.policy.group_label
    return JsonResponse(
        {
            "vacancies": r.vacancies,
            "open": r.open,
            "racial": r.racial,
            "pcd": r.pcd,
            "carried_fraction": quotas.format_fraction_plain(r.carried_fraction),
            "carried_fraction_display": quotas.format_fraction(r.carried_fraction),
            "racial_explanation": r.racial_explanation,
            "pcd_explanation": r.pcd_explanation or "Sem reserva para pessoas com deficiência.",
            "summary": (
                f"Total de {r.vacancies} vaga{'s' if r.vacancies != 1 else ''} no cargo: {r.open} de ampla "
                f"concorrência, {r.racial} reservada{'s' if r.racial != 1 else ''} a {label} e {r.pcd} a "
                "pessoas com deficiência."
            ),
        }
    )


@staff_view("contests.view_contest", "contests.add_position")
def position_create(request: HttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = PositionForm(_form_data(request), contest=contest, initial={"edital_vacancies": 0})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        vacancies = data.pop("edital_vacancies")
        try:
            position = services.position_create(
                contest=contest, by=request.user, data=data, edital_vacancies=vacancies
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Cargo {position.code} criado com {vacancies} vaga(s) no edital.")
            return redirect(position)
    return render(
        request,
        "contests/position_form.html",
        {"form": form, "contest": contest, "preview_url": _preview_url(contest)},
    )


@staff_view("contests.view_contest", "contests.change_position")
def position_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk, change=True)
    contest = position.contest
    edital = position.openings.filter(kind=VacancyOpening.Kind.EDITAL).first()
    form = PositionForm(
        _form_data(request),
        contest=contest,
        instance=Position.objects.get(pk=position.pk),
        initial={"edital_vacancies": edital.count if edital else 0},
    )
    locked = contest.status not in (Contest.Status.DRAFT, Contest.Status.PUBLISHED)
    if locked or not request.user.has_perm("contests.change_vacancyopening"):
        form.fields["edital_vacancies"].disabled = True
        form.fields["edital_vacancies"].help_text = (
            "As vagas do edital não mudam depois das inscrições: registre uma abertura de vagas."
            if locked
            else "Você não tem permissão para alterar as vagas."
        )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        vacancies = data.pop("edital_vacancies")
        try:
            position = services.position_update(
                position=position,
                by=request.user,
                data=data,
                edital_vacancies=None if form.fields["edital_vacancies"].disabled else vacancies,
            )
        except ValidationError as error:
            add_service_errors(form, error, {"count": "edital_vacancies"})
        else:
            messages.success(request, "Cargo alterado.")
            return redirect(position)
    return render(
        request,
        "contests/position_form.html",
        {
            "form": form,
            "contest": contest,
            "position": position,
            "preview_url": _preview_url(contest, position, edital),
        },
    )


@staff_view("contests.view_contest", "contests.view_position")
def position_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    contest = position.contest
    row = _reservation_row(position)
    openings = []
    if request.user.has_perm("contests.view_vacancyopening"):
        cumulative = 0
        previous = None
        for opening in position.openings.order_by("kind", "date", "pk"):
            cumulative += opening.count
            after = _reservation_row(position, cumulative).reservation
            added = after.racial - previous.racial if after and previous else None
            openings.append(
                {
                    "opening": opening,
                    "cumulative": cumulative,
                    "reservation": after,
                    "added": added,
                    "carried": quotas.format_fraction(after.carried_fraction) if after else "",
                }
            )
            previous = after
    return render(
        request,
        "contests/position_detail.html",
        {
            "contest": contest,
            "position": position,
            "policy": contest.policy,
            "row": row,
            "openings": openings,
            "edital_editable": contest.status == Contest.Status.DRAFT,
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.view_contest_history")
def position_history(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    entries = history_entries(position.history.all(), VacancyOpening.history.filter(position_id=position.pk))
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("pagina"))
    context = {"contest": position.contest, "position": position, "page": page}
    return render(request, "contests/position_history.html", context)


@staff_view("contests.view_contest", "contests.view_position", "contests.add_vacancyopening")
def opening_create(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    contest = position.contest
    form = VacancyOpeningForm(
        _form_data(request),
        instance=VacancyOpening(position=position, kind=VacancyOpening.Kind.LATER),
        initial={"date": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        data = {"kind": VacancyOpening.Kind.LATER, **form.cleaned_data}
        try:
            opening = services.vacancy_opening_create(position=position, by=request.user, data=data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Abertura de {opening.count} vaga(s) registrada.")
            return redirect(position)
    return render(
        request,
        "contests/opening_form.html",
        {
            "form": form,
            "contest": contest,
            "position": position,
            "preview_url": _preview_url(contest, position),
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.change_vacancyopening")
def opening_edit(request: HttpRequest, slug: str, pk: int, opening_pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    opening = get_opening_for_user(request.user, position, opening_pk)
    if opening.kind == VacancyOpening.Kind.EDITAL:
        # The edital's vacancies are part of the position's form.
        return redirect("contests:position_edit", slug, position.pk)
    form = VacancyOpeningForm(_form_data(request), instance=VacancyOpening.objects.get(pk=opening.pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.vacancy_opening_update(opening=opening, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Abertura de vagas alterada.")
            return redirect(position)
    return render(
        request,
        "contests/opening_form.html",
        {
            "form": form,
            "contest": position.contest,
            "position": position,
            "opening": opening,
            "preview_url": _preview_url(position.contest, position, opening),
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.delete_vacancyopening")
def opening_delete(request: HttpRequest, slug: str, pk: int, opening_pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    opening = get_opening_for_user(request.user, position, opening_pk)
    if request.method == "POST":
        try:
            services.vacancy_opening_delete(opening=opening, by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, "Vagas excluídas.")
        return redirect(position)
    return render(
        request,
        "contests/opening_confirm_delete.html",
        {"contest": position.contest, "position": position, "opening": opening},
    )


# Policies ------------------------------------------------------------------------------------------------


@staff_view("contests.view_policy_list")
def policy_list(request: HttpRequest) -> HttpResponse:
    policies = Policy.objects.annotate(
        contest_count=Count("contests"),
        published_count=Count("contests", filter=~Q(contests__status=Contest.Status.DRAFT)),
    ).order_by("name", "-version")
    return render(request, "contests/policy_list.html", {"policies": policies})


@staff_view("contests.view_policy")
def policy_detail(request: HttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy.objects.select_related("previous_version"), slug=slug)
    sections = [
        (
            legend,
            [
                {
                    "label": str(Policy._meta.get_field(name).verbose_name),
                    "value": value_display(Policy, name, getattr(policy, name)),
                    "help": Policy._meta.get_field(name).help_text,
                }
                for name in names
            ],
        )
        for legend, names in POLICY_FIELDSETS
    ]
    racial_series = []
    try:
        rule = policy.racial_rule()
        racial_series = list(enumerate(quotas.series(rule, 25), start=1))
    except quotas.QuotaError:
        pass
    used = policy.is_used_by_published_contest()
    return render(
        request,
        "contests/policy_detail.html",
        {
            "policy": policy,
            "sections": sections,
            "contests": policy.contests.order_by("-year", "-pk"),
            "next_versions": policy.next_versions.order_by("version"),
            "racial_series": racial_series,
            "used_by_published": used,
            "can_edit": request.user.has_perm("contests.change_policy") and not used,
            "can_new_version": request.user.has_perm("contests.add_policy"),
        },
    )


@staff_view("contests.add_policy")
def policy_create(request: HttpRequest) -> HttpResponse:
    form = PolicyForm(_form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            policy = services.policy_create(by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Política criada.")
            return redirect(policy)
    return render(request, "contests/policy_form.html", {"form": form})


@staff_view("contests.view_policy", "contests.change_policy")
def policy_edit(request: HttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy, slug=slug)
    if policy.is_used_by_published_contest():
        messages.warning(
            request,
            "Esta política é usada por um concurso com edital publicado e não pode ser alterada: "
            "crie uma nova versão.",
        )
        if request.user.has_perm("contests.add_policy"):
            return redirect("contests:policy_new_version", policy.slug)
        return redirect(policy)
    form = PolicyForm(_form_data(request), instance=Policy.objects.get(pk=policy.pk))
    if request.method == "POST" and form.is_valid():
        try:
            policy = services.policy_update(policy=policy, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Política alterada.")
            return redirect(policy)
    return render(request, "contests/policy_form.html", {"form": form, "policy": policy})


@staff_view("contests.view_policy", "contests.add_policy")
def policy_new_version(request: HttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy, slug=slug)
    form = PolicyForm(_form_data(request), instance=Policy.objects.get(pk=policy.pk), new_version=True)
    if request.method == "POST" and form.is_valid():
        try:
            new = services.policy_new_version(policy=policy, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request, f"Versão {new.version} criada. Os concursos já publicados mantêm a anterior."
            )
            return redirect(new)
    return render(request, "contests/policy_form.html", {"form": form, "policy": policy, "new_version": True})


# Organisation and holidays -------------------------------------------------------------------------------


@staff_view("contests.view_organization")
def organization_settings(request: HttpRequest) -> HttpResponse:
    organization = Organization.current()
    can_edit = request.user.has_perm(
        "contests.change_organization" if organization else "contests.add_organization"
    )
    if request.method == "POST" and not can_edit:
        raise PermissionDenied
    form = None
    if can_edit:
        instance = Organization.objects.get(pk=organization.pk) if organization else None
        form = OrganizationForm(_form_data(request), request.FILES or None, instance=instance)
        if request.method == "POST" and form.is_valid():
            data = dict(form.cleaned_data)
            if not data.get("logo"):  # False: "limpar" ticked; None: never had one
                data["logo"] = ""
            try:
                services.organization_save(by=request.user, data=data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Dados da organização salvos.")
                return redirect("contests:organization")
    return render(request, "contests/organization_form.html", {"organization": organization, "form": form})


@staff_view("contests.view_holiday")
def holiday_list(request: HttpRequest) -> HttpResponse:
    holidays = Holiday.objects.order_by("-date", "name")
    page = Paginator(holidays, PAGE_SIZE).get_page(request.GET.get("pagina"))
    return render(request, "contests/holiday_list.html", {"page": page})


@staff_view("contests.add_holiday")
def holiday_create(request: HttpRequest) -> HttpResponse:
    return _holiday_form(request, None)


@staff_view("contests.change_holiday")
def holiday_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _holiday_form(request, get_object_or_404(Holiday, pk=pk))


def _holiday_form(request: HttpRequest, holiday: Holiday | None) -> HttpResponse:
    instance = Holiday.objects.get(pk=holiday.pk) if holiday else None
    form = HolidayForm(_form_data(request), instance=instance)
    if request.method == "POST" and form.is_valid():
        try:
            services.holiday_save(by=request.user, data=form.cleaned_data, holiday=holiday)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Feriado salvo." if holiday else "Feriado registrado.")
            return redirect("contests:holiday_list")
    return render(request, "contests/holiday_form.html", {"form": form, "holiday": holiday})


@staff_view("contests.delete_holiday")
def holiday_delete(request: HttpRequest, pk: int) -> HttpResponse:
    holiday = get_object_or_404(Holiday, pk=pk)
    if request.method == "POST":
        services.holiday_delete(holiday=holiday, by=request.user)
        messages.success(request, "Feriado excluído.")
        return redirect("contests:holiday_list")
    return render(request, "contests/holiday_confirm_delete.html", {"holiday": holiday})


# Access log ----------------------------------------------------------------------------------------------


@staff_view("contests.view_accesslog")
def accesslog_list(request: HttpRequest) -> HttpResponse:
    form = AccessLogFilterForm(request.GET or None)
    logs = AccessLog.objects.select_related("user", "content_type").order_by("-at", "-pk")
    if form.is_valid():
        data = form.cleaned_data
        if data["user"]:
            logs = logs.filter(
                Q(user__username__icontains=data["user"])
                | Q(user__first_name__icontains=data["user"])
                | Q(user__last_name__icontains=data["user"])
            )
        if data["start"]:
            logs = logs.filter(at__date__gte=data["start"])
        if data["end"]:
            logs = logs.filter(at__date__lte=data["end"])
    page = Paginator(logs, PAGE_SIZE).get_page(request.GET.get("pagina"))
    return render(request, "contests/accesslog_list.html", {"form": form, "page": page})
