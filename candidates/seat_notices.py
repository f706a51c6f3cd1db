"""Personal notices of what a reinstatement or a court order did to a candidate's place (issue 22): the
reinstated, the displaced, the held and the released are told by e-mail (through the task queue, like the
nomination's e-mail) and by a printable letter (``seat_notice_letter``, the one letter layout, printed by the
clerk from the registration's screen) what changed, what they must do and by when, with the link to their
private page and their access code. Each notice is a ``SeatNotice`` row (audited), written by ``notify``.

The services (``candidates.services.nominations.reinstatement``) call ``notify`` inside their transaction;
the task is enqueued when it commits, and the message is written when it runs, from the records as they
then are (the nomination's deadline to take office, the code of access): nothing personal is queued."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from functools import partial

from django.core import mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from candidates import access, letters, organization_deadline
from candidates.engine import makeup
from candidates.models import Nomination, Phase, PhaseMakeUp, Registration, SeatNotice
from candidates.tasks import page_url
from contests.documents.letters import Letter, render_letters
from contests.wording import header_value

REINSTATED, DISPLACED, HELD, RELEASED = "reinstated", "displaced", "held", "released"
SUBJECTS = {kind.value: kind.label for kind in SeatNotice.Kind}


def _nomination(registration: Registration) -> Nomination | None:
    """The registration's latest nomination that holds a seat, if any."""
    return registration.nominations.filter(status__in=Nomination.HOLDING).order_by("-order").first()


def _make_ups(notice: SeatNotice | None) -> list[PhaseMakeUp]:
    if notice is None:
        return []
    return list(notice.phase_make_ups.select_related("phase").order_by("phase__order"))


def _undated_phases(registration: Registration) -> bool:
    """Whether the contest has a phase with no date on record (nobody can say it was missed)."""
    return Phase.objects.filter(contest_id=registration.contest_id, starts_on__isnull=True).exists()


def seat_notice_message(registration: Registration, kind: str, reason: str) -> mail.EmailMessage:
    notice = registration.seat_notices.filter(kind=kind).order_by("-issued_on", "-pk").first()
    context = {
        "make_ups": _make_ups(notice) if kind == REINSTATED else [],
        "undated_phases": kind == REINSTATED and _undated_phases(registration),
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


def notify(
    registration_ids: list[int],
    kind: str,
    reason: str,
    *,
    before_sending: Callable[[SeatNotice], object] | None = None,
) -> list[SeatNotice]:
    """Record the notice ``kind`` to each of ``registration_ids`` (its letter printed from the registration's
    screen) and, after the transaction commits, e-mail it. ``before_sending``: what else each notice says,
    written with it (the reinstated's new deadlines: ``record_phase_make_ups``)."""
    today = timezone.localdate()
    notices = []
    for registration_id in dict.fromkeys(registration_ids):
        notice = SeatNotice.objects.create(
            registration_id=registration_id, kind=kind, reason=reason, issued_on=today
        )
        if before_sending is not None:
            before_sending(notice)
        notices.append(notice)
        transaction.on_commit(
            partial(send_seat_notice.enqueue, registration_id=registration_id, kind=kind, reason=reason)
        )
    return notices


def record_phase_make_ups(notice: SeatNotice, *, out_from: datetime.date) -> list[PhaseMakeUp]:
    """The phases ``notice``'s registration missed while out of the lists (from ``out_from``, the removal,
    to the notice's day: ``candidates.engine.makeup``), each with a new deadline of its own, in calendar days
    counted from the notice by the deadline engine (Lei 9.784 art. 66: the notice's day excluded, a last day
    without office hours moved to the next business day)."""
    registration = notice.registration
    phases = {phase.pk: phase for phase in Phase.objects.filter(contest_id=registration.contest_id)}
    dated = [
        makeup.PhaseDates(key=phase.pk, order=phase.order, starts_on=phase.starts_on, ends_on=phase.ends_on)
        for phase in phases.values()
    ]
    made = []
    sat = set(registration.phase_results.filter(score__isnull=False).values_list("phase_id", flat=True))
    for missed in makeup.missed_phases(dated, min(out_from, notice.issued_on), notice.issued_on, sat=sat):
        days = makeup.make_up_days(missed)
        deadline = organization_deadline.last_day(notice.issued_on, days, business_days=False)
        made.append(
            PhaseMakeUp.objects.create(
                registration=registration,
                phase=phases[missed.key],
                notice=notice,
                days=days,
                deadline=deadline,
            )
        )
    return made


def phase_make_ups(registration: Registration) -> list[PhaseMakeUp]:
    """The registration's new deadlines for missed phases in force: the latest given for each phase, in
    the phases' order (the registration's screen and the candidate's page show them)."""
    latest: dict[int, PhaseMakeUp] = {}
    for make_up in registration.phase_make_ups.select_related("phase", "notice").order_by(
        "notice__issued_on", "pk"
    ):
        latest[make_up.phase_id] = make_up
    return sorted(latest.values(), key=lambda make_up: make_up.phase.order)


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
            "make_ups": _make_ups(notice) if notice.kind == REINSTATED else [],
            "undated_phases": notice.kind == REINSTATED and _undated_phases(registration),
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
