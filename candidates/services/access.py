"""The candidate's access code: sent when a registration is created, reissued by a clerk.

The code is derived, never stored (``candidates.access``); what changes is the registration's
``access_code_version``, with its history row naming the clerk. The e-mails go through the task queue
(``candidates.tasks``), enqueued when the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from candidates.models import Registration
from candidates.tasks import id_ranges, send_access_code, send_access_codes
from contests.audit import User, audited_save


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
