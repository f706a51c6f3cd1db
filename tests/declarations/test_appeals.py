"""The appeal's rules (``declarations/procedure/appeals.py``, called from ``rules``), clause by clause: a third
party's appeal (Lei 9.784 arts. 58, 62, 64 sole paragraph), an appeal not heard (arts. 48, 63) and its review
(art. 63 §2º), forwarding by default (art. 56 §1º), no late extension (art. 49). No database."""

from __future__ import annotations

import datetime

from declarations.procedure import appeals as a
from declarations.procedure import rules as p
from declarations.procedure.rules import Act, ActRecord, Outcome, Period
from tests.declarations.test_procedure import CLOSED, DECISION_NOTIFIED, REPORTED, acts

D = datetime.date
POLICY = p.Policy()
FALSITY, DISMISSED = Outcome.FALSITY, Outcome.DISMISSED
APPEAL_END = D(2026, 4, 18)

# A dismissal, appealed by the next cotista (art. 58 II).
DISMISSAL_NOTIFIED = REPORTED + acts(
    (Act.DECISION, D(2026, 4, 6), DISMISSED), (Act.DECISION_NOTICE, D(2026, 4, 8))
)
THIRD_PARTY_APPEAL = (*DISMISSAL_NOTIFIED, ActRecord(Act.APPEAL, D(2026, 4, 15), third_party=True))
APPEAL_NOTIFIED = THIRD_PARTY_APPEAL + acts((Act.APPEAL_NOTICE, D(2026, 4, 16)))
# Thu 16 April + 5 business days (Tiradentes on Tue 21): Fri 17, Mon 20, Wed 22, Thu 23, Fri 24.
ANSWER_END = D(2026, 4, 24)
ENDS = {Period.APPEAL: APPEAL_END, Period.RECONSIDERATION: D(2026, 4, 20), Period.APPEAL_ANSWER: ANSWER_END}


def refuse(kind, state, today, ends=ENDS, outcome=None, policy=POLICY) -> str:
    return p.refusal(kind, state, policy, today=today, ends=ends, outcome=outcome)


def test_art62_a_third_party_appeal_is_notified_to_the_candidate_and_only_once():
    assert refuse(Act.APPEAL_NOTICE, THIRD_PARTY_APPEAL, D(2026, 4, 16)) == ""
    assert Act.APPEAL_NOTICE in p.allowed(THIRD_PARTY_APPEAL, POLICY, today=D(2026, 4, 16), ends=ENDS)
    assert refuse(Act.APPEAL_NOTICE, APPEAL_NOTIFIED, D(2026, 4, 17)) == a.APPEAL_NOTIFIED
    # The candidate's own appeal against falsity: nobody else to notify through this path.
    own = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 15)))
    assert refuse(Act.APPEAL_NOTICE, own, D(2026, 4, 16)) == a.NO_THIRD_PARTY_APPEAL
    assert refuse(Act.APPEAL_NOTICE, DISMISSAL_NOTIFIED, D(2026, 4, 16)) == a.NO_THIRD_PARTY_APPEAL


def test_art62_the_answer_period_is_five_business_days_from_the_notice_and_the_candidate_files_it():
    (start,) = p.deadlines_started(APPEAL_NOTIFIED[-1], APPEAL_NOTIFIED[:-1], POLICY)
    assert (start.period, start.start, start.amount, start.unit) == (
        Period.APPEAL_ANSWER,
        D(2026, 4, 16),
        5,
        "business-days",
    )
    assert start.candidate_files and Act.APPEAL_ANSWER in p.CANDIDATE_ACTS
    assert refuse(Act.APPEAL_ANSWER, THIRD_PARTY_APPEAL, D(2026, 4, 16)) == a.NO_APPEAL_NOTICE
    assert refuse(Act.APPEAL_ANSWER, APPEAL_NOTIFIED, ANSWER_END) == ""
    assert "24/04/2026" in refuse(Act.APPEAL_ANSWER, APPEAL_NOTIFIED, D(2026, 4, 25))
    answered = APPEAL_NOTIFIED + acts((Act.APPEAL_ANSWER, D(2026, 4, 20)))
    assert refuse(Act.APPEAL_ANSWER, answered, D(2026, 4, 21)) == a.ANSWER_ONCE


def test_art64_sole_paragraph_no_reconsideration_for_the_worse_before_the_candidate_is_heard():
    worse = {"outcome": FALSITY}
    assert refuse(
        Act.RECONSIDERATION, THIRD_PARTY_APPEAL, D(2026, 4, 16), **worse
    ) == a.WORSE_NEEDS_NOTICE.format(days=5)
    assert "24/04/2026" in refuse(Act.RECONSIDERATION, APPEAL_NOTIFIED, D(2026, 4, 17), **worse)
    answered = APPEAL_NOTIFIED + acts((Act.APPEAL_ANSWER, D(2026, 4, 17)))
    assert refuse(Act.RECONSIDERATION, answered, D(2026, 4, 17), **worse) == ""
    # Maintaining the dismissal harms nobody heard: no wait.
    assert refuse(Act.RECONSIDERATION, THIRD_PARTY_APPEAL, D(2026, 4, 16), outcome=DISMISSED) == ""


def test_art64_sole_paragraph_the_superior_decision_for_the_worse_waits_for_the_answer_period_too():
    forwarded = APPEAL_NOTIFIED + acts((Act.RECONSIDERATION, D(2026, 4, 17), DISMISSED))
    assert "24/04/2026" in refuse(Act.SUPERIOR_DECISION, forwarded, ANSWER_END, outcome=FALSITY)
    assert refuse(Act.SUPERIOR_DECISION, forwarded, D(2026, 4, 25), outcome=FALSITY) == ""
    assert refuse(Act.SUPERIOR_DECISION, forwarded, ANSWER_END, outcome=DISMISSED) == ""


def test_art63_i_a_late_appeal_is_declared_not_heard_and_does_not_stop_finality():
    late = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 20)))
    assert refuse(Act.APPEAL, DECISION_NOTIFIED, D(2026, 4, 20)) == ""  # recorded, not refused
    message = refuse(Act.RECONSIDERATION, late, D(2026, 4, 21), outcome=FALSITY)
    assert "20/04/2026" in message and "não conhecido" in message
    assert p.final_refusal(late, POLICY, today=D(2026, 4, 21), ends=ENDS) == p.FINAL_APPEAL_PENDING
    assert refuse(Act.APPEAL_NOT_HEARD, late, D(2026, 4, 21)) == ""
    not_heard = late + acts((Act.APPEAL_NOT_HEARD, D(2026, 4, 21)))
    assert refuse(Act.FINAL, not_heard, D(2026, 4, 21)) == ""
    assert (
        refuse(Act.RECONSIDERATION, not_heard, D(2026, 4, 21), outcome=FALSITY) == p.NO_APPEAL_TO_RECONSIDER
    )
    assert refuse(Act.APPEAL_NOT_HEARD, not_heard, D(2026, 4, 21)) == a.NO_APPEAL_TO_JUDGE


def test_art63_i_only_a_late_appeal_is_not_heard_as_late_and_the_ground_is_required():
    in_time = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 15)))
    late = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 20)))

    def check(state, ground):
        return a.appeal_fields_refusal(
            Act.APPEAL_NOT_HEARD,
            state,
            ends=ENDS,
            today=D(2026, 4, 21),
            standing="",
            filed_by="",
            ground=ground,
        )

    assert check(in_time, "late") == (a.NOT_LATE.format(filed="15/04/2026", end="18/04/2026"), "ground")
    assert check(late, "late") == ("", "")
    assert check(in_time, "illegitimate") == ("", "")
    assert check(in_time, "") == (a.NOT_HEARD_NEEDS_GROUND, "ground")


def test_art58_a_third_partys_appeal_names_the_appellant():
    def check(standing, name):
        return a.appeal_fields_refusal(
            Act.APPEAL,
            DISMISSAL_NOTIFIED,
            ends=ENDS,
            today=D(2026, 4, 15),
            standing=standing,
            filed_by=name,
            ground="",
        )

    assert check("affected", "") == (a.THIRD_PARTY_NEEDS_NAME, "filed_by")
    assert check("affected", "Maria, próxima cotista") == ("", "")
    assert check("", "") == ("", "")  # the candidate
    assert a.is_third_party("affected") and not a.is_third_party("party") and not a.is_third_party("")


def test_art63_par2_an_appeal_not_heard_may_be_reviewed_ex_officio():
    late = (*THIRD_PARTY_APPEAL[:-1], ActRecord(Act.APPEAL, D(2026, 4, 20), third_party=True))
    not_heard = late + acts((Act.APPEAL_NOT_HEARD, D(2026, 4, 21)))
    assert refuse(Act.APPEAL_REVIEW, not_heard, D(2026, 4, 23), outcome=DISMISSED) == ""
    # For the worse, only after the candidate was heard on the appeal (arts. 62, 64 sole paragraph).
    assert refuse(
        Act.APPEAL_REVIEW, not_heard, D(2026, 4, 23), outcome=FALSITY
    ) == a.WORSE_NEEDS_NOTICE.format(days=5)
    assert refuse(Act.APPEAL_NOTICE, not_heard, D(2026, 4, 23)) == ""
    reviewed = not_heard + acts((Act.APPEAL_REVIEW, D(2026, 4, 23), DISMISSED))
    assert refuse(Act.APPEAL_REVIEW, reviewed, D(2026, 4, 24), outcome=DISMISSED) == a.NO_APPEAL_NOT_HEARD
    assert refuse(Act.DECISION_NOTICE, reviewed, D(2026, 4, 24)) == ""
    # Without an appeal not heard there is nothing to review; after finality, revision and annulment
    # (arts. 65, 53) take its place.
    assert (
        refuse(Act.APPEAL_REVIEW, DECISION_NOTIFIED, D(2026, 4, 21), outcome=DISMISSED)
        == a.NO_APPEAL_NOT_HEARD
    )
    final = not_heard + acts((Act.FINAL, D(2026, 4, 22)))
    assert refuse(Act.APPEAL_REVIEW, final, D(2026, 4, 23), outcome=DISMISSED) != ""


def test_art56_par1_the_appeal_goes_to_the_superior_by_default_when_the_authority_does_not_reconsider():
    appealed = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 15)))
    ends = {**ENDS, Period.RECONSIDERATION: D(2026, 4, 20)}
    assert refuse(Act.SUPERIOR_DECISION, appealed, D(2026, 4, 20), ends=ends, outcome=FALSITY) == (
        a.NOT_FORWARDED.format(days=5)
    )
    assert refuse(Act.SUPERIOR_DECISION, appealed, D(2026, 4, 21), ends=ends, outcome=FALSITY) == ""
    assert Act.SUPERIOR_DECISION in p.allowed(appealed, POLICY, today=D(2026, 4, 21), ends=ends)
    note = a.forwarding_note(appealed, POLICY, today=D(2026, 4, 21), ends=ends)
    assert "20/04/2026" in note and "encaminhado à instância superior" in note
    assert a.forwarding_note(appealed, POLICY, today=D(2026, 4, 20), ends=ends) == ""


def test_art49_no_extension_once_the_decision_period_ended():
    ends = {**ENDS, Period.DECISION: D(2026, 4, 19)}
    assert refuse(Act.DECISION_EXTENSION, CLOSED, D(2026, 4, 19), ends=ends) == ""
    message = refuse(Act.DECISION_EXTENSION, CLOSED, D(2026, 4, 20), ends=ends)
    assert message == a.EXTENSION_LATE.format(period="prazo para decidir", day="19/04/2026")
