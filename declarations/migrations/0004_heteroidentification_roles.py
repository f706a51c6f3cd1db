"""Roles (DESIGN.md) for heteroidentification: Jurídico forms commissions, draws, calls, closes sessions and
applies results (and opens procedures); Comissão records its own opinions, and only in the sessions of its
commission (checked by the views and services, per member: a permission cannot say "own"); Auditoria
reads; Secretaria and Gestão see each registration's status only."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

READ = [
    "view_commission",
    "view_commissionmember",
    "view_memberdraw",
    "view_session",
    "view_verification",
    "view_opinion",
    "view_appeal",
    "view_heteroidentification_status",
]

ROLES = {
    "Jurídico": [
        *READ,
        "manage_heteroidentification",
        "add_commission",
        "add_commissionmember",
        "add_memberdraw",
        "add_session",
        "change_session",
        "add_verification",
        "change_verification",
        "add_appeal",
    ],
    "Comissão": ["record_opinion"],
    "Auditoria": READ,
    "Secretaria": ["view_heteroidentification_status"],
    "Gestão": ["view_heteroidentification_status"],
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
    dependencies = [("declarations", "0003_heteroidentification_commissions_sessions_opinions")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
