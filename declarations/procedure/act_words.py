"""The words the procedure's documents share (``documents`` and the modules split from it, which read these
and not ``documents``): each act's title, the date it bears, the latest act of some kinds, a deciding act
named with its outcome, and who filed an act."""

from __future__ import annotations

import datetime

from django.utils import timezone

from contests import wording
from declarations.models import ProcedureAct
from declarations.procedure import rules
from declarations.procedure import rules_labels as labels

DOCUMENT_TITLES = {
    rules.Act.OPENING: "Portaria de instauração",
    rules.Act.NOTICE: "Intimação para defesa",
    rules.Act.DECISION_NOTICE: "Intimação da decisão",
    rules.Act.DECISION: "Decisão",
    rules.Act.RECONSIDERATION: "Juízo de reconsideração",
    rules.Act.SUPERIOR_DECISION: "Decisão em grau de recurso",
    rules.Act.FINAL: "Certidão de trânsito em julgado administrativo",
    rules.Act.REVISION: "Decisão de revisão",
    rules.Act.ANNULMENT: "Decisão de anulação",
    rules.Act.AFTER_FINAL_NOTICE: "Intimação da decisão após o trânsito em julgado",
    rules.Act.APPEAL_NOTICE: "Intimação do recurso de terceiro",
    rules.Act.APPEAL_NOT_HEARD: "Decisão de não conhecimento do recurso",
    rules.Act.APPEAL_REVIEW: "Decisão de revisão de ofício",
}


def document_title(kind: rules.Act) -> str:
    return DOCUMENT_TITLES.get(kind) or labels.ACT_LABELS[kind]


def act_date(act: ProcedureAct) -> datetime.date:
    """The day an act bears: a notice's, the day it was issued (its effect may come later); another act's,
    its own date; else the day it was recorded, else today (a preview)."""
    if act.issued_on:
        return act.issued_on
    if act.on:
        return act.on
    return timezone.localdate(act.recorded_at) if act.recorded_at else timezone.localdate()


def last_of(acts: list[ProcedureAct], *kinds: rules.Act) -> ProcedureAct | None:
    return next((found for found in reversed(acts) if found.kind in kinds), None)


OUTCOME_VERBS = {
    rules.Outcome.FALSITY: "julgou procedente a apuração, confirmando a falsidade da autodeclaração",
    rules.Outcome.DISMISSED: "julgou improcedente a apuração, mantida a autodeclaração",
}


def decided_text(act: ProcedureAct, *, dated: bool = True) -> str:
    """ "a decisão de 10 de julho de 2026, que julgou procedente…": a deciding act named by its kind and
    date (without the date where the sentence gives it)."""
    label = document_title(rules.Act(act.kind))
    verb = OUTCOME_VERBS.get(rules.Outcome(act.outcome)) if act.outcome else None
    named = f"{'o' if label.startswith('Juízo') else 'a'} {label.lower()}"
    if dated:
        named += f" de {wording.date_in_full(act_date(act))}"
    return f"{named}, que {verb}" if verb else named


def of(named: str) -> str:
    """ "de" joined to the article of ``named``: "a decisão…" → "da decisão…", "o juízo…" → "do juízo…"."""
    for article, joined in (("a ", "da "), ("o ", "do ")):
        if named.startswith(article):
            return joined + named.removeprefix(article)
    return f"de {named}"


def filed_by(act: ProcedureAct) -> str:
    """ "por NOME" of whoever filed a candidate's act (the candidate or a representative), else "pelo
    candidato"."""
    return f"por {act.filed_by.strip()}" if act.filed_by.strip() else "pelo candidato"
