"""The acts after a final decision (``declarations/procedure/finality.py``), clause by clause: revision (Lei
9.784 art. 65: only to lighten), annulment (arts. 53–54) and their notice. No database."""

from __future__ import annotations

import datetime

from declarations.procedure import finality as f
from declarations.procedure import rules as p
from declarations.procedure.rules import Act, ActRecord, Outcome

D = datetime.date
POLICY = p.Policy()
FALSITY, DISMISSED = Outcome.FALSITY, Outcome.DISMISSED


def acts(*items) -> tuple[ActRecord, ...]:
    return tuple(ActRecord(item[0], item[1], item[2] if len(item) > 2 else None) for item in items)


def final_case(outcome: Outcome) -> tuple[ActRecord, ...]:
    return acts(
        (Act.OPENING, D(2026, 3, 2)),
        (Act.NOTICE, D(2026, 3, 6)),
        (Act.DEFENCE, D(2026, 3, 10)),
        (Act.INSTRUCTION_CLOSED, D(2026, 3, 20)),
        (Act.REPORT, D(2026, 3, 31)),
        (Act.DECISION, D(2026, 4, 6), outcome),
        (Act.DECISION_NOTICE, D(2026, 4, 8)),
        (Act.FINAL, D(2026, 4, 20)),
    )


FINAL_FALSITY = final_case(FALSITY)
FINAL_DISMISSED = final_case(DISMISSED)
TODAY = D(2026, 9, 1)


def refusal(kind, records, outcome=None, has_reasons=True, today=TODAY):
    return p.refusal(kind, records, POLICY, today=today, ends={}, outcome=outcome, has_reasons=has_reasons)


def test_art65_after_a_final_decision_only_revision_and_annulment_follow():
    assert refusal(Act.APPEAL, FINAL_FALSITY) == p.CLOSED
    assert refusal(Act.DECISION, FINAL_FALSITY, outcome=DISMISSED) == p.CLOSED
    allowed = p.allowed(FINAL_FALSITY, POLICY, today=TODAY, ends={})
    assert allowed == (Act.REVISION_REQUEST, Act.REVISION, Act.ANNULMENT)


def test_art65_a_revision_lightens_falsity_into_dismissed_and_the_effects_fall():
    assert refusal(Act.REVISION, FINAL_FALSITY, outcome=DISMISSED) == ""
    revised = FINAL_FALSITY + acts((Act.REVISION, TODAY, DISMISSED))
    assert p.current_outcome(revised) is DISMISSED and p.is_final(revised)
    assert p.effects_undo_due(revised, effects_applied=True)
    assert f.lightens(revised)


def test_art65_sole_paragraph_a_revision_that_would_worsen_is_refused_with_the_reason():
    message = refusal(Act.REVISION, FINAL_DISMISSED, outcome=FALSITY)
    assert message == f.REVISION_WORSENS and "agravar" in message and "art. 65, parágrafo único" in message
    # Nor after an annulment left no decision in force.
    annulled = FINAL_FALSITY + acts((Act.ANNULMENT, TODAY), (Act.AFTER_FINAL_NOTICE, TODAY))
    assert refusal(Act.REVISION, annulled, outcome=FALSITY) == f.REVISION_WORSENS


def test_art65_a_revision_needs_new_facts_and_a_sanction_in_force():
    assert (
        refusal(Act.REVISION, FINAL_FALSITY, outcome=DISMISSED, has_reasons=False) == f.REVISION_NEEDS_FACTS
    )
    assert refusal(Act.REVISION, FINAL_DISMISSED, outcome=DISMISSED) == f.NO_SANCTION
    assert refusal(Act.REVISION_REQUEST, FINAL_DISMISSED) == f.NO_SANCTION
    assert refusal(Act.REVISION, FINAL_FALSITY) == p.NEEDS_OUTCOME


def test_art65_a_request_is_answered_and_keeping_the_sanction_only_answers_a_request():
    assert refusal(Act.REVISION, FINAL_FALSITY, outcome=FALSITY) == f.REVISION_KEEPS_WITHOUT_REQUEST
    requested = FINAL_FALSITY + acts((Act.REVISION_REQUEST, TODAY))
    assert refusal(Act.REVISION_REQUEST, requested) == f.REQUEST_PENDING
    assert refusal(Act.REVISION, requested, outcome=FALSITY) == ""  # the request refused, with reasons
    kept = requested + acts((Act.REVISION, TODAY, FALSITY))
    assert p.current_outcome(kept) is FALSITY and not p.effects_undo_due(kept, effects_applied=True)


def test_art26_a_revision_or_annulment_is_notified_before_another_act():
    revised = FINAL_FALSITY + acts((Act.REVISION, TODAY, DISMISSED))
    assert refusal(Act.AFTER_FINAL_NOTICE, revised) == ""
    assert refusal(Act.ANNULMENT, revised).startswith("A revisão ainda não foi intimada")
    assert refusal(Act.AFTER_FINAL_NOTICE, FINAL_FALSITY) == f.NOTHING_TO_NOTIFY
    pending = revised + acts((Act.AFTER_FINAL_NOTICE, None))
    assert not p.notice_in_effect(Act.AFTER_FINAL_NOTICE, pending)
    notified = revised + acts((Act.AFTER_FINAL_NOTICE, D(2026, 9, 3)))
    assert p.notice_in_effect(Act.AFTER_FINAL_NOTICE, notified)
    assert refusal(Act.AFTER_FINAL_NOTICE, notified) == f.NOTHING_TO_NOTIFY


def test_art53_annulment_of_the_decision_in_force_leaves_none_and_undoes_a_falsity():
    assert refusal(Act.ANNULMENT, FINAL_FALSITY, has_reasons=False) == f.ANNULMENT_NEEDS_REASONS
    assert refusal(Act.ANNULMENT, FINAL_FALSITY, outcome=DISMISSED) == f.ANNULMENT_NO_OUTCOME
    assert refusal(Act.ANNULMENT, FINAL_FALSITY) == ""
    annulled = FINAL_FALSITY + acts((Act.ANNULMENT, TODAY))
    assert p.current_outcome(annulled) is None and p.effects_undo_due(annulled, effects_applied=True)
    notified = annulled + acts((Act.AFTER_FINAL_NOTICE, TODAY))
    assert refusal(Act.ANNULMENT, notified) == f.ANNULMENT_NEEDS_DECISION


def test_art54_a_favourable_decision_is_annulled_after_five_years_only_on_proven_bad_faith():
    decided_on = D(2026, 4, 6)
    within = D(2031, 4, 6)
    after = D(2031, 4, 7)
    assert f.annulment_art54_refusal(FINAL_DISMISSED, today=within, bad_faith=False) == ""
    message = f.annulment_art54_refusal(FINAL_DISMISSED, today=after, bad_faith=False)
    assert "06/04/2026" in message and "art. 54" in message and decided_on.year == 2026
    assert f.annulment_art54_refusal(FINAL_DISMISSED, today=after, bad_faith=True) == ""
    # An annulment of a falsity favours the candidate: no time limit.
    assert f.annulment_art54_refusal(FINAL_FALSITY, today=D(2040, 1, 1), bad_faith=False) == ""


def test_art65_art53_revision_and_annulment_only_after_the_final_decision():
    not_final = FINAL_FALSITY[:-1]
    for kind in f.AFTER_FINAL_ACTS:
        assert refusal(kind, not_final) == p.ONLY_AFTER_FINAL
