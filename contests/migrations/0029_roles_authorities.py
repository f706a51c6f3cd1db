"""Roles for the authorities (DESIGN.md): Gestão records them and who signs each kind of act; whoever sees
the organisation page sees them."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Secretaria": ["view_authority"],
    "Jurídico": ["view_authority"],
    "Gestão": ["view_authority", "add_authority", "change_authority"],
    "Auditoria": ["view_authority"],
}


def add_permissions(apps, schema_editor):
    app_config = apps.get_app_config("contests")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="contests", codename__in=codenames)
        missing = set(codenames) - set(perms.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"Permissões inexistentes: {sorted(missing)}")
        group.permissions.add(*perms)


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group = Group.objects.filter(name=name).first()
        if group:
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label="contests", codename__in=codenames)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0028_signatory_points_to_authority"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
