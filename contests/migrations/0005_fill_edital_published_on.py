"""Record the edital's publication of every contest already beyond draft, so it keeps its locks.

The date is the best one known: the day the history first shows the contest out of draft, else the
edital's date. A draft contest is left alone unless it was homologated (an undone homologation, issue 14
defect 3): a homologated contest had its edital published. The backfill writes no history row: it is read
from the history itself.
"""

from django.db import migrations
from django.utils import timezone


def fill(apps, schema_editor):
    Contest = apps.get_model("contests", "Contest")
    HistoricalContest = apps.get_model("contests", "HistoricalContest")
    pending = Contest.objects.filter(edital_published_on__isnull=True).exclude(
        status="draft", homologation_date__isnull=True
    )
    for contest in pending.iterator():
        first = (
            HistoricalContest.objects.filter(id=contest.pk)
            .exclude(status="draft")
            .order_by("history_date", "history_id")
            .first()
        )
        day = timezone.localdate(first.history_date) if first else contest.edital_date
        Contest.objects.filter(pk=contest.pk).update(edital_published_on=day)


class Migration(migrations.Migration):
    dependencies = [("contests", "0004_contest_edital_published_on")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
