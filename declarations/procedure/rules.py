"""The procedure on a false self-declaration: which act may come next, why another is refused, and which
deadline each act starts (RULES §5; Lei 9.784/1999 where the municipality has no procedure law of its own,
STJ Súmula 633).

PURE module: no Django, no project import but the pure modules it is the top of: the procedure's vocabulary
(``acts``: the acts, outcomes, periods, ``ActRecord``, ``Case``, re-exported here), the appeal's rules
(``appeals``) and the acts after finality (``finality``), which read ``acts`` and never this module. The
caller passes the dates
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

from declarations.procedure import appeals, finality
from declarations.procedure.acts import (
    AFTER_FINAL_DECIDING,
    BUSINESS_DAY_PERIODS,
    CANDIDATE_ACTS,
    CANDIDATE_PERIODS,
    CLOSED,
    DECIDING_ACTS,
    DEFENCE_PENDING,
    DOCUMENTED_ACTS,
    LATE_FILING,
    NEEDS_OUTCOME,
    NO_APPEAL_TO_RECONSIDER,
    NOTICES,
    NOTIFIES,
    PERIOD_CITATIONS,
    PERIOD_DONE_BY,
    PERIOD_LABELS,
    STARTS,
    Act,
    ActRecord,
    Case,
    Outcome,
    Period,
    PeriodStart,
    Policy,
    _decision_pending_notice,
    _fmt,
    _instance,
    _kinds,
    _last,
    _notified_decision,
    current_outcome,
    deadlines_started,
    effective_notice,
    is_final,
    notice_in_effect,
    notified_index,
    period_amount,
    period_done,
    period_unit,
    running_periods,
)

# The vocabulary (``acts``) is read through this module by the rest of the project (``rules.Act``…).
__all__ = [
    "AFTER_FINAL_DECIDING",
    "BUSINESS_DAY_PERIODS",
    "CANDIDATE_ACTS",
    "CANDIDATE_PERIODS",
    "CLOSED",
    "DECIDING_ACTS",
    "DEFENCE_PENDING",
    "DOCUMENTED_ACTS",
    "LATE_FILING",
    "NEEDS_OUTCOME",
    "NOTICES",
    "NOTIFIES",
    "NO_APPEAL_TO_RECONSIDER",
    "PERIOD_CITATIONS",
    "PERIOD_DONE_BY",
    "PERIOD_LABELS",
    "STARTS",
    "Act",
    "ActRecord",
    "Case",
    "Outcome",
    "Period",
    "PeriodStart",
    "Policy",
    "_decision_pending_notice",
    "_fmt",
    "_instance",
    "_kinds",
    "_last",
    "_notified_decision",
    "current_outcome",
    "deadlines_started",
    "effective_notice",
    "is_final",
    "notice_in_effect",
    "notified_index",
    "period_amount",
    "period_done",
    "period_unit",
    "running_periods",
]


def _appeal_pending(acts: Sequence[ActRecord]) -> bool:
    """An appeal against the latest notified decision, not declared "não conhecido" (art. 63)."""
    return appeals.live_appeal(acts) is not None


# Refusals -------------------------------------------------------------------------------------------------

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
NO_OUTCOME = "Só as decisões têm resultado."
FINAL_NEEDS_DECISION = "Só uma decisão intimada ao candidato pode tornar-se definitiva."
FINAL_APPEAL_PENDING = "Há recurso pendente de julgamento: a decisão ainda não é definitiva."
FINAL_APPEAL_OPEN = "O prazo de recurso termina em {day}: a decisão só se torna definitiva depois dele, se não houver recurso."


def refusal(
    kind: Act,
    acts: Sequence[ActRecord],
    policy: Policy,
    *,
    today: datetime.date,
    ends: Mapping[Period, datetime.date],
    outcome: Outcome | None = None,
    has_reasons: bool = True,
    bad_faith: bool | None = None,
) -> str:
    """Why ``kind`` may not be recorded next (Portuguese), or '' when it may.

    ``acts`` are the recorded acts in order; ``ends`` the last day of each running period (from
    ``running_periods`` through ``declarations.deadlines``); ``today`` the day of the new act;
    ``outcome`` the new act's outcome when it decides. What holds for every act is checked here, in this
    order: a closed case, the opening first, an outcome only on a decision, the notice before anything
    else; then the act's own rule (``ACT_RULES``). ``bad_faith``: an annulment's (``finality``, art. 54).
    """
    if is_final(acts):
        return finality.refusal_after_final(
            kind,
            acts,
            today=today,
            outcome=outcome,
            has_reasons=has_reasons,
            bad_faith=bad_faith,
            ends=ends,
            answer_days=policy.appeal_answer_business_days,
        )
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
        outcome = offered_outcome(kind, acts)
        if not refusal(kind, acts, policy, today=today, ends=ends, outcome=outcome):
            found.append(kind)
    return tuple(found)


def offered_outcome(kind: Act, acts: Sequence[ActRecord]) -> Outcome | None:
    """The outcome ``kind`` is offered with, before its form is filled in: a deciding act's, the outcome in
    force (art. 64 sole paragraph), else falsity; a revision's, dismissed (it can only lighten, art. 65 sole
    paragraph); None for an act that has no outcome."""
    if kind in DECIDING_ACTS:
        return current_outcome(acts) or Outcome.FALSITY
    return Outcome.DISMISSED if kind is Act.REVISION else None


def late_appeal_warning(
    acts: Sequence[ActRecord],
    policy: Policy,
    *,
    today: datetime.date,
    ends: Mapping[Period, datetime.date],
) -> str:
    """What the candidate's page says before they file an appeal after its period ended (it is recorded,
    then declared "não conhecido" by a reasoned act, arts. 48 and 63 I), else ''."""
    end = ends.get(Period.APPEAL)
    if end is None or today <= end:
        return ""
    if Act.APPEAL not in allowed(acts, policy, today=today, ends=ends):
        return ""
    return appeals.LATE_APPEAL_WARNING.format(end=_fmt(end))


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
