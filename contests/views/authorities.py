"""The organisation's authorities and who signs each kind of act (Gestão)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from contests import services
from contests.forms import AuthorityEndForm, AuthorityForm, SignatoriesForm, add_service_errors
from contests.models import Authority, Signatory
from contests.views.access import AuthenticatedHttpRequest, form_data, staff_view
from contests.views.breadcrumbs import Crumb, here


def _trail(*tail: Crumb) -> list[Crumb]:
    return [
        ("Organização", reverse("contests:organization")),
        ("Autoridades", reverse("contests:authority_list")),
        *tail,
    ]


@staff_view("contests.view_authority")
def authority_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    today = timezone.localdate()
    authorities = [
        {"authority": authority, "in_force": authority.in_force(today)}
        for authority in Authority.objects.order_by("-valid_from", "name")
    ]
    assigned = {row.kind: row.authority for row in Signatory.objects.select_related("authority")}
    kinds = [
        {
            "label": label,
            "authority": assigned.get(kind),
            "in_force": assigned[kind].in_force(today) if kind in assigned else False,
        }
        for kind, label in Signatory.Kind.choices
    ]
    return render(
        request,
        "contests/authority_list.html",
        {
            "authorities": authorities,
            "kinds": kinds,
            "today": today,
            "breadcrumbs": [("Organização", reverse("contests:organization")), here("Autoridades")],
        },
    )


@staff_view("contests.add_authority")
def authority_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _authority_form(request, None)


@staff_view("contests.change_authority")
def authority_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _authority_form(request, get_object_or_404(Authority, pk=pk))


def _authority_form(request: AuthenticatedHttpRequest, authority: Authority | None) -> HttpResponse:
    instance = Authority.objects.get(pk=authority.pk) if authority else None
    form = AuthorityForm(form_data(request), instance=instance)
    if request.method == "POST" and form.is_valid():
        try:
            services.authority_save(by=request.user, data=form.cleaned_data, authority=authority)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Autoridade salva." if authority else "Autoridade registrada.")
            return redirect("contests:authority_list")
    title = f"Editar: {authority}" if authority else "Nova autoridade"
    return render(
        request,
        "contests/authority_form.html",
        {"form": form, "authority": authority, "title": title, "breadcrumbs": _trail(here(title))},
    )


@staff_view("contests.change_authority")
def authority_end(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    authority = get_object_or_404(Authority, pk=pk)
    form = AuthorityEndForm(form_data(request), initial={"valid_until": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        try:
            services.authority_end_term(
                by=request.user, authority=authority, until=form.cleaned_data["valid_until"]
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"Exercício de {authority.name} encerrado.")
            return redirect("contests:authority_list")
    title = f"Encerrar o exercício: {authority}"
    kinds = [row.get_kind_display() for row in authority.signatories.order_by("kind")]
    return render(
        request,
        "contests/authority_end.html",
        {
            "form": form,
            "authority": authority,
            "kinds": kinds,
            "title": title,
            "breadcrumbs": _trail(here(title)),
        },
    )


@staff_view("contests.view_authority", "contests.change_authority")
def signatories_edit(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SignatoriesForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.signatories_save(by=request.user, data=form.signatories(), today=timezone.localdate())
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Autoridades que assinam cada espécie de ato salvas.")
            return redirect("contests:authority_list")
    title = "Quem assina cada espécie de ato"
    return render(
        request,
        "contests/signatories_form.html",
        {"form": form, "title": title, "breadcrumbs": _trail(here(title))},
    )
