"""The public search's one definition (``contests.text_search.TextIndex``): a query with a digit finds the
lines whose inscription number starts with it, whatever the case; any other query, the lines whose folded
name holds every word of the folded query. Pinned on examples, and against that definition written
plainly, line by line, on generated lists (the index answers from the names' distinct words and from
joined texts, so a line boundary or a word boundary is where it could go wrong)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from contests.text_search import NUMBER_LIKE, TextIndex, fold

NAMES = ["joao conceicao", "joana prado", "angela muller", "maria silva", "maria da silva", "silvana maria"]
NUMBERS = ["J1", "J2", "A9", "M1", "m10", "2026-0001"]


def plainly(names: list[str], numbers: list[str], query: str) -> list[int]:
    """What the search means, a line at a time (what PostgreSQL's ``LIKE`` on every line gave)."""
    query = query.strip()
    if not query:
        return []
    if NUMBER_LIKE.match(query):
        return [line for line, number in enumerate(numbers) if number.upper().startswith(query.upper())]
    words = fold(query).split()
    return [line for line, name in enumerate(names) if words and all(word in name for word in words)]


@pytest.mark.parametrize(
    ("query", "lines"),
    [
        ("conceicao", [0]),
        ("jo", [0, 1]),  # part of a word
        ("Maria Silva", [3, 4, 5]),  # every word, in any order, anywhere in the name
        ("silva maria", [3, 4, 5]),
        ("MÁRIA", [3, 4, 5]),  # the query is folded
        ("da silva", [4]),
        ("ana", [1, 5]),
        ("a9", [2]),  # a digit: the number, whatever the case
        ("m1", [3, 4]),  # its start: M1 and m10
        ("2026-", [5]),
        ("1", []),  # no number starts with 1; a name never holds a digit
        ("ninguem", []),
        ("", []),
        ("   ", []),
        ("maria ninguem", []),  # one word found nowhere: nobody
    ],
)
def test_the_search_finds_every_word_of_the_name_or_the_start_of_the_number(query, lines):
    index = TextIndex(NAMES, NUMBERS)
    assert index.search(query) == lines == plainly(NAMES, NUMBERS, query)


def test_a_word_never_spans_two_lines_nor_two_words_of_a_name():
    index = TextIndex(["ab", "cd ef"], ["X1", "Y2"])
    assert index.search("bc") == []  # "ab" then "cd": joined, but never one word
    assert index.search("de") == []  # "cd ef": two words of one name
    assert index.search("x1y") == []  # numbers are joined too
    assert index.search("Y") == []  # no digit: a name's word, and no name holds "y"


def test_a_query_with_the_separator_finds_nothing():
    assert TextIndex(["a"], ["1"]).search("a\x00") == []


def test_names_and_numbers_must_describe_the_same_lines():
    with pytest.raises(ValueError):
        TextIndex(["a", "b"], ["1"])


_LETTERS = "abn ãçé'-\u00a0\t"
_name = st.text(alphabet=_LETTERS, max_size=12).map(fold)
_number = st.text(alphabet="0123AaBb-./", max_size=6)
_query = st.one_of(
    st.text(alphabet=_LETTERS + "ÃÉB", max_size=8),
    st.text(alphabet="0123AaBb-./ ", max_size=5),
)


@given(st.lists(st.tuples(_name, _number), max_size=30), _query)
@example([("ana ana", "1"), ("bana", "1A")], "an")  # a word twice in one name: the line once
@example([("a b", "1"), ("b", "2")], "b a")
def test_the_index_answers_what_the_plain_definition_answers(lines, query):
    names = [name for name, _ in lines]
    numbers = [number for _, number in lines]
    assert TextIndex(names, numbers).search(query) == plainly(names, numbers, query)
