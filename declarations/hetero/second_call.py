"""The second call of a candidate absent from the first commission's session for a justified reason, where
the edital provides it (the policy's ``hetero_second_call``; ``rules.second_call_problem``): the
justification recorded and the candidate called to a later open session of the same commission, in a new
verification linked to the absent one; the final result is that of the second call (``selectors.final_state``)."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from contests.audit import User, audited_save
from declarations.hetero import rules
from declarations.hetero.tasks import send_second_call_email
from declarations.models import SecondCall, Session, Verification


@transaction.atomic
def second_call(
    *, absent: Verification, session: Session, justification: str, by: User, now: datetime.datetime
) -> SecondCall:
    # The verification's row locked, not the joined law's (PostgreSQL refuses to lock an outer join's side).
    absent = (
        Verification.objects.select_for_update(of=("self",))
        .select_related("session__commission__contest__policy__procedure_law")
        .get(pk=absent.pk)
    )
    law = absent.session.commission.contest.policy.procedure_law
    problem = rules.second_call_problem(
        allowed=law.hetero_second_call,
        outcome=absent.outcome,
        kind=absent.session.commission.kind,
        justification=justification,
        is_second_call=SecondCall.objects.filter(verification=absent).exists(),
        applied=absent.consequence_applied_on is not None,
        called=SecondCall.objects.filter(absent=absent).exists(),
    )
    if problem:
        raise ValidationError({"justification": problem} if "justificativa" in problem else problem)
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.commission_id != absent.session.commission_id:
        raise ValidationError({"session": "A segunda chamada é feita pela mesma comissão."})
    if session.is_closed or session.starts_at <= absent.session.starts_at:
        raise ValidationError({"session": "Escolha uma sessão posterior, ainda aberta."})
    verification = Verification(session=session, registration=absent.registration, basis=absent.basis)
    audited_save(verification, by=by, reason="Segunda chamada por ausência justificada")
    record = SecondCall(
        absent=absent,
        verification=verification,
        justification=justification.strip(),
        recorded_at=now,
        recorded_by=by,
    )
    audited_save(record, by=by, reason="Ausência justificada: segunda chamada")
    _notify(verification)
    return record


NO_EMAIL = "Sem e-mail cadastrado: comunique a segunda chamada (data, hora e local) por carta."


def _notify(verification: Verification) -> None:
    """The candidate told of the second call individually, as of the result: an e-mail with the session's
    date, time and place and a private link, sent by the task queue once the transaction commits; without an
    e-mail on file, the verification says to send a letter."""
    email = verification.registration.candidate.email
    if not email:
        verification.notice = NO_EMAIL
        audited_save(verification, by=None, reason="Convocação da segunda chamada pendente: sem e-mail")
        return
    verification.notice = f"Convocação da segunda chamada na fila de envio desde {timezone.localtime():%d/%m/%Y %H:%M} ({email})."
    audited_save(verification, by=None, reason="Convocação da segunda chamada posta na fila de e-mails")
    verification_id = verification.pk
    transaction.on_commit(lambda: send_second_call_email.enqueue(verification_id=verification_id))
