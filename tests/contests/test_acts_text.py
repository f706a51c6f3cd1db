"""Every act the demo publishes, read as a municipal legal officer reads it (issue 20, first acceptance item).

The demo of each organisation (``seed_demo``, built once for the module, each organisation in a savepoint of
its own: one installation serves one organisation) publishes a document of every kind of
``Document.Kind``; each PDF is read back with ``pdftotext`` and must carry none of what sends an act back:
our design document cited ("RULES"), a percentage with "(por cento)" and no number in words, a variable
where the law writes a number ("a vaga de número s"), an empty hash ("(SHA-256 )"), a plural or gender
marker ("nomeado(a)", "candidato(s)"); and every act ends with its signature block, the signer's name then
the office (``templates/pdf/_signature.html``), naming a person, not an office or a system user.

The personal letters (access code, nomination, notice of a procedure) are read with the same eyes, but for the
signature (a letter is not an act). One test per check and kind, so that a failure says which kind fails
which check.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from contests.documents.models import Document
from tests.conftest import FAST_HASHERS
from tests.module_data import built_once

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        shutil.which("pdftotext") is None,
        reason="pdftotext (poppler-utils) ausente: os atos da demonstração não podem ser lidos",
    ),
]

ORGANIZATIONS = ("santa-maria", "angra")
KINDS = [kind.value for kind in Document.Kind]


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


def read_pdf(data: bytes) -> str:
    """The text of a PDF in reading order; a word WeasyPrint hyphenated at a line's end (U+2010) joined."""
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True
    )
    return re.sub(r"\u2010\s*\n\s*", "", out.stdout.decode())


def _demo_acts(settings, media) -> list[Act]:
    settings.MEDIA_ROOT = media
    settings.PASSWORD_HASHERS = FAST_HASHERS
    acts: list[Act] = []
    for organization in ORGANIZATIONS:
        with transaction.atomic():
            with override_settings(DEBUG=True):  # the demo with its users, as `make demo` makes it
                call_command("seed_demo", "--organization", organization, stdout=StringIO())
            acts.extend(
                Act(
                    organization,
                    document.kind,
                    document.title,
                    document.code,
                    document.signer_name,
                    document.signer_office,
                    read_pdf(bytes(document.pdf)),
                )
                for document in Document.objects.order_by("pk")
            )
            acts.extend(_letters(organization))
            transaction.set_rollback(True)  # the next organisation needs an installation of its own
    return acts


# The personal letters the demo's people receive (never published, so not a ``Document``): read with the same
# eyes, but for the signature (a letter is not an act).
LETTERS = ("letter_access_code", "letter_nomination", "letter_procedure_notice")


def _letters(organization: str) -> list[Act]:
    from django.utils import timezone

    from candidates.letters import access_code_letter, nomination_letter
    from candidates.models import Nomination, Registration
    from contests.documents.letters import render_letters
    from declarations.models import ProcedureAct
    from declarations.procedure.documents import notice_letter

    today = timezone.localdate()
    registration = Registration.objects.order_by("pk").first()
    notice = ProcedureAct.objects.filter(kind="notice").order_by("pk").first()
    assert registration is not None and notice is not None
    letters = {
        "letter_access_code": access_code_letter(registration, today=today),
        "letter_nomination": nomination_letter(Nomination.objects.order_by("pk").first()),
        "letter_procedure_notice": notice_letter(
            notice, url="https://exemplo.example/p/abc", expires_on=today, today=today
        ),
    }
    return [
        Act(
            organization,
            kind,
            letter.title,
            "",
            "",
            "",
            read_pdf(render_letters([letter], title=letter.title)),
        )
        for kind, letter in letters.items()
    ]


@pytest.fixture(scope="module")
def demo_acts(django_db_setup, django_db_blocker, tmp_path_factory):
    media = tmp_path_factory.mktemp("media")
    yield from built_once(django_db_blocker, lambda settings: _demo_acts(settings, media))


def acts_of(demo_acts: list[Act], kind: str) -> list[Act]:
    found = [act for act in demo_acts if act.kind == kind]
    assert found, f"a demonstração não publica nenhum documento da espécie {kind}"
    return found


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


# The walk covers every kind ---------------------------------------------------------------------------------


@pytest.mark.parametrize("organization", ORGANIZATIONS)
def test_the_demo_publishes_a_document_of_every_kind(demo_acts, organization):
    published = {act.kind for act in demo_acts if act.organization == organization} - set(LETTERS)
    assert published == set(KINDS), f"espécies sem documento: {sorted(set(KINDS) - published)}"


# What sends an act back -------------------------------------------------------------------------------------

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


def _variable(match: re.Match[str]) -> bool:
    letter = match.group(1)
    if not letter.islower() or letter in PORTUGUESE_ONE_LETTER_WORDS:
        return False
    before = match.string[: match.start()].rstrip(" ")
    return not (letter in UNITS and before[-1:].isdigit())


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_internal_reference(demo_acts, kind):
    """An act cites the law, the edital or the case law, never our design document."""
    assert not (found := offending(acts_of(demo_acts, kind), INTERNAL_REFERENCE)), "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_a_percentage_is_written_out_in_words(demo_acts, kind):
    """“20% (vinte por cento)”, never “20% (por cento)”."""
    assert not (found := offending(acts_of(demo_acts, kind), PER_CENT_WITHOUT_WORDS)), "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_single_letter_variable(demo_acts, kind):
    """The law writes the number (“a vaga de número 20”), never a variable (“a vaga de número s”)."""
    found = offending(acts_of(demo_acts, kind), SINGLE_LETTER, keep=_variable)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_empty_hash(demo_acts, kind):
    """A recording or file's SHA-256 is printed with its value, or not at all."""
    assert not (found := offending(acts_of(demo_acts, kind), EMPTY_HASH)), "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_plural_or_gender_marker(demo_acts, kind):
    """Real plurals (“1 parecer”, “5 pareceres”) and no “nomeado(a)”."""
    assert not (found := offending(acts_of(demo_acts, kind), PLURAL_MARKER)), "\n".join(found)


# The signature block ----------------------------------------------------------------------------------------

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


@pytest.mark.parametrize("kind", KINDS)
def test_every_act_is_signed_by_a_person_in_an_office(demo_acts, kind):
    """The block of ``pdf/_signature.html``: the signer's name on one line, the office on the next, as the
    document records them (``signer_name``, ``signer_office``)."""
    found = [f"{act}: {reason}" for act in acts_of(demo_acts, kind) if (reason := signature_refusal(act))]
    assert not found, "\n".join(found)


# The checks themselves (no database) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "variables"),
    [
        (
            "de modo que a vaga de número s seja reservada sempre que a reserva sobre s vagas o exigir",
            ["s", "s"],
        ),
        ("n = 7 vagas", ["n"]),
        ("com k membros", ["k"]),
        ("a candidata e o candidato à vaga é chamada", []),
        ("O art. 3º, I, alínea b) da lei; 9h30; e-mail; s/n; 20%", []),
        ("Joana D'Arc, inscrição 20260019, §1º V.", []),
        ("sha256-rank-v1 -k 5", []),
        ("Remuneração 2.980,00 40 h 10 vagas", []),
        ("para cada membro m, K(m) = SHA-256(S ‖ m); os k primeiros", ["m", "k"]),
    ],
)
def test_the_single_letter_check_finds_variables_and_only_them(text, variables):
    assert [m.group(1) for m in SINGLE_LETTER.finditer(text) if _variable(m)] == variables


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("foi nomeado(a) e chamado(a)", 2),
        ("A(o) Sr(a). Fulano", 2),
        ("5 parecer(es) contra 0; candidato(s); as(os) candidatas(os)", 4),
        ("alínea (a) do inciso I; (SHA-256 abc)", 0),
    ],
)
def test_the_plural_check_finds_markers_glued_to_words(text, found):
    assert len(PLURAL_MARKER.findall(text)) == found


def test_the_signature_check_reads_the_block_and_refuses_offices_as_names():
    def act(name: str, office: str, text: str) -> Act:
        return Act("x", "edital", "t", "c", name, office, text)

    block = "Santa Maria, 1º de dezembro de 2026.\nHelena Bastos Prado\nPresidente da Câmara\nMunicipal\n"
    assert signature_refusal(act("Helena Bastos Prado", "Presidente da Câmara Municipal", block)) == ""
    assert "não é uma pessoa" in signature_refusal(
        act("Presidente da Câmara (demonstração)", "Presidente", block)
    )
    assert "não é uma pessoa" in signature_refusal(act("Administração do sistema", "Setor Jurídico", block))
    assert "nome ausente" in signature_refusal(act("Ana Souza", "Prefeita", block))
    assert "cargo não logo abaixo" in signature_refusal(
        act("Helena Bastos Prado", "Prefeita Municipal", block)
    )
