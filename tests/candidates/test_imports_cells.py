"""Reading single cells as organisers write them (``candidates.services.imports.cells``): table-driven, no database."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from candidates.services.imports import cells
from candidates.services.imports.cells import CellError
from candidates.services.imports.files import decode, sniff_delimiter
from candidates.services.imports.mapping import suggest
from candidates.validators import cpf_digits, cpf_is_valid, format_cpf

D = Decimal


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("036.881.690-77", "03688169077"),
        ("03688169077", "03688169077"),
        ("3688169077", "03688169077"),  # a spreadsheet dropped the leading zero
        (3688169077, "03688169077"),
        (3688169077.0, "03688169077"),
        ("3688169077.0", "03688169077"),
        (" 036 881 690 77 ", "03688169077"),
        ("", ""),
        (None, ""),
    ],
)
def test_cpf_with_or_without_punctuation_or_lost_zeros(raw, expected):
    assert cells.parse_cpf(raw) == expected


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("036.881.690-78", "dígitos verificadores"),
        ("111.111.111-11", "dígitos verificadores"),
        ("1234567890123", "13 dígitos"),
        ("036.881.690-7A", "11 dígitos"),
        ("3,68817E+09", "notação científica"),
    ],
)
def test_cpf_refused_with_the_reason(raw, message):
    with pytest.raises(CellError, match=message):
        cells.parse_cpf(raw)


def test_cpf_validator_agrees_with_the_receita_algorithm():
    assert cpf_is_valid("03688169077")
    assert not cpf_is_valid("03688169078")
    assert not cpf_is_valid("00000000000")
    assert cpf_digits(36881690) == "00036881690"
    assert format_cpf("03688169077") == "036.881.690-77"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("81,52", D("81.52")),
        ("81.52", D("81.52")),
        (81.5199999, D("81.52")),
        ("81.5199999", D("81.52")),
        ("81,515", D("81.52")),  # half up, as the laws round
        (0.1 + 0.2, D("0.30")),
        ("1.234,56", D("1234.56")),
        (100, D("100.00")),
        ("10,00", D("10.00")),
    ],
)
def test_scores_to_two_places_half_up(raw, expected):
    assert cells.parse_score(raw) == (expected, False)


@pytest.mark.parametrize("raw", ["AUSENTE", "ausente", "Ausente", "FALTOU", "aus"])
def test_absent_spellings(raw):
    assert cells.parse_score(raw) == (None, True)


@pytest.mark.parametrize("raw", ["", None, "-"])
def test_empty_score_is_not_graded(raw):
    assert cells.parse_score(raw) == (None, False)


@pytest.mark.parametrize(
    ("raw", "message"), [("8,5,1", "não é um número"), ("-3", "negativa"), ("dez", "número")]
)
def test_bad_scores(raw, message):
    with pytest.raises(CellError, match=message):
        cells.parse_score(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("13/05/2004", datetime.date(2004, 5, 13)),
        ("3/5/2004", datetime.date(2004, 5, 3)),
        ("13-05-2004", datetime.date(2004, 5, 13)),
        ("2004-05-13", datetime.date(2004, 5, 13)),
        ("13/05/2004 00:00:00", datetime.date(2004, 5, 13)),
        (38120, datetime.date(2004, 5, 13)),  # Excel serial
        (38120.0, datetime.date(2004, 5, 13)),
        ("38120", datetime.date(2004, 5, 13)),
        # openpyxl reads a date cell as a naive datetime: a spreadsheet has no time zone
        (datetime.datetime(2004, 5, 13, 0, 0), datetime.date(2004, 5, 13)),  # noqa: DTZ001
        (datetime.date(2004, 5, 13), datetime.date(2004, 5, 13)),
        ("", None),
    ],
)
def test_dates_as_organisers_write_them(raw, expected):
    assert cells.parse_date(raw) == expected
    # A column's parser reads the same, the first time and from the memo after.
    parse = cells.date_parser("data de nascimento")
    assert parse(raw) == expected
    assert parse(raw) == expected


def test_a_columns_date_parser_names_the_column_in_its_messages():
    parse = cells.date_parser("data da inscrição")
    with pytest.raises(CellError, match=r"^data da inscrição “31/02/2004” não existe no calendário$"):
        parse("31/02/2004")


@pytest.mark.parametrize(
    ("raw", "message"),
    [("31/02/2004", "não existe"), ("13/05/04", "dois dígitos"), ("maio de 2004", "dd/mm/aaaa")],
)
def test_bad_dates(raw, message):
    with pytest.raises(CellError, match=message):
        cells.parse_date(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("S", True), ("N", False), ("Sim", True), ("Não", False), ("NAO", False), ("X", True), ("x", True),
        ("", False), (None, False), (1, True), (0, False), (True, True), ("true", True), (" s ", True),
    ],
)  # fmt: skip
def test_booleans(raw, expected):
    assert cells.parse_bool(raw) is expected


def test_unknown_boolean():
    with pytest.raises(CellError, match="use S ou N"):
        cells.parse_bool("talvez")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("S", (True, None)), ("N", (False, None)), ("Parda", (True, "parda")), ("PRETO", (True, "preta")),
     ("Negro", (True, "")), ("Indígena", (True, "indigena"))],
)  # fmt: skip
def test_racial_column_takes_yes_no_or_the_category(raw, expected):
    assert cells.parse_racial(raw) == expected


def test_category_that_gives_no_right_to_the_reserve():
    with pytest.raises(CellError, match="não dá direito"):
        cells.parse_category("Branca")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1001", "1001"), ("1001.0", "1001"), (1001.0, "1001"), (1001, "1001"), ("2026-00017", "2026-00017")],
)
def test_inscription_numbers(raw, expected):
    assert cells.parse_number(raw) == expected


def test_bad_inscription_number():
    with pytest.raises(CellError, match="inválido"):
        cells.parse_number("10 01")


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("Inscrição;Nome".encode("cp1252"), "Windows-1252"),
        ("Inscrição;Nome".encode(), "UTF-8"),
        ("\ufeffInscrição;Nome".encode(), "UTF-8 com BOM"),
        ("Inscrição;Nome".encode("utf-16"), "UTF-16"),
    ],
)
def test_encodings(data, encoding):
    assert decode(data) == ("Inscrição;Nome", encoding)


@pytest.mark.parametrize(
    ("lines", "delimiter"),
    [
        (["a;b;c", "1;2,5;3"], ";"),
        (["a,b,c", '1,"2,5",3'], ","),
        (["a\tb\tc", "1\t2,5\t3"], "\t"),
    ],
)
def test_separator_sniffed(lines, delimiter):
    assert sniff_delimiter(lines) == delimiter


def test_mapping_suggested_from_headers_without_accents_or_case():
    headers = [
        "Nº de Inscrição", "NOME DO CANDIDATO", "Nome social", "C.P.F.", "Dt. Nasc.", "Código do cargo",
        "Cotista (negro)", "Cota PcD", "Nota Objetiva", "Nota da prova discursiva", "Nota Final", "Observação",
    ]  # fmt: skip
    assert suggest(headers, phase_names=["Prova Objetiva"]) == {
        "Nº de Inscrição": "number",
        "NOME DO CANDIDATO": "full_name",
        "Nome social": "social_name",
        "C.P.F.": "cpf",
        "Dt. Nasc.": "birth_date",
        "Código do cargo": "position",
        "Cotista (negro)": "racial",
        "Cota PcD": "pcd",
        "Nota Objetiva": "phase:Prova Objetiva",  # matched to the contest's phase
        "Nota da prova discursiva": "phase:Nota da prova discursiva",
        "Nota Final": "final_score",
        "Observação": "",
    }


def test_saved_mapping_wins_over_the_suggestion():
    assert suggest(["Col A", "Nome"], saved={"Col A": "cpf", "Nome": ""}) == {"Col A": "cpf", "Nome": ""}


@pytest.mark.parametrize(
    ("parse", "raw", "shown"),
    [
        (cells.parse_cpf, "12345", "12345"),
        (cells.parse_cpf, "036.881.690-7A", "036.881.690-7A"),
        (cells.parse_cpf, "036.881.690-78", "036.881.690-78"),
        (cells.parse_email, "fulana@", "fulana@"),
        (cells.parse_number, "12 34", "12 34"),
        (cells.parse_name, "Maria " * 40, "Maria Maria"),
        (lambda v: cells.parse_text(v, max_length=10), "Rua das Flores, 100", "Rua das Flo"),
        (cells.parse_decimal, "oito", "oito"),
        (cells.parse_score, "7,5,1", "7,5,1"),
        (cells.parse_date, "31/02/2026", "31/02/2026"),
        (cells.parse_date, "1/2/26", "1/2/26"),
        (cells.parse_bool, "talvez", "talvez"),
        (cells.parse_racial, "talvez", "talvez"),
        (cells.parse_reserve, "ambas", "ambas"),
    ],
)
def test_every_refusal_shows_the_raw_value(parse, raw, shown):
    """The clerk sees what the cell holds ("CPF “12345” inválido: tem 5 dígitos")."""
    with pytest.raises(CellError) as error:
        parse(raw)
    assert shown in str(error.value)


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("Conceição", "conceicao"),
        ("Nº de Inscrição", "no de inscricao"),
        ("  Cota-Racial / PcD ", "cota racial pcd"),
        ("Conceic\u0327a\u0303o", "conceicao"),
    ],
)
def test_a_header_folds_like_the_search_with_punctuation_as_single_spaces(typed, folded):
    assert cells.fold(typed) == folded


def test_memoised_scores_and_dates_read_the_same_and_the_memo_empties_when_full(monkeypatch):
    monkeypatch.setattr(cells, "MEMO_SIZE", 2)
    monkeypatch.setattr(cells, "_scores", {})
    monkeypatch.setattr(cells, "_dates", {})
    for _ in range(2):  # read, then from the memo
        assert cells.parse_score("7,456") == (D("7.46"), False)
        assert cells.parse_score("10") == (D("10.00"), False)
        assert cells.parse_date("29/02/2024") == datetime.date(2024, 2, 29)
        with pytest.raises(CellError, match="não existe no calendário"):  # never memoised
            cells.parse_date("30/02/2024")
    assert cells.parse_score("3,5") == (D("3.50"), False)  # the memo was full: emptied, then this one
    assert cells._scores == {"3,5": (D("3.50"), False)}
    assert cells._dates == {"29/02/2024": datetime.date(2024, 2, 29)}
