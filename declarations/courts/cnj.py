"""The unified case number of the Brazilian courts (Resolução CNJ 65/2008): NNNNNNN-DD.AAAA.J.TR.OOOO.

PURE module: no Django, no project import, no clock (the current year is passed in when wanted).

    NNNNNNN  the case's sequence number in its unit of origin and year;
    DD       check digits, ISO 7064 MOD 97-10 (Res. 65 annex VIII): DD = 98 − (NNNNNNNAAAAJTROOOO × 100
             mod 97), so that the 20 digits read as NNNNNNNAAAAJTROOOODD leave remainder 1 by 97;
    AAAA     the year the case was filed;
    J        the branch of the Judiciary (1 STF, 2 CNJ, 3 STJ, 4 Federal, 5 Trabalho, 6 Eleitoral, 7 Militar
             da União, 8 Estados e DF, 9 Militar Estadual);
    TR       the court within the branch: 00 for the superior court of the branch (TST, TSE, STM) and for
             STF, CNJ and STJ; the region for the federal (TRF 1–6) and labour (TRT 1–24) courts and the
             military circumscription (CJM 1–12); the state, numbered in the alphabetical order of the
             states' names (01 AC … 07 DF … 19 RJ, 21 RS, 25 SE, 26 SP, 27 TO: the annex puts Sergipe before
             São Paulo), for the state, electoral and
             state military courts (only MG, RS and SP have a military court of justice); 90 for the
             councils of the federal (CJF) and labour (CSJT) courts;
    OOOO     the unit of origin (0000: the court's own original jurisdiction).

The court is decoded from J.TR; the unit of origin is not (it needs each court's own table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SEGMENTS = {
    1: "Supremo Tribunal Federal",
    2: "Conselho Nacional de Justiça",
    3: "Superior Tribunal de Justiça",
    4: "Justiça Federal",
    5: "Justiça do Trabalho",
    6: "Justiça Eleitoral",
    7: "Justiça Militar da União",
    8: "Justiça dos Estados e do Distrito Federal e Territórios",
    9: "Justiça Militar Estadual",
}

# TR of the state, electoral and state military courts: the states in the alphabetical order of their
# names (Res. CNJ 65/2008, annex), Sergipe (25) before São Paulo (26); the name with its article, as in
# the court's name.
STATES: dict[int, tuple[str, str]] = {
    1: ("AC", "do Acre"),
    2: ("AL", "de Alagoas"),
    3: ("AP", "do Amapá"),
    4: ("AM", "do Amazonas"),
    5: ("BA", "da Bahia"),
    6: ("CE", "do Ceará"),
    7: ("DF", "do Distrito Federal e dos Territórios"),
    8: ("ES", "do Espírito Santo"),
    9: ("GO", "de Goiás"),
    10: ("MA", "do Maranhão"),
    11: ("MT", "de Mato Grosso"),
    12: ("MS", "de Mato Grosso do Sul"),
    13: ("MG", "de Minas Gerais"),
    14: ("PA", "do Pará"),
    15: ("PB", "da Paraíba"),
    16: ("PR", "do Paraná"),
    17: ("PE", "de Pernambuco"),
    18: ("PI", "do Piauí"),
    19: ("RJ", "do Rio de Janeiro"),
    20: ("RN", "do Rio Grande do Norte"),
    21: ("RS", "do Rio Grande do Sul"),
    22: ("RO", "de Rondônia"),
    23: ("RR", "de Roraima"),
    24: ("SC", "de Santa Catarina"),
    25: ("SE", "de Sergipe"),
    26: ("SP", "de São Paulo"),
    27: ("TO", "do Tocantins"),
}
STATE_MILITARY_COURTS = (13, 21, 26)  # the only states with a Tribunal de Justiça Militar
FEDERAL_REGIONS = 6  # TRF 1ª a 6ª Região (the 6ª, Minas Gerais, by Lei 14.226/2021)
LABOUR_REGIONS = 24
MILITARY_CIRCUMSCRIPTIONS = 12
FIRST_YEAR = 1890  # older years are typing errors (renumbered old cases keep their own year)

PATTERN = re.compile(r"^(\d{7})-(\d{2})\.(\d{4})\.(\d)\.(\d{2})\.(\d{4})$")
FORMAT = "NNNNNNN-DD.AAAA.J.TR.OOOO"


class CaseNumberError(ValueError):
    """A case number that is not a valid CNJ number (message in Portuguese)."""


@dataclass(frozen=True)
class Court:
    code: str  # "8.21"
    acronym: str  # "TJRS"
    name: str  # "Tribunal de Justiça do Estado do Rio Grande do Sul"
    segment: str  # "Justiça dos Estados e do Distrito Federal e Territórios"
    state: str = ""  # "RS" where the court is a state's


@dataclass(frozen=True)
class CaseNumber:
    sequence: str
    check: str
    year: int
    segment: int
    court_code: str
    origin: str
    court: Court

    def __str__(self) -> str:
        return f"{self.sequence}-{self.check}.{self.year:04d}.{self.segment}.{self.court_code}.{self.origin}"

    @property
    def original_jurisdiction(self) -> bool:
        """The case began in the court itself (OOOO = 0000)."""
        return self.origin == "0000"


def check_digits(sequence: str, year: int, segment: int, court_code: str, origin: str) -> str:
    """The two check digits of a number (ISO 7064 MOD 97-10, Res. CNJ 65/2008 annex VIII)."""
    body = int(f"{sequence}{year:04d}{segment}{court_code}{origin}")
    return f"{98 - (body * 100) % 97:02d}"


def _ordinal(number: int) -> str:
    return f"{number}ª"


def court_of(segment: int, court_code: str) -> Court:
    """The court of J.TR, or ``CaseNumberError`` saying why no court has that code."""
    code = f"{segment}.{court_code}"
    tr = int(court_code)
    name = SEGMENTS.get(segment)
    if name is None:
        raise CaseNumberError(
            f"Segmento do Judiciário (J) inválido: {segment}. Vai de 1 (STF) a 9 (Justiça Militar Estadual)."
        )
    if segment in (1, 2, 3):
        if tr != 0:
            raise CaseNumberError(f"Código de tribunal inválido ({code}): para o {name}, TR é sempre 00.")
        acronym = {1: "STF", 2: "CNJ", 3: "STJ"}[segment]
        return Court(code, acronym, name, name)
    if segment == 4:
        if 1 <= tr <= FEDERAL_REGIONS:
            return Court(code, f"TRF{tr}", f"Tribunal Regional Federal da {_ordinal(tr)} Região", name)
        if tr == 90:
            return Court(code, "CJF", "Conselho da Justiça Federal", name)
        raise CaseNumberError(
            f"Código de tribunal inválido ({code}): na Justiça Federal, TR vai de 01 a "
            f"{FEDERAL_REGIONS:02d} (a região do TRF) ou é 90 (CJF)."
        )
    if segment == 5:
        if tr == 0:
            return Court(code, "TST", "Tribunal Superior do Trabalho", name)
        if 1 <= tr <= LABOUR_REGIONS:
            return Court(code, f"TRT{tr}", f"Tribunal Regional do Trabalho da {_ordinal(tr)} Região", name)
        if tr == 90:
            return Court(code, "CSJT", "Conselho Superior da Justiça do Trabalho", name)
        raise CaseNumberError(
            f"Código de tribunal inválido ({code}): na Justiça do Trabalho, TR é 00 (TST), de 01 a "
            f"{LABOUR_REGIONS} (a região do TRT) ou 90 (CSJT)."
        )
    if segment == 7:
        if tr == 0:
            return Court(code, "STM", "Superior Tribunal Militar", name)
        if 1 <= tr <= MILITARY_CIRCUMSCRIPTIONS:
            return Court(
                code,
                f"{tr}ª CJM",
                f"Justiça Militar da União, {_ordinal(tr)} Circunscrição Judiciária Militar",
                name,
            )
        raise CaseNumberError(
            f"Código de tribunal inválido ({code}): na Justiça Militar da União, TR é 00 (STM) ou de 01 a "
            f"{MILITARY_CIRCUMSCRIPTIONS} (a circunscrição judiciária militar)."
        )
    if segment == 6 and tr == 0:
        return Court(code, "TSE", "Tribunal Superior Eleitoral", name)
    state = STATES.get(tr)
    if segment == 9 and tr not in STATE_MILITARY_COURTS:
        raise CaseNumberError(
            f"Código de tribunal inválido ({code}): só há Tribunal de Justiça Militar em MG (13), RS (21) e "
            "SP (26)."
        )
    if state is None:
        raise CaseNumberError(
            f"Código de tribunal inválido ({code}): na {name}, TR é o estado, de 01 (AC) a 27 (TO), em ordem "
            "alfabética dos nomes dos estados" + (", ou 00 (TSE)." if segment == 6 else ".")
        )
    uf, of_state = state
    if segment == 6:
        return Court(code, f"TRE-{uf}", f"Tribunal Regional Eleitoral {of_state}", name, uf)
    if segment == 9:
        return Court(code, f"TJM{uf}", f"Tribunal de Justiça Militar do Estado {of_state}", name, uf)
    if uf == "DF":
        return Court(code, "TJDFT", "Tribunal de Justiça do Distrito Federal e dos Territórios", name, uf)
    return Court(code, f"TJ{uf}", f"Tribunal de Justiça do Estado {of_state}", name, uf)


def parse(text: str, *, current_year: int | None = None) -> CaseNumber:
    """The case number written in ``text`` (with its mask, NNNNNNN-DD.AAAA.J.TR.OOOO, or as 20 digits,
    spaces around ignored), its check digits verified and its court decoded; ``CaseNumberError`` saying
    what is wrong. A year after ``current_year`` (when given) is refused."""
    raw = text.strip()
    if re.fullmatch(r"\d{20}", raw):
        raw = f"{raw[:7]}-{raw[7:9]}.{raw[9:13]}.{raw[13]}.{raw[14:16]}.{raw[16:]}"
    match = PATTERN.match(raw)
    if match is None:
        digits = sum(c.isdigit() for c in raw)
        raise CaseNumberError(
            f"Número de processo fora do padrão do CNJ: {FORMAT} (20 dígitos, Resolução CNJ 65/2008); "
            f"o informado tem {digits} dígito{'s' if digits != 1 else ''}"
            + ("." if digits != 20 else " mas não segue a máscara.")
        )
    sequence, check, year_text, segment_text, court_code, origin = match.groups()
    year, segment = int(year_text), int(segment_text)
    if year < FIRST_YEAR or (current_year is not None and year > current_year):
        latest = f" nem posterior a {current_year}" if current_year is not None else ""
        raise CaseNumberError(
            f"Ano do processo inválido: {year_text} (o ano de ajuizamento não pode ser anterior a "
            f"{FIRST_YEAR}{latest})."
        )
    court = court_of(segment, court_code)
    expected = check_digits(sequence, year, segment, court_code, origin)
    if check != expected:
        raise CaseNumberError(
            f"Dígito verificador inválido: {check} não confere com o restante do número (módulo 97, ISO 7064, "
            "Resolução CNJ 65/2008). Confira cada dígito do número na decisão."
        )
    return CaseNumber(sequence, check, year, segment, court_code, origin, court)
