"""What the documents of an appeal's acts name (split from ``documents``, at its size limit)."""

from __future__ import annotations

from collections.abc import Callable

from declarations.models import ProcedureAct
from declarations.procedure import notice_documents, rules


def appeal_parts(
    act: ProcedureAct,
    before: list[ProcedureAct],
    *,
    last_of: Callable[..., ProcedureAct | None],
    decided_text: Callable[[ProcedureAct], str],
) -> dict:
    """What an act on an appeal names: the appeal, its appellant, the decision it attacks; a third party's
    appeal notified to the candidate (art. 62), the business days to answer, their last day once in effect;
    an appeal not heard, its ground (art. 63)."""
    appeal = last_of(before, rules.Act.APPEAL)
    decided = last_of(before[: before.index(appeal)] if appeal else before, *rules.DECIDING_ACTS)
    policy = act.procedure.policy
    answer = rules.Period.APPEAL_ANSWER
    return {
        "appeal": appeal,
        "appellant": appeal.filed_by.strip() if appeal and appeal.filed_by.strip() else "terceiro",
        "standing": appeal.get_standing_display() if appeal and appeal.standing else "",
        "decided_text": decided_text(decided) if decided else "a decisão proferida no processo",
        "answer_days": notice_documents.days_text(rules.period_amount(answer, policy), answer),
        "period_ends": notice_documents.period_ends(act.on, answer, policy) if act.on else None,
        "ground": act.get_ground_display(),
    }
