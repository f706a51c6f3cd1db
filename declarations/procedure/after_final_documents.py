"""What the documents of the acts after finality write (``finality``): the revision (Lei 9.784 art. 65), the
annulment (art. 53) and their notice; the rest of an act's document (header, signature, PDF) is
``documents``', which calls this module (the words both use are ``act_words``'). Split from ``documents`` to
keep it under the size limit."""

from __future__ import annotations

from candidates.models import Nomination
from declarations.models import ProcedureAct
from declarations.procedure import rules
from declarations.procedure.act_words import decided_text, filed_by, last_of, of


def after_final_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    """A revision or annulment: the decision it reviews (the one in force before it), the request it
    answers, and whether the effects of a falsity fall with it; their notice: the act it notifies."""
    kind = rules.Act(act.kind)
    if kind is rules.Act.AFTER_FINAL_NOTICE:
        notified = last_of(before, *rules.AFTER_FINAL_DECIDING)
        return {
            "notified": notified,
            "notified_of": of(decided_text(notified)) if notified else "da decisão proferida no processo",
            "lightened": notified is not None and _lightens(notified, before[: before.index(notified)]),
            "annulled": notified is not None and notified.kind == rules.Act.ANNULMENT,
        }
    reviewed = last_of(before, *rules.DECIDING_ACTS, *rules.AFTER_FINAL_DECIDING)
    request = last_of(before, rules.Act.REVISION_REQUEST)
    answered = request if kind is rules.Act.REVISION and _pending(request, before) else None
    procedure = act.procedure
    return {
        "reviewed": reviewed,
        "reviewed_text": decided_text(reviewed) if reviewed else "a decisão proferida no processo",
        # A revision or an annulment came after the final decision: it did not "become final" itself.
        "reviewed_after_final": reviewed is not None and reviewed.kind in rules.AFTER_FINAL_DECIDING,
        "request": answered,
        "request_by": filed_by(answered) if answered else "",
        "reviewed_falsity": reviewed is not None and reviewed.outcome == rules.Outcome.FALSITY,
        "lightened": reviewed is not None
        and reviewed.outcome == rules.Outcome.FALSITY
        and act.outcome != rules.Outcome.FALSITY,
        "effects_applied": procedure.effects_applied_on,
        "nomination_annulled": Nomination.objects.filter(
            registration=procedure.registration, status=Nomination.Status.ANNULLED
        ).exists(),
    }


def _pending(request: ProcedureAct | None, before: list[ProcedureAct]) -> bool:
    if request is None:
        return False
    return not any(a.kind == rules.Act.REVISION for a in before[before.index(request) + 1 :])


def _lightens(act: ProcedureAct, before: list[ProcedureAct]) -> bool:
    reviewed = last_of(before, *rules.DECIDING_ACTS, *rules.AFTER_FINAL_DECIDING)
    return (
        reviewed is not None
        and reviewed.outcome == rules.Outcome.FALSITY
        and act.outcome != rules.Outcome.FALSITY
    )
