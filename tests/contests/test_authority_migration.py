"""The data migration from the free-text signers to authorities keeps the data, both ways.

It runs in a scratch database of its own, migrated from empty to just before the authorities, instead of
the test database taken back there: going back to contests 0025 meant unapplying the 40-odd later
migrations of every app that depends on it, and applying them again afterwards, each step rendering the
whole project's state (some 45 s of CPU; from empty to 0025, about 13 s). On SQLite the scratch database
at 0025 is kept between runs like the migrated test database (tests/migrated_db.py: the same key, any change
to the migrations or models migrates again), so a run copies it and migrates only the three steps tested.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor

from tests import migrated_db

BEFORE = ("contests", "0025_help_text_cites_the_law_not_rules")
AFTER = ("contests", "0028_signatory_points_to_authority")


@contextmanager
def scratch_database() -> Iterator[None]:
    """The default connection points at an empty database of the same engine until the block ends, so
    that the migrations' own code (``Model.objects`` in a RunPython) writes there; then it is dropped."""
    original = connections["default"]
    if original.vendor == "sqlite":
        name = ":memory:"  # a file would wait on a sync after each migration's commit
    else:
        name = f"{original.settings_dict['NAME']}_authority_migration"
        with original.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {name}")
            cursor.execute(f"CREATE DATABASE {name}")
    scratch = original.__class__({**original.settings_dict, "NAME": name}, alias="default")
    connections["default"] = scratch
    try:
        yield
    finally:
        scratch.close()
        if scratch.connection is not None:  # close() keeps an in-memory SQLite database open
            scratch.connection.close()
        connections["default"] = original
        if original.vendor != "sqlite":
            with original.cursor() as cursor:
                cursor.execute(f"DROP DATABASE {name}")


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def migrate_from_empty(target):
    """``migrate(target)`` on the empty scratch database; on SQLite its result copied from an earlier run's."""
    if connection.vendor != "sqlite":
        return migrate(target)
    migrated_db.cached_database(connection, f"scratch-{target[0]}-{target[1][:4]}", lambda: migrate(target))
    return MigrationExecutor(connection).loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_each_signer_becomes_an_authority_once_and_comes_back_on_the_way_down():
    test_database = connection.settings_dict["NAME"]
    with scratch_database():
        assert connection.settings_dict["NAME"] != test_database
        old = migrate_from_empty(BEFORE)
        Signatory = old.get_model("contests", "Signatory")
        Signatory.objects.all().delete()  # whatever a data migration seeded: only the rows below
        Signatory.objects.create(kind="edital", name="Ana Souza", office="Presidente")
        Signatory.objects.create(kind="result_list", name=" Ana Souza", office="Presidente ")
        Signatory.objects.create(kind="procedure", name="Beto Lima", office="Procurador")
        Signatory.objects.create(kind="heteroidentification", name="", office="")

        new = migrate(AFTER)
        Authority = new.get_model("contests", "Authority")
        assert sorted(Authority.objects.values_list("name", "office")) == [
            ("Ana Souza", "Presidente"),
            ("Beto Lima", "Procurador"),
        ]
        rows = dict(new.get_model("contests", "Signatory").objects.values_list("kind", "authority__name"))
        assert rows == {
            "edital": "Ana Souza",
            "result_list": "Ana Souza",
            "procedure": "Beto Lima",
            "procedure_appeal": "Beto Lima",
            "procedure_effects": "Beto Lima",
        }

        old = migrate(BEFORE)
        back = old.get_model("contests", "Signatory").objects.values_list("kind", "name", "office")
        assert sorted(back) == [
            ("edital", "Ana Souza", "Presidente"),
            ("procedure", "Beto Lima", "Procurador"),
            ("result_list", "Ana Souza", "Presidente"),
        ]
    assert connection.settings_dict["NAME"] == test_database, "the test database is the default again"
