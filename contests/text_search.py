"""Accent- and case-insensitive search of names, the same on SQLite and PostgreSQL, without an extension.

``fold("João")`` is ``"joao"``. A published list line stores its name folded (``ResultEntry.search_name``,
written with the line), and the public search folds the query the same way and looks for it with a plain
``LIKE``: no ``unaccent`` extension, no function run on every row at query time (PostgreSQL's ``TRANSLATE``
over a 100,000-line list took about a second per search).
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents: ``"Conceição"`` → ``"conceicao"``; ``"D'Ávila"`` → ``"d'avila"``.

    The names of a list of 100,000 are folded as it is written: the Latin letters Brazilian names are
    made of go through a table (``_LATIN``), the same result as ``folded`` character by character, which
    for them is the same as on the whole text (see ``_LATIN``); any other text through ``folded``."""
    if text.isascii():
        return text.lower()
    if max(text) < _LATIN_END:
        return text.translate(_LATIN)
    return folded(text)


def folded(text: str) -> str:
    """``fold``'s definition: the compatibility decomposition (NFKD) without its combining marks, in lower
    case."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


# ``folded`` of each character below U+0180 (Basic Latin, Latin-1, Latin Extended-A). On a text made only
# of them, ``folded`` is the same character by character: a decomposition is per character and only
# reorders combining marks, which are dropped; none of them is a combining mark, and lower case is per
# character for them (the one rule with context, the Greek final sigma, is not among them).
_LATIN_END = "\u0180"
_LATIN = {code: folded(chr(code)) for code in range(ord(_LATIN_END))}
