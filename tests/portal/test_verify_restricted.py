"""/verificar/ and restricted documents (procedure acts, heteroidentification minutes): the public page
confirms authenticity (code, kind, date, version, SHA-256) and compares an upload, but never shows the
title, a name or the PDF; the upload is hashed in chunks with its size limit checked while it is read."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from contests.documents.models import RESTRICTED_KINDS, Document
from contests.documents.render import pdf_from_html
from contests.documents.services import TooLarge, document_publish, verify_file
from portal import forms as public
from tests import builders

pytestmark = pytest.mark.django_db
SECRET_NAME = "Fulana Sigilosa de Tal"


def publish(kind: str, title: str, body: str = "") -> Document:
    contest = builders.make_contest()
    return document_publish(
        contest=contest,
        kind=kind,
        subject=title[:80],
        title=title,
        render=lambda stamp: pdf_from_html(f"<p>{body or title} {stamp.code}</p>"),
        by=None,
        signer_name="Servidora Signatária",
        signer_office="Setor Jurídico",
    )


@pytest.fixture
def restricted():
    return publish(Document.Kind.PROCEDURE_ACT, f"Decisão – PA nº 1/2026 – {SECRET_NAME}")


@pytest.mark.parametrize("kind", sorted(RESTRICTED_KINDS))
def test_a_restricted_document_page_says_only_that_it_is_authentic(client, kind):
    document = publish(kind, f"Ata – {SECRET_NAME}")
    page = client.get(f"/verificar/{document.code}/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "Documento autêntico" in body and document.sha256 in body and document.code in body
    assert document.get_kind_display() in body and f"<dd>{document.version}</dd>" in body
    for leak in (SECRET_NAME, document.title, "Servidora Signatária", "documento.pdf", str(document.contest)):
        assert leak not in body, leak


def test_a_restricted_document_pdf_is_a_404(client, restricted):
    assert client.get(f"/verificar/{restricted.code}/documento.pdf").status_code == 404
    public_one = publish(Document.Kind.EDITAL, "Edital de abertura")
    response = client.get(f"/verificar/{public_one.code}/documento.pdf")
    assert response.status_code == 200 and response.content == bytes(public_one.pdf)


def test_the_holder_of_a_restricted_document_can_check_it_without_the_page_leaking(client, restricted):
    good = client.post(
        f"/verificar/{restricted.code}/", {"file": SimpleUploadedFile("a.pdf", bytes(restricted.pdf))}
    ).content.decode()
    assert "Autêntico" in good and SECRET_NAME not in good
    bad = client.post(f"/verificar/{restricted.code}/", {"file": SimpleUploadedFile("a.pdf", b"%PDF-1.7 x")})
    assert "Não confere" in bad.content.decode()


def test_a_restricted_file_uploaded_on_a_public_documents_page_does_not_reveal_its_title(client, restricted):
    public_one = publish(Document.Kind.EDITAL, "Edital de abertura")
    body = client.post(
        f"/verificar/{public_one.code}/", {"file": SimpleUploadedFile("a.pdf", bytes(restricted.pdf))}
    ).content.decode()
    assert "mas outro (de acesso restrito)" in body
    assert SECRET_NAME not in body and restricted.code not in body


def test_a_public_document_page_still_shows_its_title_versions_and_pdf(client):
    document = publish(Document.Kind.PROCEDURE_EFFECTS, f"Eliminação de {SECRET_NAME}, inscrição 9")
    body = client.get(f"/verificar/{document.code}/").content.decode()
    assert document.title in body and "documento.pdf" in body


def test_verify_file_hashes_the_upload_in_chunks(restricted):
    stream = io.BytesIO(bytes(restricted.pdf))
    result = verify_file(stream=stream, code=restricted.code, max_bytes=10 * 1024 * 1024)
    assert result.matches and result.sha256 == restricted.sha256


def test_verify_file_refuses_while_reading_once_past_the_limit():
    stream = io.BytesIO(b"x" * (300 * 1024))
    with pytest.raises(TooLarge):
        verify_file(stream=stream, max_bytes=100 * 1024)
    assert stream.tell() < 300 * 1024  # stopped before reading it all
    assert issubclass(TooLarge, ValidationError)


def test_the_hashing_reads_in_chunks_never_whole(restricted, monkeypatch):
    from contests.documents import services as document_services

    seen: list[int] = []
    real = document_services._digest

    def spy(stream, max_bytes):
        original = stream.read

        def read(size=-1):
            seen.append(size)
            return original(size)

        stream.read = read
        try:
            return real(stream, max_bytes)
        finally:
            stream.read = original

    monkeypatch.setattr(document_services, "_digest", spy)
    verify_file(stream=io.BytesIO(bytes(restricted.pdf)), max_bytes=None)
    assert seen and all(0 < size <= document_services.CHUNK for size in seen)


def test_an_upload_past_the_limit_is_refused_with_a_clear_message(client, restricted, monkeypatch):
    monkeypatch.setattr(public, "MAX_UPLOAD", 1000)
    response = client.post(
        f"/verificar/{restricted.code}/", {"file": SimpleUploadedFile("big.pdf", b"%PDF" + b"x" * 5000)}
    )
    assert response.status_code == 200
    assert "passa de 50 MB" in response.content.decode()


def test_a_large_upload_spooled_to_disk_is_checked_from_the_file(client, restricted, settings):
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024  # the upload goes to a temporary file, as a large one would
    padded = bytes(restricted.pdf)
    response = client.post(f"/verificar/{restricted.code}/", {"file": SimpleUploadedFile("a.pdf", padded)})
    assert "Autêntico" in response.content.decode()
    junk = b"%PDF-1.7\n" + b"0" * (3 * 1024 * 1024)
    response = client.post(f"/verificar/{restricted.code}/", {"file": SimpleUploadedFile("b.pdf", junk)})
    assert response.status_code == 200 and "Não confere" in response.content.decode()


def test_a_signed_pdf_uploaded_from_disk_has_its_signature_checked(client, settings, tmp_path):
    from tests.contests.test_documents import make_pkcs12

    path = tmp_path / "org.p12"
    make_pkcs12(path, b"segredo")
    settings.DOCUMENTS_PKCS12_PATH = str(path)
    settings.DOCUMENTS_PKCS12_PASSWORD = "segredo"
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024
    document = publish(Document.Kind.PROCEDURE_ACT, "Decisão assinada")
    assert document.signed
    body = client.post(
        f"/verificar/{document.code}/", {"file": SimpleUploadedFile("a.pdf", bytes(document.pdf))}
    ).content.decode()
    assert "Autêntico" in body and "Assinatura digital válida" in body
