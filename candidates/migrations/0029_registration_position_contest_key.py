"""A registration's position and contest under one foreign key on PostgreSQL: (position_id, contest_id) ->
the position's (id, contest_id), unique since contests' migration 0042. It says what the two keys it
replaces said (the position exists; the contest exists, through the position's own key to it) and more
(the position is the contest's: ``Registration.clean``'s rule, now the database's too), with one check per
row written instead of two: an import of 100,000 registrations runs 100,000 checks fewer. Deferrable and
initially deferred, as Django declares its own. SQLite keeps no key on these two columns (a demonstration
database: Django still applies ``on_delete``).
"""

import django.db.models.deletion
from django.db import migrations, models

NAME = "candidates_registration_position_in_contest"


def add(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"ALTER TABLE candidates_registration ADD CONSTRAINT {NAME} FOREIGN KEY (position_id, contest_id) "
        "REFERENCES contests_position (id, contest_id) DEFERRABLE INITIALLY DEFERRED"
    )


def drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"ALTER TABLE candidates_registration DROP CONSTRAINT IF EXISTS {NAME}")


class Migration(migrations.Migration):
    dependencies = [
        ("candidates", "0028_history_without_date_user_indexes"),
        ("contests", "0042_position_unique_id_contest"),
    ]

    operations = [
        migrations.RunPython(add, drop),
        migrations.AlterField(
            model_name="registration",
            name="contest",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="registrations",
                to="contests.contest",
                verbose_name="concurso",
            ),
        ),
        migrations.AlterField(
            model_name="registration",
            name="position",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="registrations",
                to="contests.position",
                verbose_name="cargo",
            ),
        ),
    ]
