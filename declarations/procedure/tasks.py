"""Background work of the procedure (django-tasks): the notice's e-mail, retried on failure, its delivery
recorded on the act. The worker (``manage.py db_worker``, started by ``make run``) runs it; where the
backend cannot defer (inline backend), a failure is left on the act for a later retry from the case page.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import default_task_backend, task

from contests.audit import audited_save
from contests.models import Organization
from contests.wording import header_value
from declarations.links import link_issue, link_revoke, link_supersede, link_url
from declarations.models import ProcedureAct, ProcedureLink

logger = logging.getLogger(__name__)


def retry_delay(attempt: int) -> datetime.timedelta:
    """1, 4, 16, 64… minutes after the attempt that failed (capped at a day)."""
    return datetime.timedelta(minutes=min(4 ** (attempt - 1), 24 * 60))


@task()
def send_notice_email(act_id: int) -> str:
    """Send the notice ``act_id`` by e-mail with a private link of its own (issued here, so the token is
    never stored, not even in the queue); record the delivery on the act; on failure, retry later."""
    now = timezone.now()
    with transaction.atomic():
        act = (
            ProcedureAct.objects.select_for_update()
            .select_related("procedure__registration__candidate")
            .get(pk=act_id)
        )
        if act.delivery == ProcedureAct.Delivery.SENT:
            return "já enviada"
        procedure = act.procedure
        candidate = procedure.registration.candidate
        link, token = link_issue(
            procedure=procedure,
            holder=ProcedureLink.Holder.CANDIDATE,
            name=candidate.display_name,
            email=act.recipient,
            by=None,
            now=now,
            supersede=False,
        )
        act.delivery_attempts += 1
    url = link_url("declarations:portal", token)
    context = {
        "act": act,
        "procedure": procedure,
        "candidate": candidate,
        "url": url,
        "link": link,
        "organization": Organization.current(),
    }
    message = EmailMultiAlternatives(
        subject=header_value(
            f"Intimação: {procedure} (autodeclaração, inscrição {procedure.registration.number})"
        ),
        body=render_to_string("declarations/email_notice.txt", context),
        to=[act.recipient],
    )
    try:
        message.send()
    except Exception as error:  # any transport failure: record it and retry
        logger.warning("intimação %s: envio falhou: %s", act_id, error)
        with transaction.atomic():
            link_revoke(link=link, by=None, now=now)
            act.delivery = ProcedureAct.Delivery.FAILED
            act.delivery_error = f"{timezone.localtime(now):%d/%m/%Y %H:%M}: {error}"[:2000]
            audited_save(
                act, by=None, reason=f"Envio da intimação falhou (tentativa {act.delivery_attempts})"
            )
        if act.delivery_attempts < settings.NOTICE_EMAIL_ATTEMPTS and default_task_backend.supports_defer:
            send_notice_email.using(run_after=now + retry_delay(act.delivery_attempts)).enqueue(act_id=act_id)
        return "falhou"
    with transaction.atomic():
        link_supersede(link=link, by=None, now=now)  # sent: the links sent before stop working
        act.delivery = ProcedureAct.Delivery.SENT
        act.delivered_at = now
        act.delivery_error = ""
        audited_save(act, by=None, reason="Intimação enviada por e-mail")
    return "enviada"
