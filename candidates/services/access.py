"""The candidate's access code: sent when a registration is created, reissued by a clerk.

The code is derived, never stored (``candidates.access``); what changes is the registration's
``access_code_version``, with its history row naming the clerk. The e-mails go through the task queue
(``candidates.tasks``), enqueued when the transaction commits. A candidate without e-mail gets a printed
letter (``candidates.letters``): printing it records an ``AccessCodeDelivery`` "carta impressa" for the
current code, so the contest's batch ("cartas dos candidatos sem e-mail") takes next those still without
one; an access-log row per letter says who printed whose code.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet

from candidates.models import AccessCodeDelivery, Registration
from candidates.tasks import id_ranges, send_access_code, send_access_codes
from contests.audit import User, audited_save
from contests.models import AccessLog, Contest

LETTER_LOG = "carta com o código de acesso impressa"


def access_code_send_later(*, registration: Registration) -> None:
    """Enqueue the e-mail of the registration's current code, after the commit (nothing if no address)."""
    if not registration.candidate.email:
        return

    pk = registration.pk
    transaction.on_commit(lambda: send_access_code.enqueue(registration_id=pk))


def access_codes_send_later(*, registration_ids: Iterable[int]) -> None:
    """One task for many new registrations (an import): their ids as ranges; the task skips those
    without an address."""

    ranges = id_ranges(registration_ids)
    if ranges:
        transaction.on_commit(lambda: send_access_codes.enqueue(ranges=ranges))


@transaction.atomic
def access_code_reissue(*, registration: Registration, by: User | None) -> Registration:
    """A new code for the registration: the old one stops working at once. The new one goes by e-mail when
    the candidate has an address (the caller shows it to the clerk otherwise)."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("candidate", "contest")
        .get(pk=registration.pk)
    )
    registration.access_code_version += 1
    audited_save(registration, by=by, reason="Código de acesso reemitido (o anterior deixou de valer)")
    access_code_send_later(registration=registration)
    return registration


# Letters --------------------------------------------------------------------------------------------------


def without_email(contest: Contest) -> QuerySet[Registration]:
    """The contest's registrations whose candidate has no e-mail (the code can reach them only on paper),
    in inscription order. Cancelled registrations get no letter."""
    return (
        Registration.objects.filter(contest=contest, candidate__email="")
        .exclude(status=Registration.Status.CANCELLED)
        .select_related("candidate", "contest", "position")
        .order_by("number", "pk")
    )


def awaiting_letter(contest: Contest) -> QuerySet[Registration]:
    """Those of ``without_email`` whose current code was never printed."""
    printed = AccessCodeDelivery.objects.filter(
        registration=OuterRef("pk"),
        version=OuterRef("access_code_version"),
        channel=AccessCodeDelivery.Channel.LETTER,
    )
    return without_email(contest).filter(~Exists(printed))


@transaction.atomic
def access_code_letters_printed(
    *, registrations: Sequence[Registration], by: User, now: datetime.datetime, request_ip: str | None = None
) -> None:
    """Record that ``registrations``' current codes were printed on letters by ``by`` now: one
    ``AccessCodeDelivery`` per registration and code version ("carta impressa", a reprint counts one more),
    and one access-log row per letter (the letter carries the secret code)."""
    if not registrations:
        return
    ids = [r.pk for r in registrations]
    known = {
        (d.registration_id, d.version): d
        for d in AccessCodeDelivery.objects.select_for_update().filter(
            registration__in=ids, channel=AccessCodeDelivery.Channel.LETTER
        )
    }
    new, old = [], []
    for registration in registrations:
        delivery = known.get((registration.pk, registration.access_code_version))
        if delivery is None:
            delivery = AccessCodeDelivery(
                registration=registration,
                version=registration.access_code_version,
                channel=AccessCodeDelivery.Channel.LETTER,
            )
            new.append(delivery)
        else:
            old.append(delivery)
        delivery.status = AccessCodeDelivery.Status.PRINTED
        delivery.attempts += 1
        delivery.sent_at = now
        delivery.printed_by = by
    # A log without history of its own (see the model): bulk writes lose nothing.
    # Two clerks printing the same batch at once: the second insert updates the first's row, no error.
    AccessCodeDelivery.objects.bulk_create(
        new,
        update_conflicts=True,
        unique_fields=["registration", "version", "channel"],
        update_fields=["status", "sent_at", "printed_by"],
    )
    AccessCodeDelivery.objects.bulk_update(old, ["status", "attempts", "sent_at", "printed_by"])
    kind = ContentType.objects.get_for_model(Registration)
    AccessLog.objects.bulk_create(
        AccessLog(
            user=by,
            action="document",
            content_type=kind,
            object_id=str(r.pk),
            object_repr=str(r)[:200],
            detail=LETTER_LOG,
            ip_address=request_ip,
        )
        for r in registrations
    )
