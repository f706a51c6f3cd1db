"""Roles narrowed to DESIGN.md's table (issue 14, defect 13).

Gestão edits no contest data (Secretaria does): it loses ``contests.change_contest`` (the contest form and
its status changes); it keeps homologation, the laws, publishing runs. Comissão sees registrations only in
the sessions of its own commission (the declarations app's screens): it loses ``view_registration``, the
list and detail of every registration of every contest.

The name holds "roles" so the test suite re-applies it after a flush, with the other role migrations.
"""

from django.db import migrations

REMOVED = {
    "Gestão": [("contests", "change_contest")],
    "Comissão": [("candidates", "view_registration")],
}


def narrow(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, perms in REMOVED.items():
        group = Group.objects.filter(name=name).first()
        if group is None:
            continue
        for app_label, codename in perms:
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            )


def widen(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, perms in REMOVED.items():
        group = Group.objects.filter(name=name).first()
        if group is None:
            continue
        for app_label, codename in perms:
            group.permissions.add(
                *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("candidates", "0008_nomination_status_labels"),
        ("contests", "0006_contest_homologated_after_publication"),
    ]

    operations = [migrations.RunPython(narrow, widen)]
