"""Accent- and case-insensitive search of names, the same on SQLite and PostgreSQL, without an extension.

``fold("João")`` is ``"joao"``. A published list line stores its name folded (``ResultEntry.search_name``,
written with the line), and the public search folds the query the same way and looks for it in those
names (``TextIndex``): no ``unaccent`` extension, no function run on every row at query time
(PostgreSQL's ``TRANSLATE`` over a 100,000-line list took about a second per search). Staff screens fold
in the database instead (``candidates.selectors``), over live rows.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Sequence


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


# The public search of a published list ---------------------------------------------------------------

# A query with a digit is an inscription number (no name has a digit): its start is looked up, never a name.
NUMBER_LIKE = re.compile(r"^[0-9A-Za-z./-]*[0-9][0-9A-Za-z./-]*$")

# Between two lines of an index's text: a character PostgreSQL never stores in a text and a search never
# holds (``portal.pages.query_text`` keeps printable characters only), so no match runs across two lines.
SEPARATOR = "\x00"


class TextIndex:
    """The lines of a published list (or of a whole run), in the list's order, as the public searches them:
    each line's folded name (``ResultEntry.search_name``) and its inscription number.

    ``search`` is the public search's one definition: a query with a digit (``NUMBER_LIKE``) finds the lines
    whose number starts with it, whatever the case; any other query finds the lines whose name holds every
    word of the folded query.

    A word has no space, so it lies within one word of a name that holds it: the index keeps each distinct
    word of the names once, with the lines that have it. A search looks for its words in those few
    thousand words (joined in one text, with ``str.find``, which runs in C) and intersects their lines:
    a fraction of a millisecond over 100,000 names, where PostgreSQL's ``LIKE '%…%'`` read every line of
    the list (~40 ms, twice per page: the count, then the page). The numbers are joined in one text too.
    """

    __slots__ = ("_lines", "_number_starts", "_number_text", "_size", "_word_starts", "_word_text")

    def __init__(self, names: Sequence[str], numbers: Sequence[str]):
        if len(names) != len(numbers):
            raise ValueError("names and numbers must describe the same lines")
        self._size = len(names)
        lines: dict[str, list[int]] = {}
        for line, name in enumerate(names):
            for word in name.split():
                having = lines.get(word)
                if having is None:
                    lines[word] = [line]
                elif having[-1] != line:
                    having.append(line)
        # The lines of each distinct word, in the order of ``_word_text``: arrays of machine integers, a
        # fifth of the memory of lists of Python integers (~2 MB for 60,000 names).
        self._lines = [array("l", having) for having in lines.values()]
        self._word_text, self._word_starts = _joined(list(lines))
        self._number_text, self._number_starts = _joined([number.upper() for number in numbers])

    def __len__(self) -> int:
        return self._size

    def search(self, query: str) -> list[int]:
        """The lines (their positions, in order) the public search finds for ``query``; none for a query
        without a word."""
        query = query.strip()
        if not query or SEPARATOR in query:
            return []
        if NUMBER_LIKE.match(query):
            return _entries_holding(self._number_text, self._number_starts, SEPARATOR + query.upper())
        found: list[Sequence[int]] = []
        for word in set(fold(query).split()):
            words = _entries_holding(self._word_text, self._word_starts, word)
            if not words:
                return []
            if len(words) == 1:
                found.append(self._lines[words[0]])
            else:
                found.append(sorted(set().union(*(self._lines[w] for w in words))))
        if not found:
            return []
        found.sort(key=len)
        result = list(found[0])
        for other in found[1:]:
            having = set(other)
            result = [line for line in result if line in having]
        return result


def _joined(texts: Sequence[str]) -> tuple[str, list[int]]:
    """The texts joined, each after a ``SEPARATOR``, and where each starts (its separator), with the end of
    the joined text last."""
    starts = []
    at = 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    starts.append(at)
    return "".join(SEPARATOR + text for text in texts), starts


def _entries_holding(text: str, starts: list[int], part: str) -> list[int]:
    """The entries of ``text`` (``_joined``) holding ``part``, each once, in order."""
    entries = []
    find = text.find
    at = find(part)
    while at != -1:
        entry = bisect_right(starts, at) - 1
        entries.append(entry)
        at = find(part, starts[entry + 1])
    return entries
