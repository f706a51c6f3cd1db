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

import shutil
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from contests.documents.models import Document
from tests.acts_reading import (
    EMPTY_HASH,
    INTERNAL_REFERENCE,
    PER_CENT_WITHOUT_WORDS,
    PLURAL_MARKER,
    SINGLE_LETTER,
    UNSIGNED_KINDS,
    Act,
    act_of,
    is_variable,
    offending,
    read_pdf,
    signature_refusal,
)
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


def _demo_acts(settings, media) -> list[Act]:
    settings.MEDIA_ROOT = media
    settings.PASSWORD_HASHERS = FAST_HASHERS
    acts: list[Act] = []
    for organization in ORGANIZATIONS:
        with transaction.atomic():
            with override_settings(DEBUG=True):  # the demo with its users, as `make demo` makes it
                call_command("seed_demo", "--organization", organization, stdout=StringIO())
            acts.extend(act_of(document, organization) for document in Document.objects.order_by("pk"))
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


# The walk covers every kind ---------------------------------------------------------------------------------


@pytest.mark.parametrize("organization", ORGANIZATIONS)
def test_the_demo_publishes_a_document_of_every_kind(demo_acts, organization):
    published = {act.kind for act in demo_acts if act.organization == organization} - set(LETTERS)
    assert published == set(KINDS), f"espécies sem documento: {sorted(set(KINDS) - published)}"


# What sends an act back -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_internal_reference(demo_acts, kind):
    """An act cites the law, the edital or the case law, never our design document."""
    assert not (found := offending(acts_of(demo_acts, kind), INTERNAL_REFERENCE)), "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_a_percentage_is_written_out_in_words(demo_acts, kind):
    """“20% (vinte por cento)”, never “20% (por cento)”."""
    assert not (found := offending(acts_of(demo_acts, kind), PER_CENT_WITHOUT_WORDS)), "\n".join(found)


@pytest.mark.parametrize("kind", KINDS + list(LETTERS))
def test_no_single_letteris_variable(demo_acts, kind):
    """The law writes the number (“a vaga de número 20”), never a variable (“a vaga de número s”)."""
    found = offending(acts_of(demo_acts, kind), SINGLE_LETTER, keep=is_variable)
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


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind not in UNSIGNED_KINDS])
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
def test_the_single_letter_check_findsis_variables_and_only_them(text, variables):
    assert [m.group(1) for m in SINGLE_LETTER.finditer(text) if is_variable(m)] == variables


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
