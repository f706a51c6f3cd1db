"""Jurídico's two steps of the auditable draw of a commission's members (``draw_services``):
announce (pool, k and the seed's public source, published as an act before any seed) and, later, perform
(the seed, no earlier than the announced date; the commission is formed from the drawn members). Every
write: permission, form, service, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from contests.documents.models import Document
from contests.forms import add_service_errors
from contests.models import Contest
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from declarations.hetero import documents, draw_services, selectors
from declarations.hetero.forms import DrawAnnounceForm, DrawPerformForm
from declarations.hetero.views.staff import MANAGE, members_and_form, signer_initial, trail
from declarations.models import DrawAnnouncement


@staff_view(MANAGE)
def draw_announce(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    contest = get_object_or_404(Contest.objects.select_related("policy__procedure_law"), slug=slug)
    form = DrawAnnounceForm(request.POST or None, initial=signer_initial(contest, Document.Kind.HETERO_DRAW))
    ready, formset = members_and_form(request, form)
    if ready:
        data = form.cleaned_data
        try:
            announcement = draw_services.draw_announce(
                contest=contest,
                kind=data["kind"],
                pool=formset.members(),  # type: ignore[attr-defined]
                seed_source=data["seed_source"],
                seed_known_on=data["seed_known_on"],
                replacement_reason=data["replacement_reason"],
                by=request.user,
                now=timezone.now(),
                signer=documents.Signer(name=data["signer_name"], office=data["signer_office"]),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"Aviso de sorteio publicado: a semente será aceita a partir de "
                f"{announcement.seed_known_on:%d/%m/%Y}.",
            )
            return redirect("declarations:hetero_contest", slug=contest.slug)
    law = contest.policy.procedure_law
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "formset": formset,
            "formset_title": "Lista de sorteáveis",
            "formset_help": "Toda a lista de sorteáveis, na ordem publicada: ela não muda depois do aviso. "
            "O e-mail não é publicado; serve ao link com que o sorteado define a própria senha.",
            "title": "Anunciar sorteio de membros",
            "lead": "O aviso fixa a lista de sorteáveis, o número de sorteados (pela política: "
            f"{law.hetero_commission_size} na comissão de heteroidentificação, "
            f"{law.hetero_appeal_commission_size} na recursal) e a fonte pública da semente, e é publicado "
            "como ato antes de qualquer semente. Depois do sorteio, o aviso não pode ser substituído.",
            "submit": "Publicar o aviso de sorteio",
            "multipart": False,
            "breadcrumbs": trail(contest, here("Anunciar sorteio")),
        },
    )


@staff_view(MANAGE)
def draw_perform(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    announcement = get_object_or_404(DrawAnnouncement.objects.select_related("contest"), pk=pk)
    contest = announcement.contest
    form = DrawPerformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            formed = draw_services.draw_perform(
                announcement=announcement,
                seed=data["seed"],
                formed_on=data["formed_on"],
                act_reference=data["act_reference"],
                by=request.user,
                now=timezone.now(),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{formed.commission.get_kind_display()} constituída por sorteio.")
            for warning in formed.warnings:
                messages.warning(request, warning)
            messages.info(
                request, "O registro do sorteio está na página pública do sorteio: publique-o como ato."
            )
            return redirect("declarations:hetero_contest", slug=contest.slug)
    document = selectors.announcement_document(announcement)
    published = (
        f", publicado em {timezone.localtime(document.published_at):%d/%m/%Y} (código {document.code})"
        if document
        else ", não publicado"
    )
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": f"Sortear: {announcement.get_kind_display().lower()}",
            "lead": f"Aviso de {timezone.localtime(announcement.announced_at):%d/%m/%Y %H:%M}"
            f"{published}: {announcement.k} de {len(announcement.pool)} "
            f"({', '.join(announcement.names)}). Fonte da semente: {announcement.seed_source}; aceita a "
            f"partir de {announcement.seed_known_on:%d/%m/%Y}.",
            "submit": "Sortear e constituir a comissão",
            "multipart": False,
            "breadcrumbs": trail(contest, here("Sortear")),
        },
    )
