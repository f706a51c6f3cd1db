"""Background work of heteroidentification (django-tasks): the non-confirmed candidate is told individually,
by e-mail, with a private link (``declarations.links``, the procedure's mechanism) where they read the result
and file their appeal before the deadline (``services.result_notify`` queues it; what the page shows:
``views.candidate``)."""

from __future__ import annotations

import logging

from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from contests.audit import audited_save
from contests.models import Organization
from contests.wording import header_value
from declarations.hetero.periods import appeal_period_open
from declarations.links import hetero_link_issue, link_revoke, link_supersede, link_url
from declarations.models import Verification

logger = logging.getLogger(__name__)


@task()
def send_hetero_result_email(verification_id: int) -> str:
    """Send the result with a private link issued here (the token is never stored, not even in the queue);
    record the delivery on the verification; a failure revokes the link and is recorded for a new try."""
    return _send_with_link(
        verification_id,
        subject="Resultado da heteroidentificação: inscrição {number}",
        template="declarations/email_hetero_result.txt",
        sent="Comunicado por e-mail com link privado",
        reason="Resultado comunicado por e-mail",
        opens_period=True,
    )


@task()
def send_second_call_email(verification_id: int) -> str:
    """Call the candidate to the second call (``second_call``: a justified absence called again): the later
    session's date, time and place, with a private link to their page, issued here like the result's."""
    return _send_with_link(
        verification_id,
        subject="Segunda chamada da heteroidentificação: inscrição {number}",
        template="declarations/email_hetero_second_call.txt",
        sent="Convocação da segunda chamada enviada por e-mail com link privado",
        reason="Convocação da segunda chamada enviada por e-mail",
        opens_period=False,
    )


def _send_with_link(
    verification_id: int, *, subject: str, template: str, sent: str, reason: str, opens_period: bool
) -> str:
    """Issue a private link, send ``template`` with it, record the delivery; ``opens_period``: the message is
    the result, whose leaving starts the appeal period (a second call's convocation starts none)."""
    now = timezone.now()
    with transaction.atomic():
        verification = (
            Verification.objects.select_for_update(of=("self",))
            .select_related("registration__candidate", "registration__contest", "session__commission")
            .get(pk=verification_id)
        )
        candidate = verification.registration.candidate
        link, token = hetero_link_issue(
            verification=verification, by=None, now=now, email=candidate.email, supersede=False
        )
    url = link_url("declarations:hetero_portal", token)
    if opens_period:
        # The period starts the day the message leaves: computed now for the e-mail's text, saved only once sent.
        appeal_period_open(verification, on=timezone.localdate(now))
    context = {
        "verification": verification,
        "session": verification.session,
        "candidate": candidate,
        "contest": verification.registration.contest,
        "organization": Organization.current(),
        "url": url,
        "link": link,
    }
    message = EmailMultiAlternatives(
        subject=header_value(subject.format(number=verification.registration.number)),
        body=render_to_string(template, context),
        to=[candidate.email],
    )
    try:
        message.send()
    except Exception as error:  # any transport failure: record it; the officer sends again from the session
        logger.warning("heteroidentificação %s: envio falhou: %s", verification_id, error)
        with transaction.atomic():
            link_revoke(link=link, by=None, now=now, reason="Link privado revogado: e-mail não enviado")
            verification.refresh_from_db(fields=["notified_on", "appeal_deadline"])  # no period: nothing left
            verification.notice = f"E-mail não enviado em {timezone.localtime(now):%d/%m/%Y %H:%M}: {error}"[
                :300
            ]
            audited_save(verification, by=None, reason="Comunicação individual falhou")
        return "falhou"
    with transaction.atomic():
        link_supersede(link=link, by=None, now=now)  # sent: the links sent before stop working
        if opens_period:
            verification.refresh_from_db(fields=["notified_on", "appeal_deadline"])
            appeal_period_open(verification, on=timezone.localdate(now))
        verification.notice = f"{sent} em {timezone.localtime(now):%d/%m/%Y %H:%M} ({candidate.email})."[:300]
        audited_save(verification, by=None, reason=reason)
    return "enviado"
