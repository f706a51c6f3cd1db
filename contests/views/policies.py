"""Policies: the laws' parameters, versioned (a policy used by a published contest is not edited)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from contests import quotas, services
from contests.forms import (
    POLICY_FIELDSETS,
    PolicyForm,
    add_service_errors,
)
from contests.history import value_display
from contests.models import Policy
from contests.models.contest import edital_published_q
from contests.views.access import (
    AuthenticatedHttpRequest,
    form_data,
    staff_view,
)
from contests.views.breadcrumbs import Crumb, here

# Policies ------------------------------------------------------------------------------------------------


def _policy_trail(*tail: Crumb) -> list[Crumb]:
    return [("Políticas de reserva", reverse("contests:policy_list")), *tail]


@staff_view("contests.view_policy_list")
def policy_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    policies = Policy.objects.annotate(
        contest_count=Count("contests"),
        published_count=Count("contests", filter=edital_published_q("contests__")),
    ).order_by("name", "-version")
    return render(request, "contests/policy_list.html", {"policies": policies})


@staff_view("contests.view_policy")
def policy_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy.objects.select_related("previous_version"), slug=slug)
    sections = [
        (
            legend,
            [
                {
                    "label": str(getattr(Policy._meta.get_field(name), "verbose_name", name)),
                    "value": value_display(Policy, name, getattr(policy, name)),
                    "help": getattr(Policy._meta.get_field(name), "help_text", ""),
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
            # Who may open this page but not the list (a commission member, from a contest) sees no link.
            "breadcrumbs": _policy_trail(here(policy))
            if request.user.has_perm("contests.view_policy_list")
            else [here(policy)],
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
def policy_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PolicyForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            policy = services.policy_create(by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Política criada.")
            return redirect(policy)
    return render(
        request,
        "contests/policy_form.html",
        {"form": form, "breadcrumbs": _policy_trail(here("Nova política"))},
    )


@staff_view("contests.view_policy", "contests.change_policy")
def policy_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
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
    form = PolicyForm(form_data(request), instance=Policy.objects.get(pk=policy.pk))
    if request.method == "POST" and form.is_valid():
        try:
            policy = services.policy_update(policy=policy, by=request.user, data=form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, "Política alterada.")
            return redirect(policy)
    breadcrumbs = _policy_trail((str(policy), policy.get_absolute_url()), here("Editar"))
    return render(
        request, "contests/policy_form.html", {"form": form, "policy": policy, "breadcrumbs": breadcrumbs}
    )


@staff_view("contests.view_policy", "contests.add_policy")
def policy_new_version(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy, slug=slug)
    form = PolicyForm(form_data(request), instance=Policy.objects.get(pk=policy.pk), new_version=True)
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
    breadcrumbs = _policy_trail((str(policy), policy.get_absolute_url()), here("Nova versão"))
    context = {"form": form, "policy": policy, "new_version": True, "breadcrumbs": breadcrumbs}
    return render(request, "contests/policy_form.html", context)
