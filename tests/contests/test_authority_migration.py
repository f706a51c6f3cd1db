"""The data migration from the free-text signers to authorities keeps the data, both ways."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("contests", "0025_help_text_cites_the_law_not_rules")
AFTER = ("contests", "0028_signatory_points_to_authority")


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_each_signer_becomes_an_authority_once_and_comes_back_on_the_way_down():
    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("contests")[0]
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
        migrate(leaf)
