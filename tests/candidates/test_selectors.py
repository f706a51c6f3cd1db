"""Reads for the screens that need no database: accent folding."""

import pytest

from contests.text_search import fold as fold_text


@pytest.mark.parametrize(
    ("typed", "folded"),
    [("Úrsula Conceição", "ursula conceicao"), ("JOÃO", "joao"), ("Ñandú", "nandu"), ("plain", "plain")],
)
def test_search_ignores_accents_and_case(typed, folded):
    assert fold_text(typed) == folded


def test_decomposed_accents_fold_like_composed_ones():
    assert fold_text("Conceic\u0327a\u0303o") == fold_text("Conceição") == "conceicao"
