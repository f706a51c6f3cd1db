"""Accent-insensitive name search (``contests.text_search.fold``): what a published list line stores
(``ResultEntry.search_name``, written with the line on SQLite and by COPY on PostgreSQL) and what the
portal's search folds its query to."""

from __future__ import annotations

import pytest

from candidates.models import ResultEntry
from contests.text_search import fold
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


def test_published_lines_store_the_folded_name(db):
    from decimal import Decimal

    contest = make_contest()
    position = make_position(contest)
    for i, name in enumerate(("João Conceição", "Ângela Müller")):
        make_registration(position, candidate=make_candidate(full_name=name), final_score=Decimal(80 - i))
    run = publish_final(contest, make_cast()["manager"])
    stored = dict(ResultEntry.objects.filter(run=run, list="open").values_list("name", "search_name"))
    assert stored == {"João Conceição": "joao conceicao", "Ângela Müller": "angela muller"}
