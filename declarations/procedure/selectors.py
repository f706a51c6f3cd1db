"""Reads the procedure screens need: a case's state (acts, running deadlines, lawful next acts), computed
when read from the acts and the organisation's calendar (deadlines are never stored by a job, RULES §6)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from candidates.models import Registration
from declarations import deadlines
from declarations.calendars import organization_calendar
from declarations.models import Attachment, FilingReceipt, Procedure, ProcedureAct, ProcedureLink
from declarations.procedure import appeals, notice_documents, notices, rules
from declarations.procedure import rules_labels as labels


@dataclass(frozen=True)
class RunningDeadline:
    start: rules.PeriodStart
    deadline: deadlines.Deadline
    days_left: int
    done: bool  # the act it awaited was recorded (the deadline no longer binds anyone)

    @property
    def overdue(self) -> bool:
        return not self.done and self.days_left < 0

    @property
    def overdue_days(self) -> int:
        return max(0, -self.days_left)

    @property
    def amount_text(self) -> str:
        """ "10 dias", "5 dias úteis": the period in the unit the law gives it (art. 62 counts business days)."""
        return notice_documents.days_short(self.start.amount, self.start.period)


@dataclass(frozen=True)
class CaseState:
    procedure: Procedure
    acts: tuple[ProcedureAct, ...]
    records: tuple[rules.ActRecord, ...]
    running: tuple[RunningDeadline, ...]
    today: datetime.date

    @property
    def policy(self) -> rules.Policy:
        return self.procedure.policy

    @property
    def ends(self) -> dict[rules.Period, datetime.date]:
        return {r.start.period: r.deadline.last_day for r in self.running}

    def refusal(
        self,
        kind: rules.Act,
        *,
        outcome: rules.Outcome | None = None,
        has_reasons: bool = True,
        bad_faith: bool | None = None,
    ) -> str:
        return rules.refusal(
            kind,
            self.records,
            self.policy,
            today=self.today,
            ends=self.ends,
            outcome=outcome,
            has_reasons=has_reasons,
            bad_faith=bad_faith,
        )

    def form_refusal(self, kind: rules.Act) -> str:
        """Why the form of ``kind`` cannot be filled in now, with the outcome it is offered with
        (``rules.offered_outcome``): the reason the form shows before anything is typed."""
        return self.refusal(kind, outcome=rules.offered_outcome(kind, self.records))

    @property
    def allowed(self) -> tuple[rules.Act, ...]:
        return rules.allowed(self.records, self.policy, today=self.today, ends=self.ends)

    @property
    def waiting(self) -> list[tuple[str, str]]:
        """Why closing the instruction or the report is not offered now, when it waits for something to
        come (the defence period running, the closing not yet notified, the final statement's period): the
        case page says so instead of leaving the button out without a word."""
        settled = {rules.CLOSED, rules.NEEDS_NOTICE, rules.INSTRUCTION_OVER, rules.REPORT_ONCE}
        settled.add(rules.NEEDS_INSTRUCTION_CLOSED)
        found = []
        for kind in (rules.Act.INSTRUCTION_CLOSED, rules.Act.REPORT):
            reason = self.refusal(kind)
            if reason and reason not in settled:
                found.append((labels.ACT_LABELS[kind], reason))
        return found

    @property
    def effects_refusal(self) -> str:
        return rules.effects_refusal(self.records, self.policy, today=self.today, ends=self.ends)

    @property
    def forwarding_note(self) -> str:
        """The appeal went to the superior by default (art. 56 §1º): what the case page says, else ''."""
        return appeals.forwarding_note(self.records, self.policy, today=self.today, ends=self.ends)

    @property
    def late_appeal_warning(self) -> str:
        """An appeal filed now would be late (arts. 48, 63 I): what the candidate's page says first, else ''."""
        return rules.late_appeal_warning(self.records, self.policy, today=self.today, ends=self.ends)

    @property
    def next_deadline(self) -> RunningDeadline | None:
        pending = [r for r in self.running if not r.done]
        return min(pending, key=lambda r: r.deadline.last_day) if pending else None

    def running_for(self, period: rules.Period) -> RunningDeadline | None:
        return next((r for r in self.running if r.start.period is period), None)

    @property
    def art54_warning(self) -> str:
        registration = self.procedure.registration
        day = registration.registered_on
        return notices.art54_warning(day, self.today) if day else ""

    @property
    def pending_notices(self) -> list[ProcedureAct]:
        """Notices still awaiting their effect (acknowledgement, receipt, publication), of any kind, for an
        act not yet notified: one per means tried, the latest last."""
        return [self.acts[i] for i in notices.awaiting_notices(self.records)]

    @property
    def pending_notice(self) -> ProcedureAct | None:
        """The latest notice still awaiting its effect."""
        pending = self.pending_notices
        return pending[-1] if pending else None


def case_acts(procedure: Procedure) -> tuple[ProcedureAct, ...]:
    return tuple(
        procedure.acts.select_related("by")
        .prefetch_related(Prefetch("attachments", queryset=Attachment.objects.order_by("pk")))
        .order_by("recorded_at", "pk")
    )


def case_state(
    procedure: Procedure,
    *,
    today: datetime.date,
    acts: tuple[ProcedureAct, ...] | None = None,
    calendar: deadlines.Calendar | None = None,
) -> CaseState:
    """The case as of ``today``; ``calendar`` (the organisation's, covering the deadlines' years) is read
    from the database when not given."""
    acts = case_acts(procedure) if acts is None else acts
    records = tuple(act.record() for act in acts)
    policy = procedure.policy
    periods = rules.running_periods(records, policy)
    running = []
    if periods:
        years = {s.start.year for s in periods.values()}
        if calendar is None:
            calendar = organization_calendar(sorted(years | {y + 1 for y in years}))
        for start in periods.values():
            running.append(_running(start, records, calendar, today))
        # Forwarded to the superior by default (art. 56 §1º): its period runs from the forwarding (art. 59 §1º).
        ends = {r.start.period: r.deadline.last_day for r in running}
        forwarded = appeals.superior_start_by_default(records, policy, ends=ends)
        if forwarded is not None and forwarded.period not in periods:
            if forwarded.start.year + 1 not in years:
                calendar = organization_calendar(
                    sorted(years | {forwarded.start.year, forwarded.start.year + 1})
                )
            running.append(_running(forwarded, records, calendar, today))
    return CaseState(procedure, acts, records, tuple(running), today)


def _running(
    start: rules.PeriodStart,
    records: tuple[rules.ActRecord, ...],
    calendar: deadlines.Calendar,
    today: datetime.date,
) -> RunningDeadline:
    found = deadlines.deadline(start.start, start.amount, deadlines.Unit(start.unit), calendar)
    return RunningDeadline(start, found, found.days_left(today), rules.period_done(start, records))


def procedures_for_desk() -> QuerySet[Procedure]:
    """Every procedure with what its list shows (the next deadline is computed per case when read)."""
    return Procedure.objects.select_related(
        "registration__candidate", "registration__contest", "registration__position"
    )


def _states(procedures: list[Procedure], *, today: datetime.date) -> list[CaseState]:
    """The states of ``procedures`` as of ``today``: their acts in one query, the calendar in one read."""
    acts_by_case: dict[int, list[ProcedureAct]] = {p.pk: [] for p in procedures}
    for act in ProcedureAct.objects.filter(procedure__in=procedures).order_by("recorded_at", "pk"):
        acts_by_case[act.procedure_id].append(act)
    years = {p.opened_on.year for p in procedures} | {today.year}
    calendar = organization_calendar(range(min(years) - 1, max(years) + 2))  # one read for the whole desk
    return [case_state(p, today=today, acts=tuple(acts_by_case[p.pk]), calendar=calendar) for p in procedures]


def desk_rows(*, today: datetime.date) -> list[CaseState]:
    """Open procedures by next deadline: overdue first, then by days left; those without one last."""
    procedures = list(
        procedures_for_desk().exclude(status=Procedure.Status.CLOSED).order_by("year", "number")
    )
    states = _states(procedures, today=today)

    def key(state: CaseState) -> tuple[int, int]:
        nxt = state.next_deadline
        return (0, nxt.days_left) if nxt is not None else (1, 0)

    return sorted(states, key=key)


def closed_procedures() -> QuerySet[Procedure]:
    """The procedures closed by a final decision, the latest first: where a revision (Lei 9.784 art. 65, at
    any time) or an annulment (art. 53) is recorded."""
    return procedures_for_desk().filter(status=Procedure.Status.CLOSED).order_by("-year", "-number")


def effects_waiting(*, today: datetime.date) -> list[CaseState]:
    """The procedures whose decision of falsity allows its effects now (final, or from the first decision
    where the policy says so) but whose effects were not applied: the elimination and its public act wait
    for Jurídico. A fixed number of queries whatever their number."""
    procedures = list(
        procedures_for_desk()
        .filter(outcome=rules.Outcome.FALSITY, effects_applied_on__isnull=True)
        .order_by("year", "number")
    )
    if not procedures:
        return []
    return [s for s in _states(procedures, today=today) if not s.effects_refusal]


# A case's rows, for the screens (each scoped to its case: an id of another case is a 404) ----------------


def case_acts_of(procedure: Procedure) -> QuerySet[ProcedureAct]:
    """The acts of ``procedure`` with their published document (to serve one of them)."""
    return ProcedureAct.objects.filter(procedure=procedure).select_related("procedure", "document")


def case_attachments(procedure: Procedure, *, for_candidate: bool = False) -> QuerySet[Attachment]:
    """The files joined to ``procedure``'s acts; the candidate never gets third parties' protected data
    (Lei 9.784 art. 46)."""
    attachments = Attachment.objects.filter(act__procedure=procedure)
    return attachments.filter(protected=False) if for_candidate else attachments


def case_receipts(procedure: Procedure) -> QuerySet[FilingReceipt]:
    """The protocol receipts of ``procedure``'s filings, in number order."""
    return (
        FilingReceipt.objects.filter(act__procedure=procedure)
        .select_related("document", "act")
        .order_by("year", "number")
    )


def case_links(procedure: Procedure) -> QuerySet[ProcedureLink]:
    """The private links issued for ``procedure``, the latest first."""
    return procedure.links.order_by("-created_at")


def visible_acts(acts: Iterable[ProcedureAct]) -> list[tuple[ProcedureAct, list[Attachment]]]:
    """What the candidate's page shows of the file: every act (the complainant's identity is never on an
    act) with its attachments but the protected ones (read from the acts' prefetched attachments)."""
    return [(act, [a for a in act.attachments.all() if not a.protected]) for act in acts]


def registration_procedures(registration: Registration) -> QuerySet[Procedure]:
    """The procedures on ``registration``, in number order (its page shows their status)."""
    return registration.procedures.order_by("year", "number")


def person_other_procedures(registration: Registration) -> QuerySet[Procedure]:
    """The procedures on the candidate's other registrations (other positions or contests), by number."""
    return (
        Procedure.objects.filter(registration__candidate_id=registration.candidate_id)
        .exclude(registration=registration)
        .select_related("registration__contest", "registration__position")
        .order_by("year", "number")
    )
