"""The screens' shared wording (issue 13): real plurals, the carried fraction in words."""

from __future__ import annotations

from fractions import Fraction

from contests.wording import carried_in_words, plural


def test_plural_agrees_with_the_number():
    assert plural(1, "vaga aberta", "vagas abertas") == "1 vaga aberta"
    assert plural(0, "vaga aberta", "vagas abertas") == "0 vagas abertas"
    assert plural(3, "vaga aberta", "vagas abertas") == "3 vagas abertas"


def test_sm_art1_par4_carried_fraction_in_words_never_negative():
    assert carried_in_words(Fraction(2, 5)) == "0,4 a considerar nas próximas vagas"
    assert carried_in_words(Fraction(-2, 5), "art. 1º §4º") == "0,4 já antecipado (art. 1º §4º)"
    assert carried_in_words(Fraction(0)) == "nenhuma"
