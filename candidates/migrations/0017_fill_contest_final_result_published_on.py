"""The contests whose final list was published before the date was recorded get it: the day of their first
published final run (local time), so a homologation is dated against it."""

from django.db import migrations
from django.utils.timezone import localtime


def fill(apps, schema_editor):
    Contest = apps.get_model("contests", "Contest")
    ResultRun = apps.get_model("candidates", "ResultRun")
    firsts: dict[int, object] = {}
    finals = ResultRun.objects.filter(status="published", kind="final", published_at__isnull=False)
    for contest_id, published_at in finals.order_by("published_at").values_list("contest_id", "published_at"):
        firsts.setdefault(contest_id, published_at)
    for contest_id, published_at in firsts.items():
        Contest.objects.filter(pk=contest_id, final_result_published_on__isnull=True).update(
            final_result_published_on=localtime(published_at).date()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("candidates", "0016_phase_delete_roles"),
        ("contests", "0022_contest_final_result_published_on"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
