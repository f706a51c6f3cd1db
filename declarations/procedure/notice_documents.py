"""The documents of every notice (Lei 9.784 art. 26) other than the notice for the defence and the notice of
a decision (``documents``, whose template writes those two): the act the notice makes known
(``rules.NOTIFIES``), its purpose, the period it starts (``rules.STARTS``) and that period's last day once the
notice took effect. A notice kind added to ``rules.NOTICES`` gets a document from the generic template here
without more; ``NOTICE_PURPOSES`` gives it its own words.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from django.utils import timezone

from contests import wording
from declarations import deadlines
from declarations.calendars import organization_calendar
from declarations.models import ProcedureAct
from declarations.procedure import rules
from declarations.procedure import rules_labels as labels

GENERIC_TEMPLATE = "declarations/documents/notice_act.html"

# The purpose of each notice (art. 26 §1º II), after "Finalidade:"; a kind not listed gets the default.
NOTICE_PURPOSES: Mapping[str, str] = {
    "closing_notice": "dar conhecimento do encerramento da instrução e, querendo, apresentar alegações finais "
    "no prazo abaixo (art. 44); o relatório e a decisão só vêm depois dele",
    "annulment_notice": "dar conhecimento de que a Administração pretende anular, por vício de legalidade (Lei "
    "9.784 art. 53), o ato abaixo, favorável a Vossa Senhoria, pelos fundamentos ao final, e, querendo, "
    "manifestar-se no prazo abaixo: a anulação só será decidida depois dele ou da manifestação (contraditório "
    "e ampla defesa, CF art. 5º LV; STF RE 594.296, Tema 138)",
    "hearing_notice": "comparecer, querendo, à audiência ou acompanhar a prova ou diligência determinada pela "
    "autoridade, na data, hora e local abaixo (arts. 29 e 41), pessoalmente ou por procurador",
}
DEFAULT_PURPOSE = "dar conhecimento do ato e, querendo, manifestar-se nos autos"


def notified_act(kind: rules.Act, before: list[ProcedureAct]) -> ProcedureAct | None:
    """The act a notice of ``kind`` makes known: the latest of ``rules.NOTIFIES[kind]`` before it."""
    kinds = rules.NOTIFIES.get(kind, frozenset())
    return next((found for found in reversed(before) if found.kind in kinds), None)


def _act_day(act: ProcedureAct) -> datetime.date:
    return act.on or timezone.localdate(act.recorded_at)


def notified_text(notified: ProcedureAct | None) -> str:
    """ "do ato “Encerramento da instrução”, de 10 de março de 2026" (the case itself when none)."""
    if notified is None:
        return "do andamento do processo"
    label = labels.ACT_LABELS[rules.Act(notified.kind)]
    return f"do ato “{label}”, de {wording.date_in_full(_act_day(notified))}"


def _unit(amount: int, period: rules.Period | None) -> str:
    """ "dia", "dias", "dia útil", "dias úteis": the unit the law gives ``period`` (calendar days when none
    is named)."""
    business = (
        period is not None and deadlines.Unit(rules.period_unit(period)) is deadlines.Unit.BUSINESS_DAYS
    )
    unit = ("dia útil", "dias úteis") if business else ("dia", "dias")
    return unit[0] if amount == 1 else unit[1]


def days_text(amount: int, period: rules.Period | None = None) -> str:
    """A period as the acts write it: "10 (dez) dias", "1 (um) dia", "5 (cinco) dias úteis"."""
    return f"{amount} ({wording.in_words(amount)}) {_unit(amount, period)}"


def days_short(amount: int, period: rules.Period | None = None) -> str:
    """A period as the screens' tables write it: "10 dias", "5 dias úteis"."""
    return f"{amount} {_unit(amount, period)}"


def period_ends(start: datetime.date, period: rules.Period, policy: rules.Policy) -> datetime.date:
    """The last day of ``period`` counted from ``start`` (the notice's effect) in the unit the law gives it
    (business days where it says so, else calendar days: art. 66 §2º), on the organisation's calendar: the
    one count every act's document prints, the same as the case page's (``selectors.case_state``)."""
    calendar = organization_calendar([start.year, start.year + 1])
    unit = deadlines.Unit(rules.period_unit(period))
    return deadlines.deadline(start, rules.period_amount(period, policy), unit, calendar).last_day


def notice_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    """What a notice of another kind than the defence's or the decision's writes: the act made known, the
    purpose, the period it starts (its days and, once in effect, its last day)."""
    kind = rules.Act(act.kind)
    notified = notified_act(kind, before)
    periods = rules.STARTS.get(kind, ())
    policy = act.procedure.policy
    amount = rules.period_amount(periods[0], policy) if periods else None
    return {
        "notice_title": labels.ACT_LABELS[kind],
        "notified": notified,
        "notified_text": notified_text(notified),
        "purpose": NOTICE_PURPOSES.get(kind.value, DEFAULT_PURPOSE),
        "period_label": rules.PERIOD_LABELS[periods[0]].lower() if periods else "",
        "period_citation": rules.PERIOD_CITATIONS[periods[0]] if periods else "",
        "period_days": days_text(amount, periods[0]) if periods and amount else "",
        "period_ends": period_ends(act.on, periods[0], policy) if act.on and periods and amount else None,
    }
