"""Contests: list, detail, create, edit, status, homologation, validity and history."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from contests import quotas, selectors, services
from contests.forms import (
    ContestForm,
    ContestStatusForm,
    ExtendValidityForm,
    HomologationForm,
    add_service_errors,
)
from contests.models import Contest, Policy, Position
from contests.views.access import (
    PAGE_SIZE,
    AuthenticatedHttpRequest,
    form_data,
    get_contest_for_user,
    staff_view,
)
from contests.views.breadcrumbs import contest_trail, here
from contests.wording import carried_in_words

HOMOLOGATION_FIELDS = {
    "homologation_date": "date",
    "homologation_act": "act",
    "homologation_gazette": "gazette",
}

# Reservation read helpers -----------------------------------------------------------------------------


@dataclasses.dataclass
class PositionRow:
    position: Position
    reservation: quotas.Reservation | None
    error: str = ""

    @property
    def carried(self) -> str:
        """The fraction carried (SM art. 1 §4) in words, with a decimal comma."""
        if not self.reservation:
            return ""
        return carried_in_words(
            self.reservation.carried_fraction, self.position.contest.policy.citation_carry
        )


def reservation_row(position: Position, vacancies: int | None = None) -> PositionRow:
    try:
        return PositionRow(position, position.reservation(vacancies=vacancies))
    except quotas.QuotaError as error:
        return PositionRow(position, None, str(error))


def _with_vacancies(positions: QuerySet[Position]) -> QuerySet[Position]:
    return positions.annotate(total=Coalesce(Sum("openings__count"), 0)).order_by("code", "pk")


def _position_rows(contest: Contest, positions: Iterable[Position] | None = None) -> list[PositionRow]:
    """The reservation of each position, from the positions with their vacancies summed in one query."""
    positions = list(_with_vacancies(contest.positions.all()) if positions is None else positions)
    # A threshold counted on the contest (SM art. 1 §2) reads the contest's total: sum it here, once.
    contest._total_vacancies = sum(position.total for position in positions)  # type: ignore[attr-defined]
    rows = []
    for position in positions:
        position.contest = contest
        position._vacancies = position.total  # type: ignore[attr-defined]  # read by Position.vacancies
        rows.append(reservation_row(position))
    return rows


def _racial_header(contests: Iterable[Contest]) -> str:
    """The racial reserve's column under "Vagas": ``Reservadas a negros`` when the listed contests'
    policies name one group (one organisation, one law: the usual case); otherwise the group is the one of
    each contest's policy."""
    groups = {contest.policy.group_label for contest in contests}
    return f"Reservadas a {groups.pop()}" if len(groups) == 1 else "Reservadas ao grupo da política"


# Contests ------------------------------------------------------------------------------------------------


@staff_view("contests.view_contest")
def contest_list(request: AuthenticatedHttpRequest) -> HttpResponse:
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
    show_reserves = request.user.has_perm("contests.view_position")
    if show_reserves:
        # The reserve is counted per position (SM art. 1 §1): the contest's figures are their sums.
        positions: dict[int, list[Position]] = defaultdict(list)
        for position in _with_vacancies(Position.objects.filter(contest__in=[c.pk for c in page])):
            positions[position.contest_id].append(position)
        for contest in page:
            rows = _position_rows(contest, positions[contest.pk])
            reservations = [row.reservation for row in rows if row.reservation]
            contest.reserved = {  # for the template
                "open": sum(r.open for r in reservations),
                "racial": sum(r.racial for r in reservations),
                "pcd": sum(r.pcd for r in reservations),
            }
    return render(
        request,
        "contests/contest_list.html",
        {
            "page": page,
            "statuses": Contest.Status.choices,
            "status": status,
            "show_reserves": show_reserves,
            "racial_header": _racial_header(page),
        },
    )


@staff_view("contests.view_contest")
def contest_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
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
        found = quotas.fragmentation(
            [row.position.vacancies for row in rows],
            contest.policy.racial_rule(),
            threshold_on_contest=contest.policy.threshold_basis == Policy.ThresholdBasis.CONTEST,
        )
        fragmentation = dataclasses.asdict(found) if found else None
    except quotas.QuotaError:
        fragmentation = None
    status_form = None
    if request.user.has_perm("contests.change_contest"):
        status_form = ContestStatusForm(contest=contest)
    return render(
        request,
        "contests/contest_detail.html",
        {
            "contest": contest,
            "breadcrumbs": contest_trail(None, here(f"Concurso {contest.number}/{contest.year}")),
            "policy": contest.policy,
            "rows": rows,
            "totals": totals,
            "fragmentation": fragmentation,
            "status_form": status_form,
        },
    )


@staff_view("contests.add_contest")
def contest_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ContestForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            contest = services.contest_create(by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Concurso criado.")
            return redirect(contest)
    context = {"form": form, "breadcrumbs": contest_trail(None, here("Novo concurso"))}
    return render(request, "contests/contest_form.html", context)


@staff_view("contests.change_contest")
def contest_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug, change=True)
    # The form validates a copy, so the page keeps showing the stored values when the save is refused.
    form = ContestForm(form_data(request), instance=Contest.objects.get(pk=contest.pk))
    if request.method == "POST" and form.is_valid():
        try:
            contest = services.contest_update(contest=contest, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Concurso alterado.")
            return redirect(contest)
    context = {"form": form, "contest": contest, "breadcrumbs": contest_trail(contest, here("Editar"))}
    return render(request, "contests/contest_form.html", context)


@require_POST
@staff_view("contests.change_contest")
def contest_status(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug, change=True)
    form = ContestStatusForm(request.POST, contest=contest)
    if not form.is_valid():
        messages.error(
            request, " ".join(str(error) for error in form.errors.get("status", ["Situação inválida."]))
        )
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
def contest_homologate(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    if contest.is_homologated:
        messages.info(request, "Este concurso já está homologado.")
        return redirect(contest)
    form = HomologationForm(form_data(request), initial={"date": timezone.localdate()})
    confirming = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        arguments = {
            "by": request.user,
            "date": data["date"],
            "act": data["act"],
            "gazette": data["gazette"],
            "validity_months": data["validity_months"],
        }
        # Two steps, as a publication: the data typed, then what the homologation will fix,
        # confirmed. The first step runs the service in a savepoint rolled back, so that a refusal (a date
        # before the edital) shows up before the confirmation, not after it; "Voltar e corrigir" shows the
        # form again with what was typed.
        if request.POST.get("confirm") != "1":
            if not request.POST.get("edit"):
                try:
                    with transaction.atomic():
                        tried = services.contest_homologate(
                            contest=Contest.objects.get(pk=contest.pk), **arguments
                        )
                        confirming = {**data, "validity_end": tried.validity_end}
                        transaction.set_rollback(True)
                except ValidationError as error:
                    add_service_errors(form, error, HOMOLOGATION_FIELDS)
        else:
            try:
                contest = services.contest_homologate(contest=contest, **arguments)
            except ValidationError as error:
                add_service_errors(form, error, HOMOLOGATION_FIELDS)
            else:
                messages.success(
                    request, f"Concurso homologado. Validade até {contest.validity_end:%d/%m/%Y}."
                )
                return redirect(contest)
    context = {
        "form": form,
        "contest": contest,
        "confirming": confirming,
        "breadcrumbs": contest_trail(contest, here("Homologar")),
    }
    return render(request, "contests/contest_homologate.html", context)


@staff_view("contests.view_contest", "contests.homologate_contest")
def contest_extend_validity(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    if not contest.is_homologated or contest.validity_extended:
        messages.info(
            request,
            "A validade já foi prorrogada uma vez (CF art. 37, III)."
            if contest.validity_extended
            else "Só um concurso homologado tem validade a prorrogar.",
        )
        return redirect(contest)
    form = ExtendValidityForm(form_data(request))
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
    breadcrumbs = contest_trail(contest, here("Prorrogar validade"))
    context = {"form": form, "contest": contest, "breadcrumbs": breadcrumbs}
    return render(request, "contests/contest_extend_validity.html", context)


@staff_view("contests.view_contest", "contests.view_contest_history")
def contest_history(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    page = Paginator(selectors.contest_history(contest), PAGE_SIZE).get_page(request.GET.get("pagina"))
    context = {"contest": contest, "page": page, "breadcrumbs": contest_trail(contest, here("Histórico"))}
    return render(request, "contests/contest_history.html", context)
