"""The text of each heteroidentification act, read from the PDF as a legal officer reads it (pdftotext): a
formal opening naming the authority, the edital and the case law cited (never our design notes), dates
written out, real plurals, hashes on their own line and only when there is one, the absence said once, and
the signature block: the authority's on the public acts, every member present's on the minutes."""

from __future__ import annotations

import dataclasses
import datetime
import re
import shutil
import subprocess

import pytest
from django.utils import timezone

from contests.documents.models import Document
from contests.models import Contest, Organization
from declarations.calendars import organization_calendar
from declarations.hetero import documents, draw_services
from declarations.hetero import services as hs
from declarations.models import MemberDraw, Verification
from tests.builders import make_classified_position, make_contest, set_policy
from tests.declarations.hetero_world import at
from tests.declarations.hetero_world import people as world_people

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) not installed"),
]

SIGNER = documents.Signer(name="Maria da Silva", office="Presidente da Câmara Municipal")
SEED = "Mega-Sena concurso 2900: 05 12 23 34 45 56"
# What no act may print: our design notes, an empty hash, a plural in brackets, a date with a capital month.
FORBIDDEN = (
    re.compile(r"RULES"),
    re.compile(r"\(SHA-256 *\)"),
    re.compile(r"\w\((?:a|s|es|ão)\)"),
    re.compile(
        r"\d de (?:Janeiro|Fevereiro|Março|Abril|Maio|Junho|Julho|Agosto|Setembro|Outubro|Novembro|Dezembro)"
    ),
)


def text_of(document: Document) -> str:
    """The PDF's words as pdftotext reads them, lines joined (a sentence may break anywhere)."""
    out = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=bytes(document.pdf), capture_output=True, check=True
    ).stdout.decode()
    # A word hyphenated at the end of a line comes back whole.
    return " ".join(re.sub(r"[\u2010\u00ad-]\n\s*", "", out).split())


def clean(text: str) -> None:
    for pattern in FORBIDDEN:
        found = pattern.search(text)
        assert found is None, f"{pattern.pattern!r} printed: {found.group(0)!r}"


def signed_by_the_authority(text: str) -> None:
    """The opening names the authority; the block at the end repeats name and office."""
    assert "O PRESIDENTE DA CÂMARA MUNICIPAL" in text and "no uso de suas atribuições legais" in text
    assert "Maria da Silva Presidente da Câmara Municipal" in text


OFFICES = ("Analista Legislativa", "Assessor Jurídico", "Técnica Legislativa", "Professor", "Procuradora")


def people(prefix: str, n: int, **kwargs) -> list[hs.MemberInput]:
    """The world's members, each with a real office (the world's "Servidor(a)" is what no act may print)."""
    return [
        dataclasses.replace(m, office=OFFICES[i % len(OFFICES)])
        for i, m in enumerate(world_people(prefix, n, **kwargs))
    ]


@pytest.fixture
def contest():
    Organization.objects.create(
        name="Câmara Municipal de Santa Maria", municipality="Santa Maria", state="RS"
    )
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    return contest


@pytest.fixture
def drawn(cast, contest):
    """A draw announced (the notice published) and performed from a pool of seven."""
    legal = cast["legal"]
    day = timezone.localdate()
    announcement = draw_services.draw_announce(
        contest=contest, kind="first", pool=people("Membro", 7, first_user=cast["commission"]),
        seed_source="Resultado do concurso nº 2900 da Mega-Sena", seed_known_on=day, by=legal,
        now=timezone.now() - datetime.timedelta(days=1), signer=SIGNER,
    )  # fmt: skip
    formed = draw_services.draw_perform(
        announcement=announcement, seed=SEED, formed_on=day, act_reference="Portaria nº 5/2026", by=legal,
        now=timezone.now(),
    )  # fmt: skip
    return announcement, formed


def test_the_draw_notice_opens_with_the_authority_cites_the_edital_and_adc_41_and_is_signed(drawn, contest):
    announcement, _ = drawn
    document = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=announcement.subject)
    text = text_of(document)
    clean(text)
    signed_by_the_authority(text)
    assert f"nos termos do Edital de Abertura nº {contest.number}/{contest.year}" in text
    assert "ADC 41/DF" in text
    # The pool's hash on a line of its own, whole (pdftotext keeps a broken hash's pieces in order).
    assert announcement.pool_digest in text.replace(" ", "") and "7 (sete) sorteáveis" in text


def test_the_draw_record_prints_the_seed_and_hashes_in_full_and_the_signature(drawn, cast, contest):
    _, formed = drawn
    record = MemberDraw.objects.get(commission=formed.commission)
    document = documents.draw_publish(record=record, by=cast["legal"], signer=SIGNER)
    text = text_of(document)
    clean(text)
    signed_by_the_authority(text)
    assert "torna público" in text and "o resultado do sorteio público" in text
    assert record.pool_digest in text.replace(" ", "") and "S =" not in text and "K(m)" not in text
    assert "Foram sorteados 5 (cinco) de 7 (sete) sorteáveis" in text


def test_the_call_gives_date_and_time_in_full_the_no_show_rule_and_the_signature(cast, contest):
    set_policy(contest.policy, act_kind="lei", act_number="6.500/2021", hetero_no_show="eliminate")
    contest = Contest.objects.get(pk=contest.pk)
    legal = cast["legal"]
    formed = hs.commission_form(
        contest=contest, kind="first", pool=people("Membro", 5, first_user=cast["commission"]),
        formed_on=datetime.date(2026, 6, 1), by=legal, now=at(datetime.date(2026, 6, 1)),
    )  # fmt: skip
    session = hs.session_schedule(
        commission=formed.commission, starts_at=at(datetime.date(2026, 12, 1), 9), place="Sala 1", by=legal
    )
    hs.candidates_call(session=session, by=legal)
    document = documents.call_publish(session=session, by=legal, signer=SIGNER)
    text = text_of(document)
    clean(text)
    signed_by_the_authority(text)
    assert "em 1º de dezembro de 2026, às 9h00, no seguinte local: Sala 1" in text
    assert "e da Lei Municipal nº 6.500/2021" in text and "Projeto de Lei" not in text
    assert "o candidato que não comparecer será eliminado do concurso" in text
    assert "convoca os candidatos abaixo relacionados" in text


def _closed_session(cast, contest):
    legal = cast["legal"]
    formed = hs.commission_form(
        contest=contest, kind="first", pool=people("Membro", 5, first_user=cast["commission"]),
        formed_on=datetime.date(2026, 6, 1), act_reference="Portaria nº 5/2026", by=legal,
        now=at(datetime.date(2026, 6, 1)),
    )  # fmt: skip
    session = hs.session_schedule(
        commission=formed.commission, starts_at=at(datetime.date(2026, 6, 20), 9), place="Sala 1", by=legal
    )
    hs.candidates_call(session=session, by=legal)
    votes = {"N1": (True,) * 5, "N2": (True, True, False, False, False)}
    for verification in session.verifications.select_related("registration"):
        number = verification.registration.number
        hs.attendance_record(verification=verification, attended=number in votes, by=legal)
        for member, vote in zip(
            session.commission.members.order_by("pk"), votes.get(number, ()), strict=False
        ):
            hs.opinion_record(
                verification=verification, user=member.user, confirms=vote, reasons=f"Fenótipo {vote}."
            )
    now = at(datetime.date(2026, 6, 20), 12)
    return hs.session_close(session=session, by=legal, now=now, calendar=organization_calendar([2026, 2027]))


def test_the_minutes_say_an_absence_once_print_no_empty_hash_and_are_signed_by_each_member(cast, contest):
    session = _closed_session(cast, contest)
    assert session.recording_sha256 == ""
    document = documents.minutes_publish(
        session=session, by=cast["legal"], signer=documents.Signer("Membro 1", "Membro da comissão")
    )
    text = text_of(document)
    clean(text)
    assert "Em 20 de junho de 2026, às 9h00, em Sala 1, reuniu-se a comissão de heteroidentificação" in text
    assert "designada por Portaria nº 5/2026" in text and "ADC 41/DF" in text
    # N3 did not come: said once, not again as its outcome and its explanation.
    assert text.count("Não compareceu") == 1 and "não compareceu" not in text
    assert "Não compareceu à sessão." in text
    assert "Não confirmada pela maioria: 3 pareceres contra 2." in text
    assert "SHA-256" not in text  # no recording recorded: no hash line at all
    # Every member present signs, in their office and as a member of the commission.
    signatures = text[text.index("ASSINATURAS DOS MEMBROS PRESENTES") :]
    for i in range(1, 6):
        assert f"Membro {i} " in signatures
    assert signatures.count("Membro da comissão de heteroidentificação") == 5


def test_the_minutes_print_the_recording_hash_when_there_is_one(cast, contest):
    session = _closed_session(cast, contest)
    session.recording_reference = "Arquivo sessao-20-06.mp4"
    session.recording_sha256 = "ab" * 32
    session.save()
    document = documents.minutes_publish(
        session=session, by=cast["legal"], signer=documents.Signer("Membro 1", "Membro da comissão")
    )
    text = text_of(document)
    assert "Resumo SHA-256 da gravação:" in text and "ab" * 32 in text.replace(" ", "")


def test_the_result_lists_the_confirmed_cites_the_lgpd_and_is_signed(cast, contest):
    session = _closed_session(cast, contest)
    n1 = Verification.objects.get(session=session, registration__number="N1")
    assert n1.outcome == "confirmed"
    today = datetime.date(2026, 12, 1)
    document = documents.result_publish(contest=contest, by=cast["legal"], signer=SIGNER, today=today)
    text = text_of(document)
    clean(text)
    signed_by_the_authority(text)
    assert "torna pública" in text and "N1" in text and "N2" not in text
    assert "Lei nº 13.709/2018" in text and text.index("1º de dezembro de 2026") > text.index("N1")


def test_a_call_by_video_and_its_rectification_print_the_link_whole_and_what_changed(cast, contest):
    legal = cast["legal"]
    formed = hs.commission_form(
        contest=contest, kind="first", pool=people("Membro", 5, first_user=cast["commission"]),
        formed_on=datetime.date(2026, 6, 1), by=legal, now=at(datetime.date(2026, 6, 1)),
    )  # fmt: skip
    link = "https://videoconferencia.example.org/sala/heteroidentificacao-2026-0001?senha=abc123def456"
    session = hs.session_schedule(
        commission=formed.commission, starts_at=at(datetime.date(2026, 12, 1), 14), video_link=link, by=legal
    )
    hs.candidates_call(session=session, by=legal)
    first = documents.call_publish(session=session, by=legal, signer=SIGNER)
    text = text_of(first)
    clean(text)
    assert "por videoconferência, no endereço indicado abaixo." in text and link in text.replace(" ", "")
    again = documents.call_publish(
        session=session, by=legal, signer=dataclasses.replace(SIGNER, summary="Corrigido o horário.")
    )
    text = text_of(again)
    assert (
        "Este ato retifica o publicado em" in text and first.code in text and "Corrigido o horário." in text
    )


def test_the_opinions_extract_for_the_procedure_cites_no_rules(cast, contest):
    session = _closed_session(cast, contest)
    n2 = Verification.objects.get(session=session, registration__number="N2")
    pdf = documents.opinions_extract(n2)
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    text = " ".join(re.sub(r"[\u2010\u00ad-]\n\s*", "", out).split())
    clean(text)
    assert "SESSÃO DE 20 DE JUNHO DE 2026, ÀS 9H00" in text
    assert "Autodeclaração não confirmada. Não confirmada pela maioria: 3 pareceres contra 2." in text
