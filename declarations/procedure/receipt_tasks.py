"""Background work of the protocol receipts (django-tasks): the receipt's PDF e-mailed to the candidate, its
sending recorded on the receipt; a failure is logged and retried like a notice's e-mail."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import default_task_backend, task

from contests.audit import audited_save
from contests.models import Organization
from declarations.models import FilingReceipt
from declarations.procedure.tasks import retry_delay

logger = logging.getLogger(__name__)


@task()
def send_receipt_email(receipt_id: int, attempt: int = 1) -> str:
    receipt = FilingReceipt.objects.select_related("document", "act__procedure__registration__candidate").get(
        pk=receipt_id
    )
    if receipt.emailed_at is not None or not receipt.recipient or receipt.document is None:
        return "nada a enviar"
    procedure = receipt.act.procedure
    candidate = procedure.registration.candidate
    context = {
        "receipt": receipt,
        "procedure": procedure,
        "candidate": candidate,
        "received_at": timezone.localtime(receipt.received_at),
        "organization": Organization.current(),
    }
    message = EmailMessage(
        subject=f"Recibo de protocolo nº {receipt.protocol}: {procedure}",
        body=render_to_string("declarations/email_receipt.txt", context),
        to=[receipt.recipient],
    )
    message.attach(
        f"protocolo-{receipt.number:06d}-{receipt.year}.pdf", bytes(receipt.document.pdf), "application/pdf"
    )
    try:
        message.send()
    except Exception as error:  # any transport failure: retry later
        logger.warning("recibo %s: envio falhou: %s", receipt_id, error)
        if attempt < settings.NOTICE_EMAIL_ATTEMPTS and default_task_backend.supports_defer:
            send_receipt_email.using(run_after=timezone.now() + retry_delay(attempt)).enqueue(
                receipt_id=receipt_id, attempt=attempt + 1
            )
        return "falhou"
    with transaction.atomic():
        receipt.emailed_at = timezone.now()
        audited_save(receipt, by=None, reason="Recibo de protocolo enviado por e-mail")
    return "enviado"
