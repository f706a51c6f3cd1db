"""Policies: the laws' parameters, versioned (a policy used by a published contest is not edited). The parts of
a version other apps keep (the procedure's law: ``contests.policy_parts``) are shown and edited on the same
pages, each with its own form, saved with the policy by the same service."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from contests import policy_parts, quotas, services
from contests.forms import (
    POLICY_FIELDSETS,
    PolicyForm,
    add_service_errors,
)
from contests.history import value_display
from contests.models import POLICY_LOCKED, Policy
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


def _sections(
    model: type[models.Model], obj: models.Model, fieldsets: tuple[tuple[str, tuple[str, ...]], ...]
) -> list[tuple[str, list[dict[str, str]]]]:
    return [
        (
            legend,
            [
                {
                    "label": str(getattr(model._meta.get_field(name), "verbose_name", name)),
                    "value": value_display(model, name, getattr(obj, name)),
                    "help": str(getattr(model._meta.get_field(name), "help_text", "")),
                }
                for name in names
            ],
        )
        for legend, names in fieldsets
    ]


def _part_forms(data: QueryDict | None, policy: Policy | None) -> list[forms.ModelForm]:
    """One form per part of the policy (``contests.policy_parts``): on the row of ``policy`` (read afresh, so
    that a refused post leaves no typed value on it), or on a new row with the defaults."""
    fresh = Policy.objects.get(pk=policy.pk) if policy is not None else None
    return [
        part.form_class(data, instance=part.row(fresh) if fresh is not None else None)
        for part in policy_parts.parts()
    ]


def _parts_data(part_forms: list[forms.ModelForm]) -> dict[str, dict[str, Any]]:
    return {
        part.accessor: part_form.cleaned_data
        for part, part_form in zip(policy_parts.parts(), part_forms, strict=True)
    }


def _add_errors(error: ValidationError, form: forms.BaseForm, part_forms: list[forms.ModelForm]) -> None:
    """A service's refusal on the form that shows the field it names: a part's, or else the policy's."""
    if not hasattr(error, "error_dict"):
        add_service_errors(form, error)
        return
    rest = dict(error.error_dict)
    for part_form in part_forms:
        mine = {name: rest.pop(name) for name in list(rest) if name in part_form.fields}
        if mine:
            add_service_errors(part_form, ValidationError(mine))
    if rest:
        add_service_errors(form, ValidationError(rest))


@staff_view("contests.view_policy")
def policy_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    accessors = [part.accessor for part in policy_parts.parts()]
    policy = get_object_or_404(Policy.objects.select_related("previous_version", *accessors), slug=slug)
    sections = _sections(Policy, policy, POLICY_FIELDSETS)
    for part in policy_parts.parts():
        row = part.row(policy)
        sections += _sections(type(row), row, part.fieldsets)
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
    part_forms = _part_forms(form_data(request), None)
    if request.method == "POST" and all([form.is_valid(), *(f.is_valid() for f in part_forms)]):
        try:
            policy = services.policy_create(
                by=request.user, data=form.cleaned_data, parts=_parts_data(part_forms)
            )
        except ValidationError as error:
            _add_errors(error, form, part_forms)
        else:
            messages.success(request, "Política criada.")
            return redirect(policy)
    return render(
        request,
        "contests/policy_form.html",
        {"form": form, "part_forms": part_forms, "breadcrumbs": _policy_trail(here("Nova política"))},
    )


@staff_view("contests.view_policy", "contests.change_policy")
def policy_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy, slug=slug)
    if policy.is_used_by_published_contest():
        messages.warning(request, POLICY_LOCKED)
        if request.user.has_perm("contests.add_policy"):
            return redirect("contests:policy_new_version", policy.slug)
        return redirect(policy)
    form = PolicyForm(form_data(request), instance=Policy.objects.get(pk=policy.pk))
    part_forms = _part_forms(form_data(request), policy)
    if request.method == "POST" and all([form.is_valid(), *(f.is_valid() for f in part_forms)]):
        try:
            policy = services.policy_update(
                policy=policy, by=request.user, data=form.cleaned_data, parts=_parts_data(part_forms)
            )
        except ValidationError as error:
            _add_errors(error, form, part_forms)
        else:
            messages.success(request, "Política alterada.")
            return redirect(policy)
    breadcrumbs = _policy_trail((str(policy), policy.get_absolute_url()), here("Editar"))
    context = {"form": form, "part_forms": part_forms, "policy": policy, "breadcrumbs": breadcrumbs}
    return render(request, "contests/policy_form.html", context)


@staff_view("contests.view_policy", "contests.add_policy")
def policy_new_version(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    policy = get_object_or_404(Policy, slug=slug)
    form = PolicyForm(form_data(request), instance=Policy.objects.get(pk=policy.pk), new_version=True)
    part_forms = _part_forms(form_data(request), policy)
    if request.method == "POST" and all([form.is_valid(), *(f.is_valid() for f in part_forms)]):
        try:
            new = services.policy_new_version(
                policy=policy, by=request.user, data=form.cleaned_data, parts=_parts_data(part_forms)
            )
        except ValidationError as error:
            _add_errors(error, form, part_forms)
        else:
            messages.success(
                request, f"Versão {new.version} criada. Os concursos já publicados mantêm a anterior."
            )
            return redirect(new)
    breadcrumbs = _policy_trail((str(policy), policy.get_absolute_url()), here("Nova versão"))
    context = {
        "form": form,
        "part_forms": part_forms,
        "policy": policy,
        "new_version": True,
        "breadcrumbs": breadcrumbs,
    }
    return render(request, "contests/policy_form.html", context)
