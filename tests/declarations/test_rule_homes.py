"""The rules the screens used to decide themselves, now in the pure modules that own them (code review): the
reconsideration's judgement mapped to an outcome (Lei 9.784 art. 56 §1º, was in the form), the warning
before a late appeal (arts. 48, 63 I, was computed in the candidate's view) and whether a justified absence
may be called again (the heteroidentification's second call, was decided in the session's template).
No database."""

from __future__ import annotations

import datetime

import pytest

from declarations.hetero import rules as hetero
from declarations.procedure import appeals
from declarations.procedure import rules as p
from declarations.procedure.rules import Act, Outcome, Period
from tests.declarations.test_procedure import DECISION_NOTIFIED

D = datetime.date
POLICY = p.Policy()


@pytest.mark.parametrize(
    ("judgement", "current", "outcome"),
    [
        ("maintain", Outcome.FALSITY, Outcome.FALSITY),
        ("maintain", Outcome.DISMISSED, Outcome.DISMISSED),
        ("reconsider", Outcome.FALSITY, Outcome.DISMISSED),
        ("reconsider", Outcome.DISMISSED, Outcome.FALSITY),
        ("maintain", None, Outcome.FALSITY),
    ],
)
def test_art56_s1_the_reconsiderations_judgement_keeps_or_changes_the_outcome_in_force(
    judgement, current, outcome
):
    assert appeals.reconsideration_outcome(judgement, current) is outcome


def test_art56_s1_the_judgements_are_offered_in_the_laws_words():
    assert dict(appeals.JUDGEMENT_LABELS) == {
        appeals.Judgement.RECONSIDER: "Reconsiderar a decisão",
        appeals.Judgement.MAINTAIN: "Manter e encaminhar à instância superior",
    }


def test_art63_i_the_candidate_is_warned_before_filing_a_late_appeal():
    end = D(2026, 4, 18)
    ends = {Period.APPEAL: end}
    assert p.late_appeal_warning(DECISION_NOTIFIED, POLICY, today=end, ends=ends) == ""
    warning = p.late_appeal_warning(DECISION_NOTIFIED, POLICY, today=D(2026, 4, 19), ends=ends)
    assert warning == appeals.LATE_APPEAL_WARNING.format(end="18/04/2026")
    assert Act.APPEAL in p.allowed(DECISION_NOTIFIED, POLICY, today=D(2026, 4, 19), ends=ends)
    # No appeal period running: nothing to warn of.
    assert p.late_appeal_warning(DECISION_NOTIFIED, POLICY, today=D(2026, 4, 19), ends={}) == ""


def _refusal(**changes) -> str | None:
    facts = {
        "allowed": True,
        "outcome": hetero.Outcome.ABSENT,
        "kind": hetero.Kind.FIRST,
        "is_second_call": False,
        "applied": False,
        "called": False,
    }
    return hetero.second_call_refusal(**{**facts, **changes})


def test_rules_s5_the_second_call_is_offered_only_where_it_may_be_recorded():
    assert _refusal() is None
    assert _refusal(called=True) == hetero.SECOND_CALL_DONE
    assert "edital" in (_refusal(allowed=False) or "")
    assert "ausente" in (_refusal(outcome=hetero.Outcome.CONFIRMED) or "")
    assert "ausente" in (_refusal(kind=hetero.Kind.APPEAL) or "")
    assert "única" in (_refusal(is_second_call=True) or "")
    assert "aplicada" in (_refusal(applied=True) or "")
    # Recording it asks the justification too, with the same refusals first.
    assert (
        hetero.second_call_problem(
            allowed=True,
            outcome="absent",
            kind="first",
            justification="",
            is_second_call=False,
            applied=False,
        )
        == "Registre a justificativa da ausência e o documento que a comprova."
    )
