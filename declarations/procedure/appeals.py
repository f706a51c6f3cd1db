"""The appeal's own rules (Lei 9.784 arts. 56–64): who appeals (art. 58), the other interested party heard on
a third party's appeal (art. 62), an appeal not heard (arts. 48, 63) and its ex officio review (art. 63 §2º),
the forwarding to the superior by default (art. 56 §1º), no change for the worse without hearing the
candidate (art. 64 sole paragraph), and no extension of a period already over (art. 49).

PURE module: no Django, no project import but the pure ``acts`` (the procedure's vocabulary; split from
``rules``, which was at the 700-line limit). ``rules`` calls these functions from ``refusal``/``ACT_RULES``;
this module never imports ``rules``. Day arithmetic: the pure ``contests.calendar``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from enum import StrEnum

from contests.calendar import add_days
from declarations.procedure.acts import (
    DECIDING_ACTS,
    NO_APPEAL_TO_RECONSIDER,
    PERIOD_LABELS,
    Act,
    ActRecord,
    Case,
    Outcome,
    Period,
    PeriodStart,
    Policy,
    _instance,
    _last,
    current_outcome,
    period_amount,
    period_unit,
)


class Standing(StrEnum):
    """Who may appeal (art. 58)."""

    PARTY = "party"
    AFFECTED = "affected"
    ORGANISATION = "organisation"
    CITIZEN = "citizen"


STANDING_LABELS: Mapping[Standing, str] = {
    Standing.PARTY: "O próprio candidato, titular do interesse (art. 58, I)",
    Standing.AFFECTED: "Terceiro indiretamente afetado pela decisão, p. ex. o próximo cotista (art. 58, II)",
    Standing.ORGANISATION: "Organização ou associação representativa, direitos coletivos (art. 58, III)",
    Standing.CITIZEN: "Cidadão ou associação, direitos ou interesses difusos (art. 58, IV)",
}


def is_third_party(standing: str) -> bool:
    """Whether an appellant of ``standing`` is someone other than the candidate ('' is the candidate)."""
    return bool(standing) and Standing(standing) is not Standing.PARTY


class Ground(StrEnum):
    """Why an appeal is not heard (art. 63)."""

    LATE = "late"
    INCOMPETENT = "incompetent"
    ILLEGITIMATE = "illegitimate"
    EXHAUSTED = "exhausted"


GROUND_LABELS: Mapping[Ground, str] = {
    Ground.LATE: "Intempestivo: interposto fora do prazo (art. 63, I)",
    Ground.INCOMPETENT: "Interposto perante órgão incompetente (art. 63, II)",
    Ground.ILLEGITIMATE: "Interposto por quem não seja legitimado (art. 63, III)",
    Ground.EXHAUSTED: "Interposto após exaurida a esfera administrativa (art. 63, IV)",
}

THIRD_PARTY_NEEDS_NAME = "Identifique o recorrente: nome de quem interpõe o recurso (art. 58)."
NOT_HEARD_NEEDS_GROUND = "Indique por que o recurso não é conhecido (art. 63, I a IV)."
NOT_LATE = (
    "O recurso foi interposto em {filed}, dentro do prazo de recurso (até {end}): não é intempestivo "
    "(art. 63, I)."
)
NO_APPEAL_TO_JUDGE = "Não há recurso pendente de julgamento a declarar não conhecido (Lei 9.784 art. 63)."
APPEAL_LATE = (
    "O recurso foi interposto em {filed}, depois do fim do prazo de recurso ({end}): não se julga o mérito; "
    "declare-o não conhecido por ato motivado (Lei 9.784 arts. 48 e 63, I)."
)
NOT_FORWARDED = (
    "O recurso só sobe à instância superior quando a autoridade que decidiu não o reconsidera: por ato que "
    "mantém a decisão, ou quando termina o prazo de {days} dias para reconsiderar (Lei 9.784 art. 56 §1º)."
)
FORWARDED_BY_DEFAULT = (
    "A autoridade que decidiu não reconsiderou a decisão no prazo (terminado em {end}): o recurso está "
    "encaminhado à instância superior, que o julga (Lei 9.784 art. 56 §1º)."
)
NO_THIRD_PARTY_APPEAL = (
    "Não há recurso de terceiro a intimar: a intimação do recurso é do candidato, quando outro interessado "
    "recorre (Lei 9.784 art. 62)."
)
APPEAL_NOTIFIED = "O candidato já foi intimado deste recurso (Lei 9.784 art. 62)."
NO_APPEAL_NOTICE = (
    "O candidato ainda não foi intimado do recurso de terceiro (ou a intimação ainda não produziu efeito): "
    "as alegações sobre o recurso vêm depois dela (Lei 9.784 art. 62)."
)
ANSWER_ONCE = "As alegações sobre o recurso já foram apresentadas."
WORSE_NEEDS_NOTICE = (
    "Esta decisão agravaria a situação do candidato (de improcedente para falsidade confirmada): antes, ele "
    "deve ser intimado do recurso e ter {days} dias úteis para alegações (Lei 9.784 arts. 62 e 64, parágrafo "
    "único). Intime o candidato do recurso."
)
WORSE_ANSWER_PENDING = (
    "Esta decisão agravaria a situação do candidato (de improcedente para falsidade confirmada): o prazo "
    "para as suas alegações sobre o recurso só termina em {day} e ele ainda não se manifestou (Lei 9.784 "
    "arts. 62 e 64, parágrafo único)."
)
NO_APPEAL_NOT_HEARD = (
    "A revisão de ofício (Lei 9.784 art. 63 §2º) segue um recurso declarado não conhecido, ainda não revisto."
)
EXTENSION_LATE = (
    "O {period} terminou em {day}: a prorrogação só cabe enquanto o prazo corre (Lei 9.784 art. 49)."
)


LATE_APPEAL_WARNING = (
    "O prazo de recurso terminou em {end}: um recurso apresentado agora é registrado, mas não será conhecido "
    "(Lei 9.784 arts. 48 e 63, I)."
)


class Judgement(StrEnum):
    """The reconsideration's judgement (art. 56 §1º): the authority changes its own decision, or keeps it and
    forwards the appeal to the superior."""

    RECONSIDER = "reconsider"
    MAINTAIN = "maintain"


JUDGEMENT_LABELS: Mapping[Judgement, str] = {
    Judgement.RECONSIDER: "Reconsiderar a decisão",
    Judgement.MAINTAIN: "Manter e encaminhar à instância superior",
}


def reconsideration_outcome(judgement: str, current: Outcome | None) -> Outcome:
    """The outcome a reconsideration's ``judgement`` decides: maintaining keeps the outcome in force
    (``current``; none recorded reads as falsity, the decision an appeal attacks), reconsidering gives the
    other one (art. 56 §1º)."""
    current = current or Outcome.FALSITY
    if Judgement(judgement) is Judgement.MAINTAIN:
        return current
    return Outcome.DISMISSED if current is Outcome.FALSITY else Outcome.FALSITY


def _fmt(day: datetime.date) -> str:
    return f"{day:%d/%m/%Y}"


def _last_index(acts: Sequence[ActRecord], *kinds: Act) -> int | None:
    for i in range(len(acts) - 1, -1, -1):
        if acts[i].kind in kinds:
            return i
    return None


def awaiting_superior(acts: Sequence[ActRecord]) -> int | None:
    """The index of the reconsideration that maintained the decision, and so forwarded the appeal to the
    superior (art. 56 §1º), while the superior has not decided it; else None."""
    last = _last(acts, Act.RECONSIDERATION)
    if last is None or last[1].outcome != current_outcome(acts[: last[0]]):
        return None
    if any(a.kind in (Act.SUPERIOR_DECISION, Act.APPEAL_NOT_HEARD) for a in acts[last[0] + 1 :]):
        return None
    return last[0]


def live_appeal(acts: Sequence[ActRecord]) -> int | None:
    """The index of the appeal against the latest notified decision that was not declared "não conhecido"
    (art. 63), else None."""
    notice = _last_index(acts, Act.DECISION_NOTICE)
    if notice is None:
        return None
    appeal = _last_index(acts[notice + 1 :], Act.APPEAL)
    if appeal is None:
        return None
    i = notice + 1 + appeal
    if any(a.kind is Act.APPEAL_NOT_HEARD for a in acts[i + 1 :]):
        return None
    return i


def _judged(acts: Sequence[ActRecord], i: int) -> bool:
    """Whether the appeal at ``i`` was decided: by the superior, or by a reconsideration that changed the
    decision (a reconsideration that maintains it forwards the appeal, art. 56 §1º)."""
    for j in range(i + 1, len(acts)):
        act = acts[j]
        if act.kind in (Act.SUPERIOR_DECISION, Act.APPEAL_REVIEW):
            return True
        if act.kind is Act.RECONSIDERATION and act.outcome != current_outcome(acts[:j]):
            return True
    return False


def _pending(acts: Sequence[ActRecord]) -> int | None:
    """The live appeal still awaiting its judgement, else None."""
    i = live_appeal(acts)
    return None if i is None or _judged(acts, i) else i


def _not_heard_unreviewed(acts: Sequence[ActRecord]) -> int | None:
    """The index of the latest appeal declared not heard with no deciding act after the declaration."""
    j = _last_index(acts, Act.APPEAL_NOT_HEARD)
    if j is None or any(a.kind in DECIDING_ACTS for a in acts[j + 1 :]):
        return None
    return _last_index(acts[:j], Act.APPEAL)


def target_appeal(acts: Sequence[ActRecord]) -> int | None:
    """The appeal the candidate may be heard on (art. 62): the one pending, or the one not heard and not yet
    reviewed (an ex officio review may also worsen, art. 63 §2º)."""
    pending = _pending(acts)
    return pending if pending is not None else _not_heard_unreviewed(acts)


def _notice_after(acts: Sequence[ActRecord], i: int) -> int | None:
    """The first effective notice of the appeal at ``i`` (the first to take effect counts, art. 26)."""
    for j in range(i + 1, len(acts)):
        if acts[j].kind is Act.APPEAL_NOTICE and acts[j].on is not None:
            return j
    return None


def appeal_late(case: Case, i: int) -> str:
    """APPEAL_LATE when the appeal at ``i`` was filed after the appeal period's last day, else ''."""
    end = case.ends.get(Period.APPEAL)
    filed = case.acts[i].on
    if end is not None and filed is not None and filed > end:
        return APPEAL_LATE.format(filed=_fmt(filed), end=_fmt(end))
    return ""


def worsening_refusal(case: Case, i: int) -> str:
    """Art. 64 sole paragraph (with art. 62): a decision on the appeal at ``i`` that changes a dismissal
    into falsity waits until the candidate was notified of the appeal and answered or let the answer
    period run out; '' otherwise."""
    if not (current_outcome(case.acts) is Outcome.DISMISSED and case.outcome is Outcome.FALSITY):
        return ""
    notice = _notice_after(case.acts, i)
    if notice is None:
        return WORSE_NEEDS_NOTICE.format(days=case.policy.appeal_answer_business_days)
    if any(a.kind is Act.APPEAL_ANSWER for a in case.acts[notice + 1 :]):
        return ""
    end = case.ends.get(Period.APPEAL_ANSWER)
    if end is None or case.today <= end:
        return WORSE_ANSWER_PENDING.format(day=_fmt(end) if end else "?")
    return ""


def forwarded_by_default(case: Case) -> int | None:
    """The index of the pending appeal when the authority let the reconsideration period end without a
    reconsideration: the appeal is at the superior (art. 56 §1º); else None."""
    i = _pending(case.acts)
    if i is None or any(a.kind is Act.RECONSIDERATION for a in case.acts[i + 1 :]):
        return None
    end = case.ends.get(Period.RECONSIDERATION)
    return i if end is not None and case.today > end else None


def superior_start_by_default(
    acts: Sequence[ActRecord], policy: Policy, *, ends: Mapping[Period, datetime.date]
) -> PeriodStart | None:
    """The superior's decision period when the appeal was forwarded by default (art. 56 §1º: the authority
    let the reconsideration period end without reconsidering): the appeal reaches the superior the day
    after that period's last day, and the superior's thirty days (art. 59 §1º; thirty more once, with
    reasons, §2º: a ``DECISION_EXTENSION`` after the forwarding) count from that day, as they count from a
    reconsideration that maintains the decision. None otherwise (a reconsideration starts the period
    itself: ``acts.STARTS``)."""
    i = _pending(acts)
    if i is None or any(a.kind is Act.RECONSIDERATION for a in acts[i + 1 :]):
        return None
    end = ends.get(Period.RECONSIDERATION)
    forwarded = add_days(end, 1) if end is not None else None
    if forwarded is None:
        return None
    period = Period.SUPERIOR_DECISION
    extended = any(a.kind is Act.DECISION_EXTENSION for a in acts[i + 1 :])
    amount = period_amount(period, policy) + (policy.decision_extension_days if extended else 0)
    return PeriodStart(period, forwarded, amount, period_unit(period), i)


def forwarding_note(
    acts: Sequence[ActRecord],
    policy: Policy,
    *,
    today: datetime.date,
    ends: Mapping[Period, datetime.date],
) -> str:
    """What the case page says when the appeal went to the superior by default, else ''."""
    case = Case(acts, policy, today, ends)
    i = forwarded_by_default(case)
    if i is None or appeal_late(case, i):
        return ""
    return FORWARDED_BY_DEFAULT.format(end=_fmt(ends[Period.RECONSIDERATION]))


# Each act's own rule (called from ``rules.ACT_RULES``) ------------------------------------------------------


def reconsideration_refusal(case: Case) -> str:
    i = _pending(case.acts)
    if i is None or any(a.kind in (Act.RECONSIDERATION, Act.SUPERIOR_DECISION) for a in case.acts[i + 1 :]):
        return NO_APPEAL_TO_RECONSIDER
    return appeal_late(case, i) or worsening_refusal(case, i)


def superior_refusal(case: Case) -> str:
    acts = case.acts
    if awaiting_superior(acts) is None and forwarded_by_default(case) is None:
        return NOT_FORWARDED.format(days=case.policy.reconsideration_days)
    i = live_appeal(acts)
    if i is None:
        return NOT_FORWARDED.format(days=case.policy.reconsideration_days)
    return appeal_late(case, i) or worsening_refusal(case, i)


def not_heard_refusal(case: Case) -> str:
    return "" if _pending(case.acts) is not None else NO_APPEAL_TO_JUDGE


def review_refusal(case: Case) -> str:
    i = _not_heard_unreviewed(case.acts)
    if i is None:
        return NO_APPEAL_NOT_HEARD
    return worsening_refusal(case, i)


def appeal_notice_refusal(case: Case) -> str:
    i = target_appeal(case.acts)
    if i is None:
        return NO_THIRD_PARTY_APPEAL
    third_party = case.acts[i].third_party or current_outcome(case.acts) is Outcome.DISMISSED
    if not third_party:
        return NO_THIRD_PARTY_APPEAL
    return APPEAL_NOTIFIED if _notice_after(case.acts, i) is not None else ""


def answer_refusal(case: Case) -> str:
    i = target_appeal(case.acts)
    notice = _notice_after(case.acts, i) if i is not None else None
    if notice is None:
        return NO_APPEAL_NOTICE
    if any(a.kind is Act.APPEAL_ANSWER for a in case.acts[notice + 1 :]):
        return ANSWER_ONCE
    return case.late(Period.APPEAL_ANSWER)


def extension_late(case: Case) -> str:
    """EXTENSION_LATE when the decision period to extend already ended (art. 49), else ''."""
    period = Period.SUPERIOR_DECISION if _instance(case.acts) >= 1 else Period.DECISION
    end = case.ends.get(period)
    if end is not None and case.today > end:
        return EXTENSION_LATE.format(period=PERIOD_LABELS[period].lower(), day=_fmt(end))
    return ""


# The fields of an appeal and of its non-hearing, checked before the act is recorded ----------------------


def appeal_fields_refusal(
    kind: Act,
    acts: Sequence[ActRecord],
    *,
    ends: Mapping[Period, datetime.date],
    today: datetime.date,
    standing: str,
    filed_by: str,
    ground: str,
) -> tuple[str, str]:
    """(message, field) when an appeal's appellant or a non-hearing's ground is missing or wrong, else
    ('', '')."""
    if kind is Act.APPEAL and is_third_party(standing) and not filed_by.strip():
        return THIRD_PARTY_NEEDS_NAME, "filed_by"
    if kind is Act.APPEAL_NOT_HEARD:
        if not ground:
            return NOT_HEARD_NEEDS_GROUND, "ground"
        i = live_appeal(acts)
        end = ends.get(Period.APPEAL)
        filed = acts[i].on if i is not None else None
        if Ground(ground) is Ground.LATE and filed is not None and end is not None and filed <= end:
            return NOT_LATE.format(filed=_fmt(filed), end=_fmt(end)), "ground"
    return "", ""
