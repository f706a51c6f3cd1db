"""Accent- and case-insensitive search of names, the same on SQLite and PostgreSQL, without an extension.

``fold("João")`` is ``"joao"`` in Python; ``Folded("name")`` is the same in SQL: on PostgreSQL
``LOWER(TRANSLATE(name, accented, plain))`` (no ``unaccent`` extension needed, so any managed PostgreSQL
will do), on SQLite a function ``cotas_fold`` registered on each connection (``register_sqlite``, connected
in ``ContestsConfig.ready``) that runs ``fold`` itself. The SQL table covers the Latin letters Portuguese
names use (and their neighbours in Latin-1 and Latin Extended-A); ``test_text_search`` checks that both
folds agree on them.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db.models import CharField, Func

# Accented letters and their plain forms, for PostgreSQL's TRANSLATE (one character each, same order).
ACCENTED = "ÁÀÂÃÄÅĀĂĄáàâãäåāăąÉÈÊËĒĔĖĘĚéèêëēĕėęěÍÌÎÏĨĪĬĮíìîïĩīĭįÓÒÔÕÖŌŎŐóòôõöōŏőÚÙÛÜŨŪŬŮŰŲúùûüũūŭůűų"
PLAIN = "AAAAAAAAAaaaaaaaaaEEEEEEEEEeeeeeeeeeIIIIIIIIiiiiiiiiOOOOOOOOooooooooUUUUUUUUUUuuuuuuuuuu"
ACCENTED += "ÇĆĈĊČçćĉċčÑŃŅŇñńņňÝŸýÿŚŜŞŠśŝşšŹŻŽźżžĎďĜĞĠĢĝğġģĤĥĴĵĶķĹĻĽĺļľŔŖŘŕŗřŢŤţťŴŵ"
PLAIN += "CCCCCcccccNNNNnnnnYYyySSSSssssZZZzzzDdGGGGggggHhJjKkLLLlllRRRrrrTTttWw"
assert len(ACCENTED) == len(PLAIN)


def fold(text: str) -> str:
    """Lower case without accents: ``"Conceição"`` → ``"conceicao"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


class Folded(Func):
    """The SQL form of ``fold`` for a text column."""

    output_field = CharField()

    function = "cotas_fold"  # SQLite, and any other backend that registers it

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(
            compiler,
            connection,
            template=f"LOWER(TRANSLATE(%(expressions)s, '{ACCENTED}', '{PLAIN}'))",
            **extra,
        )


def _fold_or_none(value: object) -> str | None:
    return None if value is None else fold(str(value))


def register_sqlite(sender: object, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: gives each SQLite connection the ``cotas_fold`` function."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("cotas_fold", 1, _fold_or_none, deterministic=True)
