"""Roles (DESIGN.md) for court orders (issue 22): Jurídico records them and changes their status; Secretaria,
which complies with them (nominations, calls), and Auditoria read them."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

READ = ["view_courtorder", "view_courtordereffect"]

ROLES = {
    "Jurídico": [*READ, "add_courtorder", "change_courtorder", "record_court_order"],
    "Secretaria": READ,
    "Auditoria": READ,
}


def add_permissions(apps, schema_editor):
    app_config = apps.get_app_config("declarations")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="declarations", codename__in=codenames)
        missing = set(codenames) - set(perms.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"Permissões inexistentes: {sorted(missing)}")
        group.permissions.add(*perms)


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    codenames = {codename for names in ROLES.values() for codename in names}
    perms = Permission.objects.filter(content_type__app_label="declarations", codename__in=codenames)
    for group in Group.objects.filter(name__in=ROLES):
        group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [("declarations", "0019_court_orders")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
