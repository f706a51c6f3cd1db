"""Reading one cell as exam organisers write it: each parser returns a clean value or raises ``CellError``.

Cells come from CSV (always text) or XLSX (text, int, float, bool, datetime or None). Messages are
Portuguese because they reach the clerk unchanged ("Linha 7, coluna CPF: ...").
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator

from candidates.engine.results import SCORE_QUANTUM
from candidates.models.registrations import SCORE_DECIMAL_PLACES, SCORE_MAX_DIGITS
from candidates.validators import CPF_LENGTH, cpf_digits, cpf_is_valid, format_cpf
from contests import text_search

EXCEL_EPOCH = datetime.date(1899, 12, 30)
SCORE_LARGEST = "9" * (SCORE_MAX_DIGITS - SCORE_DECIMAL_PLACES) + "," + "9" * SCORE_DECIMAL_PLACES
NUMBER_RE = re.compile(r"^[0-9A-Za-z./-]+$")
FLOAT_ZERO_RE = re.compile(r"^(\d+)[.,]0+$")
DMY_RE = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$")
ISO_RE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
SERIAL_RE = re.compile(r"^\d{4,5}([.,]0+)?$")
CPF_RE = re.compile(r"^(\d{3})\.?(\d{3})\.?(\d{3})-?(\d{2})$")
PLAIN_NUMBER_RE = re.compile(r"^\d{1,6}(?:[.,]\d{1,12})?$")
# The cells read most often, by their text: a file of 100,000 rows holds a few thousand distinct scores and
# birth dates. Their values (``Decimal``, ``date``) are immutable; each memo is emptied when full.
MEMO_SIZE = 50_000
_scores: dict[str, tuple[Decimal | None, bool]] = {}
_dates: dict[str, datetime.date] = {}

TRUE_WORDS = {"s", "sim", "x", "1", "true", "verdadeiro", "v", "y", "yes"}
FALSE_WORDS = {"", "n", "nao", "0", "false", "falso", "no", "-"}
ABSENT_WORDS = {"ausente", "aus", "faltou", "falta", "faltoso", "nc", "n c", "nao compareceu", "ausencia"}
BLANK_SCORE_WORDS = {"", "-", "--", "nd", "n d"}
CATEGORY_WORDS = {
    "preta": "preta",
    "preto": "preta",
    "pretos": "preta",
    "parda": "parda",
    "pardo": "parda",
    "pardos": "parda",
    "indigena": "indigena",
    "indigenas": "indigena",
    "indio": "indigena",
    "india": "indigena",
    "indios": "indigena",
    "quilombola": "quilombola",
    "quilombolas": "quilombola",
    # "Negro" names both IBGE categories at once: the category stays unspecified (blank).
    "negra": "",
    "negro": "",
    "negros": "",
    "negras": "",
}
RESERVE_WORDS = {
    "racial": "racial",
    "reserva racial": "racial",
    "cota racial": "racial",
    "negro": "racial",
    "negros": "racial",
    "negra": "racial",
    "r": "racial",
    "ppp": "racial",
    "ppi": "racial",
    "pcd": "pcd",
    "deficiente": "pcd",
    "deficiencia": "pcd",
    "pessoa com deficiencia": "pcd",
    "reserva pcd": "pcd",
    "pne": "pcd",
    "d": "pcd",
}

# The spellings seen in nearly every file, read without folding (the slow path handles the rest).
FAST_BOOLS = {
    "": False,
    "S": True,
    "N": False,
    "s": True,
    "n": False,
    "Sim": True,
    "Não": False,
    "SIM": True,
    "NÃO": False,
    "sim": True,
    "não": False,
    "Nao": False,
    "NAO": False,
    "nao": False,
    "X": True,
    "x": True,
    "0": False,
    "1": True,
}

_email_validator = EmailValidator()


class CellError(ValueError):
    """A cell that cannot be read; ``str()`` is the Portuguese reason."""


def fold(value: str) -> str:
    """Lower case, no accents, punctuation as single spaces: how we compare words typed by people.
    The search's fold, plus punctuation collapsed, since a header or an option is matched as whole words."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text_search.fold(value)).split())


def text(value: Any) -> str:
    """A cell as trimmed text; integral floats from spreadsheets lose their ``.0``."""
    if type(value) is str and "  " not in value and "\u00a0" not in value:
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "S" if value else "N"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.strftime("%d/%m/%Y")
    return " ".join(str(value).replace("\u00a0", " ").split())


def shown(value: Any) -> str:
    """The cell as the clerk sees it, for messages."""
    return text(value) or "(vazio)"


def excerpt(value: str, length: int = 40) -> str:
    """The start of a long value, for a message that shows what the cell holds."""
    return value if len(value) <= length else value[: length - 1] + "…"


def parse_name(value: Any, *, max_length: int = 200) -> str:
    name = text(value)
    if len(name) > max_length:
        raise CellError(f"nome com mais de {max_length} caracteres: “{excerpt(name)}”")
    return name


def parse_text(value: Any, *, max_length: int) -> str:
    result = text(value)
    if len(result) > max_length:
        raise CellError(f"texto com mais de {max_length} caracteres: “{excerpt(result)}”")
    return result


def parse_email(value: Any) -> str:
    email = text(value)
    if not email:
        return ""
    try:
        _email_validator(email)
    except ValidationError:
        raise CellError(f"e-mail “{email}” inválido") from None
    return email


def parse_cpf(value: Any) -> str:
    """11 digits with valid check digits; a number that lost its leading zeros gets them back."""
    if value is None or value == "":
        return ""
    if type(value) is str:
        match = CPF_RE.match(value)
        if match:
            digits = "".join(match.groups())
            if cpf_is_valid(digits):
                return digits
    if isinstance(value, float):
        if not value.is_integer():
            raise CellError(f"CPF “{value}” inválido")
        value = int(value)
    raw = text(value)
    if not raw:
        return ""
    if re.search(r"\d[.,]\d+E\+?\d+$", raw, re.IGNORECASE):
        raise CellError(
            f"CPF “{raw}” em notação científica: a planilha perdeu dígitos; formate a coluna como texto e "
            "exporte de novo"
        )
    if (float_zero := FLOAT_ZERO_RE.match(raw)) and "-" not in raw and raw.count(".") == 1:
        raw = float_zero.group(1)
    digits = cpf_digits(value if isinstance(value, int) else raw)
    if not digits.isdigit():
        raise CellError(f"CPF “{raw}” inválido: deve ter 11 dígitos")
    if len(digits) != CPF_LENGTH:
        raise CellError(f"CPF “{raw}” inválido: tem {len(digits)} dígitos")
    if not cpf_is_valid(digits):
        read = format_cpf(digits)
        if "".join(ch for ch in raw if ch.isdigit()) != digits:  # leading zeros put back: say so
            raise CellError(
                f"CPF “{raw}” inválido: lido como {read} (zeros à esquerda acrescentados), os dígitos "
                "verificadores não conferem"
            )
        raise CellError(f"CPF {read} inválido: os dígitos verificadores não conferem")
    return digits


def parse_number(value: Any) -> str:
    """An inscription number; ``1001.0`` (a spreadsheet's float) is ``1001``."""
    if type(value) is str and value.isdigit() and len(value) <= 30:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    raw = text(value)
    match = FLOAT_ZERO_RE.match(raw)
    if match:
        raw = match.group(1)
    if not raw:
        return ""
    if len(raw) > 30 or not NUMBER_RE.match(raw):
        raise CellError(f"número de inscrição “{raw}” inválido (use letras, números, ponto, barra ou hífen)")
    return raw


def parse_decimal(value: Any, *, what: str = "nota") -> Decimal | None:
    """A non-negative number rounded half up to two places; decimal comma or point; float noise tolerated."""
    if value is None or isinstance(value, bool):
        if value is None:
            return None
        raise CellError(f"{what} “{value}” não é um número")
    if isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))
    else:
        raw = text(value).replace(" ", "")
        if not raw:
            return None
        number = _decimal_from_text(raw, what=what)
    if not number.is_finite():
        raise CellError(f"{what} “{text(value)}” não é um número")
    if number < 0:
        raise CellError(f"{what} negativa ({text(value)})")
    # Bounded by the model's digits before rounding: quantize cannot even represent 1e100 at two places.
    if number.adjusted() >= SCORE_MAX_DIGITS - SCORE_DECIMAL_PLACES:
        raise CellError(f"{what} “{shown(value)[:40]}” grande demais (até {SCORE_LARGEST})")
    return number.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)


def _decimal_from_text(raw: str, *, what: str) -> Decimal:
    cleaned = raw
    if "," in cleaned and "." in cleaned:
        # The last separator is the decimal one: 1.234,56 or 1,234.56.
        if cleaned.rfind(",") > cleaned.rfind("."):
            cleaned = cleaned.replace(".", "").replace(",", ".")
        else:
            cleaned = cleaned.replace(",", "")
    else:
        cleaned = cleaned.replace(",", ".")
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        raise CellError(f"{what} “{raw}” não é um número") from None


def parse_score(value: Any) -> tuple[Decimal | None, bool]:
    """``(score, absent)``: a number, ``AUSENTE`` (and its variants) or empty (not graded)."""
    if type(value) is str:
        if (known := _scores.get(value)) is not None:
            return known
        if not value:
            return None, False
        if PLAIN_NUMBER_RE.match(value):
            score = Decimal(value.replace(",", ".")).quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP), False
            if len(_scores) >= MEMO_SIZE:
                _scores.clear()
            _scores[value] = score
            return score
        word = fold(value)
        if word in ABSENT_WORDS:
            return None, True
        if word in BLANK_SCORE_WORDS:
            return None, False
    return parse_decimal(value), False


def parse_date(value: Any, *, what: str = "data") -> datetime.date | None:
    """dd/mm/aaaa, aaaa-mm-dd, a real spreadsheet date or an Excel serial number (days since 1899-12-30)."""
    if value is None:
        return None
    if type(value) is str and len(value) == 10 and value[2] == "/" and value[5] == "/":
        if (known := _dates.get(value)) is not None:
            return known
        try:
            parsed = datetime.date(int(value[6:]), int(value[3:5]), int(value[:2]))
        except ValueError:
            pass  # the slow path explains what is wrong
        else:
            if len(_dates) >= MEMO_SIZE:
                _dates.clear()
            _dates[value] = parsed
            return parsed
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, bool):
        raise CellError(f"{what} “{value}” inválida")
    if isinstance(value, int | float):
        return _from_serial(value, what=what)
    raw = text(value)
    if not raw:
        return None
    raw = raw.split(" ")[0].split("T")[0]
    match = DMY_RE.match(raw)
    if match and len(match.group(3)) == 2:
        raise CellError(f"{what} “{raw}” com ano de dois dígitos: use dd/mm/aaaa")
    try:
        if match:
            day, month, year = match.groups()
            return datetime.date(int(year), int(month), int(day))
        match = ISO_RE.match(raw)
        if match:
            year, month, day = match.groups()
            return datetime.date(int(year), int(month), int(day))
    except ValueError:
        raise CellError(f"{what} “{raw}” não existe no calendário") from None
    if SERIAL_RE.match(raw):
        return _from_serial(float(raw.replace(",", ".")), what=what)
    raise CellError(f"{what} “{raw}” não reconhecida: use dd/mm/aaaa")


def date_parser(what: str) -> Callable[[Any], datetime.date | None]:
    """``parse_date`` for one column, ``what`` naming it in messages: a date read before is one call."""
    memo = _dates

    def parse(value: Any) -> datetime.date | None:
        known = memo.get(value) if type(value) is str else None
        return known if known is not None else parse_date(value, what=what)

    return parse


def _from_serial(serial: float, *, what: str) -> datetime.date:
    if not 1 <= serial < 2958466:
        raise CellError(f"{what} “{text(serial)}” não reconhecida: use dd/mm/aaaa")
    return EXCEL_EPOCH + datetime.timedelta(days=int(serial))


def parse_bool(value: Any) -> bool:
    """S/N, Sim/Não, X or empty, 1/0, true/false."""
    if type(value) is str:
        fast = FAST_BOOLS.get(value)
        if fast is not None:
            return fast
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    word = fold(text(value))
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise CellError(f"valor “{shown(value)}” não reconhecido: use S ou N")


def parse_category(value: Any) -> str | None:
    """An IBGE category code, ``""`` for "negro" without distinction, ``None`` for empty."""
    word = fold(text(value))
    if not word:
        return None
    if word in CATEGORY_WORDS:
        return CATEGORY_WORDS[word]
    raise CellError(f"categoria “{text(value)}” não dá direito à reserva racial")


def parse_racial(value: Any) -> tuple[bool, str | None]:
    """``(opted, category)``: the option as S/N, or the category itself (``Parda`` means yes, parda)."""
    try:
        return parse_bool(value), None
    except CellError:
        pass
    try:
        category = parse_category(value)
    except CellError:
        raise CellError(f"valor “{shown(value)}” não reconhecido: use S ou N (ou a categoria)") from None
    return True, category


def parse_reserve(value: Any) -> str:
    word = fold(text(value))
    if not word:
        return ""
    if word in RESERVE_WORDS:
        return RESERVE_WORDS[word]
    raise CellError(f"reserva preferida “{text(value)}” não reconhecida: use racial ou PcD")
