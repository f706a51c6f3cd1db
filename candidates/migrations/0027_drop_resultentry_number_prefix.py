"""The public search no longer reads the database to find a line (``contests.text_search.TextIndex``, kept
per generation in each process: ``candidates.published``), so migration 0024's index of the inscription
number's start served nothing and cost about 170 ms each time 100,000 lines were written (a list computed
on result day). Dropped CONCURRENTLY (outside a transaction), as it was built.
"""

from __future__ import annotations

from django.db import migrations

NAME = "candidates_entry_number_prefix"


def drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {NAME}")


def create(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {NAME} "
            "ON candidates_resultentry (UPPER(number::text) varchar_pattern_ops)"
        )


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("candidates", "0026_resultentry_registration_key")]

    operations = [migrations.RunPython(drop, create, elidable=False)]
