"""Roles for the signing certificate (issue 20): Gestão uploads and replaces it; the readers of the
organisation's screen (Secretaria, Jurídico, Auditoria) see which certificate signs, never its secrets."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Gestão": ["view_signingcertificate", "add_signingcertificate"],
    "Secretaria": ["view_signingcertificate"],
    "Jurídico": ["view_signingcertificate"],
    "Auditoria": ["view_signingcertificate"],
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
    dependencies = [("contests", "0031_signingcertificate"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
