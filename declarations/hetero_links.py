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

import datetime
import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from contests.audit import User, audited_save
from declarations.links import link_find, token_hash, token_new
from declarations.models import Verification, VerificationLink
from declarations.tasks import site_url

logger = logging.getLogger(__name__)

LINK_SALT = "declarations.hetero-link"


@transaction.atomic
def hetero_link_issue(
    *, verification: Verification, by: User | None, now: datetime.datetime, email: str = ""
) -> tuple[VerificationLink, str]:
    """A new private link to ``verification``'s result; the token is returned once, only its hash kept."""
    candidate = verification.registration.candidate
    token = token_new(salt=LINK_SALT, owner_pk=verification.pk)
    link = VerificationLink(
        verification=verification,
        name=(candidate.social_name or candidate.full_name)[:200],
        email=email,
        token_hash=token_hash(token),
        expires_at=now + datetime.timedelta(days=settings.PROCEDURE_LINK_DAYS),
    )
    audited_save(link, by=by, reason="Link privado da heteroidentificação emitido")
    return link, token


def hetero_link_resolve(token: str, *, now: datetime.datetime) -> VerificationLink:
    """The usable link for ``token``, or ``declarations.links.LinkError`` with the message to show."""
    links = VerificationLink.objects.select_related(
        "verification__registration__candidate",
        "verification__registration__contest__policy",
        "verification__session__commission",
    )
    return link_find(token, salt=LINK_SALT, links=links, owner="verification", now=now)


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
    url = site_url() + reverse("declarations:hetero_portal", args=[token])
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
            link.revoked_at = now
            audited_save(link, by=None, reason="Link privado revogado: e-mail não enviado")
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
