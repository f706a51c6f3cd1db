"""Angra dos Reis (and every later version of its policy) gives a collision to the racial reserve: AR
art. 3 §1 fixes the 5th vacancy for negros e índios (RULES.md §4, default priority for every k-th)."""

from django.db import migrations

ANGRA = "angra-dos-reis"


def _angra_family(Policy):
    """The seeded Angra dos Reis policy and every version that descends from it."""
    rows = list(Policy.objects.all())
    by_pk = {row.pk: row for row in rows}
    family = []
    for row in rows:
        current, seen = row, set()
        while current is not None and current.pk not in seen:
            seen.add(current.pk)
            if current.slug == ANGRA:
                family.append(row)
                break
            current = by_pk.get(current.previous_version_id)
    return family


def racial_first(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    for row in _angra_family(Policy):
        if row.priority != "racial_first":
            row.priority = "racial_first"
            row.save(update_fields=["priority"])


def pcd_first(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    for row in _angra_family(Policy):
        row.priority = "pcd_first"
        row.save(update_fields=["priority"])


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0007_policy_priority_by_order"),
    ]

    operations = [migrations.RunPython(racial_first, pcd_first)]
