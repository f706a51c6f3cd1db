"""What happens to a nomination after its act: took office, withdrawal, no-show, end of list; and the sync
that applies at once what was decided elsewhere (an elimination, an exclusion from the reserves)."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction

from candidates.engine import allocation
from candidates.models import AllocationLedger, Nomination, Registration
from candidates.services.nominations.loading import (
    _error,
    _load,
    _Loaded,
    _locked_nomination,
    _published,
    _save,
    engine_id,
)
from candidates.services.registrations import registration_set_status
from contests.audit import User
from contests.models import Position, Publication

EVENTS = {
    "took_office": "A posse",
    "withdraw": "A desistência",
    "no_show": "O registro do não comparecimento",
    "end_of_list": "O pedido de reclassificação para o fim da lista",
}


def _check_event_date(row: Nomination, date: datetime.date, event: str) -> None:
    """The one home of "nothing happens to a nomination before its act" (an end-of-list request
    dated 01/01/0001 was stored for an act of 2026): took office, withdrawal, no-show, end of list."""
    if date < row.act_date:
        raise ValidationError(
            {"date": f"{EVENTS[event]} não pode ser anterior ao ato de nomeação ({row.act_date:%d/%m/%Y})."}
        )


def _engine_id(loaded: _Loaded, nomination: Nomination) -> str:
    return engine_id(nomination.registration.number)


def _event_published(loaded: _Loaded, row: Nomination, what: str, *, by: User | None) -> None:
    """``what`` happened to the nomination of ``row``'s seat: named by the seat, never by the person."""
    _published(
        loaded.position,
        kind=Publication.Kind.NOMINATION_EVENT,
        title=f"{what} na {row.seat}ª vaga de {loaded.position.title}",
        by=by,
    )


@transaction.atomic
def nomination_took_office(*, nomination: Nomination, date: datetime.date, by: User | None) -> Nomination:
    """The nominee took office on ``date``, within the deadline (the seat stays theirs for good)."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não aguarda posse.")
    _check_event_date(row, date, "took_office")
    if date > row.office_deadline:
        raise ValidationError(
            {
                "date": f"O prazo para a posse terminou em {row.office_deadline:%d/%m/%Y}: registre o não "
                "comparecimento (a nomeação fica sem efeito)."
            }
        )
    try:
        state, _ = allocation.apply(loaded.state, allocation.TookOffice(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    _save(loaded, state, by=by, reason="Posse registrada", updates={row.order: {"took_office_on": date}})
    _event_published(loaded, row, "Posse", by=by)
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_withdraw(
    *, nomination: Nomination, statement_file: File, by: User | None, date: datetime.date, reason: str = ""
) -> Nomination:
    """The nominee withdrew before taking office, by a signed statement: off every list; the seat keeps
    its number and kind and goes to the next of the same list on the next call (SM art. 4 §4; AR art. 3
    §2)."""
    if not statement_file:
        raise ValidationError({"statement_file": "Anexe o termo de desistência assinado."})
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não cabe desistência.")
    _check_event_date(row, date, "withdraw")
    try:
        state, change = allocation.apply(loaded.state, allocation.Withdraw(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = "Desistência por termo assinado" + (f": {reason.strip()}" if reason.strip() else "")
    name = (statement_file.name or "termo").rsplit("/", 1)[-1]
    row.withdrawal_statement.save(name, statement_file, save=False)
    updates = {
        row.order: {
            "withdrawal_statement": row.withdrawal_statement.name,
            "ended_on": date,
            "end_reason": text + ". " + " ".join(change.messages[1:]),
        }
    }
    _save(loaded, state, by=by, reason=text, updates=updates)
    registration_set_status(
        registration=row.registration, status=Registration.Status.WITHDRAWN, by=by, reason=text
    )
    _event_published(loaded, row, "Desistência", by=by)
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_no_show(
    *, nomination: Nomination, by: User | None, today: datetime.date, act_number: str = ""
) -> Nomination:
    """The deadline to take office passed without the nominee taking office: the act is made void and
    the seat is refilled on the next call, like a withdrawal."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não aguarda posse.")
    _check_event_date(row, today, "no_show")
    if today <= row.office_deadline:
        raise ValidationError(
            f"O prazo para a posse vai até {row.office_deadline:%d/%m/%Y}: o não comparecimento só pode ser "
            "registrado depois dele."
        )
    try:
        state, _ = allocation.apply(loaded.state, allocation.NoShow(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = f"Não tomou posse até {row.office_deadline:%d/%m/%Y}: ato {row.act_number} tornado sem efeito"
    if act_number.strip():
        text += f" pelo ato {act_number.strip()}"
    _save(
        loaded, state, by=by, reason=text, updates={row.order: {"ended_on": today, "end_reason": text + "."}}
    )
    registration_set_status(
        registration=row.registration, status=Registration.Status.WITHDRAWN, by=by, reason=text
    )
    _event_published(loaded, row, "Nomeação sem efeito por falta de posse", by=by)
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_end_of_list(
    *, nomination: Nomination, by: User | None, date: datetime.date, reason: str = ""
) -> Nomination:
    """At the nominee's request, where the edital allows it: the nomination ends, the seat is refilled
    like a withdrawal and the candidate goes to the end of every list they are on (RULES §4 item 4)."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(
            f"Esta nomeação está “{row.get_status_display()}”: não cabe ir ao fim da lista."
        )
    _check_event_date(row, date, "end_of_list")
    try:
        state, _ = allocation.apply(loaded.state, allocation.EndOfList(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = "Pedido de reclassificação para o fim da lista" + (f": {reason.strip()}" if reason.strip() else "")
    _save(
        loaded, state, by=by, reason=text, updates={row.order: {"ended_on": date, "end_reason": text + "."}}
    )
    _event_published(loaded, row, "Reclassificação para o fim da lista", by=by)
    row.refresh_from_db()
    return row


@transaction.atomic
def nominations_sync(
    *, position: Position, by: User | None, today: datetime.date, reason: str = ""
) -> list[str]:
    """Apply now what happened elsewhere to ``position``'s nominations (an elimination or exclusion
    decided in a procedure, a withdrawal recorded on the registration, vacancies opened on the position's
    page): a nomination it ends is annulled or withdrawn at once instead of at the next call. A status
    change reaches it through ``candidates.services.status.registration_change_status`` (DESIGN.md: a
    decision that eliminates a candidate re-runs the allocation). Returns the engine's messages."""
    if not AllocationLedger.objects.filter(position=position).exists():
        return []  # no nomination yet: the next call starts from the current data anyway
    loaded = _load(position, lock=True)
    if loaded.state == loaded.stored:
        return []
    text = " ".join(loaded.messages)
    text = f"{reason}. {text}" if reason else f"Atualização: {text}"
    _save(loaded, loaded.state, by=by, reason=text[:300], ended_on=today)
    # The engine's messages name inscriptions and may come from a procedure: the public record says only
    # that the order changed (the page shows how).
    _published(
        loaded.position,
        kind=Publication.Kind.NOMINATION_EVENT,
        title=f"Ordem de nomeação de {loaded.position.title} atualizada",
        by=by,
    )
    return loaded.messages
