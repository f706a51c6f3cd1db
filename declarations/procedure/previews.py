"""What an act with legal effect will do, said before it is done (issue 21): the candidate's acknowledgement
of a notice (a period starts), the application of a decision's effects (an elimination, an annulled
nomination) and the recording of a decision or of the certificate of finality.

Each preview runs the service itself (``services.notice_acknowledge``, ``services.effects_apply``,
``services.act_record``) as a rehearsal (``publish=False``: every check and every effect, but no document
rendered, signed, timestamped nor stored: only its title and signer) inside a savepoint that is always
rolled back, and reads what it did: the checks, the periods the case's deadline engine then shows, the
messages of the seats' engine, the document that would be published and who signs it. Nothing is computed
twice, nothing stays written (the callbacks a service registers for after the commit, such as an e-mail or
the public site's refresh, are discarded with the savepoint), and a refusal comes back as the service's own
message. The confirmation pages show these
lines; the "Confirmar" button then calls the same service for real.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates.models import Nomination, Registration
from contests import wording
from contests.audit import User
from contests.models import Authority
from declarations.models import Procedure, ProcedureAct
from declarations.procedure import documents, notice_documents, rules, services
from declarations.procedure import rules_labels as labels
from declarations.procedure.selectors import CaseState, RunningDeadline, case_state

T = TypeVar("T")


@dataclass(frozen=True)
class Preview:
    """What confirming will do, one sentence a line; or why it cannot be done (``refusal``)."""

    lines: tuple[str, ...] = ()
    refusal: str = ""
    document_html: str = ""
    error: ValidationError | None = field(default=None, compare=False)  # the service's, for a form

    def __bool__(self) -> bool:
        return not self.refusal


def rehearse(run: Callable[[], T]) -> T:
    """``run()`` inside a savepoint rolled back whatever happens: its result (plain values read inside it),
    or its ``ValidationError``."""
    with transaction.atomic():
        result = run()
        transaction.set_rollback(True)
    return result


def _refused(error: ValidationError) -> Preview:
    return Preview(refusal=" ".join(error.messages), error=error)


def _period_line(running: RunningDeadline, *, starts_on: datetime.date) -> str:
    start = running.start
    first = start.start + datetime.timedelta(days=1)
    since = "amanhã" if starts_on == start.start else f"em {first:%d/%m/%Y}"
    return (
        f"{start.label} de {notice_documents.days_text(start.amount, start.period)} ({start.citation}): corre "
        f"a partir de {since}, {first:%d/%m/%Y}, até {running.deadline.last_day:%d/%m/%Y}, às 23h59."
    )


def _started_by(state: CaseState, act: ProcedureAct) -> list[RunningDeadline]:
    """The deadlines ``act`` started, as the case's state (the deadline engine) shows them."""
    index = next(i for i, a in enumerate(state.acts) if a.pk == act.pk)
    return [r for r in state.running if r.start.act_index == index]


# The candidate's acknowledgement ----------------------------------------------------------------------------


def notice_acknowledge_preview(*, act: ProcedureAct, on: datetime.date, how: str) -> Preview:
    """What acknowledging the notice ``act`` on ``on`` does: the notice takes effect that day and the
    periods it starts run to their last day (``services.notice_acknowledge``, rehearsed)."""

    def run() -> Preview:
        done = services.notice_acknowledge(act=act, on=on, by=None, how=how)
        state = case_state(done.procedure, today=on)
        lines = [f"A {done.get_kind_display().lower()} produz efeito hoje, {on:%d/%m/%Y}."]
        started = _started_by(state, done)
        lines += [_period_line(r, starts_on=on) for r in started]
        if not started:
            lines.append("Nenhum prazo começa com esta ciência.")
        return Preview(tuple(lines))

    try:
        return rehearse(run)
    except ValidationError as error:
        return _refused(error)


# The effects of a decision of falsity ------------------------------------------------------------------------


def effects_apply_preview(*, procedure: Procedure, by: User, today: datetime.date) -> Preview:
    """What applying the effects does (``services.effects_apply``, rehearsed): the registration's new
    status, the nomination the seats' engine annuls (and that the seat goes to the next of the same list),
    and the public act published, with who signs it."""

    def run() -> Preview:
        before = {n.pk: n.status for n in Nomination.objects.filter(registration=procedure.registration_id)}
        status = procedure.registration.get_status_display().lower()
        result = services.effects_apply(procedure=procedure, by=by, today=today, publish=False)
        registration = Registration.objects.get(pk=procedure.registration_id)
        lines = [
            f"A inscrição nº {registration.number} passa de “{status}” a "
            f"“{registration.get_status_display().lower()}”, a partir de {today:%d/%m/%Y}."
        ]
        for nomination in Nomination.objects.filter(pk__in=before).order_by("act_date", "pk"):
            if nomination.status != before[nomination.pk]:
                lines.append(
                    f"Nomeação de {nomination.act_date:%d/%m/%Y} ({nomination.act_number}, "
                    f"{nomination.seat}ª vaga): {nomination.get_status_display().lower()}; a vaga liberada "
                    "será preenchida na próxima convocação pelo candidato seguinte da mesma lista."
                )
        lines += [f"Ordem de nomeação: {message}" for message in result.messages]
        if result.document is not None:
            lines.append(
                f"Será publicado o ato público “{result.document.title}”, assinado por "
                f"{result.document.signer_name}, {result.document.signer_office}."
            )
        return Preview(tuple(lines))

    try:
        return rehearse(run)
    except ValidationError as error:
        return _refused(error)


# Deciding acts and the certificate of finality ---------------------------------------------------------------

# The acts recorded only after a confirmation page: they decide the case, end it, or change the decision
# after it is final (revision, art. 65; annulment, art. 53).
CONFIRMED_ACTS = frozenset({*rules.DECIDING_ACTS, rules.Act.FINAL, *rules.AFTER_FINAL_DECIDING})


def act_record_preview(
    *,
    procedure: Procedure,
    kind: rules.Act,
    by: User,
    today: datetime.date,
    text: str,
    outcome: str = "",
    authority: Authority | None = None,
    bad_faith: bool = False,
) -> Preview:
    """What recording the act does (``services.act_record``, rehearsed, without its attachments): the
    case's new status and outcome, the periods it starts, the effects it undoes, the document published and
    who signs it."""
    before_effects = procedure.effects_applied_on

    def run() -> Preview:
        act = services.act_record(
            procedure=procedure,
            kind=kind,
            by=by,
            today=today,
            text=text,
            outcome=outcome,
            authority=authority,
            bad_faith=bad_faith,
            publish=False,
        )
        case = Procedure.objects.get(pk=procedure.pk)
        state = case_state(case, today=today)
        label = labels.ACT_LABELS[kind]
        situation = case.get_status_display()
        if case.outcome:
            situation += f" · {case.get_outcome_display()}"
        lines = [f"{wording.said(label, 'registrado')} em {today:%d/%m/%Y}: o {case} passa a “{situation}”."]
        lines += [_period_line(r, starts_on=today) for r in _started_by(state, act)]
        if before_effects and case.effects_applied_on is None:
            lines.append(
                f"Os efeitos aplicados em {before_effects:%d/%m/%Y} serão desfeitos: a inscrição nº "
                f"{case.registration.number} volta à situação anterior e o ato público dos efeitos é "
                "tornado sem efeito."
            )
        document = act.document
        html = ""
        if document is not None:
            lines.append(
                f"Será publicado o documento “{document.title}” (PDF com código de verificação), assinado "
                f"por {document.signer_name}, {document.signer_office}."
            )
            html = documents.act_document(act)
        return Preview(tuple(lines), document_html=html)

    try:
        return rehearse(run)
    except ValidationError as error:
        return _refused(error)
