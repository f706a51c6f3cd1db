"""Portuguese wording shared by the screens, the documents and the exports: real plurals instead of
"vaga(s)", numbers with a decimal comma and a thousands dot. Pure: no Django, no project import."""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


def thousands(n: int) -> str:
    """A whole number with a dot between thousands, as Brazilians write it: ``12345`` → ``"12.345"``."""
    return f"{n:,}".replace(",", ".")


def plural(n: int, one: str, many: str) -> str:
    """``n`` followed by the singular or the plural words: ``plural(2, "vaga aberta", "vagas abertas")``;
    the number with its thousands dot (``"1.500 linhas"``)."""
    return f"{thousands(n)} {one if n == 1 else many}"


# Agreement: a message built as "{label} {participle}" ("Recurso recebido", "Alegações finais registradas")
# takes the participle's gender and number from the label's head noun (its first word). The one home of it:
# the heads the application's labels use, by gender; a head not listed falls back on the word's ending.
_FEMININE_HEADS = frozenset(
    {
        "abertura",
        "alegações",
        "ata",
        "audiência",
        "ciência",
        "comissão",
        "convocação",
        "decisão",
        "defesa",
        "desistência",
        "eliminação",
        "homologação",
        "inscrição",
        "intimação",
        "lista",
        "manifestação",
        "nomeação",
        "nota",
        "opção",
        "posse",
        "prorrogação",
        "prova",
        "publicação",
        "renúncia",
        "retificação",
        "sessão",
        "versão",
    }
)
_MASCULINE_HEADS = frozenset(
    {
        "ato",
        "aviso",
        "cálculo",
        "cargo",
        "concurso",
        "documento",
        "edital",
        "encerramento",
        "juízo",
        "parecer",
        "processo",
        "recurso",
        "relatório",
        "resultado",
        "sorteio",
        "termo",
    }
)


def head_noun(label: str) -> str:
    """The first word of ``label``, in lower case, without punctuation: the noun a participle agrees with."""
    word = label.strip().split(" ", 1)[0] if label.strip() else ""
    return word.strip(".,:;()“”\"'").lower()


def is_feminine(label: str) -> bool:
    """Whether ``label``'s head noun is feminine ("Intimação para defesa", "Alegações finais")."""
    head = head_noun(label)
    if head in _FEMININE_HEADS:
        return True
    if head in _MASCULINE_HEADS:
        return False
    return head.endswith(("ção", "ções", "são", "sões", "dade", "dades", "gem", "gens", "a", "as"))


# Names of acts ("Lei nº 1", "Portaria nº 12/2025", "Ato da Mesa nº 3") and the article they take: the one
# home of this grammar for every act (the nomination's Portaria, the letters, the documents' headings).
# Heads of acts' and offices' names that are feminine though ``is_feminine`` reads them by their ending
# ("Lei" ends in "i").
_FEMININE_ACTS = frozenset({"lei", "emenda", "ordem"})


def act_is_feminine(label: str) -> bool:
    """Whether the name of an act or office takes "a": "Lei", "Portaria", "Resolução", but "Decreto"."""
    return head_noun(label) in _FEMININE_ACTS or is_feminine(label)


def with_article(label: str) -> str:
    """``"a Portaria nº 12/2025"``, ``"o Ato da Mesa nº 3"``, ``"a Lei Orgânica"``: the name of an act with
    the definite article it takes (kept when the text already starts with one)."""
    label = label.strip()
    if head_noun(label) in ("a", "o", "as", "os"):
        return label
    return f"{'a' if act_is_feminine(label) else 'o'} {label}"


def of(label: str) -> str:
    """``"da Lei nº 1"``, ``"do Decreto nº 2"``: "de" contracted with the article ``label`` takes (or
    the one it already starts with: "a Lei" → "da Lei")."""
    article = with_article(label)
    return "d" + article if article[:2] in ("a ", "o ") or article[:3] in ("as ", "os ") else f"de {article}"


def contraction_of(label: str) -> str:
    """The contraction alone: ``"da"`` (Lei, Resolução, Portaria), ``"do"`` (Decreto, Projeto)."""
    return of(label).split(" ", 1)[0]


def by(label: str) -> str:
    """``"pela Portaria nº 3"``, ``"pelo Ato da Mesa nº 7"``."""
    article = with_article(label)
    if article.startswith("a "):
        return "pela " + article[2:]
    if article.startswith("o "):
        return "pelo " + article[2:]
    return f"por {article}"


def header_value(text: str) -> str:
    """A value fit for an e-mail header (the subject): every run of whitespace, line breaks included, becomes
    one space and other control characters go (a title typed with CR/LF made Django refuse the whole message
    as a header injection). The one place where a header value is made safe."""
    printable = "".join(ch if ch.isprintable() or ch.isspace() else "" for ch in text)
    return " ".join(printable.split())


def is_plural(label: str) -> bool:
    """Whether ``label``'s head noun is plural ("Alegações finais")."""
    head = head_noun(label)
    return head.endswith(("ões", "ães", "as", "os", "es", "is"))


def agreeing(label: str, participle: str) -> str:
    """``participle`` (given in the masculine singular: "registrado") agreeing with ``label``'s head noun:
    ``agreeing("Recurso", "recebido")`` → "recebido", ``agreeing("Defesa", "recebido")`` → "recebida",
    ``agreeing("Alegações finais", "registrado")`` → "registradas"."""
    stem = participle[:-1] if participle.endswith("o") else participle
    ending = "a" if is_feminine(label) else "o"
    return f"{stem}{ending}{'s' if is_plural(label) else ''}"


def said(label: str, participle: str) -> str:
    """``label`` followed by its agreeing participle: ``said("Encerramento da instrução", "registrado")`` →
    "Encerramento da instrução registrado"."""
    return f"{label} {agreeing(label, participle)}"


# The access log's actions (``contests.audit.log_access``), as the auditor reads them.
ACCESS_ACTIONS = {
    "view": "Consulta",
    "view_sensitive": "Consulta de dado sensível",
    "document": "Emissão de documento",
    "download": "Download de anexo",
    "portal": "Acesso pela página do candidato",
    "login_locked": "Bloqueio de entrada",
    "change": "Alteração",
}


def decimal_comma(value: Decimal | Fraction | int | float, places: int | None = None) -> str:
    """A number as Brazilians write it: ``72,50``, never in exponent form, no thousands dot.

    With ``places`` the value is rounded half up to that many decimals (``decimal_comma(7.25, 1)`` is
    ``"7,3"``); without, a Decimal keeps its digits (``Decimal("78.50")`` → ``"78,50"``), a float is written
    as Python reads it back, and a Fraction exactly when its decimal terminates (else to 6 places)."""
    if isinstance(value, Fraction):
        if places is None:
            value = Decimal(format_fraction_plain(value))
        else:
            value = Decimal(value.numerator) / Decimal(value.denominator)
    elif not isinstance(value, Decimal):
        value = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return format(value, "f").replace(".", ",")


# The same actions as a verb, for a sentence ("Fulana consultou dado sensível de Inscrição 12").
ACCESS_VERBS = {
    "view": "consultou",
    "view_sensitive": "consultou dado sensível de",
    "document": "emitiu documento de",
    "download": "baixou anexo de",
    "portal": "acessou pela página do candidato",
    "login_locked": "teve a entrada bloqueada:",
    "change": "alterou",
}


def access_action(action: str) -> str:
    return ACCESS_ACTIONS.get(action, action)


def access_verb(action: str) -> str:
    return ACCESS_VERBS.get(action, access_action(action).lower())


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


def format_fraction(value: Fraction, places: int = 2) -> str:
    """``Fraction(7, 5)`` → ``"1,4"``; a non-terminating decimal is shown with ``places`` digits and ≈."""
    value = Fraction(value)
    text = decimal_comma(Decimal(format_fraction_plain(value, places)))
    return text if _is_terminating(value) else f"≈{text}"


def format_fraction_plain(value: Fraction, places: int = 6) -> str:
    """Decimal string with a point (for JSON): exact when the decimal terminates, else ``places`` digits."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    if _is_terminating(value):
        digits = 0
        scaled = value
        while scaled.denominator != 1:
            scaled *= 10
            digits += 1
        text = f"{Decimal(value.numerator) / Decimal(value.denominator):.{digits}f}"
        return text
    quantum = Decimal(1).scaleb(-places)
    approx = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(quantum)
    return format(approx.normalize(), "f")


def _is_terminating(value: Fraction) -> bool:
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


# Acts: dates, numbers and percentages written out ------------------------------------------------------

MONTHS = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)


def date_in_full(day: datetime.date) -> str:
    """A date as acts write it: ``"1º de dezembro de 2026"``, ``"15 de março de 2027"`` (the first of the
    month as an ordinal, the month in lower case)."""
    number = "1º" if day.day == 1 else str(day.day)
    return f"{number} de {MONTHS[day.month - 1]} de {day.year}"


_FEMININE = (("um", "uma"), ("dois", "duas"), ("entos", "entas"))


def words_pt(value: int | Decimal, *, to: str = "cardinal") -> str:
    """``value`` written out in Brazilian Portuguese by num2words (``to="ordinal"``: "décimo terceiro").
    The one place num2words is imported, when a number is first written out: loading it loads every
    language it has (15 ms of every command's and worker's start)."""
    from num2words import num2words

    return str(num2words(value, lang="pt_BR", to=to))


def in_words(n: int, *, feminine: bool = False) -> str:
    """A whole number written out in Portuguese: ``21`` → ``"vinte e um"``; with ``feminine`` (agreeing with
    "vagas", "pessoas") ``"vinte e uma"``, ``"duzentas e duas"``. "Mil" and "milhões" do not change."""
    words = words_pt(n)
    if not feminine:
        return words
    out = []
    for word in words.split(" "):
        for masculine, female in _FEMININE:
            if word == masculine or (masculine == "entos" and word.endswith("entos")):
                word = word[: len(word) - len(masculine)] + female
                break
        out.append(word)
    return " ".join(out)


def _percent_value(value: Decimal | int) -> Decimal:
    """A stored percentage without its trailing zeros: ``Decimal("20.00")`` → ``20``, ``12.50`` → ``12.5``."""
    value = Decimal(value).normalize()
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def percent_text(value: Decimal | int) -> str:
    """A percentage in figures, with the decimal comma: ``Decimal("20.00")`` → ``"20%"``, ``12.5`` →
    ``"12,5%"``."""
    return f"{decimal_comma(_percent_value(value))}%"


def percent_in_words(value: Decimal | int) -> str:
    """A percentage as the law writes it: ``20`` → ``"20% (vinte por cento)"``, ``12.5`` → ``"12,5% (doze
    vírgula cinco por cento)"``."""
    value = _percent_value(value)
    words = in_words(int(value)) if value == value.to_integral_value() else words_pt(value)
    return f"{percent_text(value)} ({words} por cento)"
