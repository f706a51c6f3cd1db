"""Angra dos Reis contests already nominating: the seats not yet created follow the policy's new
racial-first priority (RULES.md §4; AR art. 3 §1). The snapshot keeps the kinds of the seats already
created and every nomination as decided (§4 item 5): only the parameter for future seats changes."""

from django.db import migrations


def _racial_first_policies(Policy):
    return set(Policy.objects.filter(priority="racial_first").values_list("pk", flat=True))


def forwards(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    AllocationLedger = apps.get_model("candidates", "AllocationLedger")
    policies = _racial_first_policies(Policy)
    for ledger in AllocationLedger.objects.select_related("position__contest"):
        params = (ledger.state or {}).get("params")
        if not params or ledger.position.contest.policy_id not in policies:
            continue
        if params.get("priority") != ["racial", "pcd"]:
            params["priority"] = ["racial", "pcd"]
            ledger.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("candidates", "0009_narrow_roles_to_design"),
        ("contests", "0008_seed_angra_racial_first_priority"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
