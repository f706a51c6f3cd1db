"""The procedure on a false self-declaration: which act may come next, why another is refused, and which
deadline each act starts (RULES §5; Lei 9.784/1999 where the municipality has no procedure law of its own,
STJ Súmula 633).

PURE module: no Django, no project import but the pure ``contests.calendar``; the caller passes the dates
in (``today``) and the last day of each running deadline (computed by ``declarations.deadlines`` with the
organisation's calendar from the ``PeriodStart`` values this module returns). The flow:

    opening ─► notice ─► [defence] [evidence] [hearing]… ─► instruction closed ─► [final statement]
      ─► report ─► decision ─► decision notice ─► appeal ─► reconsideration ─┬► (reversed) decision notice
                                    ▲                                        └► superior decision ─┐
                                    └────────────────── decision notice ◄──────────────────────────┘
      … ─► final (no appeal in time, or no instance left)

An act's date (``ActRecord.on``) is the day it happened; for a notice, the day it took effect (receipt,
acknowledgement, publication): ``None`` while it awaits it, and no deadline runs from it until then. The
acts' Portuguese labels and citations for the screens are in ``rules_labels``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from declarations.procedure import appeals  # its rules read this module's names only when called


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


# Acts the candidate (or their representative) files; the others are the administration's.
CANDIDATE_ACTS = frozenset(
    {Act.DEFENCE, Act.EVIDENCE, Act.FINAL_STATEMENT, Act.APPEAL, Act.APPEAL_ANSWER, Act.REVISION_REQUEST}
)
# Acts that decide the case (an instance's decision), and so carry an outcome.
DECIDING_ACTS = frozenset({Act.DECISION, Act.RECONSIDERATION, Act.SUPERIOR_DECISION, Act.APPEAL_REVIEW})
NOTICES = frozenset({Act.NOTICE, Act.DECISION_NOTICE, Act.AFTER_FINAL_NOTICE, Act.CLOSING_NOTICE}) | {
    Act.HEARING_NOTICE,
    Act.APPEAL_NOTICE,
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


PERIOD_LABELS: Mapping[Period, str] = {
    Period.DEFENCE: "Prazo de defesa",
    Period.FINAL_STATEMENT: "Prazo de alegações finais",
    Period.DECISION: "Prazo para decidir",
    Period.APPEAL: "Prazo de recurso",
    Period.APPEAL_ANSWER: "Prazo de alegações sobre o recurso",
    Period.RECONSIDERATION: "Prazo para reconsiderar",
    Period.SUPERIOR_DECISION: "Prazo para julgar o recurso",
}

PERIOD_CITATIONS: Mapping[Period, str] = {
    Period.DEFENCE: "prazo da política; Lei 9.784 art. 24",
    Period.FINAL_STATEMENT: "Lei 9.784 art. 44",
    Period.DECISION: "Lei 9.784 art. 49",
    Period.APPEAL: "Lei 9.784 art. 59",
    Period.APPEAL_ANSWER: "Lei 9.784 art. 62",
    Period.RECONSIDERATION: "Lei 9.784 art. 56 §1º",
    Period.SUPERIOR_DECISION: "Lei 9.784 art. 59 §§1º–2º",
}

# Whose duty: the candidate's (a filing after it is late) or the administration's (a decision is overdue).
CANDIDATE_PERIODS = frozenset({Period.DEFENCE, Period.FINAL_STATEMENT, Period.APPEAL, Period.APPEAL_ANSWER})
BUSINESS_DAY_PERIODS = frozenset({Period.APPEAL_ANSWER})


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
}


def period_done(start: PeriodStart, acts: Sequence[ActRecord]) -> bool:
    """Whether the act the period awaited was recorded after the act that started it."""
    return is_final(acts) or any(a.kind in PERIOD_DONE_BY[start.period] for a in acts[start.act_index + 1 :])


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


def _appeal_pending(acts: Sequence[ActRecord]) -> bool:
    """An appeal against the latest notified decision, not declared "não conhecido" (art. 63)."""
    return appeals.live_appeal(acts) is not None


def _fmt(day: datetime.date) -> str:
    return f"{day:%d/%m/%Y}"


# Refusals -------------------------------------------------------------------------------------------------

CLOSED = (
    "O processo está encerrado por decisão definitiva: depois dela só cabem a revisão (Lei 9.784 art. 65), "
    "a anulação de ato ilegal (art. 53) e a intimação delas."
)
ONLY_AFTER_FINAL = (
    "A revisão (Lei 9.784 art. 65) e a anulação (art. 53) cabem depois da decisão definitiva; antes dela, a "
    "decisão muda por reconsideração ou recurso."
)
OPENING_FIRST = "O processo começa pela instauração: registre-a antes de qualquer outro ato."
OPENED_ONCE = "O processo já foi instaurado; a instauração é o primeiro ato e não se repete."
NOTICE_DONE = "O candidato já foi intimado para a defesa (Lei 9.784 art. 26)."
NEEDS_NOTICE = (
    "O candidato ainda não foi intimado (ou a intimação ainda não produziu efeito): nenhum prazo corre e "
    "nenhuma fase de defesa ou instrução começa antes da intimação (Lei 9.784 arts. 26 e 28)."
)
INSTRUCTION_OVER = (
    "A instrução já foi encerrada; provas e audiências só antes do encerramento (Lei 9.784 art. 44)."
)
DEFENCE_ONCE = (
    "A defesa já foi apresentada; novos elementos entram como prova até o encerramento da instrução."
)
DEFENCE_PENDING = (
    "A defesa ainda não foi apresentada e o prazo de defesa só termina em {day}: não se encerra a instrução "
    "nem se decide antes (contraditório e ampla defesa, CF art. 5º LV; Lei 9.784 art. 3º III)."
)
NEEDS_INSTRUCTION_CLOSED = (
    "Encerre a instrução antes: as alegações finais e o relatório vêm depois dela (art. 44)."
)
FINAL_STATEMENT_ONCE = "As alegações finais já foram apresentadas."
CLOSING_NOT_NOTIFIED = (
    "O encerramento da instrução ainda não foi intimado ao candidato (ou a intimação ainda não produziu "
    "efeito): o prazo de alegações finais só corre da intimação (Lei 9.784 arts. 26 e 44), e o relatório "
    "espera por ele."
)
CLOSING_NOTICE_DONE = (
    "O candidato já foi intimado do encerramento da instrução ou já apresentou alegações finais (Lei 9.784 "
    "arts. 26 §5º e 44)."
)
NOTHING_FOR_HEARING_NOTICE = (
    "Não há audiência nem diligência designada a intimar: designe-a antes, com data, hora e local (Lei 9.784 "
    "art. 41)."
)
HEARING_NOTICE_DONE = "O candidato já foi intimado da audiência ou diligência designada (Lei 9.784 art. 41)."
FINAL_STATEMENT_PENDING = (
    "O prazo de alegações finais só termina em {day} e o candidato ainda não se manifestou: o relatório "
    "espera (Lei 9.784 art. 44)."
)
REPORT_ONCE = "O relatório com a proposta de decisão já foi juntado."
NEEDS_REPORT = "A decisão vem depois do relatório com a proposta de decisão (Lei 9.784 art. 47)."
DECIDED_ONCE = (
    "O processo já foi decidido em primeira instância; a decisão muda só por reconsideração ou recurso."
)
EXTENSION_ONCE = "O prazo para decidir já foi prorrogado uma vez; a lei admite uma só prorrogação (art. 49)."
EXTENSION_NOTHING_PENDING = "Não há decisão pendente cujo prazo possa ser prorrogado."
EXTENSION_NEEDS_REASONS = "A prorrogação do prazo para decidir exige motivação expressa (Lei 9.784 art. 49)."
NOTHING_TO_NOTIFY = "Não há decisão a intimar: a intimação da decisão segue uma decisão ainda não comunicada."
NOTICE_PENDING = "A intimação da decisão ainda não produziu efeito (ciência, recebimento ou publicação)."
NO_DECISION_TO_APPEAL = "Não há decisão intimada contra a qual recorrer."
APPEAL_ONCE = "Já há recurso contra esta decisão."
NO_INSTANCE_LEFT = (
    "O processo já passou pelas {n} instâncias administrativas admitidas (Lei 9.784 art. 57): não cabe novo "
    "recurso."
)
NO_APPEAL_TO_RECONSIDER = "Não há recurso aguardando o juízo de reconsideração (Lei 9.784 art. 56 §1º)."
NEEDS_OUTCOME = (
    "Uma decisão diz o resultado: improcedente ou falsidade confirmada, com a motivação (art. 50)."
)
NO_OUTCOME = "Só as decisões têm resultado."
FINAL_NEEDS_DECISION = "Só uma decisão intimada ao candidato pode tornar-se definitiva."
FINAL_APPEAL_PENDING = "Há recurso pendente de julgamento: a decisão ainda não é definitiva."
FINAL_APPEAL_OPEN = "O prazo de recurso termina em {day}: a decisão só se torna definitiva depois dele, se não houver recurso."
LATE_FILING = (
    "Prazo encerrado: o {period} terminou em {day} (às 23:59:59 do último dia, Lei 9.784 art. 66). A "
    "manifestação não foi recebida."
)


def refusal(
    kind: Act,
    acts: Sequence[ActRecord],
    policy: Policy,
    *,
    today: datetime.date,
    ends: Mapping[Period, datetime.date],
    outcome: Outcome | None = None,
    has_reasons: bool = True,
) -> str:
    """Why ``kind`` may not be recorded next (Portuguese), or '' when it may.

    ``acts`` are the recorded acts in order; ``ends`` the last day of each running period (from
    ``running_periods`` through ``declarations.deadlines``); ``today`` the day of the new act;
    ``outcome`` the new act's outcome when it decides. What holds for every act is checked here, in this
    order: a closed case, the opening first, an outcome only on a decision, the notice before anything
    else; then the act's own rule (``ACT_RULES``).
    """
    if is_final(acts):
        return finality.refusal_after_final(kind, acts, today=today, outcome=outcome, has_reasons=has_reasons)
    if kind in finality.AFTER_FINAL_ACTS:
        return ONLY_AFTER_FINAL
    if kind is Act.OPENING:
        return OPENED_ONCE if acts else ""
    if not acts:
        return OPENING_FIRST
    if kind in DECIDING_ACTS and outcome is None:
        return NEEDS_OUTCOME
    if kind not in DECIDING_ACTS and outcome is not None:
        return NO_OUTCOME
    if kind is Act.NOTICE:
        return NOTICE_DONE if effective_notice(acts) else ""
    if not effective_notice(acts):
        return NEEDS_NOTICE
    return ACT_RULES[kind](Case(acts, policy, today, ends, has_reasons, outcome))


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


# Each act's own rule, once the notice took effect (art. 26) ---------------------------------------------


def _defence(case: Case) -> str:
    if Act.DEFENCE in case.kinds:
        return DEFENCE_ONCE
    if case.instruction_closed:
        return INSTRUCTION_OVER
    return case.late(Period.DEFENCE)


def _instruction_act(case: Case) -> str:
    """Evidence and hearings: only before the instruction is closed (art. 44)."""
    return INSTRUCTION_OVER if case.instruction_closed else ""


def _instruction_closing(case: Case) -> str:
    return INSTRUCTION_OVER if case.instruction_closed else case.defence_pending


def _final_statement(case: Case) -> str:
    if not case.instruction_closed:
        return NEEDS_INSTRUCTION_CLOSED
    if Act.FINAL_STATEMENT in case.kinds:
        return FINAL_STATEMENT_ONCE
    return case.late(Period.FINAL_STATEMENT)


def _report(case: Case) -> str:
    if Act.REPORT in case.kinds:
        return REPORT_ONCE
    if not case.instruction_closed:
        return NEEDS_INSTRUCTION_CLOSED
    if Act.FINAL_STATEMENT not in case.kinds and not notice_in_effect(Act.CLOSING_NOTICE, case.acts):
        return CLOSING_NOT_NOTIFIED
    end = case.ends.get(Period.FINAL_STATEMENT)
    if Act.FINAL_STATEMENT not in case.kinds and end is not None and case.today <= end:
        return FINAL_STATEMENT_PENDING.format(day=_fmt(end))
    return ""


def _decision(case: Case) -> str:
    if Act.DECISION in case.kinds:
        return DECIDED_ONCE
    return case.defence_pending or ("" if Act.REPORT in case.kinds else NEEDS_REPORT)


def _decision_extension(case: Case) -> str:
    """Once per awaited decision (art. 49): the first instance's, counted from the instruction's closing;
    a superior's, from the reconsideration that forwarded the appeal."""
    if not case.has_reasons:
        return EXTENSION_NEEDS_REASONS
    if _instance(case.acts) == 0:
        since = case.kinds.index(Act.INSTRUCTION_CLOSED) if case.instruction_closed else None
    else:
        since = appeals.awaiting_superior(case.acts)
    if since is None:
        since = appeals.forwarded_by_default(case)
    if since is None:
        return EXTENSION_NOTHING_PENDING
    if Act.DECISION_EXTENSION in case.kinds[since:]:
        return EXTENSION_ONCE
    return appeals.extension_late(case)


def _closing_notice(case: Case) -> str:
    """The closing of the instruction is notified once it is recorded (art. 44 counts from the notice)."""
    if not case.instruction_closed:
        return NEEDS_INSTRUCTION_CLOSED
    if notice_in_effect(Act.CLOSING_NOTICE, case.acts) or {Act.FINAL_STATEMENT, Act.REPORT} & set(case.kinds):
        return CLOSING_NOTICE_DONE
    return ""


def _hearing_notice(case: Case) -> str:
    """The hearing or diligence designated last is notified (art. 41), before the instruction closes."""
    if case.instruction_closed:
        return INSTRUCTION_OVER
    if notified_index(Act.HEARING_NOTICE, case.acts) < 0:
        return NOTHING_FOR_HEARING_NOTICE
    return HEARING_NOTICE_DONE if notice_in_effect(Act.HEARING_NOTICE, case.acts) else ""


def _decision_notice(case: Case) -> str:
    return "" if _decision_pending_notice(case.acts) else NOTHING_TO_NOTIFY


def _appeal(case: Case) -> str:
    acts, instances = case.acts, case.policy.appeal_instances
    if _notified_decision(acts) is None:
        last_notice = _last(acts, Act.DECISION_NOTICE)
        waiting = last_notice is not None and last_notice[1].on is None and _instance(acts) >= 1
        return NOTICE_PENDING if waiting else NO_DECISION_TO_APPEAL
    if _appeal_pending(acts):
        return APPEAL_ONCE
    if _instance(acts) >= instances:
        return NO_INSTANCE_LEFT.format(n=instances)
    return ""  # a late appeal is recorded, then declared "não conhecido" (arts. 48, 63 I)


def _final(case: Case) -> str:
    return final_refusal(case.acts, case.policy, today=case.today, ends=case.ends)


# The own rule of every act but the opening and the notice for the defence (``refusal`` decides those).
ACT_RULES: Mapping[Act, Callable[[Case], str]] = {
    Act.DEFENCE: _defence,
    Act.EVIDENCE: _instruction_act,
    Act.HEARING: _instruction_act,
    Act.DILIGENCE: _instruction_act,
    Act.HEARING_NOTICE: _hearing_notice,
    Act.CLOSING_NOTICE: _closing_notice,
    Act.INSTRUCTION_CLOSED: _instruction_closing,
    Act.FINAL_STATEMENT: _final_statement,
    Act.REPORT: _report,
    Act.DECISION: _decision,
    Act.DECISION_EXTENSION: _decision_extension,
    Act.DECISION_NOTICE: _decision_notice,
    Act.APPEAL: _appeal,
    Act.APPEAL_NOTICE: lambda case: appeals.appeal_notice_refusal(case),
    Act.APPEAL_ANSWER: lambda case: appeals.answer_refusal(case),
    Act.APPEAL_NOT_HEARD: lambda case: appeals.not_heard_refusal(case),
    Act.RECONSIDERATION: lambda case: appeals.reconsideration_refusal(case),
    Act.SUPERIOR_DECISION: lambda case: appeals.superior_refusal(case),
    Act.APPEAL_REVIEW: lambda case: appeals.review_refusal(case),
    Act.FINAL: _final,
}


def final_refusal(
    acts: Sequence[ActRecord], policy: Policy, *, today: datetime.date, ends: Mapping[Period, datetime.date]
) -> str:
    """Why the latest decision is not yet final (Portuguese), or ''.

    Final when its notice took effect and either no appeal was filed within the period or no instance is
    left (art. 57); an appeal pending judgement keeps it open.
    """
    if _notified_decision(acts) is None or _decision_pending_notice(acts):
        return FINAL_NEEDS_DECISION
    if _appeal_pending(acts):
        return FINAL_APPEAL_PENDING
    if _instance(acts) >= policy.appeal_instances:
        return ""
    appeal_end = ends.get(Period.APPEAL)
    if appeal_end is not None and today <= appeal_end:
        return FINAL_APPEAL_OPEN.format(day=_fmt(appeal_end))
    return ""


def allowed(
    acts: Sequence[ActRecord], policy: Policy, *, today: datetime.date, ends: Mapping[Period, datetime.date]
) -> tuple[Act, ...]:
    """Every act that may be recorded next, in the order of the procedure (for the screens' buttons)."""
    found = []
    for kind in Act:
        # A deciding act is offered with the outcome in force (art. 64 sole paragraph), else falsity.
        outcome = (current_outcome(acts) or Outcome.FALSITY) if kind in DECIDING_ACTS else None
        if kind is Act.REVISION:
            outcome = Outcome.DISMISSED  # a revision can only lighten (art. 65 sole paragraph)
        if not refusal(kind, acts, policy, today=today, ends=ends, outcome=outcome):
            found.append(kind)
    return tuple(found)


# Effects (art. 61) ----------------------------------------------------------------------------------------

NO_FALSITY = "A decisão vigente não confirma a falsidade: não há efeito a aplicar."
EFFECTS_WAIT_FINAL = (
    "Os efeitos da falsidade só se aplicam quando a decisão se torna definitiva (a política segue SM art. 3º "
    "§3º e AR art. 2º: após o procedimento). {reason}"
)
EFFECTS_NEED_NOTICE = "A decisão precisa ser intimada ao candidato antes de produzir efeitos."


def effects_refusal(
    acts: Sequence[ActRecord], policy: Policy, *, today: datetime.date, ends: Mapping[Period, datetime.date]
) -> str:
    """Why the effects of falsity (elimination, annulment of the nomination) may not apply now, or ''.

    They apply when the decision of falsity is final; a policy may apply them from the first decision,
    an appeal having no suspensive effect unless granted (Lei 9.784 art. 61).
    """
    if current_outcome(acts) is not Outcome.FALSITY:
        return NO_FALSITY
    if is_final(acts):
        return ""
    if policy.effects_from_first_decision:
        return "" if _notified_decision(acts) is not None else EFFECTS_NEED_NOTICE
    reason = final_refusal(acts, policy, today=today, ends=ends)
    if not reason:
        reason = "Registre a decisão definitiva."
    return EFFECTS_WAIT_FINAL.format(reason=reason)


def effects_undo_due(acts: Sequence[ActRecord], *, effects_applied: bool) -> bool:
    """Whether effects applied earlier (from the first decision, art. 61, or on the final decision) must be
    undone now: the latest deciding act (reconsideration, art. 56 §1º, the superior's decision, art. 64, or
    after finality a revision, art. 65, or an annulment, art. 53) no longer confirms falsity."""
    return effects_applied and bool(acts) and current_outcome(acts) is not Outcome.FALSITY


# The acts after finality have their own module, which reads this one: imported last, once every name it
# reads here is defined.
from declarations.procedure import finality  # noqa: E402
