"""The vocabulary of the procedure on a false self-declaration (RULES §5; Lei 9.784/1999): the acts, their
outcomes, the periods they start and when each ends, the policy's parameters, the record of an act as the
state machine reads it, and ``Case`` (what an act's own rule reads). ``rules`` (which act may come next),
``appeals`` (the appeal's own rules) and ``finality`` (the acts after a final decision) read these names; this
module reads none of theirs, so the pure modules import one way: ``acts`` ◄ ``appeals``/``finality`` ◄
``rules``.

PURE module: no Django, no project import.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum


class Act(StrEnum):
    OPENING = "opening"
    NOTICE = "notice"
    DEFENCE = "defence"
    EVIDENCE = "evidence"
    HEARING = "hearing"
    INSTRUCTION_CLOSED = "instruction_closed"
    FINAL_STATEMENT = "final_statement"
    REPORT = "report"
    DECISION = "decision"
    DECISION_EXTENSION = "decision_extension"
    DECISION_NOTICE = "decision_notice"
    APPEAL = "appeal"
    APPEAL_NOTICE = "appeal_notice"  # the candidate notified of a third party's appeal (art. 62)
    APPEAL_ANSWER = "appeal_answer"  # the candidate's answer to it (art. 62)
    APPEAL_NOT_HEARD = "appeal_not_heard"  # the appeal declared "não conhecido" (arts. 48, 63)
    RECONSIDERATION = "reconsideration"
    SUPERIOR_DECISION = "superior_decision"
    APPEAL_REVIEW = "appeal_review"  # ex officio review after an appeal not heard (art. 63 §2º)
    FINAL = "final"
    # After finality (``finality``): revision (art. 65), annulment (art. 53) and their notice.
    REVISION_REQUEST = "revision_request"
    REVISION = "revision"
    ANNULMENT = "annulment"
    AFTER_FINAL_NOTICE = "after_final_notice"
    # The closing's notice (art. 44), a diligence ordered by the authority and its notice (arts. 29, 41).
    CLOSING_NOTICE = "closing_notice"
    DILIGENCE = "diligence"
    HEARING_NOTICE = "hearing_notice"
    # Before an annulment that would worsen the candidate's situation (STF RE 594.296, Tema 138; CF art. 5º
    # LV): the notice of the intended annulment and the candidate's answer (``finality``).
    ANNULMENT_NOTICE = "annulment_notice"
    ANNULMENT_ANSWER = "annulment_answer"


# Acts the candidate (or their representative) files; the others are the administration's.
CANDIDATE_ACTS = frozenset(
    {
        Act.DEFENCE,
        Act.EVIDENCE,
        Act.FINAL_STATEMENT,
        Act.APPEAL,
        Act.APPEAL_ANSWER,
        Act.REVISION_REQUEST,
        Act.ANNULMENT_ANSWER,
    }
)
# Acts that decide the case (an instance's decision), and so carry an outcome.
DECIDING_ACTS = frozenset({Act.DECISION, Act.RECONSIDERATION, Act.SUPERIOR_DECISION, Act.APPEAL_REVIEW})
NOTICES = frozenset({Act.NOTICE, Act.DECISION_NOTICE, Act.AFTER_FINAL_NOTICE, Act.CLOSING_NOTICE}) | {
    Act.HEARING_NOTICE,
    Act.APPEAL_NOTICE,
    Act.ANNULMENT_NOTICE,
}
# Acts after finality that change the decision in force (``finality``): a revision, an annulment.
AFTER_FINAL_DECIDING = frozenset({Act.REVISION, Act.ANNULMENT})
# Acts that produce a document of their own (opening act, notices, decisions, the final certificate).
DOCUMENTED_ACTS = frozenset(
    {Act.OPENING, *NOTICES, *DECIDING_ACTS, Act.APPEAL_NOT_HEARD, Act.FINAL, *AFTER_FINAL_DECIDING}
)


class Outcome(StrEnum):
    DISMISSED = "dismissed"
    FALSITY = "falsity"


class Period(StrEnum):
    DEFENCE = "defence"
    FINAL_STATEMENT = "final_statement"
    DECISION = "decision"
    APPEAL = "appeal"
    APPEAL_ANSWER = "appeal_answer"
    RECONSIDERATION = "reconsideration"
    SUPERIOR_DECISION = "superior_decision"
    ANNULMENT_ANSWER = "annulment_answer"


PERIOD_LABELS: Mapping[Period, str] = {
    Period.DEFENCE: "Prazo de defesa",
    Period.FINAL_STATEMENT: "Prazo de alegações finais",
    Period.DECISION: "Prazo para decidir",
    Period.APPEAL: "Prazo de recurso",
    Period.APPEAL_ANSWER: "Prazo de alegações sobre o recurso",
    Period.RECONSIDERATION: "Prazo para reconsiderar",
    Period.SUPERIOR_DECISION: "Prazo para julgar o recurso",
    Period.ANNULMENT_ANSWER: "Prazo de alegações sobre a anulação pretendida",
}

PERIOD_CITATIONS: Mapping[Period, str] = {
    Period.DEFENCE: "prazo da política; Lei 9.784 art. 24",
    Period.FINAL_STATEMENT: "Lei 9.784 art. 44",
    Period.DECISION: "Lei 9.784 art. 49",
    Period.APPEAL: "Lei 9.784 art. 59",
    Period.APPEAL_ANSWER: "Lei 9.784 art. 62",
    Period.RECONSIDERATION: "Lei 9.784 art. 56 §1º",
    Period.SUPERIOR_DECISION: "Lei 9.784 art. 59 §§1º–2º",
    Period.ANNULMENT_ANSWER: "CF art. 5º LV; Lei 9.784 arts. 53 e 62; STF Tema 138",
}

# Whose duty: the candidate's (a filing after it is late) or the administration's (a decision is overdue).
CANDIDATE_PERIODS = frozenset(
    {Period.DEFENCE, Period.FINAL_STATEMENT, Period.APPEAL, Period.APPEAL_ANSWER, Period.ANNULMENT_ANSWER}
)
BUSINESS_DAY_PERIODS = frozenset({Period.APPEAL_ANSWER, Period.ANNULMENT_ANSWER})
# The periods that run after a final decision (the finality closes every other one).
AFTER_FINAL_PERIODS = frozenset({Period.ANNULMENT_ANSWER})


def period_unit(period: Period) -> str:
    """``period``'s unit (a ``deadlines.Unit`` value): business days where the law says so (art. 66 §2º)."""
    return "business-days" if period in BUSINESS_DAY_PERIODS else "days"


@dataclass(frozen=True)
class Policy:
    """The procedure's parameters, from the contest's legal policy (contests.models.Policy)."""

    defence_days: int = 10
    final_statement_days: int = 10
    decision_days: int = 30
    decision_extension_days: int = 30
    appeal_days: int = 10
    reconsideration_days: int = 5
    appeal_decision_days: int = 30
    hearing_notice_business_days: int = 3
    appeal_instances: int = 3
    effects_from_first_decision: bool = False
    electronic_notice_basis: str = ""
    tacit_acknowledgement_days: int | None = None
    appeal_answer_business_days: int = 5  # art. 62: the law's, not the policy's


@dataclass(frozen=True)
class ActRecord:
    """One recorded act, as the state machine needs it."""

    kind: Act
    on: datetime.date | None
    outcome: Outcome | None = None
    third_party: bool = False  # an appeal filed by someone other than the candidate (art. 58 II–IV)


@dataclass(frozen=True)
class PeriodStart:
    """A running deadline: ``amount`` days (``unit``) counted from ``start`` (Lei 9.784 art. 66)."""

    period: Period
    start: datetime.date
    amount: int
    unit: str = "days"  # declarations.deadlines.Unit value
    act_index: int = field(default=-1, compare=False)  # the act that started it, in the acts given

    @property
    def label(self) -> str:
        return PERIOD_LABELS[self.period]

    @property
    def citation(self) -> str:
        return PERIOD_CITATIONS[self.period]

    @property
    def candidate_files(self) -> bool:
        return self.period in CANDIDATE_PERIODS


# What each act starts; a notice starts its period only from the day it takes effect (art. 26).
STARTS: Mapping[Act, tuple[Period, ...]] = {
    Act.NOTICE: (Period.DEFENCE,),
    Act.INSTRUCTION_CLOSED: (Period.DECISION,),
    Act.CLOSING_NOTICE: (Period.FINAL_STATEMENT,),  # art. 44: ten days from the notice of the closing
    Act.DECISION_NOTICE: (Period.APPEAL,),
    Act.APPEAL: (Period.RECONSIDERATION,),
    Act.RECONSIDERATION: (Period.SUPERIOR_DECISION,),  # only when the decision is maintained
    Act.APPEAL_NOTICE: (Period.APPEAL_ANSWER,),
    Act.ANNULMENT_NOTICE: (Period.ANNULMENT_ANSWER,),  # art. 62's five business days, by analogy
}


def period_amount(period: Period, policy: Policy) -> int:
    return {
        Period.DEFENCE: policy.defence_days,
        Period.FINAL_STATEMENT: policy.final_statement_days,
        Period.DECISION: policy.decision_days,
        Period.APPEAL: policy.appeal_days,
        Period.APPEAL_ANSWER: policy.appeal_answer_business_days,
        Period.RECONSIDERATION: policy.reconsideration_days,
        Period.SUPERIOR_DECISION: policy.appeal_decision_days,
        Period.ANNULMENT_ANSWER: policy.appeal_answer_business_days,
    }[period]


def deadlines_started(act: ActRecord, acts: Sequence[ActRecord], policy: Policy) -> tuple[PeriodStart, ...]:
    """The deadlines ``act`` starts, given the acts before it (``acts``, in order, without ``act``).

    A notice starts its period on the day it takes effect (art. 26; art. 66: the first day is excluded);
    closing the instruction starts the decision (art. 49), its notice the final statement (art. 44); a decision's
    notice starts the appeal (art. 59); an appeal, the authority's reconsideration (art. 56 §1º); a
    reconsideration that maintains the decision forwards the appeal to the superior (art. 59 §1º).
    """
    if act.on is None:
        return ()
    periods = STARTS.get(act.kind, ())
    if act.kind is Act.RECONSIDERATION and act.outcome != current_outcome(acts):
        return ()  # reversed: a new decision of the same instance, to be notified
    return tuple(PeriodStart(p, act.on, period_amount(p, policy), period_unit(p), len(acts)) for p in periods)


def running_periods(acts: Sequence[ActRecord], policy: Policy) -> dict[Period, PeriodStart]:
    """The latest start of each period (an extension of the decision adds its days once, art. 49)."""
    found: dict[Period, PeriodStart] = {}
    for i, act in enumerate(acts):
        for start in deadlines_started(act, acts[:i], policy):
            found[start.period] = start
        if act.kind is Act.DECISION_EXTENSION:
            period = Period.SUPERIOR_DECISION if _instance(acts[:i]) >= 1 else Period.DECISION
            if period in found:
                base = found[period]
                found[period] = replace(base, amount=base.amount + policy.decision_extension_days)
    return found


# The acts that end the wait of each period (after them the deadline no longer binds anyone).
PERIOD_DONE_BY: Mapping[Period, frozenset[Act]] = {
    Period.DEFENCE: frozenset({Act.DEFENCE, Act.INSTRUCTION_CLOSED}),
    Period.FINAL_STATEMENT: frozenset({Act.FINAL_STATEMENT, Act.REPORT}),
    Period.DECISION: frozenset({Act.DECISION}),
    Period.APPEAL: frozenset({Act.APPEAL, Act.FINAL}),
    Period.APPEAL_ANSWER: frozenset({Act.APPEAL_ANSWER, Act.APPEAL_NOT_HEARD}),
    Period.RECONSIDERATION: frozenset({Act.RECONSIDERATION, Act.SUPERIOR_DECISION, Act.APPEAL_NOT_HEARD}),
    Period.SUPERIOR_DECISION: frozenset({Act.SUPERIOR_DECISION, Act.APPEAL_NOT_HEARD}),
    Period.ANNULMENT_ANSWER: frozenset({Act.ANNULMENT_ANSWER, Act.ANNULMENT}),
}


def period_done(start: PeriodStart, acts: Sequence[ActRecord]) -> bool:
    """Whether the act the period awaited was recorded after the act that started it (a final decision
    ends every period but those that run after it)."""
    closed = is_final(acts) and start.period not in AFTER_FINAL_PERIODS
    return closed or any(a.kind in PERIOD_DONE_BY[start.period] for a in acts[start.act_index + 1 :])


# The state ------------------------------------------------------------------------------------------------


def _kinds(acts: Sequence[ActRecord]) -> list[Act]:
    return [a.kind for a in acts]


def _last(acts: Sequence[ActRecord], *kinds: Act) -> tuple[int, ActRecord] | None:
    for i in range(len(acts) - 1, -1, -1):
        if acts[i].kind in kinds:
            return i, acts[i]
    return None


def _instance(acts: Sequence[ActRecord]) -> int:
    """The instance that decided last: 0 before the first decision, 1 after it, +1 per superior decision."""
    kinds = _kinds(acts)
    if Act.DECISION not in kinds:
        return 0
    return 1 + kinds.count(Act.SUPERIOR_DECISION)


def current_outcome(acts: Sequence[ActRecord]) -> Outcome | None:
    """The outcome of the latest deciding act (a reconsideration decides again, art. 56 §1º; after finality
    a revision, art. 65); None before any decision and after an annulment (art. 53: no decision in force)."""
    found = _last(acts, *DECIDING_ACTS, *AFTER_FINAL_DECIDING)
    return found[1].outcome if found else None


def effective_notice(acts: Sequence[ActRecord]) -> bool:
    return any(a.kind is Act.NOTICE and a.on is not None for a in acts)


# What each notice makes known (the latest of these acts); a kind not listed notifies the whole case.
NOTIFIES: Mapping[Act, frozenset[Act]] = {
    Act.NOTICE: frozenset({Act.OPENING}),
    Act.DECISION_NOTICE: DECIDING_ACTS,
    Act.AFTER_FINAL_NOTICE: AFTER_FINAL_DECIDING,
    Act.CLOSING_NOTICE: frozenset({Act.INSTRUCTION_CLOSED}),
    Act.HEARING_NOTICE: frozenset({Act.HEARING, Act.DILIGENCE}),
    Act.APPEAL_NOTICE: frozenset({Act.APPEAL}),
    # The intended annulment's notice makes known the decision in force it would annul (``finality``).
    Act.ANNULMENT_NOTICE: DECIDING_ACTS | {Act.REVISION},
}


def notified_index(kind: Act, acts: Sequence[ActRecord]) -> int:
    """The index in ``acts`` of the act a notice of ``kind`` makes known (the latest of NOTIFIES), or -1."""
    found = _last(acts, *NOTIFIES.get(kind, frozenset()))
    return found[0] if found else -1


def notice_in_effect(kind: Act, acts: Sequence[ActRecord]) -> bool:
    """Whether a notice of ``kind`` already took effect (for the defence, of the latest decision, of the act
    it makes known): the first to take effect counts, so acknowledging another one afterwards changes
    nothing (art. 26)."""
    if kind is Act.NOTICE:
        return effective_notice(acts)
    if kind is Act.DECISION_NOTICE:
        return _notified_decision(acts) is not None
    since = notified_index(kind, acts)
    return any(a.kind is kind and a.on is not None for a in acts[since + 1 :])


def is_final(acts: Sequence[ActRecord]) -> bool:
    """Whether a final decision was recorded: the flow is closed, only acts after finality follow."""
    return any(a.kind is Act.FINAL for a in acts)


def _decision_pending_notice(acts: Sequence[ActRecord]) -> bool:
    """A deciding act (that changed or set the outcome) has no notice after it yet."""
    deciding = _last(acts, *DECIDING_ACTS)
    if deciding is None:
        return False
    i, act = deciding
    if act.kind is Act.RECONSIDERATION and act.outcome == current_outcome(acts[:i]):
        return False  # maintained: forwarded to the superior, nothing to notify yet
    # A notice still awaiting its effect does not count: another means may be tried (art. 26 §§3º–4º).
    return not any(a.kind is Act.DECISION_NOTICE and a.on is not None for a in acts[i + 1 :])


def _notified_decision(acts: Sequence[ActRecord]) -> ActRecord | None:
    """The notice (effective) of the latest decision, when it has one."""
    deciding = _last(acts, *DECIDING_ACTS)
    if deciding is None:
        return None
    # The first notice to take effect counts (a later one by another means changes nothing).
    return next(
        (a for a in acts[deciding[0] + 1 :] if a.kind is Act.DECISION_NOTICE and a.on is not None), None
    )


def _fmt(day: datetime.date) -> str:
    return f"{day:%d/%m/%Y}"


# Messages the rules of every module share ----------------------------------------------------------------

CLOSED = (
    "O processo está encerrado por decisão definitiva: depois dela só cabem a revisão (Lei 9.784 art. 65), "
    "a anulação de ato ilegal (art. 53) e a intimação delas."
)
DEFENCE_PENDING = (
    "A defesa ainda não foi apresentada e o prazo de defesa só termina em {day}: não se encerra a instrução "
    "nem se decide antes (contraditório e ampla defesa, CF art. 5º LV; Lei 9.784 art. 3º III)."
)
NO_APPEAL_TO_RECONSIDER = "Não há recurso aguardando o juízo de reconsideração (Lei 9.784 art. 56 §1º)."
NEEDS_OUTCOME = (
    "Uma decisão diz o resultado: improcedente ou falsidade confirmada, com a motivação (art. 50)."
)
LATE_FILING = (
    "Prazo encerrado: o {period} terminou em {day} (às 23:59:59 do último dia, Lei 9.784 art. 66). A "
    "manifestação não foi recebida."
)


@dataclass(frozen=True)
class Case:
    """What an act's own rule reads: the acts so far, the policy, the day and the running periods' ends."""

    acts: Sequence[ActRecord]
    policy: Policy
    today: datetime.date
    ends: Mapping[Period, datetime.date]
    has_reasons: bool = True
    outcome: Outcome | None = None  # the new act's, when it decides

    @property
    def kinds(self) -> list[Act]:
        return _kinds(self.acts)

    @property
    def instruction_closed(self) -> bool:
        return Act.INSTRUCTION_CLOSED in self.kinds

    def late(self, period: Period) -> str:
        """LATE_FILING when the candidate's ``period`` ended before today (art. 66), else ''."""
        last_day = self.ends.get(period)
        if last_day is not None and self.today > last_day:
            return LATE_FILING.format(period=PERIOD_LABELS[period].lower(), day=_fmt(last_day))
        return ""

    @property
    def defence_pending(self) -> str:
        """DEFENCE_PENDING while the defence is neither filed nor out of time (CF art. 5º LV), else ''."""
        end = self.ends.get(Period.DEFENCE)
        if Act.DEFENCE in self.kinds or (end is not None and self.today > end):
            return ""
        return DEFENCE_PENDING.format(day=_fmt(end) if end else "?")
