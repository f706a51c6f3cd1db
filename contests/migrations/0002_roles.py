"""Roles (DESIGN.md) as Django groups with the contests app's permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Secretaria": [
        "view_contest", "add_contest", "change_contest", "view_contest_history",
        "view_position", "add_position", "change_position",
        "view_vacancyopening", "add_vacancyopening", "change_vacancyopening", "delete_vacancyopening",
        "view_policy", "view_policy_list", "view_organization", "view_holiday",
    ],
    "Jurídico": [
        "view_contest", "view_position", "view_vacancyopening", "view_policy", "view_policy_list",
        "view_organization", "view_holiday", "add_holiday", "change_holiday",
    ],
    "Comissão": ["view_contest", "view_position"],
    "Gestão": [
        "view_contest", "change_contest", "homologate_contest", "view_contest_history",
        "view_position", "view_vacancyopening",
        "view_policy", "view_policy_list", "add_policy", "change_policy",
        "view_organization", "add_organization", "change_organization",
        "view_holiday", "add_holiday", "change_holiday", "delete_holiday",
        "view_accesslog",
    ],
    "Auditoria": [
        "view_contest", "view_contest_history", "view_position", "view_vacancyopening",
        "view_policy", "view_policy_list", "view_organization", "view_holiday", "view_accesslog",
    ],
}


def create_roles(apps, schema_editor):
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


def remove_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
