"""Positions, their vacancies and openings, and the live reservation preview (JSON)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from contests import selectors, services
from contests.forms import (
    PositionForm,
    PreviewForm,
    VacancyOpeningForm,
    add_service_errors,
)
from contests.models import Contest, Position, VacancyOpening, vacancies_bound_refusal
from contests.views.access import (
    PAGE_SIZE,
    AuthenticatedHttpRequest,
    form_data,
    get_contest_for_user,
    get_opening_for_user,
    get_position_for_user,
    staff_view,
)
from contests.views.breadcrumbs import contest_trail, here, position_trail
from contests.views.contests import reservation_row
from contests.wording import carried_in_words, format_fraction_plain, plural


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


# Positions and vacancies ---------------------------------------------------------------------------------


@require_GET
@staff_view("contests.view_contest", "contests.view_position")
def reservation_preview(request: AuthenticatedHttpRequest, slug: str) -> JsonResponse:
    """The quota engine's answer while a clerk types a vacancy count (the rule is never redone in JS).

    ``vagas``: the number typed; ``cargo``: an existing position (the typed vacancies add to its total);
    ``substituir``: an opening of that position whose count the typed number replaces.
    """
    contest = get_contest_for_user(request.user, slug)
    form = PreviewForm(request.GET)
    if not form.is_valid():
        negative = form.has_error("vagas", "min_value")
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
        position._vacancies = 0  # type: ignore[attr-defined]  # read by Position.vacancies
        base = 0
    refusal = vacancies_bound_refusal(base + typed, already=base)
    if refusal:
        return JsonResponse({"error": refusal}, status=400)
    row = reservation_row(position, base + typed)
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
            "carried_fraction": format_fraction_plain(r.carried_fraction),
            "carried_fraction_display": carried_in_words(r.carried_fraction, contest.policy.citation_carry),
            "racial_explanation": r.racial_explanation,
            "pcd_explanation": r.pcd_explanation or "Sem reserva para pessoas com deficiência.",
            "summary": (
                f"Total de {plural(r.vacancies, 'vaga', 'vagas')} no cargo: {r.open} de ampla "
                f"concorrência, {plural(r.racial, 'reservada', 'reservadas')} a {label} e {r.pcd} a "
                "pessoas com deficiência."
            ),
        }
    )


@staff_view("contests.view_contest", "contests.add_position")
def position_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_contest_for_user(request.user, slug)
    form = PositionForm(form_data(request), contest=contest, initial={"edital_vacancies": 0})
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
            messages.success(
                request, f"Cargo {position.code} criado com {plural(vacancies, 'vaga', 'vagas')} no edital."
            )
            if request.POST.get("another"):  # "Salvar e cadastrar outro cargo": an empty form again
                return redirect("contests:position_create", contest.slug)
            return redirect(position)
    return render(
        request,
        "contests/position_form.html",
        {
            "form": form,
            "contest": contest,
            "preview_url": _preview_url(contest),
            "breadcrumbs": contest_trail(contest, here("Novo cargo")),
        },
    )


@staff_view("contests.view_contest", "contests.change_position")
def position_edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk, change=True)
    contest = position.contest
    edital = position.openings.filter(kind=VacancyOpening.Kind.EDITAL).first()
    form = PositionForm(
        form_data(request),
        contest=contest,
        instance=Position.objects.get(pk=position.pk),
        initial={"edital_vacancies": edital.count if edital else 0},
    )
    locked = contest.edital_vacancies_frozen
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
            "breadcrumbs": position_trail(position, here("Editar")),
        },
    )


@staff_view("contests.view_contest", "contests.view_position")
def position_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    contest = position.contest
    row = reservation_row(position)
    openings = []
    if request.user.has_perm("contests.view_vacancyopening"):
        cumulative = 0
        previous = None
        for opening in position.openings.order_by("kind", "date", "pk"):
            cumulative += opening.count
            after = reservation_row(position, cumulative).reservation
            added: int | None = after.racial - previous.racial if after and previous else None
            openings.append(
                {
                    "opening": opening,
                    "cumulative": cumulative,
                    "reservation": after,
                    "added": added,
                    "carried": carried_in_words(after.carried_fraction) if after else "",
                }
            )
            previous = after
    return render(
        request,
        "contests/position_detail.html",
        {
            "contest": contest,
            "position": position,
            "breadcrumbs": contest_trail(contest, here(position.code)),
            "policy": contest.policy,
            "row": row,
            "openings": openings,
            "edital_editable": not contest.edital_published,
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.view_contest_history")
def position_history(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    page = Paginator(selectors.position_history(position), PAGE_SIZE).get_page(request.GET.get("pagina"))
    breadcrumbs = position_trail(position, here("Histórico"))
    context = {"contest": position.contest, "position": position, "page": page, "breadcrumbs": breadcrumbs}
    return render(request, "contests/position_history.html", context)


@staff_view("contests.view_contest", "contests.view_position", "contests.add_vacancyopening")
def opening_create(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    contest = position.contest
    form = VacancyOpeningForm(
        form_data(request),
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
            messages.success(request, f"Abertura de {plural(opening.count, 'vaga', 'vagas')} registrada.")
            return redirect(position)
    return render(
        request,
        "contests/opening_form.html",
        {
            "form": form,
            "contest": contest,
            "position": position,
            "preview_url": _preview_url(contest, position),
            "breadcrumbs": position_trail(position, here("Abertura de vagas")),
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.change_vacancyopening")
def opening_edit(request: AuthenticatedHttpRequest, slug: str, pk: int, opening_pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    opening = get_opening_for_user(request.user, position, opening_pk)
    if opening.kind == VacancyOpening.Kind.EDITAL:
        # The edital's vacancies are part of the position's form.
        return redirect("contests:position_edit", slug, position.pk)
    form = VacancyOpeningForm(form_data(request), instance=VacancyOpening.objects.get(pk=opening.pk))
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
            "breadcrumbs": position_trail(position, here("Editar abertura")),
        },
    )


@staff_view("contests.view_contest", "contests.view_position", "contests.delete_vacancyopening")
def opening_delete(request: AuthenticatedHttpRequest, slug: str, pk: int, opening_pk: int) -> HttpResponse:
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
