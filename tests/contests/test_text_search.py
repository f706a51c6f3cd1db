"""Accent-insensitive name search (``contests.text_search``): Python's ``fold`` and the database's
``Folded`` agree, on SQLite (a registered function) and on PostgreSQL (TRANSLATE), for the letters of
Portuguese names and their Latin neighbours."""

from __future__ import annotations

import pytest

from candidates.models import Candidate
from contests.text_search import ACCENTED, Folded, fold
from tests.builders import make_candidate


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("João Conceição", "joao conceicao"),
        ("ÂNGELA MÜLLER", "angela muller"),
        ("Iara D'Ávila", "iara d'avila"),
    ],
)
def test_fold_drops_accents_and_case(text, folded):
    assert fold(text) == folded


def test_database_fold_agrees_with_python_on_every_accented_letter(db):
    names = ["João Conceição", "ÂNGELA MÜLLER", ACCENTED[:100], ACCENTED[100:], "Ñuñez Çavaço"]
    for name in names:
        make_candidate(full_name=name)
    got = dict(
        Candidate.objects.filter(full_name__in=names)
        .annotate(folded=Folded("full_name"))
        .values_list("full_name", "folded")
    )
    assert got == {name: fold(name) for name in names}


def test_database_search_finds_an_accented_name_from_a_plain_query(db):
    target = make_candidate(full_name="Conceição Araújo")
    make_candidate(full_name="Maria Silva")
    found = Candidate.objects.annotate(folded=Folded("full_name")).filter(folded__contains=fold("CONCEICAO"))
    assert list(found) == [target]
