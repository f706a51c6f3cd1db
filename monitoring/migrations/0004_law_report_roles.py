"""Who generates the law's report as an act (issue 23): Gestão, and the monitoring body (Monitoramento), who
writes its conclusions and its recommendation on the law's extension."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {"Gestão": ["add_lawreport", "view_lawreport"], "Monitoramento": ["add_lawreport", "view_lawreport"]}
READ = {"Auditoria": ["view_lawreport"]}


def add_permissions(apps, schema_editor):
    app_config = apps.get_app_config("monitoring")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in {**ROLES, **READ}.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="monitoring", codename__in=codenames)
        missing = set(codenames) - set(perms.values_list("codename", flat=True))
        if missing:
            raise RuntimeError(f"Permissões inexistentes: {sorted(missing)}")
        group.permissions.add(*perms)


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in {**ROLES, **READ}.items():
        perms = Permission.objects.filter(content_type__app_label="monitoring", codename__in=codenames)
        for group in Group.objects.filter(name=name):
            group.permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [("monitoring", "0003_law_report"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
