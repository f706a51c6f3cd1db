"""Fill ``ResultEntry.search_name`` (the name without accents, in lower case) for the lines written before
it existed. A published run's lines are frozen by a PostgreSQL trigger (0004_results_guard): this one
data migration lifts it for its own update, which changes nothing that was published (the new column only).
The fold is copied here, as migrations never import app code (it is ``contests.text_search.fold``)."""

import unicodedata

from django.db import migrations

BATCH = 5000


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


def fill(apps, schema_editor):
    ResultEntry = apps.get_model("candidates", "ResultEntry")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(
            "ALTER TABLE candidates_resultentry DISABLE TRIGGER candidates_resultentry_frozen"
        )
    last = 0
    while True:
        rows = list(ResultEntry.objects.filter(pk__gt=last, search_name="").order_by("pk")[:BATCH])
        if not rows:
            break
        for row in rows:
            row.search_name = fold(row.name)
        ResultEntry.objects.bulk_update(rows, ["search_name"])
        last = rows[-1].pk
    if postgres:
        schema_editor.execute(
            "ALTER TABLE candidates_resultentry ENABLE TRIGGER candidates_resultentry_frozen"
        )


class Migration(migrations.Migration):
    dependencies = [("candidates", "0012_resultentry_search_name")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
