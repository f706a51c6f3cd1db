"""The acts after a final decision (RULES §5; Lei 9.784/1999): revision (art. 65), annulment (arts. 53–54)
and the notice of each (art. 26).

PURE module: no Django, no project import but the pure ``acts`` (the procedure's vocabulary) and
``contests.calendar``; ``rules.refusal`` hands every act after finality to ``refusal_after_final``. The behaviour, as a municipal legal officer reads it:

- Once a decision is final (``Act.FINAL`` recorded) the flow of the procedure is closed: no defence, no
  appeal, no new decision of any instance. Only these acts follow, at any time (art. 65: "a qualquer
  tempo"; art. 53 subject to art. 54's five years).
- **A revision can only lighten.** At the candidate's request (``REVISION_REQUEST``, a filing through the
  private link or at the desk) or ex officio, when new facts or relevant circumstances justify the
  inadequacy of the sanction applied (art. 65): a decision of falsity becomes dismissed (the declaration
  stands). It can never worsen (art. 65, sole paragraph): a revision that would make a falsity of a case in
  which none stands is refused, with the reason. A revision that keeps the sanction is recorded only as the
  answer to a pending request (the request is refused, with reasons); ex officio it would change nothing.
  Its reasons (the new facts) are required.
- **Annulment** of the decision in force for illegality (art. 53), reasoned (art. 50 VIII). It leaves the
  case with no decision in force: a falsity annulled falls with its effects (the registration goes back,
  ``rules.effects_undo_due``), and the administration that still suspects a false declaration opens a new
  procedure on the facts, with its own due process. A decision favourable to the candidate (dismissed)
  cannot be annulled more than five years after it unless bad faith is proven (art. 54).
- **No annulment against the candidate without hearing them first** (CF art. 5º LV; STF RE 594.296, Tema
  138: the administration that annuls an act whose effects already reached someone's interests must give
  them the contraditório first; art. 64 sole paragraph's logic). Annulling a decision or revision that
  does not find falsity (dismissed: the declaration stands) worsens the candidate's situation: it waits for
  a notice of the intended annulment (``ANNULMENT_NOTICE``, with its reasons, through the one notice path)
  that took effect, and then for the candidate's answer (``ANNULMENT_ANSWER``) or the end of the answer
  period (art. 62's five business days from the notice's effect, counted by the deadline engine). An
  annulment of a decision of falsity favours the candidate and needs no prior hearing.
- Each revision and annulment is notified to the candidate (``AFTER_FINAL_NOTICE``, through the one notice
  path): another act after finality waits for that notice to take effect.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from contests.calendar import add_years
from declarations.procedure.acts import (
    AFTER_FINAL_DECIDING,
    CLOSED,
    DECIDING_ACTS,
    LATE_FILING,
    NEEDS_OUTCOME,
    PERIOD_LABELS,
    Act,
    ActRecord,
    Outcome,
    Period,
    _fmt,
    _last,
    current_outcome,
)

# The acts that may follow a final decision (``rules.refusal`` answers CLOSED for every other one).
AFTER_FINAL_ACTS = frozenset(
    {
        Act.REVISION_REQUEST,
        Act.REVISION,
        Act.ANNULMENT,
        Act.AFTER_FINAL_NOTICE,
        Act.ANNULMENT_NOTICE,
        Act.ANNULMENT_ANSWER,
    }
)

NO_SANCTION = (
    "Não há sanção em vigor a rever: a revisão serve para atenuar a sanção aplicada (Lei 9.784 art. 65), e a "
    "decisão vigente não confirma a falsidade."
)
REVISION_WORSENS = (
    "A revisão não pode agravar a sanção (Lei 9.784 art. 65, parágrafo único): o processo não confirma a "
    "falsidade, e a revisão não pode confirmá-la."
)
REVISION_KEEPS_WITHOUT_REQUEST = (
    "Sem pedido de revisão pendente, a revisão de ofício só se registra para atenuar a sanção (julgar "
    "improcedente): mantê-la não muda nada (Lei 9.784 art. 65)."
)
REVISION_NEEDS_FACTS = (
    "A revisão exige fatos novos ou circunstâncias relevantes que justifiquem a inadequação da sanção "
    "aplicada (Lei 9.784 art. 65): descreva-os na motivação."
)
REQUEST_NEEDS_FACTS = (
    "O pedido de revisão indica os fatos novos ou as circunstâncias relevantes que justificam a inadequação "
    "da sanção (Lei 9.784 art. 65)."
)
REQUEST_PENDING = "Já há um pedido de revisão aguardando decisão."
ANNULMENT_NEEDS_DECISION = "Não há decisão em vigor a anular: a decisão já foi anulada. Para apurar de novo, instaure outro processo."
ANNULMENT_NEEDS_REASONS = (
    "A anulação indica o vício de legalidade e seus fundamentos (Lei 9.784 arts. 50 VIII e 53)."
)
ANNULMENT_NO_OUTCOME = (
    "A anulação não julga de novo: deixa o processo sem decisão em vigor (Lei 9.784 art. 53)."
)
ART54_LAPSED = (
    "A decisão de {day}, favorável ao candidato (improcedente), tem mais de cinco anos: a Administração decaiu "
    "do direito de anulá-la, salvo comprovada má-fé (Lei 9.784 art. 54). Só com a má-fé comprovada nos autos."
)
NOTICE_FIRST = (
    "A {what} ainda não foi intimada ao candidato (ou a intimação não produziu efeito): intime-o antes de "
    "outro ato (Lei 9.784 art. 26)."
)
NOTHING_TO_NOTIFY = "Não há revisão nem anulação a intimar."
ANNULMENT_NEEDS_HEARING = (
    "A anulação desta decisão, que não confirma a falsidade, agravaria a situação do candidato: antes de "
    "anulá-la, ele deve ser intimado da anulação pretendida, com os seus fundamentos, e ter {days} dias úteis "
    "para se manifestar (contraditório e ampla defesa, CF art. 5º LV; Lei 9.784 art. 53; STF RE 594.296, "
    "Tema 138). Intime o candidato da anulação pretendida."
)
ANNULMENT_ANSWER_PENDING = (
    "A anulação desta decisão, que não confirma a falsidade, agravaria a situação do candidato: o prazo para "
    "ele se manifestar sobre a anulação pretendida só termina em {day} e ele ainda não se manifestou "
    "(contraditório e ampla defesa, CF art. 5º LV; Lei 9.784 art. 53; STF RE 594.296, Tema 138)."
)
ANNULMENT_NOTICE_NOT_NEEDED = (
    "A anulação da decisão de falsidade favorece o candidato: não exige intimação prévia (Lei 9.784 art. 53)."
)
ANNULMENT_NOTICE_DONE = "O candidato já foi intimado da anulação pretendida (STF Tema 138)."
ANNULMENT_NOTICE_NEEDS_REASONS = (
    "A intimação da anulação pretendida indica o vício de legalidade e seus fundamentos, para que o "
    "candidato possa responder (CF art. 5º LV; Lei 9.784 arts. 26 §1º e 53)."
)
NO_ANNULMENT_NOTICE = (
    "O candidato ainda não foi intimado de anulação pretendida (ou a intimação ainda não produziu efeito): "
    "as alegações sobre a anulação vêm depois dela."
)
ANNULMENT_ANSWER_ONCE = "As alegações sobre a anulação pretendida já foram apresentadas."
NO_OUTCOME = "Só a revisão tem resultado."


def in_force(acts: Sequence[ActRecord]) -> tuple[int, ActRecord] | None:
    """The latest act that decided the case (an instance's decision, a revision) or annulled the decision,
    with its index."""
    return _last(acts, *DECIDING_ACTS, *AFTER_FINAL_DECIDING)


def request_pending(acts: Sequence[ActRecord]) -> bool:
    """A revision request was filed and no revision answered it yet."""
    request = _last(acts, Act.REVISION_REQUEST)
    return request is not None and not any(a.kind is Act.REVISION for a in acts[request[0] + 1 :])


def notice_due(acts: Sequence[ActRecord]) -> bool:
    """The latest revision or annulment has no notice in effect after it yet."""
    latest = _last(acts, *AFTER_FINAL_DECIDING)
    if latest is None:
        return False
    return not any(a.kind is Act.AFTER_FINAL_NOTICE and a.on is not None for a in acts[latest[0] + 1 :])


def _what(acts: Sequence[ActRecord]) -> str:
    latest = _last(acts, *AFTER_FINAL_DECIDING)
    return "anulação" if latest is not None and latest[1].kind is Act.ANNULMENT else "revisão"


def refusal_after_final(
    kind: Act,
    acts: Sequence[ActRecord],
    *,
    today: datetime.date,
    outcome: Outcome | None = None,
    has_reasons: bool = True,
    bad_faith: bool | None = None,
    ends: Mapping[Period, datetime.date] | None = None,
    answer_days: int = 5,
) -> str:
    """Why ``kind`` may not follow the final decision in ``acts`` (Portuguese), or '' when it may.
    ``bad_faith``: whether the annulment states bad faith proven (art. 54); None before it is asked (the
    acts a case offers), then the five years are not checked. ``ends``: the running periods' last days (the
    deadline engine's); ``answer_days``: the business days to answer an intended annulment (art. 62's)."""
    if kind not in AFTER_FINAL_ACTS:
        return CLOSED
    if kind is Act.AFTER_FINAL_NOTICE:
        return "" if notice_due(acts) else NOTHING_TO_NOTIFY
    if notice_due(acts):
        return NOTICE_FIRST.format(what=_what(acts))
    ends = ends or {}
    if kind is Act.ANNULMENT_NOTICE:
        return annulment_notice_refusal(acts, has_reasons=has_reasons)
    if kind is Act.ANNULMENT_ANSWER:
        return annulment_answer_refusal(acts, today=today, ends=ends)
    if kind is not Act.REVISION and outcome is not None:
        return ANNULMENT_NO_OUTCOME if kind is Act.ANNULMENT else NO_OUTCOME
    sanction = current_outcome(acts) is Outcome.FALSITY
    if kind is Act.REVISION_REQUEST:
        if not sanction:
            return NO_SANCTION
        if request_pending(acts):
            return REQUEST_PENDING
        return "" if has_reasons else REQUEST_NEEDS_FACTS
    if kind is Act.REVISION:
        return revision_refusal(acts, outcome=outcome, has_reasons=has_reasons)
    if in_force(acts) is None or current_outcome(acts) is None:
        return ANNULMENT_NEEDS_DECISION
    if bad_faith is not None and (lapsed := annulment_art54_refusal(acts, today=today, bad_faith=bad_faith)):
        return lapsed
    hearing = annulment_hearing_refusal(acts, today=today, ends=ends, answer_days=answer_days)
    if hearing:
        return hearing
    return "" if has_reasons else ANNULMENT_NEEDS_REASONS


def annulment_worsens(acts: Sequence[ActRecord]) -> bool:
    """Whether annulling the decision in force would worsen the candidate's situation: it does not find
    falsity against them (a dismissal, by an instance or a revision)."""
    return in_force(acts) is not None and current_outcome(acts) is Outcome.DISMISSED


def _annulment_notice(acts: Sequence[ActRecord]) -> int | None:
    """The index of the first notice of the intended annulment of the decision in force that took effect
    (the first to take effect counts, art. 26), else None."""
    found = in_force(acts)
    if found is None:
        return None
    return next(
        (
            j
            for j in range(found[0] + 1, len(acts))
            if acts[j].kind is Act.ANNULMENT_NOTICE and acts[j].on is not None
        ),
        None,
    )


def _answered(acts: Sequence[ActRecord], notice: int) -> bool:
    return any(a.kind is Act.ANNULMENT_ANSWER for a in acts[notice + 1 :])


def annulment_hearing_refusal(
    acts: Sequence[ActRecord],
    *,
    today: datetime.date,
    ends: Mapping[Period, datetime.date],
    answer_days: int = 5,
) -> str:
    """STF Tema 138 (CF art. 5º LV; art. 53): an annulment that worsens the candidate's situation
    (``annulment_worsens``) waits for the notice of the intended annulment to take effect, then for the
    candidate's answer or the end of the answer period (``ends[Period.ANNULMENT_ANSWER]``, the last day,
    counted in business days from the notice's effect); '' when it may be recorded (or favours them)."""
    if not annulment_worsens(acts):
        return ""
    notice = _annulment_notice(acts)
    if notice is None:
        return ANNULMENT_NEEDS_HEARING.format(days=answer_days)
    if _answered(acts, notice):
        return ""
    end = ends.get(Period.ANNULMENT_ANSWER)
    if end is None or today <= end:
        return ANNULMENT_ANSWER_PENDING.format(day=_fmt(end) if end else "?")
    return ""


def annulment_notice_refusal(acts: Sequence[ActRecord], *, has_reasons: bool = True) -> str:
    """The intended annulment is notified when it would worsen the candidate's situation, once, with its
    reasons (the vice of legality the candidate answers)."""
    if in_force(acts) is None or current_outcome(acts) is None:
        return ANNULMENT_NEEDS_DECISION
    if not annulment_worsens(acts):
        return ANNULMENT_NOTICE_NOT_NEEDED
    if _annulment_notice(acts) is not None:
        return ANNULMENT_NOTICE_DONE
    return "" if has_reasons else ANNULMENT_NOTICE_NEEDS_REASONS


def annulment_answer_refusal(
    acts: Sequence[ActRecord], *, today: datetime.date, ends: Mapping[Period, datetime.date]
) -> str:
    """The candidate answers the intended annulment once its notice took effect, once, within the period
    (a late answer is refused with the day it ended, like every filing: art. 66)."""
    notice = _annulment_notice(acts) if annulment_worsens(acts) else None
    if notice is None:
        return NO_ANNULMENT_NOTICE
    if _answered(acts, notice):
        return ANNULMENT_ANSWER_ONCE
    end = ends.get(Period.ANNULMENT_ANSWER)
    if end is not None and today > end:
        return LATE_FILING.format(period=PERIOD_LABELS[Period.ANNULMENT_ANSWER].lower(), day=_fmt(end))
    return ""


def revision_refusal(acts: Sequence[ActRecord], *, outcome: Outcome | None, has_reasons: bool) -> str:
    """A revision can only lighten (art. 65 and its sole paragraph): falsity → dismissed; falsity kept only in
    answer to a pending request; never falsity where none stands."""
    if outcome is None:
        return NEEDS_OUTCOME
    current = current_outcome(acts)
    if outcome is Outcome.FALSITY and current is not Outcome.FALSITY:
        return REVISION_WORSENS
    if current is not Outcome.FALSITY:
        return NO_SANCTION
    if outcome is Outcome.FALSITY and not request_pending(acts):
        return REVISION_KEEPS_WITHOUT_REQUEST
    return "" if has_reasons else REVISION_NEEDS_FACTS


def annulment_art54_refusal(acts: Sequence[ActRecord], *, today: datetime.date, bad_faith: bool) -> str:
    """ART54_LAPSED when the decision in force is favourable to the candidate (dismissed), is more than five
    years old on ``today`` and no bad faith is proven; else '' (a falsity can be annulled at any time: the
    annulment favours the candidate)."""
    found = in_force(acts)
    if found is None or bad_faith:
        return ""
    act = found[1]
    if act.outcome is not Outcome.DISMISSED or act.on is None:
        return ""
    # Five years to the day, as ``notices.five_years_after`` counts them (29/02 → 28/02).
    return ART54_LAPSED.format(day=_fmt(act.on)) if today > add_years(act.on, 5) else ""


def lightens(acts: Sequence[ActRecord]) -> bool:
    """Whether the latest act after finality ended a falsity (a revision to dismissed, an annulment of a
    decision of falsity): the reversal the effects follow."""
    latest = _last(acts, *AFTER_FINAL_DECIDING)
    if latest is None:
        return False
    return (
        current_outcome(acts[: latest[0]]) is Outcome.FALSITY and current_outcome(acts) is not Outcome.FALSITY
    )
