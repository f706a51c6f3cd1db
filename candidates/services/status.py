"""A registration's status change and its effect on the seats, in one transaction (RULES §4 item 4).

This is THE entry point for changing a registration's status from outside the nomination screens: the
registration page (a clerk records a withdrawal, an elimination, an exclusion from the reserves, a
cancellation) and the ``declarations`` app (a final decision of falsity eliminates the candidate or
excludes them from the reserve, RULES §5). The importer sets no status (the organiser's file has no
status column); should it ever, it calls this too. ``registration_set_status`` alone is the bare write,
for the nomination services that have already moved the seats themselves. It sits above both ``registrations`` (the status
itself) and ``nominations`` (the seats), which import neither it nor each other in this direction, so
there is no import cycle: ``status`` → ``nominations`` → ``registrations``.

What the seats do (RULES §4 item 4, through the engine's events):

- eliminated or cancelled: off every list; an active nomination is annulled and its seat freed;
- withdrawn: off every list. A nominee's withdrawal needs the signed statement, so it is recorded on the
  nomination (``nomination_withdraw``, which sets this status too): here it is refused while the
  registration holds an active nomination;
- excluded from the reserves: off the reserved lists; an active nomination that came from a reserved
  list is annulled and its seat freed (one from the general list stays);
- back to active: nothing changes on the seats here. A decision reversed (reconsideration, appeal,
  revision, a court order) goes through ``candidates.services.nominations.registration_reinstate``, which
  restores the status and puts the candidate back on the lists, owed a seat when their nomination had
  been annulled (RULES §4 item 7).

The freed seat is refilled by the next call, from the same list (the racial seat from the racial list).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_sync
from candidates.services.registrations import registration_set_status
from contests.audit import User
from contests.models import Position


@dataclass(frozen=True)
class StatusChange:
    """The registration after the change, and what the change did to its position's seats."""

    registration: Registration
    messages: tuple[str, ...]


@transaction.atomic
def registration_change_status(
    *, registration: Registration, status: str, reason: str, by: User | None, today: datetime.date
) -> StatusChange:
    """Change ``registration``'s status (with the reason kept in history) and bring its position's
    nominations in line at once: a nomination the change ends is annulled or withdrawn now and its seat
    is free for the next call, instead of at the next call.

    The position's row is locked first, as every nomination service does, so a call on the same position
    runs entirely before or after this change. ``today`` is the date recorded as the end of a nomination
    the change ends.
    """
    position = Position.objects.select_for_update(of=("self",)).get(pk=registration.position_id)
    if status == Registration.Status.WITHDRAWN:
        held = Nomination.objects.filter(registration=registration, status=Nomination.Status.ACTIVE).first()
        if held is not None:
            raise ValidationError(
                f"A inscrição {registration.number} tem nomeação ativa ({held.seat}ª vaga): registre a "
                "desistência na nomeação, com o termo de desistência assinado; a vaga fica livre para a "
                "próxima chamada."
            )
    registration = registration_set_status(registration=registration, status=status, by=by, reason=reason)
    label = Registration.Status(registration.status).label
    messages = nominations_sync(
        position=position, by=by, today=today, reason=f"Inscrição {registration.number}: {label}"
    )
    return StatusChange(registration, tuple(messages))
