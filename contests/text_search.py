"""Accent- and case-insensitive search of names, the same on SQLite and PostgreSQL, without an extension.

``fold("João")`` is ``"joao"``. A published list line stores its name folded (``ResultEntry.search_name``,
written with the line), and the public search folds the query the same way and looks for it with a plain
``LIKE``: no ``unaccent`` extension, no function run on every row at query time (PostgreSQL's ``TRANSLATE``
over a 100,000-line list took about a second per search).
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents: ``"Conceição"`` → ``"conceicao"``; ``"D'Ávila"`` → ``"d'avila"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()
