"""The reversal of a decision of falsity whose effects were applied (from the first decision, Lei 9.784 art.
61, or on the final decision) by a later act: reconsideration (art. 56 §1º), the superior's decision on appeal
(art. 64), revision (art. 65) or annulment (art. 53). It is recorded as a ``ProcedureReversal``, the event that
reinstates the registration (``_reversal_recorded``). Called from ``services`` inside the act's transaction.
"""

from __future__ import annotations

import datetime

from candidates.models import Nomination, Registration
from candidates.services.nominations import registration_reinstate
from contests.audit import User, audited_save
from declarations.models import Procedure, ProcedureAct, ProcedureReversal


def reversal_record(
    *,
    procedure: Procedure,
    act: ProcedureAct,
    registration: Registration,
    reason: str,
    by: User | None,
    today: datetime.date,
) -> ProcedureReversal:
    """Record that ``act`` reversed a decision of falsity whose effects were applied, and reinstate the
    registration (``_reversal_recorded``). Inside the act's transaction (``services.act_record``), with the
    procedure's and the registration's rows locked; ``procedure.effects_applied_on`` still set."""
    assert procedure.effects_applied_on is not None
    lost = Nomination.objects.filter(registration=registration, status=Nomination.Status.ANNULLED).order_by(
        "-pk"
    )
    undone = (
        f"{reason} Eliminação da inscrição nº {registration.number}, aplicada em "
        f"{procedure.effects_applied_on:%d/%m/%Y}, desfeita."
    )
    if lost.exists():
        seats = ", ".join(f"{n.seat}ª vaga" for n in lost)
        undone += f" Nomeação anulada pelos efeitos: {seats}."
    reversal = ProcedureReversal(
        procedure=procedure,
        act=act,
        on=today,
        effects_applied_on=procedure.effects_applied_on,
        previous_status=procedure.effects_previous_status,
        undone=undone,
        by=by,
    )
    audited_save(reversal, by=by, reason=f"Reversão da decisão de falsidade ({act.get_kind_display()})")
    _reversal_recorded(reversal, registration=registration, by=by, today=today)
    return reversal


def _reversal_recorded(
    reversal: ProcedureReversal, *, registration: Registration, by: User | None, today: datetime.date
) -> None:
    """The registration's reinstatement, called by the reversal (the one place it happens): through
    ``registration_reinstate`` (RULES §4 item 7), back on the lists and a nomination the effects annulled
    owed back by the policy's rule, the reason naming the case and the reversing act in its history."""
    if registration.status != Registration.Status.ELIMINATED:
        return
    procedure = reversal.procedure
    registration_reinstate(
        registration=registration,
        by=by,
        today=today,
        reason=(
            f"Reversão no {procedure} ({reversal.act.get_kind_display()} de {reversal.on:%d/%m/%Y}): "
            f"{reversal.undone}"
        )[:300],
        ground=f"por {reversal.act.get_kind_display().lower()} no {procedure}",
    )
