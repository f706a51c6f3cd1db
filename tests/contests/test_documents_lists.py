"""Classification lists and the nomination act through the PDF pipeline; CSV and XLSX for staff."""

import datetime
import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from candidates import documents
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute
from contests.documents import render
from contests.documents.services import verify_file
from contests.documents.signatures import SignatureBlock
from tests.builders import make_classified_position, make_contest, publish_final

pytestmark = pytest.mark.django_db
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")


def pdf_text(data: bytes) -> str:
    result = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(result.stdout.decode().split())


@pytest.fixture
def worked(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, code="ANSI", title="Analista")
    run = publish_final(contest, cast["manager"])
    return contest, position, run


@needs_pdftotext
def test_lists_pdf_has_general_and_reserved_lists_decimal_comma_and_no_cpf(worked, cast):
    _contest, position, run = worked
    document = documents.result_list_publish(
        run=run,
        by=cast["manager"],
        signer_name="Gestora",
        signer_office="Presidente",
        edital_number="901/2026",
    )
    text = pdf_text(bytes(document.pdf))
    # Titled as an officer titles it: the list's own edital number and what it is.
    assert document.title == "Edital nº 901/2026 – Resultado final" and document.number == "901/2026"
    assert text.count("EDITAL Nº 901/2026 – RESULTADO FINAL") == 1
    assert "LISTAS DE CLASSIFICAÇÃO" not in text and "PUBLICADO EM" not in text
    assert "ANSI – Analista: Lista geral (ampla concorrência, cotistas incluídos)" in text
    assert "ANSI – Analista: Lista reservada a negros" in text
    assert "90,00" in text and "84,00" in text
    assert "Página 1 de 1" in text and document.code in text
    for registration in position.registrations.select_related("candidate"):
        assert registration.candidate.cpf not in text
        assert registration.candidate.cpf_formatted not in text
    assert verify_file(data=bytes(document.pdf), code=document.code).matches


def test_long_lists_are_paginated_and_numbered():
    long_name = "Maria Aparecida dos Santos Oliveira de Albuquerque Cavalcanti e Souza Ferreira Lima Neto"
    rows = [(i, f"{i:05d}", long_name if i == 7 else f"Pessoa {i}", "50,00") for i in range(1, 161)]
    blocks = [
        render.Block("Lista geral", rows),
        render.Block("Lista reservada", rows[::4]),
        render.Block("PcD", []),
    ]
    pages = render.paginate(blocks)
    assert [line.split()[0] for page in pages for part in page for line in part.lines][:3] == [
        "1º",
        "2º",
        "3º",
    ]
    assert sum(len(part.lines) for page in pages for part in page) == 160 + 40
    assert all(part.header.split()[:2] == ["Classif.", "Inscrição"] for page in pages for part in page)
    context = {
        "heading": "Teste",
        "opening": "O PRESIDENTE, no uso de suas atribuições legais, torna público o resultado.",
        "place_date": "Santa Maria, 1º de dezembro de 2026.",
        "signature": SignatureBlock("Gestora Exemplo", "Presidente da Câmara"),
    }
    pdf = render.render_blocks(
        "pdf/result_list.html",
        context,
        blocks,
        render.Stamp(code="TEST-CODE", draft=False),
        title="Lista",
        closing_height=documents.CLOSING_HEIGHT,
    )
    count = render.page_count(pdf)
    pages = render.paginate(blocks, closing_height=documents.CLOSING_HEIGHT)
    assert count == len(pages) >= 4  # every page holds what the pagination put on it: none overflows
    if shutil.which("pdftotext"):
        text = pdf_text(pdf)
        assert f"Página {count} de {count}" in text
        # The opening once, on the first page; the signature once, after the last list.
        assert text.count("torna público o resultado") == 1 and text.count("Gestora Exemplo") == 1
        assert text.index("Pessoa 160") < text.index("Santa Maria, 1º de dezembro de 2026. Gestora Exemplo")
        assert "Pessoa 160" in text and "(continuação)" in text and "Nenhum candidato nesta lista" in text
        assert "Maria Aparecida" in text and "Lima Neto" in text  # the long name continues on a second line


def test_draft_run_spreadsheets_are_watermarked(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, code="ANSI", title="Analista")
    run = result_run_compute(contest=contest, by=cast["manager"])
    data = documents.result_csv(run)
    assert data.startswith("\ufeff".encode())
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("MINUTA")
    assert lines[1] == "Cargo;Lista;Classificação;Inscrição;Nome;Nota final"
    assert ";90,00" in lines[2]
    sheet = load_workbook(io.BytesIO(documents.result_xlsx(run))).active
    assert sheet["A1"].value.startswith("MINUTA")
    if shutil.which("pdftotext"):
        assert "MINUTA" in pdf_text(documents.render_result_list(run))


def test_score_text_uses_a_decimal_comma():
    assert documents.score_text(Decimal("78.50")) == "78,50"
    assert documents.score_text(None) == "—"


@needs_pdftotext
def test_nomination_act_lists_nominees_in_seat_order_with_their_list(worked, cast):
    contest, position, _run = worked
    nominations_call(
        position=position,
        count=5,
        by=cast["clerk"],
        act_number="Portaria 10/2026",
        act_date=datetime.date(2026, 6, 10),
    )
    document = documents.nomination_act_publish(
        contest=contest, act_number="Portaria 10/2026", by=cast["manager"], signer_name="G", signer_office="P"
    )
    text = pdf_text(bytes(document.pdf))
    assert (
        text.index("para a 1ª vaga do cargo (ampla concorrência)")
        < text.index("para a 3ª vaga do cargo (reservada a negros)")
        < text.index("para a 5ª vaga")
    )
    assert (
        "inscrição nº N2" in text
        and "prevista no art. 5º da lei municipal originada do Projeto de Lei nº 9247/2021" in text
    )


def test_list_exports_and_document_publication_access(client, worked, cast):
    contest, _position, run = worked
    base = f"/concursos/{contest.slug}/listas/{run.pk}/"
    client.force_login(cast["outsider"])
    assert client.get(base + "lista.csv").status_code == 403
    client.force_login(cast["clerk"])
    response = client.get(base + "lista.csv")
    assert response.status_code == 200 and response.content.startswith("\ufeff".encode())
    assert client.get(base + "lista.xlsx").status_code == 200
    assert client.get(base + "lista.odt").status_code == 404
    data = {"signer_name": "Gestora", "signer_office": "Presidente", "edital_number": "902/2026"}
    assert client.post(base + "documento/", data).status_code == 403
    client.force_login(cast["manager"])
    response = client.post(base + "documento/", data)
    from contests.documents.models import Document

    document = Document.objects.get(kind=Document.Kind.RESULT_LIST)
    assert (
        response["Location"] == base
    )  # the manager stays on the staff page, the message links the public one
    page = client.get(base).content.decode()
    assert f'href="/verificar/{document.code}/"' in page
    assert document.published_by == cast["manager"] and document.subject == f"run-{run.pk}"


def test_nomination_act_screen_draft_and_publication(client, worked, cast):
    contest, position, _run = worked
    nominations_call(
        position=position,
        count=2,
        by=cast["clerk"],
        act_number="Portaria 11/2026",
        act_date=datetime.date(2026, 6, 10),
    )
    url = f"/concursos/{contest.slug}/cargos/{position.pk}/nomeacoes/ato/"
    client.force_login(cast["clerk"])
    assert client.get(url, {"ato": "Portaria 11/2026"})["Content-Type"] == "application/pdf"
    assert client.get(url, {"ato": "Portaria 99/2026"}).status_code == 404
    data = {"ato": "Portaria 11/2026", "signer_name": "Gestora", "signer_office": "Presidente"}
    assert client.post(url, data).status_code == 403
    client.force_login(cast["manager"])
    response = client.post(url, data)
    from contests.documents.models import Document

    document = Document.objects.get(kind=Document.Kind.NOMINATION_ACT)
    assert response["Location"] == f"/concursos/{contest.slug}/cargos/{position.pk}/nomeacoes/"
    page = client.get(response["Location"]).content.decode()
    assert "Ato de nomeação – Portaria 11/2026 publicado." in page
    assert f'href="/verificar/{document.code}/"' in page
