"""The data migration from the free-text signers to authorities keeps the data, both ways."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("contests", "0025_help_text_cites_the_law_not_rules")
AFTER = ("contests", "0028_signatory_points_to_authority")


def migrate(*targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(list(targets))
    return executor.loader.project_state(list(targets)).apps


@pytest.mark.django_db(transaction=True)
def test_each_signer_becomes_an_authority_once_and_comes_back_on_the_way_down():
    # Every app's leaf, not only contests': going back to 0025 also unapplies the other apps' migrations
    # that depend on later contests migrations, and the database must come back whole for the next tests.
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = migrate(BEFORE)
        Signatory = old.get_model("contests", "Signatory")
        Signatory.objects.all().delete()  # the cast's procedure signer, migrated back
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
        old.get_model("contests", "Signatory").objects.all().delete()
    finally:
        migrate(*leaves)
    assert MigrationExecutor(connection).migration_plan(leaves) == [], "the database came back whole"
