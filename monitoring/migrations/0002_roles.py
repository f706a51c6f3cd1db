"""Roles (DESIGN.md) for the law's reports (issue 23): Gestão and Auditoria see them, Gestão records a filed
one; "Monitoramento", the monitoring body's read-only role (the Secretaria Municipal de Assistência Social in
Angra dos Reis, art. 5º), sees the aggregates and nothing else."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

READ = ["view_law_report", "view_filedreport"]

ROLES = {
    "Gestão": [*READ, "add_filedreport"],
    "Auditoria": READ,
    "Monitoramento": READ,
}


def add_permissions(apps, schema_editor):
    app_config = apps.get_app_config("monitoring")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="monitoring", codename__in=codenames)
        missing = set(codenames) - set(perms.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"Permissões inexistentes: {sorted(missing)}")
        group.permissions.add(*perms)


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    codenames = {codename for names in ROLES.values() for codename in names}
    perms = Permission.objects.filter(content_type__app_label="monitoring", codename__in=codenames)
    for group in Group.objects.filter(name__in=ROLES):
        group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [("monitoring", "0001_filed_report"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
