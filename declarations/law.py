"""The procedure's and the heteroidentification commission's law of each policy version (RULES §5), kept here
beside the policy (``ProcedureLaw``, one row per version, ``policy.procedure_law``): its services, its form,
and the part the policy's own services and screens carry (``contests.policy_parts``, registered by
``DeclarationsConfig.ready``), so that the law is still created, versioned, locked and edited as one policy:

- **create** (``procedure_law_create``): the row of a new version, with the defaults or as a copy of the
  version it follows, and the changes typed on the policy's page over it;
- **update** (``procedure_law_update``): refused with the policy's own message while a contest whose edital is
  published uses the version (the law a published edital stated never changes: make a new version).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction

from contests.audit import User, assign, audited_save
from contests.forms import StaffFormMixin
from contests.models import POLICY_LOCKED, Policy
from contests.policy_parts import PolicyPart
from declarations.models import ProcedureLaw

LAW_FIELDSETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Autodeclaração e processo",
        (
            "non_confirmation",
            "good_faith_keeps_open",
            "falsity_effect",
            "nominee_falsity_effect",
            "defence_days",
            "evidence_notice_business_days",
            "final_statement_days",
            "decision_days",
            "decision_extension_days",
            "appeal_days",
            "reconsideration_days",
            "appeal_decision_days",
            "appeal_instances",
            "electronic_notice_basis",
            "tacit_acknowledgement_days",
        ),
    ),
    (
        "Heteroidentificação",
        (
            "hetero_commission_size",
            "hetero_appeal_commission_size",
            "hetero_appeal_days",
            "hetero_no_show",
            "hetero_second_call",
        ),
    ),
)
LAW_FIELDS = tuple(name for _, names in LAW_FIELDSETS for name in names)


class ProcedureLawForm(StaffFormMixin, forms.ModelForm):
    """The law's fields, shown under the policy's on the policy's pages (a second form, one submit)."""

    fieldsets = LAW_FIELDSETS

    class Meta:
        model = ProcedureLaw
        fields = list(LAW_FIELDS)
        widgets = {"electronic_notice_basis": forms.Textarea(attrs={"rows": 2})}


@transaction.atomic
def procedure_law_create(
    *,
    policy: Policy,
    by: User | None,
    data: Mapping[str, Any] | None = None,
    copy_from: Policy | None = None,
) -> ProcedureLaw:
    """The law of a new policy version: ``copy_from``'s (the version it follows) or the defaults, ``data``
    over it. Called by the policy services in their transaction (``contests.policy_parts``)."""
    law = ProcedureLaw(policy=policy)
    source = ProcedureLaw.objects.filter(policy=copy_from).first() if copy_from is not None else None
    if source is not None:
        assign(law, {name: getattr(source, name) for name in LAW_FIELDS})
    assign(law, data or {}, allowed=LAW_FIELDS)
    audited_save(law, by=by, reason=f"Nova versão de {copy_from}" if copy_from else "Política criada")
    return law


@transaction.atomic
def procedure_law_update(*, policy: Policy, by: User | None, data: Mapping[str, Any]) -> ProcedureLaw:
    """Change the law of ``policy``, unless a published contest uses the version (then make a new one)."""
    policy = Policy.objects.select_for_update().get(pk=policy.pk)
    if policy.is_used_by_published_contest():
        raise ValidationError(POLICY_LOCKED)
    law = ProcedureLaw.objects.select_for_update().get(policy=policy)
    if assign(law, data, allowed=LAW_FIELDS):
        audited_save(law, by=by, reason="Política alterada")
    return law


PART = PolicyPart(
    accessor="procedure_law",
    form_class=ProcedureLawForm,
    create=procedure_law_create,
    update=procedure_law_update,
)
