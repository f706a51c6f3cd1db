"""Reading an act as a municipal legal officer reads it (issue 20): the checks every published document and
personal letter must pass, shared by the walk over the demo's documents (``tests/contests/test_acts_text.py``)
and the browser journeys, whose documents are read when each journey ends (``tests/conftest.py``, the
``page`` fixture).

What sends an act back: our design document cited ("RULES"), a percentage with "(por cento)" and no number
in words, a variable where the law writes a number ("a vaga de número s"), an empty hash ("(SHA-256 )"), a
plural or gender marker ("nomeado(a)", "candidato(s)"); and an act (not a letter) without its signature block,
the signer's name then the office (``templates/pdf/_signature.html``), naming a person.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Act:
    organization: str
    kind: str
    title: str
    code: str
    signer_name: str
    signer_office: str
    text: str  # pdftotext's reading order, soft hyphens at line ends rejoined

    def __str__(self) -> str:
        return f"{self.organization} {self.code} “{self.title}”"


# The text of each PDF read, by its bytes' digest: the browser tests read every act in the database after
# each test, and the same scenario prints the same bytes (tests/rendered_pdfs.py), so many are read again.
_READ: dict[bytes, str] = {}


def read_pdf(data: bytes) -> str:
    """The text of a PDF in reading order; a word WeasyPrint hyphenated at a line's end (U+2010) joined."""
    key = hashlib.sha256(data).digest()
    if (text := _READ.get(key)) is None:
        out = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True
        )
        text = _READ[key] = re.sub(r"\u2010\s*\n\s*", "", out.stdout.decode())
    return text


def act_of(document, organization: str = "") -> Act:
    """A published ``contests.documents.models.Document`` read back from its stored PDF."""
    return Act(
        organization,
        document.kind,
        document.title,
        document.code,
        document.signer_name,
        document.signer_office,
        read_pdf(bytes(document.pdf)),
    )


def rendered_act(document, organization: str = "") -> Act | None:
    """``act_of(document)`` when the documents pipeline rendered its PDF (the verification code printed on
    every page); None for a stand-in a test fixture stored (a blank page, bytes that are no PDF), which is no
    act and has nothing to read."""
    try:
        act = act_of(document, organization)
    except subprocess.CalledProcessError:
        return None
    return act if document.code and document.code in act.text else None


def excerpt(text: str, match: re.Match[str], width: int = 45) -> str:
    return " ".join(text[max(0, match.start() - width) : match.end() + width].split())


def offending(acts: list[Act], pattern: re.Pattern[str], keep=lambda m: True) -> list[str]:
    """``act: …excerpt…`` for every match of ``pattern`` ``keep`` accepts, in every act."""
    return [
        f"{act}: …{excerpt(act.text, match)}…"
        for act in acts
        for match in pattern.finditer(act.text)
        if keep(match)
    ]


INTERNAL_REFERENCE = re.compile(r"\bRULES\b")
PER_CENT_WITHOUT_WORDS = re.compile(r"\(\s*por\s+cento\s*\)")
EMPTY_HASH = re.compile(r"\(\s*SHA-256\s*\)")
# A marker glued to a word: "nomeado(a)", "candidato(s)", "A(o) Sr(a).", "parecer(es)", "inscrições(ões)".
PLURAL_MARKER = re.compile(r"\w\((?:a|o|s|as|os|es|ns|ões|ãs)\)", re.IGNORECASE)
# A lowercase letter standing alone as a word (after a space or at a line's start, before a space,
# punctuation or the end): "a vaga de número s", "sobre s vagas", "n = 7", "k membros". Portuguese has
# five one-letter words, none a variable: the articles "a" and "o", "e", "à" and "é". An alínea ("b)")
# is followed by its parenthesis and is not matched; "(s)" glued to a word is the plural check's.
SINGLE_LETTER = re.compile(r"(?<![^\s])([^\W\d_])(?=[\s,.;:!?=]|$)", re.MULTILINE)
PORTUGUESE_ONE_LETTER_WORDS = frozenset("aeoàé")
# A unit after a quantity ("40 h" of weekly workload in the edital's table) is a symbol, not a variable.
UNITS = frozenset("hmgl")


def is_variable(match: re.Match[str]) -> bool:
    letter = match.group(1)
    if not letter.islower() or letter in PORTUGUESE_ONE_LETTER_WORDS:
        return False
    before = match.string[: match.start()].rstrip(" ")
    return not (letter in UNITS and before[-1:].isdigit())


# Words of an office, a body or a system, never of a person's name: a block whose "name" holds one of them
# names no one ("Presidente da Câmara (demonstração)", "Administração do sistema").
NOT_A_PERSON = re.compile(
    r"\b(?:presidente|prefeit[oa]|secretári[oa]|diretor[a]?|procurador[a]?|vereador[a]?|câmara|prefeitura|"
    r"comissão|setor|administração|sistema|demonstração|assinatura|cargo)\b",
    re.IGNORECASE,
)


def _spaced(text: str) -> str:
    """``text`` as a pattern that lets a line break (or several spaces) stand for each space."""
    return r"\s+".join(re.escape(word) for word in text.split())


def signature_refusal(act: Act) -> str:
    """Why ``act`` has no signature block naming a person and an office, or ''."""
    name, office = act.signer_name.strip(), act.signer_office.strip()
    if not name or not office:
        return "sem nome ou cargo de quem assina registrado no documento"
    if NOT_A_PERSON.search(name):
        return f"quem assina não é uma pessoa: “{name}”"
    if not re.search(_spaced(name) + r"\s*\n\s*" + _spaced(office), act.text):
        shown = (
            "nome presente, cargo não logo abaixo" if re.search(_spaced(name), act.text) else "nome ausente"
        )
        return f"sem o bloco de assinatura “{name}” / “{office}” ({shown})"
    return ""


TEXT_CHECKS: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], bool]], ...] = (
    ("referência interna", INTERNAL_REFERENCE, lambda m: True),
    ("“(por cento)” sem o número por extenso", PER_CENT_WITHOUT_WORDS, lambda m: True),
    ("variável de uma letra", SINGLE_LETTER, is_variable),
    ("hash vazio", EMPTY_HASH, lambda m: True),
    ("marcador de plural ou gênero", PLURAL_MARKER, lambda m: True),
)


# Kinds of ``Document`` that are no act of an authority and carry no signature block: the protocol receipt of a
# candidate's filing is issued by the system when the filing arrives (its "signer" is the electronic protocol).
UNSIGNED_KINDS = frozenset({"filing_receipt"})


def problems(act: Act, *, signed: bool = True) -> list[str]:
    """Everything that would send ``act`` back, one line each (with an excerpt); [] when it reads well.
    ``signed``: an act carries its signature block; a personal letter is not an act and does not."""
    found = [
        f"{act}: {what}: …{excerpt(act.text, match)}…"
        for what, pattern, keep in TEXT_CHECKS
        for match in pattern.finditer(act.text)
        if keep(match)
    ]
    if signed and (reason := signature_refusal(act)):
        found.append(f"{act}: {reason}")
    return found


def journey_letters() -> list[Act]:
    """The personal letters of the first nomination and the first procedure notice in the database (the ones
    a journey made), read back; none when the journey made neither."""
    # Imported here: ``tests/conftest.py`` imports this module before Django's apps are ready.
    from django.utils import timezone

    from candidates.letters import nomination_letter
    from candidates.models import Nomination
    from contests.documents.letters import render_letters
    from declarations.models import ProcedureAct
    from declarations.procedure.documents import notice_letter

    letters = []
    if nomination := Nomination.objects.order_by("pk").first():
        letters.append(("letter_nomination", nomination_letter(nomination)))
    if notice := ProcedureAct.objects.filter(kind="notice").order_by("pk").first():
        day = timezone.localdate(notice.recorded_at)
        url = "https://exemplo.example/p/abc"
        letters.append(("letter_procedure_notice", notice_letter(notice, url=url, expires_on=day, today=day)))
    return [
        Act("jornada", kind, letter.title, "", "", "", read_pdf(render_letters([letter], title=letter.title)))
        for kind, letter in letters
    ]
