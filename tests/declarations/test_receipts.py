"""The protocol receipt of each filing through the private link (issue 21): numbered in the year, dated to the
second (America/Sao_Paulo), with what was filed and the SHA-256 of the text and of every file; its PDF a
restricted document read like every act (no signature block: the system issues it), on the candidate's page
and on the case page, and e-mailed to the candidate. Through the pages."""

from __future__ import annotations

import hashlib
import shutil

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from contests.documents.models import RESTRICTED_KINDS, Document
from declarations import links
from declarations.models import FilingReceipt, Procedure
from declarations.procedure import services
from tests.acts_reading import UNSIGNED_KINDS, act_of, problems
from tests.builders import make_registration
from tests.pages import post_form

pytestmark = pytest.mark.django_db
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")


@pytest.fixture
def portal(cast):
    """A case notified in person today, the candidate's private page (her e-mail on file)."""
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "candidata@example.org"
    registration.candidate.save()
    today = timezone.localdate()
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios.",
        by=cast["legal"],
        today=today,
    )
    services.notice_send(procedure=case, by=cast["legal"], today=today, means="in_person")
    _link, token = links.link_issue(
        procedure=case, holder="candidate", name="Maria Candidata", by=cast["legal"], now=timezone.now()
    )
    return case, reverse("declarations:portal", args=[token]), token


@needs_pdftotext
def test_a_defence_filed_through_the_page_gets_a_numbered_receipt_with_every_hash(
    client, client_for, portal, django_capture_on_commit_callbacks
):
    case, url, token = portal
    text = "Sou parda; junto fotografias e a declaração escolar."
    upload = SimpleUploadedFile("defesa.pdf", PDF, content_type="application/pdf")
    with django_capture_on_commit_callbacks(execute=True):
        response = post_form(
            client, url, {"kind": "defence", "text": text, "attachments": upload}, follow=True
        )
    year = timezone.localdate().year
    receipt = FilingReceipt.objects.get()
    assert receipt.protocol == f"000001/{year}"
    assert f"Protocolo nº 000001/{year}" in response.content.decode()
    defence = case.acts.get(kind="defence")
    assert receipt.act == defence and receipt.what == "Defesa"
    assert receipt.text_sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert receipt.files == [
        {"name": "defesa.pdf", "size": len(PDF), "sha256": hashlib.sha256(PDF).hexdigest()}
    ]
    assert receipt.history.exists()
    # The PDF: restricted, read like every act (without a signature block: the system issues it).
    document = receipt.document
    assert document.kind == Document.Kind.FILING_RECEIPT and document.kind in RESTRICTED_KINDS
    read = act_of(document)
    assert problems(read, signed=document.kind not in UNSIGNED_KINDS) == []
    words = " ".join(read.text.split())
    received = timezone.localtime(receipt.received_at)
    assert f"Recibo de protocolo nº 000001/{year}" in words
    assert f"{received:%d/%m/%Y}, às {received:%H:%M:%S} (horário de Brasília)" in words
    joined = "".join(read.text.split())  # a hash may break across lines
    assert receipt.text_sha256 in joined and hashlib.sha256(PDF).hexdigest() in joined
    assert "defesa.pdf" in words and "Defesa" in words and "Maria Candidata (candidato)" in words
    # On the candidate's page, served through the link.
    page = client.get(url).content.decode()
    pdf_url = reverse("declarations:portal_receipt", args=[token, receipt.pk])
    assert f'href="{pdf_url}"' in page and f"Recibo de protocolo nº 000001/{year} (PDF)" in page
    served = client.get(pdf_url)
    assert served["Content-Type"] == "application/pdf" and served.content == bytes(document.pdf)
    # On the case page, for who reads the case.
    staff = client_for("legal")
    staff_url = reverse("declarations:receipt_pdf", args=[case.year, case.number, receipt.pk])
    assert f'href="{staff_url}"' in staff.get(case.get_absolute_url()).content.decode()
    assert staff.get(staff_url).content == bytes(document.pdf)
    # E-mailed to the candidate, with the PDF.
    (message,) = [m for m in mail.outbox if "Recibo de protocolo" in m.subject]
    assert message.to == ["candidata@example.org"] and f"000001/{year}" in message.subject
    ((_name, content, mimetype),) = message.attachments
    assert (content, mimetype) == (bytes(document.pdf), "application/pdf")
    receipt.refresh_from_db()
    assert receipt.emailed_at is not None


def test_protocol_numbers_follow_each_other_in_the_year_whatever_the_case(client, portal, cast):
    _case, url, _token = portal
    post_form(client, url, {"kind": "defence", "text": "Defesa."})
    post_form(client, url, {"kind": "evidence", "text": "Mais provas."})
    year = timezone.localdate().year
    assert [r.protocol for r in FilingReceipt.objects.order_by("pk")] == [f"000001/{year}", f"000002/{year}"]
    assert FilingReceipt.objects.get(number=2).what == "Prova"


def test_a_late_filing_gets_no_receipt(client, cast):
    today = timezone.localdate()
    case = services.procedure_open(
        registration=make_registration(racial_category="parda"),
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios.",
        by=cast["legal"],
        today=today.replace(year=today.year - 1),
    )
    services.notice_send(
        procedure=case, by=cast["legal"], today=today.replace(year=today.year - 1), means="in_person"
    )
    _link, token = links.link_issue(
        procedure=case, holder="candidate", name="X", by=cast["legal"], now=timezone.now()
    )
    client.post(reverse("declarations:portal_file", args=[token]), {"kind": "defence", "text": "Tarde."})
    assert not FilingReceipt.objects.exists() and not case.acts.filter(kind="defence").exists()
