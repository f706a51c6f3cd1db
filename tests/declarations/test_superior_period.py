"""Issue 21 leftover: after the appeal is forwarded to the superior by default (Lei 9.784 art. 56 §1º: five
days without reconsideration), the superior's own period (art. 59 §1º: thirty days, once thirty more with
reasons, §2º) counts from the forwarding day, as it does from a reconsideration that maintains the decision;
the case page shows it, and an extension after it ended is refused (art. 49)."""

from __future__ import annotations

import datetime

from declarations.procedure import appeals as a
from declarations.procedure import rules as p
from declarations.procedure.rules import Act, ActRecord, Outcome, Period
from tests.declarations.test_procedure import DECISION_NOTIFIED, acts

D = datetime.date
POLICY = p.Policy()
APPEALED = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 15)))
# Appeal on 15/04: the five days to reconsider end on Mon 20/04; the appeal reaches the superior on 21/04.
ENDS = {Period.APPEAL: D(2026, 4, 18), Period.RECONSIDERATION: D(2026, 4, 20)}


def test_art59_s1_the_superiors_thirty_days_count_from_the_forwarding_by_default():
    start = a.superior_start_by_default(APPEALED, POLICY, ends=ENDS)
    assert start is not None
    assert (start.period, start.start, start.amount, start.unit) == (
        Period.SUPERIOR_DECISION,
        D(2026, 4, 21),
        30,
        "days",
    )
    assert start.act_index == len(APPEALED) - 1  # the appeal: a superior decision after it ends the wait
    assert p.period_done(start, (*APPEALED, ActRecord(Act.SUPERIOR_DECISION, D(2026, 5, 4), Outcome.FALSITY)))


def test_art59_s2_an_extension_after_the_forwarding_adds_thirty_days_once():
    extended = APPEALED + acts((Act.DECISION_EXTENSION, D(2026, 5, 10)))
    start = a.superior_start_by_default(extended, POLICY, ends=ENDS)
    assert start is not None and start.amount == 60 and start.start == D(2026, 4, 21)


def test_art56_s1_no_default_start_while_the_authority_may_still_reconsider_or_once_it_did():
    assert a.superior_start_by_default(APPEALED, POLICY, ends={Period.APPEAL: D(2026, 4, 18)}) is None
    maintained = APPEALED + acts((Act.RECONSIDERATION, D(2026, 4, 17), Outcome.FALSITY))
    assert a.superior_start_by_default(maintained, POLICY, ends=ENDS) is None
    # The maintained decision starts the period itself, from the reconsideration (rules.STARTS).
    assert p.running_periods(maintained, POLICY)[Period.SUPERIOR_DECISION].start == D(2026, 4, 17)


def test_art49_no_extension_of_the_superiors_period_once_it_ended_after_a_default_forwarding():
    # The superior decides, then the case page's ends hold its period too: 21/04 + 30 days = 21/05.
    ends = {**ENDS, Period.SUPERIOR_DECISION: D(2026, 5, 21)}
    decided = APPEALED
    assert p.refusal(Act.DECISION_EXTENSION, decided, POLICY, today=D(2026, 5, 21), ends=ends) == ""
    assert p.refusal(
        Act.DECISION_EXTENSION, decided, POLICY, today=D(2026, 5, 22), ends=ends
    ) == a.EXTENSION_LATE.format(period="prazo para julgar o recurso", day="21/05/2026")
