"""A court order's effects on the lists and seats (issue 22; RULES §4 items 7 and 8), through the
candidates' services: the events are ``rules``'s, this module runs them and keeps what each did.

- ``order_effects_apply``: comply with an order in force: for each candidate in its scope, ``reinstate``
  (the removal undone, a lost nomination owed back by the policy's rule) and, for an order that keeps a
  seat, ``court_hold`` (the seat kept, not refilled, until judgment).
- ``order_effects_on_status``: what follows a change of the order's status: confirmation or transit
  release the seat (``court_release``); revocation or reform undo the order with effect from the start
  (STF Tema 476): the removal it reversed is applied again (the nomination made under it is annulled and its
  seat refilled), or, for a hold on a candidate who was never removed, an elimination (RULES §4 item 8).

Each candidate's events are recorded on a ``CourtOrderEffect`` (audited), so a later change of status knows
what to undo; the candidates' services keep their own history and public records.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates.models import Registration
from candidates.services.nominations.reinstatement import court_hold, court_release, registration_reinstate
from candidates.services.status import registration_change_status
from contests.audit import User, audited_save
from declarations.courts import rules
from declarations.courts.selectors import compliance, locked
from declarations.models import CourtOrder, CourtOrderEffect


def _reason(order: CourtOrder) -> str:
    return f"{order} ({order.court}, {order.body})"


def _ground(order: CourtOrder) -> str:
    return f"por ordem judicial ({order.get_kind_display().lower()} no processo nº {order.case_number})"


def _run(
    event: str,
    registration: Registration,
    order: CourtOrder,
    *,
    removed_status: str,
    by: User,
    today: datetime.date,
) -> tuple[str, ...]:
    reason = _reason(order)
    if event == rules.REINSTATE:
        return registration_reinstate(
            registration=registration, by=by, today=today, reason=reason, ground=_ground(order)
        ).messages
    if event == rules.COURT_HOLD:
        return court_hold(registration=registration, by=by, today=today, reason=reason).messages
    if event == rules.COURT_RELEASE:
        return court_release(registration=registration, by=by, today=today, reason=reason).messages
    status = (
        Registration.Status.EXCLUDED_FROM_RESERVE.value
        if event == rules.EXCLUDE
        else (removed_status or Registration.Status.ELIMINATED.value)
    )
    change = registration_change_status(
        registration=registration,
        status=status,
        reason=f"Ordem judicial desfeita desde o início (STF, Tema 476): {reason}",
        by=by,
        today=today,
    )
    return change.messages


def can_apply(order: CourtOrder) -> bool:
    """The order moves the lists through the engine and is in force with someone not yet complied with."""
    return (
        rules.Effect(order.effect) in rules.ENGINE_EFFECTS
        and rules.Status(order.status) is rules.Status.IN_FORCE
        and order.pk in compliance([order.pk])[0]
    )


@transaction.atomic
def order_effects_apply(*, order: CourtOrder, by: User, today: datetime.date) -> list[str]:
    """Comply with ``order`` for each candidate in its scope not yet complied with; the engine's messages."""
    order = locked(order)
    effect = rules.Effect(order.effect)
    if effect not in rules.ENGINE_EFFECTS:
        raise ValidationError(
            f"O efeito “{rules.EFFECT_LABELS[effect]}” é cumprido pela tela própria (fases, atos, comissões, "
            "nomeações): aqui só se aplicam reinclusão nas listas e reserva de vaga."
        )
    if rules.Status(order.status) is not rules.Status.IN_FORCE:
        raise ValidationError(f"A ordem está {order.get_status_display().lower()}: não há o que cumprir.")
    done = set(order.effects.values_list("registration_id", flat=True))
    messages: list[str] = []
    for registration in order.registrations.order_by("number"):
        if registration.pk in done:
            continue
        removed_status = registration.status if registration.status in rules.REMOVALS else ""
        events = rules.events_on_apply(effect, removed_by=rules.REMOVALS.get(removed_status, ""))
        for event in events:
            messages.extend(
                _run(event, registration, order, removed_status=removed_status, by=by, today=today)
            )
            registration.refresh_from_db()
        record = CourtOrderEffect(
            order=order, registration=registration, removed_by=removed_status, events=events, applied_on=today
        )
        audited_save(record, by=by, reason=f"Cumprimento: {_reason(order)}")
    return messages


def order_effects_on_status(*, order: CourtOrder, by: User, today: datetime.date) -> list[str]:
    """What the order's current status does to what complying with it did (inside the status change's
    transaction, after it)."""
    target = rules.Status(order.status)
    effect = rules.Effect(order.effect)
    messages: list[str] = []
    for record in order.effects.select_for_update().select_related("registration").order_by("pk"):
        events = rules.events_on_status(
            effect,
            target,
            applied=list(record.events),
            removed_by=rules.REMOVALS.get(record.removed_by, ""),
        )
        for event in events:
            messages.extend(
                _run(event, record.registration, order, removed_status=record.removed_by, by=by, today=today)
            )
        if events:
            record.events = [*record.events, *events]
            audited_save(record, by=by, reason=f"Situação da ordem: {order.get_status_display()}")
    return messages
