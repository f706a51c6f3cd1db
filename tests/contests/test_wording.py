"""The screens' shared wording: real plurals, the carried fraction in words."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from contests import wording
from contests.wording import agreeing, carried_in_words, decimal_comma, plural, said, thousands
from declarations.procedure.rules import Act
from declarations.procedure.rules_labels import ACT_LABELS


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


@pytest.mark.parametrize(
    ("value", "places", "expected"),
    [
        (Decimal("78.50"), None, "78,50"),
        (Decimal("1E+2"), None, "100"),
        (Decimal("0.00001"), None, "0,00001"),
        (12, None, "12"),
        (12.5, None, "12,5"),
        (Fraction(7, 5), None, "1,4"),
        (Fraction(1, 3), None, "0,333333"),
        (Decimal("7.125"), 2, "7,13"),
        (Decimal("7.135"), 2, "7,14"),
        (Fraction(2, 3), 2, "0,67"),
        (2.25, 1, "2,3"),
        (5, 2, "5,00"),
        (Decimal("1234.5"), 1, "1234,5"),
    ],
)
def test_decimal_comma_rounds_half_up_only_when_told_the_places(value, places, expected):
    assert decimal_comma(value, places) == expected


def test_every_access_log_action_has_a_label_and_a_verb():
    """The auditor's home reads the log as sentences and the log page as names: every action the code
    writes (``log_access(..., action=...)``, the lockout) has both, never its raw code."""
    import re
    from pathlib import Path

    from contests.wording import ACCESS_ACTIONS, ACCESS_VERBS

    root = Path(__file__).resolve().parents[2]
    written = set()
    for app in ("contests", "candidates", "declarations", "portal", "workspace"):
        for path in (root / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "log_access" in text or "AccessLog" in text:
                written |= set(re.findall(r'log_access\([^)]*action="([a-z_]+)"', text, flags=re.S))
    assert {"view_sensitive", "change"} <= written
    assert set(ACCESS_VERBS) == set(ACCESS_ACTIONS)
    assert written <= set(ACCESS_ACTIONS)


@pytest.mark.parametrize(
    ("label", "participle", "expected"),
    [
        ("Recurso", "recebido", "Recurso recebido"),
        ("Defesa", "recebido", "Defesa recebida"),
        ("Prova", "recebido", "Prova recebida"),
        ("Encerramento da instrução", "registrado", "Encerramento da instrução registrado"),
        ("Alegações finais", "registrado", "Alegações finais registradas"),
        ("Intimação para defesa", "registrado", "Intimação para defesa registrada"),
        ("Relatório com proposta de decisão", "registrado", "Relatório com proposta de decisão registrado"),
        ("Juízo de reconsideração", "registrado", "Juízo de reconsideração registrado"),
        ("inscrição 1023", "eliminado", "inscrição 1023 eliminada"),
        (
            "Resultado final publicado em 01/12/2026",
            "publicado",
            "Resultado final publicado em 01/12/2026 publicado",
        ),
        (
            "Cálculo de 01/12/2026 16:10 (em revisão)",
            "calculado",
            "Cálculo de 01/12/2026 16:10 (em revisão) calculado",
        ),
    ],
)
def test_a_participle_agrees_with_the_head_noun_of_its_label(label, participle, expected):
    assert said(label, participle) == expected


def test_every_procedure_act_label_takes_its_own_agreement():
    masculine = {
        Act.INSTRUCTION_CLOSED,
        Act.REPORT,
        Act.APPEAL,
        Act.RECONSIDERATION,
        Act.APPEAL_NOT_HEARD,
        Act.REVISION_REQUEST,
    }
    for act, label in ACT_LABELS.items():
        expected = (
            "registradas"
            if act in (Act.FINAL_STATEMENT, Act.APPEAL_ANSWER, Act.ANNULMENT_ANSWER)  # "Alegações …"
            else "registrado"
            if act in masculine
            else "registrada"
        )
        assert agreeing(label, "registrado") == expected, label


# Acts: dates, numbers and percentages written out --------------------------------------------------------


def test_date_in_full_writes_the_first_of_the_month_as_an_ordinal():
    import datetime

    from contests.wording import date_in_full

    assert date_in_full(datetime.date(2026, 12, 1)) == "1º de dezembro de 2026"
    assert date_in_full(datetime.date(2027, 3, 15)) == "15 de março de 2027"


def test_in_words_agrees_with_a_feminine_noun():
    from contests.wording import in_words

    assert in_words(21) == "vinte e um"
    assert in_words(21, feminine=True) == "vinte e uma"
    assert in_words(202, feminine=True) == "duzentas e duas"
    assert in_words(500, feminine=True) == "quinhentas"
    assert in_words(100, feminine=True) == "cem"


def test_percent_in_words_as_the_law_writes_it():
    from decimal import Decimal

    from contests.wording import percent_in_words

    assert percent_in_words(Decimal("20.00")) == "20% (vinte por cento)"
    assert percent_in_words(Decimal("12.5")) == "12,5% (doze vírgula cinco por cento)"


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Lei Municipal nº 6.123", "da Lei Municipal nº 6.123"),
        (
            "lei municipal originada do Projeto de Lei nº 9247/2021",
            "da lei municipal originada do Projeto de Lei nº 9247/2021",
        ),
        ("Projeto de Lei nº 9247/2021", "do Projeto de Lei nº 9247/2021"),
        ("Decreto Municipal nº 10", "do Decreto Municipal nº 10"),
        ("Resolução nº 2", "da Resolução nº 2"),
        ("Portaria nº 12/2025", "da Portaria nº 12/2025"),
        ("a Lei Orgânica", "da Lei Orgânica"),
    ],
)
def test_one_grammar_of_acts_for_the_headings_and_the_nomination(label, expected):
    from candidates.acts import of as nomination_of
    from contests.documents.heading import of_act

    assert wording.of(label) == expected == nomination_of(label)
    assert of_act(label) == expected.split(" ", 1)[0]
