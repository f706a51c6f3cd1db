"""Reinstatement and court holds on a position's nominations (RULES.md §4 items 7 and 8).

The entry points the procedure's reversals (reconsideration, appeal, revision) and the court orders call:

- ``registration_reinstate``: a decision that took the candidate off the lists (elimination, cancellation,
  exclusion from the reserves) is reversed. The registration goes back to the status it had before that
  removal, and the engine's ``Reinstate`` undoes the removal on the lists; a nomination it annulled is owed
  back by the policy's ``reinstatement`` rule (``next_seat``: the next call gives them a seat before anyone
  else; ``own_seat``: the nomination takes its seat again, and a later one there is undone and owed the
  next seat).
- ``court_hold``: a court order keeps a seat ("reserva de vaga" until judgment): an active nomination goes
  on hold (sub judice), a seat that reaches the candidate later is kept on hold, not refilled.
- ``court_release``: the order ends in the candidate's favour: a nomination on hold becomes active. An
  order lost in court is an elimination (``candidates.services.status.registration_change_status``), which
  annuls the nomination on hold and frees the seat.

Each is one transaction: the position's row is locked first (as every nomination service does), then the
registration's; the engine's state and the ``Nomination`` rows are saved together, audited with the user
and the reason, and the public nomination order records that it changed, naming no person and no case.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from candidates import seat_notices
from candidates.engine import allocation
from candidates.models import AllocationLedger, Nomination, Registration
from candidates.services.nominations.loading import _error, _load, _Loaded, _published, _save, engine_id
from candidates.services.registrations import registration_set_status
from contests.audit import User
from contests.models import Position, Publication, add_days

REMOVED = (
    Registration.Status.ELIMINATED,
    Registration.Status.CANCELLED,
    Registration.Status.EXCLUDED_FROM_RESERVE,
)
DISPLACED_REASON = (
    "Nomeação desfeita: a vaga volta à nomeação restabelecida de candidato reintegrado (regra da própria "
    "vaga); o nomeado recebe a próxima vaga."
)


@dataclass(frozen=True)
class SeatOrder:
    """The registration after the order, and what it did to its position's seats (the engine's messages)."""

    registration: Registration
    messages: tuple[str, ...]


def _locked(registration: Registration, reason: str) -> tuple[Position, Registration]:
    if not reason.strip():
        raise ValidationError("Informe o motivo (a decisão e o processo).")
    position = Position.objects.select_for_update(of=("self",)).get(pk=registration.position_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    return position, registration


def _status_before_removal(registration: Registration) -> str:
    """Without the engine's record: the status the registration had before its latest removal."""
    if registration.status == Registration.Status.EXCLUDED_FROM_RESERVE:
        return Registration.Status.ACTIVE
    for record in registration.history.order_by("-history_date", "-history_id"):
        if record.status not in (Registration.Status.ELIMINATED, Registration.Status.CANCELLED):
            return (
                Registration.Status.EXCLUDED_FROM_RESERVE
                if record.status == Registration.Status.EXCLUDED_FROM_RESERVE
                else Registration.Status.ACTIVE
            )
    return Registration.Status.ACTIVE


def _removed_on(registration: Registration, today: datetime.date) -> datetime.date:
    """The day the registration's latest removal took it off the lists (the first record of its latest run
    of removed statuses, in the history), never after ``today``; ``today`` without such a record."""
    removed_on = today
    for record in registration.history.order_by("-history_date", "-history_id"):
        if record.status not in REMOVED:
            break
        removed_on = timezone.localdate(record.history_date)
    return min(removed_on, today)


def _tell_reinstated(registration: Registration, reason: str, out_from: datetime.date) -> None:
    """The reinstated candidate's notice, with a new deadline for every phase missed while out."""
    seat_notices.notify(
        [registration.pk],
        seat_notices.REINSTATED,
        reason,
        before_sending=partial(seat_notices.record_phase_make_ups, out_from=out_from),
    )


def _apply(loaded: _Loaded, event: allocation.Event) -> tuple[allocation.State, allocation.Change]:
    try:
        return allocation.apply(loaded.state, event)
    except allocation.AllocationError as error:
        raise _error(error) from None


@transaction.atomic
def registration_reinstate(
    *, registration: Registration, by: User | None, today: datetime.date, reason: str, ground: str = ""
) -> SeatOrder:
    """Reverse the latest removal of ``registration`` (RULES §4 item 7): back to the status it had, back on
    the lists at its original rank, and a nomination the removal annulled owed back by the policy's rule.

    ``reason``: the decision, kept in the history (``"Provimento do recurso no PA nº 3/2026"``).
    ``ground``: how the explanation of the seat paid names it, after "reintegrado(a)" (``"por decisão em
    grau de recurso no PA nº 3/2026"``); without it, the reason in parentheses. A withdrawal is the
    candidate's own act and is never reinstated; an active registration has nothing to undo.
    """
    position, registration = _locked(registration, reason)
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(
            f"A inscrição {registration.number} é de desistente: a desistência é ato do próprio candidato e "
            "não se reintegra."
        )
    if registration.status not in REMOVED:
        raise ValidationError(
            f"A inscrição {registration.number} está ativa: não há eliminação nem exclusão a desfazer."
        )
    ground = ground.strip() or f"({reason.strip().rstrip('.')})"
    out_from = _removed_on(registration, today)
    cid = engine_id(registration.number)
    loaded = (
        _load(position, lock=True) if AllocationLedger.objects.filter(position=position).exists() else None
    )
    if loaded is None or cid not in loaded.reg_of:
        # No nomination yet (or not on the final list): the registration's status is the whole record.
        status = _status_before_removal(registration)
        registration = registration_set_status(
            registration=registration, status=status, by=by, reason=f"Reintegração: {reason.strip()}"
        )
        _tell_reinstated(registration, reason.strip(), out_from)
        return SeatOrder(registration, ())
    state, change = _apply(loaded, allocation.Reinstate(cid, ground=ground))
    status = (
        Registration.Status.EXCLUDED_FROM_RESERVE if cid in state.excluded else Registration.Status.ACTIVE
    )
    registration = registration_set_status(
        registration=registration, status=status, by=by, reason=f"Reintegração: {reason.strip()}"
    )
    updates = {nom.order: {"end_reason": DISPLACED_REASON} for nom in change.changed if nom.displaced}
    _save(
        loaded,
        state,
        by=by,
        reason=f"Reintegração da inscrição {registration.number}: {reason.strip()}"[:300],
        updates=updates,
        ended_on=today,
    )
    _published(
        position,
        kind=Publication.Kind.NOMINATION_EVENT,
        title=f"Reintegração na ordem de nomeação de {position.title}",
        by=by,
    )
    _tell_reinstated(registration, reason.strip(), out_from)
    displaced = Nomination.objects.filter(position=position, order__in=list(updates))
    # The displaced are told what changed for them (their nomination's end reason), never the other
    # candidate's case (LGPD).
    seat_notices.notify(
        list(displaced.values_list("registration_id", flat=True)), seat_notices.DISPLACED, DISPLACED_REASON
    )
    return SeatOrder(registration, (*loaded.messages, *change.messages))


def _court_event(
    registration: Registration,
    event_type: type[allocation.CourtHold] | type[allocation.CourtRelease],
    *,
    by: User | None,
    today: datetime.date,
    reason: str,
    title: str,
) -> SeatOrder:
    position, registration = _locked(registration, reason)
    loaded = _load(position, lock=True)
    cid = engine_id(registration.number)
    if cid not in loaded.reg_of:
        raise ValidationError(
            f"A inscrição {registration.number} não está na lista final deste cargo: não há vaga a reservar."
        )
    state, change = _apply(loaded, event_type(cid))
    holding = event_type is allocation.CourtHold
    what = "Ordem judicial de reserva de vaga" if holding else "Fim da reserva judicial"
    updates: dict[int, dict] = {}
    if not holding:
        # The time to take office was suspended with the nomination: it runs again, whole, from the
        # release (our reading; the act's publication date stays on the record), counted as the call
        # counts it (``contests.models.policy.add_days``, the contest's days).
        deadline = add_days(today, loaded.contest.office_deadline_days)
        if deadline is None:
            raise ValidationError("Data fora do calendário: o prazo para a posse passaria do ano 9999.")
        updates = {nom.order: {"office_deadline": deadline} for nom in change.changed}
    _save(
        loaded,
        state,
        by=by,
        reason=f"{what} (inscrição {registration.number}): {reason.strip()}"[:300],
        updates=updates,
        ended_on=today,
    )
    _published(position, kind=Publication.Kind.NOMINATION_EVENT, title=f"{title} {position.title}", by=by)
    seat_notices.notify(
        [registration.pk], seat_notices.HELD if holding else seat_notices.RELEASED, reason.strip()
    )
    return SeatOrder(registration, (*loaded.messages, *change.messages))


@transaction.atomic
def court_hold(
    *, registration: Registration, by: User | None, today: datetime.date, reason: str
) -> SeatOrder:
    """A court order keeps ``registration``'s seat until judgment (RULES §4 item 8): an active nomination
    goes on hold (sub judice, not refilled); a seat that reaches the candidate later is made on hold. The
    candidate must be on the position's final list and not withdrawn nor eliminated (reinstate first when
    the order also reinstates them)."""
    return _court_event(
        registration,
        allocation.CourtHold,
        by=by,
        today=today,
        reason=reason,
        title="Vaga mantida por ordem judicial (sub judice) na ordem de nomeação de",
    )


@transaction.atomic
def court_release(
    *, registration: Registration, by: User | None, today: datetime.date, reason: str
) -> SeatOrder:
    """The court hold on ``registration`` ends (RULES §4 item 8): a nomination on hold becomes active (the
    deadline to take office is the act's); a candidate not yet reached competes as before."""
    return _court_event(
        registration,
        allocation.CourtRelease,
        by=by,
        today=today,
        reason=reason,
        title="Fim da reserva judicial de vaga na ordem de nomeação de",
    )


def nominations_on_hold(position: Position) -> list[Nomination]:
    """The position's nominations kept by a court order (the clerk's screens show them)."""
    return list(position.nominations.filter(status=Nomination.Status.ON_HOLD).order_by("order"))
