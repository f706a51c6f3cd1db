"""Personal notices of what a reinstatement or a court order did to a candidate's place (issue 22): the
reinstated, the displaced, the held and the released are told by e-mail (through the task queue, like the
nomination's e-mail) and by a printable letter (``seat_notice_letter``, the one letter layout, printed by the
clerk from the registration's screen) what changed, what they must do and by when, with the link to their
private page and their access code. Each notice is a ``SeatNotice`` row (audited), written by ``notify``.

The services (``candidates.services.nominations.reinstatement``) call ``notify`` inside their transaction;
the task is enqueued when it commits, and the message is written when it runs, from the records as they
then are (the nomination's deadline to take office, the code of access): nothing personal is queued."""

from __future__ import annotations

from functools import partial

from django.core import mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from candidates import access, letters
from candidates.models import Nomination, Registration, SeatNotice
from candidates.tasks import page_url
from contests.documents.letters import Letter, render_letters
from contests.wording import header_value

REINSTATED, DISPLACED, HELD, RELEASED = "reinstated", "displaced", "held", "released"
SUBJECTS = {kind.value: kind.label for kind in SeatNotice.Kind}


def _nomination(registration: Registration) -> Nomination | None:
    """The registration's latest nomination that holds a seat, if any."""
    return registration.nominations.filter(status__in=Nomination.HOLDING).order_by("-order").first()


def seat_notice_message(registration: Registration, kind: str, reason: str) -> mail.EmailMessage:
    context = {
        "kind": kind,
        "reason": reason,
        "registration": registration,
        "contest": registration.contest,
        "position": registration.position,
        "nomination": _nomination(registration),
        "name": registration.candidate.display_name,
        "code": access.code_for(registration),
        "url": page_url(),
    }
    return mail.EmailMessage(
        subject=header_value(f"{SUBJECTS[kind]} – inscrição {registration.number} – {registration.contest}"),
        body=render_to_string("candidates/email_seat_notice.txt", context),
        to=[registration.candidate.email],
    )


@task()
def send_seat_notice(registration_id: int, kind: str, reason: str) -> str:
    registration = (
        Registration.objects.select_related("candidate", "contest", "position")
        .filter(pk=registration_id)
        .first()
    )
    if registration is None or not registration.candidate.email:
        return "sem e-mail"
    seat_notice_message(registration, kind, reason).send()
    return "enviado"


def notify(registration_ids: list[int], kind: str, reason: str) -> None:
    """Record the notice ``kind`` to each of ``registration_ids`` (its letter printed from the registration's
    screen) and, after the transaction commits, e-mail it."""
    today = timezone.localdate()
    for registration_id in dict.fromkeys(registration_ids):
        SeatNotice.objects.create(registration_id=registration_id, kind=kind, reason=reason, issued_on=today)
        transaction.on_commit(
            partial(send_seat_notice.enqueue, registration_id=registration_id, kind=kind, reason=reason)
        )


def seat_notice_letter(notice: SeatNotice) -> Letter:
    """The printable letter of ``notice``: what changed, what to do and by when, with the access code."""
    registration = notice.registration
    return letters.with_code(
        registration,
        title=notice.get_kind_display(),
        body_template="pdf/letters/seat_notice.html",
        context={
            "kind": notice.kind,
            "reason": notice.reason,
            "contest": registration.contest,
            "position": registration.position,
            "nomination": _nomination(registration),
        },
        dated=notice.issued_on,
    )


def render_seat_notice_letter(notice: SeatNotice) -> bytes:
    """``seat_notice_letter`` as PDF (personal: it carries the code; printed, never published)."""
    return render_letters(
        [seat_notice_letter(notice)],
        title=f"{notice.get_kind_display()} – inscrição {notice.registration.number}",
    )
