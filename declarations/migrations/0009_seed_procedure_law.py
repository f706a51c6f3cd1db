"""Each policy version gets its procedure and commission law row, with the values the policy carried until now
(contests 0018 then removes those fields from the policy), and the policy's history of them.

Also a seed: the test suite re-runs the migrations named "seed" after a flush, with the models as they are at
the end, where the policy no longer carries these fields. Then a founding law gets the values its seeds gave
it (contests 0003 and 0014: the fields' defaults; 0016: Angra dos Reis annuls the admission) and any other
policy the defaults. Idempotent: a policy that has its row is left as it is.
"""

from django.db import migrations

LAW_FIELDS = (
    "non_confirmation",
    "hetero_commission_size",
    "hetero_appeal_commission_size",
    "hetero_appeal_days",
    "hetero_no_show",
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
)
# A founding law's values where its seeds depart from the defaults, for it and every later version of it.
FOUNDING = {"angra-dos-reis": {"nominee_falsity_effect": "admission"}}


def _carries_law(model) -> bool:
    """Whether ``model`` (the policy, or its history, in this migration's state) still has the fields."""
    names = {field.name for field in model._meta.concrete_fields}
    return set(LAW_FIELDS) <= names


def _root_slug(policy, by_pk) -> str:
    current, seen = policy, set()
    while current.previous_version_id is not None and current.previous_version_id in by_pk:
        if current.pk in seen:
            break
        seen.add(current.pk)
        current = by_pk[current.previous_version_id]
    return current.slug


def _copy_history(apps, laws) -> None:
    """The policy's history of these fields becomes the row's: one record per change of them (a record of
    the policy that changed none of them is not repeated), with its date, author, reason and kind."""
    HistoricalPolicy = apps.get_model("contests", "HistoricalPolicy")
    HistoricalProcedureLaw = apps.get_model("declarations", "HistoricalProcedureLaw")
    law_by_policy = {law.policy_id: law for law in laws}
    last: dict[int, tuple] = {}
    copies = []
    records = HistoricalPolicy.objects.filter(id__in=law_by_policy).order_by("history_date", "history_id")
    for record in records:
        values = tuple(getattr(record, name) for name in LAW_FIELDS)
        if record.history_type == "~" and last.get(record.id) == values:
            continue
        last[record.id] = values
        copies.append(
            HistoricalProcedureLaw(
                id=law_by_policy[record.id].pk,
                policy_id=record.id,
                history_date=record.history_date,
                history_change_reason=record.history_change_reason,
                history_type=record.history_type,
                history_user_id=record.history_user_id,
                **dict(zip(LAW_FIELDS, values, strict=True)),
            )
        )
    HistoricalProcedureLaw.objects.bulk_create(copies)


def seed(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    ProcedureLaw = apps.get_model("declarations", "ProcedureLaw")
    carried = _carries_law(Policy)
    policies = list(Policy.objects.order_by("pk"))
    by_pk = {policy.pk: policy for policy in policies}
    present = set(ProcedureLaw.objects.values_list("policy_id", flat=True))
    laws = []
    for policy in policies:
        if policy.pk in present:
            continue
        if carried:
            values = {name: getattr(policy, name) for name in LAW_FIELDS}
        else:
            values = FOUNDING.get(_root_slug(policy, by_pk), {})
        laws.append(ProcedureLaw(policy=policy, **values))
    # Their history is written below, from the policy's (simple_history's signals do not reach the models of
    # a migration).
    laws = ProcedureLaw.objects.bulk_create(laws)
    if carried and laws and _carries_law(apps.get_model("contests", "HistoricalPolicy")):
        _copy_history(apps, ProcedureLaw.objects.filter(policy_id__in=[law.policy_id for law in laws]))


def unseed(apps, schema_editor):
    """The rows' values go back to their policy (contests 0018 reversed gave it the fields back), and the
    history to the policy's records (each takes the row's values as they stood at its date)."""
    Policy = apps.get_model("contests", "Policy")
    HistoricalPolicy = apps.get_model("contests", "HistoricalPolicy")
    ProcedureLaw = apps.get_model("declarations", "ProcedureLaw")
    HistoricalProcedureLaw = apps.get_model("declarations", "HistoricalProcedureLaw")
    if _carries_law(Policy):
        for law in ProcedureLaw.objects.all():
            Policy.objects.filter(pk=law.policy_id).update(**{name: getattr(law, name) for name in LAW_FIELDS})
    if _carries_law(HistoricalPolicy):
        states: dict[int, list] = {}
        for state in HistoricalProcedureLaw.objects.order_by("history_date", "history_id"):
            states.setdefault(state.policy_id, []).append(state)
        for record in HistoricalPolicy.objects.filter(id__in=states):
            before = [state for state in states[record.id] if state.history_date <= record.history_date]
            if before:
                values = {name: getattr(before[-1], name) for name in LAW_FIELDS}
                HistoricalPolicy.objects.filter(pk=record.pk).update(**values)
    HistoricalProcedureLaw.objects.all().delete()
    ProcedureLaw.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0017_publication"),
        ("declarations", "0008_procedure_law"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
