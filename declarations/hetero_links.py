"""The candidate's side of heteroidentification (RULES §5): a non-confirmed candidate is told individually,
by e-mail through the task queue, with a private link (``declarations.links``, the procedure's mechanism)
where they read the result and file their appeal before the deadline.

What the link shows (our reading of LGPD and of Lei 9.784): the result, the count of opinions and every
opinion's reasons (the candidate must know them to appeal, arts. 3º II and 50), and the commission's
composition (its designation is a public act, and the candidate may argue a member's impediment, arts.
18–20); but not which member wrote which opinion: that attribution is not needed for the defence and would
expose the members, so the opinions are numbered, not signed, on the candidate's page (the restricted
minutes keep the attribution)."""

from __future__ import annotations

import logging

from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from contests.audit import audited_save
from declarations.links import hetero_link_issue, link_revoke, link_url
from declarations.models import Verification

logger = logging.getLogger(__name__)


def result_notify(*, verification: Verification) -> None:
    """Tell the non-confirmed candidate individually: an e-mail with their private link, sent by the task
    queue once the transaction commits; without an e-mail on file, the page says so (never silent)."""
    email = verification.registration.candidate.email
    if not email:
        verification.notice = (
            "Sem e-mail cadastrado: comunique o candidato por outro meio, com o prazo de recurso."
        )
        audited_save(verification, by=None, reason="Comunicação individual pendente")
        return
    verification_id = verification.pk
    transaction.on_commit(lambda: send_hetero_result_email.enqueue(verification_id=verification_id))


@task()
def send_hetero_result_email(verification_id: int) -> str:
    """Send the result with a private link issued here (the token is never stored, not even in the queue);
    record the delivery on the verification; a failure revokes the link and is recorded for a new try."""
    from contests.models import Organization

    now = timezone.now()
    with transaction.atomic():
        verification = (
            Verification.objects.select_for_update()
            .select_related("registration__candidate", "registration__contest", "session__commission")
            .get(pk=verification_id)
        )
        candidate = verification.registration.candidate
        link, token = hetero_link_issue(verification=verification, by=None, now=now, email=candidate.email)
    url = link_url("declarations:hetero_portal", token)
    context = {
        "verification": verification,
        "candidate": candidate,
        "contest": verification.registration.contest,
        "organization": Organization.current(),
        "url": url,
        "link": link,
    }
    message = EmailMultiAlternatives(
        subject=f"Resultado da heteroidentificação: inscrição {verification.registration.number}",
        body=render_to_string("declarations/email_hetero_result.txt", context),
        to=[candidate.email],
    )
    try:
        message.send()
    except Exception as error:  # any transport failure: record it; the officer sends again from the session
        logger.warning("heteroidentificação %s: envio falhou: %s", verification_id, error)
        with transaction.atomic():
            link_revoke(link=link, by=None, now=now, reason="Link privado revogado: e-mail não enviado")
            verification.notice = f"E-mail não enviado em {timezone.localtime(now):%d/%m/%Y %H:%M}: {error}"[
                :300
            ]
            audited_save(verification, by=None, reason="Comunicação individual falhou")
        return "falhou"
    with transaction.atomic():
        verification.notice = (
            f"Comunicado por e-mail com link privado em {timezone.localtime(now):%d/%m/%Y %H:%M} "
            f"({candidate.email})."
        )[:300]
        audited_save(verification, by=None, reason="Resultado comunicado por e-mail")
    return "enviado"
