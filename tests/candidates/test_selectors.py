"""Reads for the screens that need no database: accent folding and CPF masking (LGPD)."""

import pytest

from candidates.selectors import fold_text
from candidates.validators import mask_cpf


@pytest.mark.parametrize(
    ("typed", "folded"),
    [("Úrsula Conceição", "ursula conceicao"), ("JOÃO", "joao"), ("Ñandú", "nandu"), ("plain", "plain")],
)
def test_search_ignores_accents_and_case(typed, folded):
    assert fold_text(typed) == folded


def test_decomposed_accents_fold_like_composed_ones():
    assert fold_text("Conceic\u0327a\u0303o") == fold_text("Conceição") == "conceicao"


@pytest.mark.parametrize(
    ("digits", "masked"), [("03688169077", "***.881.690-**"), ("123", "***"), ("", "***")]
)
def test_lists_show_only_the_middle_six_digits_of_a_cpf(digits, masked):
    assert mask_cpf(digits) == masked
