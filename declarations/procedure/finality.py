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
- Each revision and annulment is notified to the candidate (``AFTER_FINAL_NOTICE``, through the one notice
  path): another act after finality waits for that notice to take effect.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from contests.calendar import add_years
from declarations.procedure.acts import (
    AFTER_FINAL_DECIDING,
    CLOSED,
    DECIDING_ACTS,
    NEEDS_OUTCOME,
    Act,
    ActRecord,
    Outcome,
    _fmt,
    _last,
    current_outcome,
)

# The acts that may follow a final decision (``rules.refusal`` answers CLOSED for every other one).
AFTER_FINAL_ACTS = frozenset({Act.REVISION_REQUEST, Act.REVISION, Act.ANNULMENT, Act.AFTER_FINAL_NOTICE})

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
) -> str:
    """Why ``kind`` may not follow the final decision in ``acts`` (Portuguese), or '' when it may.
    ``bad_faith``: whether the annulment states bad faith proven (art. 54); None before it is asked (the
    acts a case offers), then the five years are not checked."""
    if kind not in AFTER_FINAL_ACTS:
        return CLOSED
    if kind is Act.AFTER_FINAL_NOTICE:
        return "" if notice_due(acts) else NOTHING_TO_NOTIFY
    if notice_due(acts):
        return NOTICE_FIRST.format(what=_what(acts))
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
    if not has_reasons:
        return ANNULMENT_NEEDS_REASONS
    return "" if bad_faith is None else annulment_art54_refusal(acts, today=today, bad_faith=bad_faith)


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
