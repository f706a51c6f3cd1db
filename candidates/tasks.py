"""Background work of the candidates app (django-tasks): the access code's e-mail.

The code is computed when the message is written (``candidates.access``), so it is never in the queue;
each delivery is recorded (``AccessCodeDelivery``, one row per registration and code version), so a task
that runs twice sends nothing the second time, and a failure is retried later where the backend can defer
(up to ``NOTICE_EMAIL_ATTEMPTS``), as the procedure's notices are (``declarations.procedure.tasks``).

A registration typed by a clerk (or a code reissued) enqueues ``send_access_code``; an import enqueues one
``send_access_codes`` for all the registrations it created, as ranges of ids (a 100,000-row import is
one task with a few numbers, not 100,000 tasks), sent over one SMTP connection per chunk.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence

from django.conf import settings
from django.core import mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import default_task_backend, task

from candidates import access
from candidates.models import AccessCodeDelivery, Nomination, Registration
from contests.audit import audited_save
from contests.wording import header_value

logger = logging.getLogger(__name__)

CHUNK = 200

Ranges = list[list[int]]


def retry_delay(attempt: int) -> datetime.timedelta:
    """1, 4, 16, 64… minutes after the attempt that failed (capped at a day)."""
    return datetime.timedelta(minutes=min(4 ** (attempt - 1), 24 * 60))


def page_url() -> str:
    """The candidate's page at the site's public address (``PUBLIC_BASE_URL``), the same in an e-mail, on
    the screen and on paper."""
    return settings.PUBLIC_BASE_URL + reverse("public:candidate")


def id_ranges(ids: Iterable[int]) -> Ranges:
    """``[1, 2, 3, 7, 9, 10]`` → ``[[1, 3], [7, 7], [9, 10]]``: an import's ids come from one sequence,
    nearly contiguous, so a few pairs name them all."""
    ranges: Ranges = []
    for pk in sorted(ids):
        if ranges and pk == ranges[-1][1] + 1:
            ranges[-1][1] = pk
        else:
            ranges.append([pk, pk])
    return ranges


def _in_ranges(ranges: Sequence[Sequence[int]]) -> Q:
    condition = Q(pk__in=[])
    for low, high in ranges:
        condition |= Q(pk__range=(low, high))
    return condition


# Ranges per query: each is an ``OR`` term, and SQLite refuses an expression deeper than 1,000 (a retry of
# the failures of a large import, where the registrations without e-mail break the ids into many ranges).
RANGES_PER_QUERY = 400


def _registrations_in(ranges: Sequence[Sequence[int]]) -> Iterable[Registration]:
    for start in range(0, len(ranges), RANGES_PER_QUERY):
        part = ranges[start : start + RANGES_PER_QUERY]
        yield from _with_email(Registration.objects.filter(_in_ranges(part))).iterator(chunk_size=CHUNK)


def access_code_message(registration: Registration) -> mail.EmailMessage:
    candidate = registration.candidate
    context = {
        "registration": registration,
        "contest": registration.contest,
        "name": candidate.display_name,
        "code": access.code_for(registration),
        "url": page_url(),
    }
    return mail.EmailMessage(
        subject=header_value(f"Código de acesso da inscrição {registration.number} – {registration.contest}"),
        body=render_to_string("candidates/email_access_code.txt", context),
        to=[candidate.email],
    )


def _send(
    registrations: Sequence[Registration], *, now: datetime.datetime
) -> tuple[list[Registration], list[Registration]]:
    """Send each registration's code (those whose current version went out already are skipped) and record
    it; (sent, failed)."""
    known = {
        (d.registration_id, d.version): d
        for d in AccessCodeDelivery.objects.filter(
            registration__in=[r.pk for r in registrations], channel=AccessCodeDelivery.Channel.EMAIL
        )
    }
    sent: list[Registration] = []
    failed: list[Registration] = []
    deliveries: list[AccessCodeDelivery] = []
    with mail.get_connection() as connection:
        for registration in registrations:
            delivery = known.get((registration.pk, registration.access_code_version))
            if delivery is not None and delivery.status == AccessCodeDelivery.Status.SENT:
                continue
            if delivery is None:
                delivery = AccessCodeDelivery(
                    registration=registration, version=registration.access_code_version
                )
            delivery.recipient = registration.candidate.email
            delivery.attempts += 1
            message = access_code_message(registration)
            message.connection = connection
            try:
                message.send()
            except Exception as error:  # any transport failure: record it and retry
                logger.warning("código de acesso da inscrição %s: envio falhou: %s", registration.pk, error)
                delivery.status = AccessCodeDelivery.Status.FAILED
                delivery.error = f"{timezone.localtime(now):%d/%m/%Y %H:%M}: {error}"[:2000]
                failed.append(registration)
            else:
                delivery.status = AccessCodeDelivery.Status.SENT
                delivery.sent_at = now
                delivery.error = ""
                sent.append(registration)
            deliveries.append(delivery)
    with transaction.atomic():
        for delivery in deliveries:
            delivery.save()
    return sent, failed


def _retry_later(failed: Sequence[Registration], *, now: datetime.datetime) -> None:
    if not failed or not default_task_backend.supports_defer:
        return
    attempts = dict(
        AccessCodeDelivery.objects.filter(
            registration__in=[r.pk for r in failed], channel=AccessCodeDelivery.Channel.EMAIL
        ).values_list("registration_id", "attempts")
    )
    retry = [r.pk for r in failed if attempts.get(r.pk, 0) < settings.NOTICE_EMAIL_ATTEMPTS]
    if retry:
        delay = retry_delay(max(attempts.get(pk, 1) for pk in retry))
        send_access_codes.using(run_after=now + delay).enqueue(ranges=id_ranges(retry))


def _with_email(queryset):
    return queryset.exclude(candidate__email="").select_related("candidate", "contest").order_by("pk")


@task()
def send_access_code(registration_id: int) -> str:
    """E-mail the registration's current access code, once per version."""
    now = timezone.now()
    registration = _with_email(Registration.objects.filter(pk=registration_id)).first()
    if registration is None:
        return "sem e-mail"
    sent, failed = _send([registration], now=now)
    _retry_later(failed, now=now)
    return "enviado" if sent else "falhou" if failed else "já enviado"


@task()
def send_access_codes(ranges: Ranges) -> str:
    """E-mail the current access code of every registration whose id is in ``ranges`` (an import's new
    registrations) and that has an address, in chunks; the failures are retried together later."""
    now = timezone.now()
    total_sent: int = 0
    all_failed: list[Registration] = []
    batch: list[Registration] = []
    for registration in _registrations_in(ranges):
        batch.append(registration)
        if len(batch) == CHUNK:
            sent, failed = _send(batch, now=now)
            total_sent += len(sent)
            all_failed += failed
            batch = []
    if batch:
        sent, failed = _send(batch, now=now)
        total_sent += len(sent)
        all_failed += failed
    _retry_later(all_failed, now=now)
    return f"{total_sent} enviado(s), {len(all_failed)} falha(s)"


# The nomination's e-mail ------------------------------------------------------------------------------------


def nomination_message(nomination: Nomination) -> mail.EmailMessage:
    registration = nomination.registration
    context = {
        "nomination": nomination,
        "registration": registration,
        "contest": registration.contest,
        "position": nomination.position,
        "name": registration.candidate.display_name,
        "code": access.code_for(registration),
        "url": page_url(),
    }
    return mail.EmailMessage(
        subject=header_value(f"Nomeação – inscrição {registration.number} – {registration.contest}"),
        body=render_to_string("candidates/email_nomination.txt", context),
        to=[registration.candidate.email],
    )


@task()
def send_nomination_emails(nomination_ids: list[int]) -> str:
    """E-mail each nominee of a call whose means include e-mail (the call chose it only for those with an
    address); the nomination records when the mail backend took the message, or why it failed. A nomination
    e-mailed already is skipped."""
    now = timezone.now()
    nominations = (
        Nomination.objects.filter(pk__in=nomination_ids, notified_email=True, email_sent_at__isnull=True)
        .exclude(registration__candidate__email="")
        .select_related("registration__candidate", "registration__contest", "position")
        .order_by("pk")
    )
    sent = failed = 0
    with mail.get_connection() as connection:
        for nomination in nominations:
            message = nomination_message(nomination)
            message.connection = connection
            try:
                message.send()
            except Exception as error:  # any transport failure: recorded on the nomination
                logger.warning("nomeação %s: envio falhou: %s", nomination.pk, error)
                nomination.email_error = f"{timezone.localtime(now):%d/%m/%Y %H:%M}: {error}"[:300]
                audited_save(nomination, by=None, reason="E-mail da nomeação: envio falhou")
                failed += 1
            else:
                nomination.email_sent_at = now
                nomination.email_error = ""
                audited_save(nomination, by=None, reason="E-mail da nomeação enviado")
                sent += 1
    return f"{sent} enviado(s), {failed} falha(s)"
