"""The CNJ unified case number (Resolução CNJ 65/2008): check digits by ISO 7064 MOD 97-10 and the court
decoded from J.TR (pure, no database)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from declarations.courts import cnj
from declarations.courts.cnj import CaseNumberError, check_digits, court_of, parse

# Published numbers (federal criminal cases of the 13ª Vara Federal de Curitiba, TRF4, widely reported).
PUBLISHED = (
    "5046512-94.2016.4.04.7000",
    "5021365-32.2017.4.04.7000",
    "5063130-17.2016.4.04.7000",
)


def formula(sequence: str, year: str, segment: str, court: str, origin: str) -> str:
    """Res. 65 annex VIII, written out: DD = 98 − (NNNNNNNAAAAJTROOOO × 100 mod 97)."""
    return f"{98 - int(sequence + year + segment + court + origin + '00') % 97:02d}"


def number(sequence: str, year: str, segment: str, court: str, origin: str) -> str:
    return f"{sequence}-{formula(sequence, year, segment, court, origin)}.{year}.{segment}.{court}.{origin}"


@pytest.mark.parametrize("text", PUBLISHED)
def test_res65_published_numbers_are_accepted(text):
    parsed = parse(text)
    assert str(parsed) == text
    assert parsed.court.acronym == "TRF4"
    assert parsed.court.name == "Tribunal Regional Federal da 4ª Região"


@pytest.mark.parametrize("text", PUBLISHED)
def test_res65_the_whole_number_leaves_remainder_one_by_97(text):
    digits = text.replace("-", "").replace(".", "")
    assert int(digits[:7] + digits[9:] + digits[7:9]) % 97 == 1


@pytest.mark.parametrize(
    ("parts", "acronym", "name"),
    [
        (
            ("0012345", "2024", "8", "21", "0001"),
            "TJRS",
            "Tribunal de Justiça do Estado do Rio Grande do Sul",
        ),
        (("0012345", "2024", "8", "19", "0001"), "TJRJ", "Tribunal de Justiça do Estado do Rio de Janeiro"),
        (("1001234", "2025", "8", "26", "0053"), "TJSP", "Tribunal de Justiça do Estado de São Paulo"),
        (
            ("0700001", "2023", "8", "07", "0001"),
            "TJDFT",
            "Tribunal de Justiça do Distrito Federal e dos Territórios",
        ),
        (("0000001", "2024", "8", "01", "0001"), "TJAC", "Tribunal de Justiça do Estado do Acre"),
        (("0000001", "2024", "8", "27", "2729"), "TJTO", "Tribunal de Justiça do Estado do Tocantins"),
        (("0000001", "2024", "8", "13", "0024"), "TJMG", "Tribunal de Justiça do Estado de Minas Gerais"),
        (("0800001", "2024", "4", "05", "8300"), "TRF5", "Tribunal Regional Federal da 5ª Região"),
        (("6000001", "2024", "4", "06", "3800"), "TRF6", "Tribunal Regional Federal da 6ª Região"),
        (("0010001", "2024", "5", "04", "0001"), "TRT4", "Tribunal Regional do Trabalho da 4ª Região"),
        (("0000001", "2024", "5", "00", "0000"), "TST", "Tribunal Superior do Trabalho"),
        (
            ("0600001", "2024", "6", "21", "0001"),
            "TRE-RS",
            "Tribunal Regional Eleitoral do Rio Grande do Sul",
        ),
        (("0600001", "2024", "6", "00", "0000"), "TSE", "Tribunal Superior Eleitoral"),
        (("7000001", "2024", "7", "00", "0000"), "STM", "Superior Tribunal Militar"),
        (
            ("0000001", "2024", "9", "26", "0001"),
            "TJMSP",
            "Tribunal de Justiça Militar do Estado de São Paulo",
        ),
        (("0000001", "2024", "1", "00", "0000"), "STF", "Supremo Tribunal Federal"),
        (("0000001", "2024", "2", "00", "0000"), "CNJ", "Conselho Nacional de Justiça"),
        (("0000001", "2024", "3", "00", "0000"), "STJ", "Superior Tribunal de Justiça"),
    ],
)
def test_res65_court_decoded_from_j_tr(parts, acronym, name):
    parsed = parse(number(*parts))
    assert (parsed.court.acronym, parsed.court.name) == (acronym, name)
    assert parsed.court.code == f"{parts[2]}.{parts[3]}"


def test_res65_state_codes_are_the_annex_table():
    # The states in the alphabetical order of their names, with one exception in the annex: 25 Sergipe
    # before 26 São Paulo (TJSE is 8.25, TJSP 8.26, as every number of both courts shows).
    table = [
        "AC",
        "AL",
        "AP",
        "AM",
        "BA",
        "CE",
        "DF",
        "ES",
        "GO",
        "MA",
        "MT",
        "MS",
        "MG",
        "PA",
        "PB",
        "PR",
        "PE",
        "PI",
        "RJ",
        "RN",
        "RS",
        "RO",
        "RR",
        "SC",
        "SE",
        "SP",
        "TO",
    ]
    assert [uf for _, (uf, _) in sorted(cnj.STATES.items())] == table
    assert (cnj.STATES[19][0], cnj.STATES[21][0], cnj.STATES[26][0]) == ("RJ", "RS", "SP")


@settings(max_examples=300, deadline=None)
@given(
    sequence=st.integers(0, 9_999_999),
    year=st.integers(1990, 2026),
    court=st.sampled_from(["8.26", "8.21", "4.01", "5.15", "6.13", "9.13", "1.00"]),
    origin=st.integers(0, 9999),
)
def test_res65_annex_viii_check_digits_are_the_formula(sequence, year, court, origin):
    segment, tr = court.split(".")
    s, o = f"{sequence:07d}", f"{origin:04d}"
    expected = formula(s, str(year), segment, tr, o)
    assert check_digits(s, year, int(segment), tr, o) == expected
    assert (
        str(parse(f"{s}-{expected}.{year}.{segment}.{tr}.{o}")) == f"{s}-{expected}.{year}.{segment}.{tr}.{o}"
    )
    wrong = f"{(int(expected) + 1) % 100:02d}"
    with pytest.raises(CaseNumberError, match="Dígito verificador inválido"):
        parse(f"{s}-{wrong}.{year}.{segment}.{tr}.{o}")


@pytest.mark.parametrize(
    "text",
    [
        "5046512-95.2016.4.04.7000",  # the check digits changed
        "5046513-94.2016.4.04.7000",  # a digit of the sequence changed
        "5046512-94.2017.4.04.7000",  # the year changed
        "5046512-94.2016.4.04.7001",  # the origin changed
        "5064512-94.2016.4.04.7000",  # two digits swapped
    ],
)
def test_res65_invalid_check_digits_refused_with_the_reason(text):
    with pytest.raises(CaseNumberError, match=r"Dígito verificador inválido: \d\d não confere"):
        parse(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "fora do padrão do CNJ"),
        ("5046512-94.2016.4.04.700", "fora do padrão do CNJ"),
        ("5046512/94.2016.4.04.7000", "não segue a máscara"),
        ("5046512-94.1016.4.04.7000", "Ano do processo inválido"),
        ("0000001-00.2024.0.00.0000", "Segmento do Judiciário"),
        (
            "0000001-00.2024.8.28.0001",
            "na Justiça dos Estados e do Distrito Federal e Territórios, TR é o estado",
        ),
        ("0000001-00.2024.8.00.0001", "TR é o estado"),
        ("0000001-00.2024.4.07.0001", "Justiça Federal, TR vai de 01 a 06"),
        ("0000001-00.2024.5.25.0001", "Justiça do Trabalho"),
        ("0000001-00.2024.9.19.0001", "só há Tribunal de Justiça Militar em MG"),
        ("0000001-00.2024.3.01.0000", "TR é sempre 00"),
    ],
)
def test_res65_malformed_numbers_refused_with_the_reason(text, reason):
    with pytest.raises(CaseNumberError, match=reason):
        parse(text)


def test_res65_a_year_after_the_current_one_is_refused():
    text = number("0000001", "2027", "8", "21", "0001")
    assert parse(text).year == 2027
    with pytest.raises(CaseNumberError, match="nem posterior a 2026"):
        parse(text, current_year=2026)


def test_res65_twenty_digits_without_the_mask_are_read_and_formatted():
    assert str(parse(" 50465129420164047000 ")) == "5046512-94.2016.4.04.7000"


def test_res65_origin_0000_is_the_courts_original_jurisdiction():
    assert parse(number("0000001", "2024", "8", "21", "0000")).original_jurisdiction
    assert not parse(PUBLISHED[0]).original_jurisdiction


def test_res65_court_of_refuses_unknown_codes():
    with pytest.raises(CaseNumberError):
        court_of(4, "90") and court_of(4, "91")
