"""Portuguese wording shared by the screens: real plurals instead of "vaga(s)" (issue 13)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from contests.quotas import format_fraction


def thousands(n: int) -> str:
    """A whole number with a dot between thousands, as Brazilians write it: ``12345`` → ``"12.345"``."""
    return f"{n:,}".replace(",", ".")


def plural(n: int, one: str, many: str) -> str:
    """``n`` followed by the singular or the plural words: ``plural(2, "vaga aberta", "vagas abertas")``;
    the number with its thousands dot (``"1.500 linhas"``)."""
    return f"{thousands(n)} {one if n == 1 else many}"


# The access log's actions (``contests.audit.log_access``), as the auditor reads them.
ACCESS_ACTIONS = {
    "view": "Consulta",
    "view_sensitive": "Consulta de dado sensível",
    "document": "Emissão de documento",
    "download": "Download de anexo",
    "portal": "Acesso pela página do candidato",
    "login_locked": "Bloqueio de entrada",
}


def decimal_comma(value: object) -> str:
    """A number as Brazilians write it: ``72,50`` (a Decimal's digits kept, never in exponent form)."""
    if isinstance(value, Decimal):
        return format(value, "f").replace(".", ",")
    return str(value).replace(".", ",")


def access_action(action: str) -> str:
    return ACCESS_ACTIONS.get(action, action)


def carried_in_words(carried: Fraction, citation: str = "") -> str:
    """The fraction carried (SM art. 1 §4) in words, never as a negative number: "0,4 a considerar nas
    próximas vagas", "0,4 já antecipado", "nenhuma"; ``citation`` (the policy's) follows in parentheses."""
    if not carried:
        return "nenhuma"
    if carried > 0:
        text = f"{format_fraction(carried)} a considerar nas próximas vagas"
    else:
        text = f"{format_fraction(-carried)} já antecipado"
    return f"{text} ({citation})" if citation else text
