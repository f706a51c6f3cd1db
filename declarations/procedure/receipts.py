"""The protocol receipt of each filing through the private link (issue 21): numbered in the year
("Protocolo nº 000123/2026"), dated to the second in America/Sao_Paulo, with what was filed and the SHA-256
of the text and of every file; its PDF goes through the documents pipeline as a restricted document
(``Document.Kind.FILING_RECEIPT``: verifiable at /verificar/, never public), shown on the candidate's page
and on the case page, and e-mailed to the candidate (``receipt_tasks.send_receipt_email``).

A receipt is not an act of an authority: the system records the receipt, so the document names no person
as signer (it is sealed with the organisation's certificate when one is configured)."""

from __future__ import annotations

import datetime
import hashlib

from django.db import transaction
from django.utils import timezone

from contests.audit import audited_save
from contests.documents.models import Document
from contests.documents.render import render_pdf
from contests.documents.services import document_publish
from contests.models import Organization
from declarations.models import FilingReceipt, FilingReceiptCounter, ProcedureAct, ProcedureLink
from declarations.procedure import documents, rules
from declarations.procedure import rules_labels as labels
from declarations.procedure.receipt_tasks import send_receipt_email

# Who "signs" a receipt: the system, on the organisation's behalf (no person; tests/acts_reading.py reads
# this kind without a signature block).
RECEIVER = "Protocolo eletrônico"


def _next_number(year: int) -> int:
    FilingReceiptCounter.objects.get_or_create(year=year)
    counter = FilingReceiptCounter.objects.select_for_update().get(year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last


def text_sha256(text: str) -> str:
    """The SHA-256 of a filing's text as recorded (UTF-8), or '' when it has none."""
    return hashlib.sha256(text.encode()).hexdigest() if text else ""


def what_filed(act: ProcedureAct) -> str:
    if act.text.startswith("Procuração:"):
        return "Procuração (nomeação de procurador)"
    return labels.ACT_LABELS[rules.Act(act.kind)]


@transaction.atomic
def receipt_issue(*, act: ProcedureAct, link: ProcedureLink, now: datetime.datetime) -> FilingReceipt:
    """The receipt of ``act`` (a filing through ``link``), its PDF published and its e-mail queued for
    after the commit. Inside the filing's transaction: the filing and its receipt exist together or not at
    all."""
    local = timezone.localtime(now)
    files = [{"name": a.name, "size": a.size, "sha256": a.sha256} for a in act.attachments.order_by("pk")]
    candidate = act.procedure.registration.candidate
    receipt = FilingReceipt(
        act=act,
        year=local.year,
        number=_next_number(local.year),
        received_at=now,
        filed_by=act.filed_by or link.name,
        what=what_filed(act),
        text_sha256=text_sha256(act.text),
        files=files,
        recipient=link.email or candidate.email,
    )
    audited_save(receipt, by=None, reason="Recibo de protocolo")
    receipt.document = receipt_publish(receipt)
    audited_save(receipt, by=None, reason="Recibo de protocolo (PDF)")
    if receipt.recipient:
        transaction.on_commit(lambda: send_receipt_email.enqueue(receipt_id=receipt.pk))
    return receipt


def receipt_title(receipt: FilingReceipt) -> str:
    return f"Recibo de protocolo nº {receipt.protocol} – {receipt.act.procedure}"


def receipt_publish(receipt: FilingReceipt) -> Document:
    procedure = receipt.act.procedure
    organization = Organization.current()
    context = {
        "receipt": receipt,
        "act": receipt.act,
        "procedure": procedure,
        "procedure_full": documents.procedure_full_name(procedure),
        "registration": procedure.registration,
        "contest": procedure.registration.contest,
        "organization": organization,
        "received_at": timezone.localtime(receipt.received_at),
        "pdf": True,
    }
    title = receipt_title(receipt)
    return document_publish(
        contest=procedure.registration.contest,
        kind=Document.Kind.FILING_RECEIPT,
        subject=f"pa-{procedure.year}-{procedure.number}-protocolo-{receipt.year}-{receipt.number}",
        title=title,
        render=lambda stamp: render_pdf("pdf/filing_receipt.html", context, stamp, title=title),
        by=None,
        signer_name=RECEIVER,
        signer_office=organization.name if organization else "Órgão",
    )
