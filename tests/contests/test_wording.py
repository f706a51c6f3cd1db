"""The screens' shared wording (issue 13): real plurals, the carried fraction in words."""

from __future__ import annotations

from fractions import Fraction

import pytest

from contests.wording import carried_in_words, plural, thousands


def test_plural_agrees_with_the_number():
    assert plural(1, "vaga aberta", "vagas abertas") == "1 vaga aberta"
    assert plural(0, "vaga aberta", "vagas abertas") == "0 vagas abertas"
    assert plural(3, "vaga aberta", "vagas abertas") == "3 vagas abertas"


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "0 linhas"),
        (1, "1 linha"),
        (999, "999 linhas"),
        (1000, "1.000 linhas"),
        (1_234_567, "1.234.567 linhas"),
    ],
)
def test_plural_writes_the_number_with_its_thousands_dot(n, expected):
    assert plural(n, "linha", "linhas") == expected


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "0"),
        (7, "7"),
        (999, "999"),
        (1000, "1.000"),
        (12345, "12.345"),
        (-1500, "-1.500"),
        (10**6, "1.000.000"),
    ],
)
def test_thousands_uses_a_dot_between_thousands(n, expected):
    assert thousands(n) == expected


def test_sm_art1_par4_carried_fraction_in_words_never_negative():
    assert carried_in_words(Fraction(2, 5)) == "0,4 a considerar nas próximas vagas"
    assert carried_in_words(Fraction(-2, 5), "art. 1º §4º") == "0,4 já antecipado (art. 1º §4º)"
    assert carried_in_words(Fraction(0)) == "nenhuma"
