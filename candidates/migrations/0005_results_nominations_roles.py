"""Roles (DESIGN.md) for result runs and nominations: Secretaria computes and calls, Gestão publishes."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

VIEW = ["view_resultrun", "view_resultentry", "view_nomination", "view_allocationledger"]

ROLES = {
    "Secretaria": [*VIEW, "add_resultrun", "call_nomination", "change_nomination"],
    "Gestão": [*VIEW, "publish_resultrun"],
    "Auditoria": VIEW,
    "Jurídico": ["view_resultrun", "view_resultentry", "view_nomination"],
}


def add_permissions(apps, schema_editor):
    app_config = apps.get_app_config("candidates")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="candidates", codename__in=codenames)
        missing = set(codenames) - set(perms.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"Permissões inexistentes: {sorted(missing)}")
        group.permissions.add(*perms)


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    codenames = {codename for names in ROLES.values() for codename in names}
    perms = Permission.objects.filter(content_type__app_label="candidates", codename__in=codenames)
    for group in Group.objects.filter(name__in=ROLES):
        group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [("candidates", "0004_results_guard")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
