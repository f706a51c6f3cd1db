"""Roles (DESIGN.md): the candidates app's permissions added to the groups made by contests 0002_roles."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ALL_VIEW = [
    "view_candidate", "view_registration", "view_selfdeclaration", "view_phase", "view_phaseresult",
    "view_tiebreakcriterion", "view_importmapping",
]

ROLES = {
    "Secretaria": [
        *ALL_VIEW,
        "add_candidate", "change_candidate",
        "add_registration", "change_registration", "import_registrations",
        "add_selfdeclaration", "change_selfdeclaration",
        "add_phase", "change_phase",
        "add_phaseresult", "change_phaseresult",
        "add_tiebreakcriterion", "change_tiebreakcriterion", "delete_tiebreakcriterion",
        "add_importmapping", "change_importmapping",
        "view_sensitive",
    ],
    "Gestão": [*ALL_VIEW, "view_sensitive"],
    "Auditoria": [*ALL_VIEW, "view_sensitive"],
    "Jurídico": ["view_candidate", "view_registration", "view_selfdeclaration", "view_sensitive"],
    "Comissão": ["view_registration"],
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
    perms = Permission.objects.filter(content_type__app_label="candidates")
    for group in Group.objects.filter(name__in=ROLES):
        group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [
        ("candidates", "0001_registrations_phases_declarations"),
        ("contests", "0002_roles"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
