"""Roles: Secretaria sets up the phases through its own screens (issue 19), deleting a phase included.

The name holds "roles" so the test suite re-applies it after a flush, with the other role migrations.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ADDED = {"Secretaria": ["delete_phase"]}


def add(apps, schema_editor):
    app_config = apps.get_app_config("candidates")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ADDED.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="candidates", codename__in=codenames)
        )


def remove(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ADDED.items():
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label="candidates", codename__in=codenames)
            )


class Migration(migrations.Migration):
    dependencies = [("candidates", "0015_resultrun_after_phase")]

    operations = [migrations.RunPython(add, remove)]
