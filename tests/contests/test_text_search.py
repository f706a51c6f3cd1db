"""Accent-insensitive name search (``contests.text_search.fold``): what a published list line stores
(``ResultEntry.search_name``, written with the line on SQLite and by COPY on PostgreSQL) and what the
portal's search folds its query to."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from candidates.models import ResultEntry
from contests.text_search import fold, folded
from tests.builders import (
    make_candidate,
    make_cast,
    make_contest,
    make_position,
    make_registration,
    publish_final,
)


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("João Conceição", "joao conceicao"),
        ("ÂNGELA MÜLLER", "angela muller"),
        ("Iara D'Ávila", "iara d'avila"),
        ("Ñuñez Çavaço Ýgor", "nunez cavaco ygor"),
    ],
)
def test_fold_drops_accents_and_case(text, folded):
    assert fold(text) == folded


# Latin letters (the table's), combining marks, the Greek sigma (lower case with context), the Turkish
# dotted I, compatibility forms (µ, ŉ, ǅ) and anything else.
_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(max_codepoint=0x24F),
        st.sampled_from("\u0301\u0327\u0303\u03a3\u03c3\u0130\u00b5\u0149\u01c5\u1e9e\ufb01"),
        st.characters(),
    ),
    max_size=12,
)


@given(_TEXT)
def test_fold_is_the_nfkd_definition_on_any_text(text):
    """The fast paths (ASCII, the Latin table) give what the definition gives, on every text."""
    assert fold(text) == folded(text)


def test_fold_is_the_definition_on_each_latin_character_and_pair():
    latin = [chr(c) for c in range(0x180)]
    for a in latin:
        for b in ("", "a", "\u0301", "\u03a3", " ", "ç"):
            assert fold(a + b) == folded(a + b)


def test_published_lines_store_the_folded_name(db):
    from decimal import Decimal

    contest = make_contest()
    position = make_position(contest)
    for i, name in enumerate(("João Conceição", "Ângela Müller")):
        make_registration(position, candidate=make_candidate(full_name=name), final_score=Decimal(80 - i))
    run = publish_final(contest, make_cast()["manager"])
    stored = dict(ResultEntry.objects.filter(run=run, list="open").values_list("name", "search_name"))
    assert stored == {"João Conceição": "joao conceicao", "Ângela Müller": "angela muller"}
