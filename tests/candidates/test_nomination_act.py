"""The Portaria de nomeação as a legal officer reads it (heading, ementa, the authority's preamble,
articles, the deadline, the signature) and the letter that tells a nominee of it."""

import datetime
import shutil
import subprocess

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from candidates import documents
from candidates.services.nominations import nomination_withdraw, nominations_call
from contests.models import Organization
from tests.builders import make_classified_position, make_contest, publish_final

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente"),
]

DAY = datetime.date(2026, 12, 1)


def pdf_text(data: bytes) -> str:
    result = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(result.stdout.decode().split())


@pytest.fixture
def santa_maria(cast):
    Organization.objects.create(
        name="Câmara Municipal de Vereadores de Santa Maria",
        municipality="Santa Maria",
        state="RS",
        address="Rua da Demonstração, 100, Centro",
        phone="(55) 3000-0000",
        email="concursos@camara.example",
    )
    contest = make_contest(
        pcd_percent=0,
        office_place="Setor de Pessoal da Câmara, Rua da Demonstração, 100, 2º andar, das 13h às 18h; "
        "(55) 3000-0002; pessoal@camara.example",
        office_requirements="Carteira de identidade e CPF\nComprovante de escolaridade exigida para o cargo\n"
        "Atestado de saúde ocupacional (exame médico admissional)",
    )
    contest.homologation_act = "Ato da Mesa nº 7/2026"
    contest.save()
    position = make_classified_position(contest, code="ANSI", title="Analista")
    run = publish_final(contest, cast["manager"])
    return contest, position, run


def test_scratch(santa_maria, cast):
    contest, position, _run = santa_maria
    called = nominations_call(
        position=position, count=3, by=cast["clerk"], act_number="Portaria nº 50/2026", act_date=DAY
    )
    nomination_withdraw(
        nomination=called[1],
        statement_file=SimpleUploadedFile("t.pdf", b"%PDF-1.4", content_type="application/pdf"),
        by=cast["clerk"],
        date=DAY,
    )
    nominations_call(position=position, count=1, by=cast["clerk"], act_number="Portaria nº 51/2026", act_date=DAY)
    document = documents.nomination_act_publish(
        contest=contest,
        act_number="Portaria nº 50/2026",
        by=cast["manager"],
        signer_name="Ana Souza",
        signer_office="Presidente da Câmara Municipal de Vereadores de Santa Maria",
    )
    open("/tmp/nomact/a.pdf", "wb").write(bytes(document.pdf))
    open("/tmp/nomact/b.pdf", "wb").write(documents.render_nomination_act(contest, "Portaria nº 51/2026"))
    print(pdf_text(bytes(document.pdf)))
    print(pdf_text(documents.render_nomination_act(contest, "Portaria nº 51/2026")))


def test_scratch_letter(santa_maria, cast):
    contest, position, _run = santa_maria
    called = nominations_call(
        position=position, count=1, by=cast["clerk"], act_number="Portaria nº 50/2026", act_date=DAY,
        gazette_edition="Diário Oficial do Legislativo nº 431",
    )
    open("/tmp/nomact/l1.pdf", "wb").write(documents.render_nomination_letter(called[0]))
    print(pdf_text(documents.render_nomination_letter(called[0])))
    documents.nomination_act_publish(
        contest=contest, act_number="Portaria nº 50/2026", by=cast["manager"], signer_name="A", signer_office="B"
    )
    open("/tmp/nomact/l2.pdf", "wb").write(documents.render_nomination_letter(called[0]))
    print(pdf_text(documents.render_nomination_letter(called[0])))
