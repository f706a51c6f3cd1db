"""The procedure's state machine (``declarations/procedure/rules.py``), clause by clause. No database."""

from __future__ import annotations

import datetime

import pytest

from declarations.procedure import appeals as a
from declarations.procedure import finality
from declarations.procedure import notices as n
from declarations.procedure import rules as p
from declarations.procedure.rules import Act, ActRecord, Outcome, Period

D = datetime.date
POLICY = p.Policy()
FALSITY, DISMISSED = Outcome.FALSITY, Outcome.DISMISSED


def acts(*items) -> tuple[ActRecord, ...]:
    """``(kind, day[, outcome])`` tuples → records."""
    return tuple(ActRecord(item[0], item[1], item[2] if len(item) > 2 else None) for item in items)


OPENED = acts((Act.OPENING, D(2026, 3, 2)))
NOTIFIED = OPENED + acts((Act.NOTICE, D(2026, 3, 6)))
DEFENDED = NOTIFIED + acts((Act.DEFENCE, D(2026, 3, 10)))
CLOSED = DEFENDED + acts((Act.INSTRUCTION_CLOSED, D(2026, 3, 20)))
STATED = CLOSED + acts((Act.FINAL_STATEMENT, D(2026, 3, 25)))
REPORTED = STATED + acts((Act.REPORT, D(2026, 3, 30)))
DECIDED = REPORTED + acts((Act.DECISION, D(2026, 4, 6), FALSITY))
DECISION_NOTIFIED = DECIDED + acts((Act.DECISION_NOTICE, D(2026, 4, 8)))
APPEALED = DECISION_NOTIFIED + acts((Act.APPEAL, D(2026, 4, 15)))
MAINTAINED = APPEALED + acts((Act.RECONSIDERATION, D(2026, 4, 17), FALSITY))
SUPERIOR = MAINTAINED + acts((Act.SUPERIOR_DECISION, D(2026, 5, 4), FALSITY))
SUPERIOR_NOTIFIED = SUPERIOR + acts((Act.DECISION_NOTICE, D(2026, 5, 6)))

# Ends of the periods the tests assume (the deadlines module computes them in the services).
DEFENCE_END = D(2026, 3, 16)
APPEAL_END = D(2026, 4, 18)
ENDS = {Period.DEFENCE: DEFENCE_END, Period.FINAL_STATEMENT: D(2026, 3, 30), Period.APPEAL: APPEAL_END}


LATER = D(2026, 6, 1)
FORWARD_REFUSED = a.NOT_FORWARDED.format(days=5)


def refuse(kind, state, today=LATER, ends=ENDS, outcome=None, policy=POLICY, **kw) -> str:
    if outcome is None and kind in p.DECIDING_ACTS:
        outcome = FALSITY
    return p.refusal(kind, state, policy, today=today, ends=ends, outcome=outcome, **kw)


@pytest.mark.parametrize(
    ("state", "kind", "today"),
    [
        ((), Act.OPENING, D(2026, 3, 2)),
        (OPENED, Act.NOTICE, D(2026, 3, 3)),
        (NOTIFIED, Act.DEFENCE, D(2026, 3, 10)),
        (NOTIFIED, Act.EVIDENCE, D(2026, 3, 10)),
        (NOTIFIED, Act.HEARING, D(2026, 3, 10)),
        (DEFENDED, Act.INSTRUCTION_CLOSED, D(2026, 3, 11)),
        (CLOSED, Act.FINAL_STATEMENT, D(2026, 3, 25)),
        (CLOSED, Act.DECISION_EXTENSION, D(2026, 3, 25)),
        (STATED, Act.REPORT, D(2026, 3, 26)),
        (REPORTED, Act.DECISION, D(2026, 4, 1)),
        (DECIDED, Act.DECISION_NOTICE, D(2026, 4, 7)),
        (DECISION_NOTIFIED, Act.APPEAL, D(2026, 4, 10)),
        (APPEALED, Act.RECONSIDERATION, D(2026, 4, 16)),
        (MAINTAINED, Act.SUPERIOR_DECISION, D(2026, 5, 1)),
        (MAINTAINED, Act.DECISION_EXTENSION, D(2026, 5, 1)),
        (SUPERIOR, Act.DECISION_NOTICE, D(2026, 5, 5)),
        (SUPERIOR_NOTIFIED, Act.APPEAL, D(2026, 5, 8)),
    ],
)
def test_lei9784_the_lawful_next_act_is_allowed(state, kind, today):
    ends = {k: v for k, v in ENDS.items() if k is not Period.APPEAL or state is DECISION_NOTIFIED}
    assert refuse(kind, state, today=today, ends=ends) == ""


@pytest.mark.parametrize(
    ("state", "kind", "message"),
    [
        ((), Act.NOTICE, p.OPENING_FIRST),
        (OPENED, Act.OPENING, p.OPENED_ONCE),
        (OPENED, Act.DEFENCE, p.NEEDS_NOTICE),
        (OPENED, Act.DECISION, p.NEEDS_NOTICE),
        (NOTIFIED, Act.NOTICE, p.NOTICE_DONE),
        (DEFENDED, Act.DEFENCE, p.DEFENCE_ONCE),
        (CLOSED, Act.EVIDENCE, p.INSTRUCTION_OVER),
        (CLOSED, Act.HEARING, p.INSTRUCTION_OVER),
        (DEFENDED, Act.FINAL_STATEMENT, p.NEEDS_INSTRUCTION_CLOSED),
        (DEFENDED, Act.REPORT, p.NEEDS_INSTRUCTION_CLOSED),
        (STATED, Act.FINAL_STATEMENT, p.FINAL_STATEMENT_ONCE),
        (CLOSED, Act.DECISION, p.NEEDS_REPORT),
        (DECIDED, Act.DECISION, p.DECIDED_ONCE),
        (REPORTED, Act.DECISION_NOTICE, p.NOTHING_TO_NOTIFY),
        (DECIDED, Act.APPEAL, p.NO_DECISION_TO_APPEAL),
        (APPEALED, Act.APPEAL, p.APPEAL_ONCE),
        (DECISION_NOTIFIED, Act.RECONSIDERATION, p.NO_APPEAL_TO_RECONSIDER),
        (APPEALED, Act.SUPERIOR_DECISION, FORWARD_REFUSED),
        (MAINTAINED, Act.RECONSIDERATION, p.NO_APPEAL_TO_RECONSIDER),
        (REPORTED, Act.FINAL, p.FINAL_NEEDS_DECISION),
        (DECIDED, Act.FINAL, p.FINAL_NEEDS_DECISION),
        (APPEALED, Act.FINAL, p.FINAL_APPEAL_PENDING),
        (NOTIFIED, Act.DECISION_EXTENSION, p.EXTENSION_NOTHING_PENDING),
        (DECIDED, Act.DECISION_EXTENSION, p.EXTENSION_NOTHING_PENDING),
    ],
)
def test_lei9784_an_unlawful_act_is_refused_with_the_reason(state, kind, message):
    assert refuse(kind, state) == message


def test_art3_iii_no_decision_before_the_defence_period_ends_or_a_defence_is_filed():
    reported_without_defence = NOTIFIED + acts(
        (Act.INSTRUCTION_CLOSED, D(2026, 3, 20)), (Act.REPORT, D(2026, 3, 30))
    )
    message = refuse(Act.DECISION, reported_without_defence, today=DEFENCE_END)
    assert "16/03/2026" in message and "defesa" in message
    assert refuse(Act.DECISION, reported_without_defence, today=DEFENCE_END + datetime.timedelta(1)) == ""
    assert refuse(Act.DECISION, REPORTED, today=D(2026, 3, 11)) == ""  # a defence was filed


def test_art3_iii_the_instruction_is_not_closed_while_the_defence_period_runs():
    assert "16/03/2026" in refuse(Act.INSTRUCTION_CLOSED, NOTIFIED, today=DEFENCE_END)
    assert refuse(Act.INSTRUCTION_CLOSED, NOTIFIED, today=D(2026, 3, 17)) == ""


def test_art26_a_notice_awaiting_acknowledgement_starts_nothing():
    pending = OPENED + acts((Act.NOTICE, None))
    assert refuse(Act.DEFENCE, pending) == p.NEEDS_NOTICE
    assert p.running_periods(pending, POLICY) == {}
    assert refuse(Act.NOTICE, pending) == ""  # the notice may be repeated by another means


def test_art66_a_late_defence_is_refused_with_the_day_the_period_ended():
    assert refuse(Act.DEFENCE, NOTIFIED, today=DEFENCE_END) == ""
    message = refuse(Act.DEFENCE, NOTIFIED, today=D(2026, 3, 17))
    assert "16/03/2026" in message and "Prazo encerrado" in message


def test_art44_the_report_waits_for_the_final_statement_period():
    closing_notified = CLOSED + acts((Act.CLOSING_NOTICE, D(2026, 3, 20)))
    assert "30/03/2026" in refuse(Act.REPORT, closing_notified, today=D(2026, 3, 30))
    assert refuse(Act.REPORT, closing_notified, today=D(2026, 3, 31)) == ""
    assert refuse(Act.REPORT, CLOSED, today=D(2026, 3, 31)) == p.CLOSING_NOT_NOTIFIED


def test_art63_i_a_late_appeal_is_recorded_then_not_heard():
    assert refuse(Act.APPEAL, DECISION_NOTIFIED, today=APPEAL_END) == ""
    assert refuse(Act.APPEAL, DECISION_NOTIFIED, today=D(2026, 4, 19)) == ""  # recorded, not refused


def test_art59_an_appeal_waits_for_the_decision_notice_to_take_effect():
    pending = DECIDED + acts((Act.DECISION_NOTICE, None))
    assert refuse(Act.APPEAL, pending) == p.NOTICE_PENDING


def test_art57_no_appeal_beyond_the_configured_instances():
    two = p.Policy(appeal_instances=2)
    assert refuse(Act.APPEAL, SUPERIOR_NOTIFIED, policy=two, ends={}) == p.NO_INSTANCE_LEFT.format(n=2)
    assert refuse(Act.APPEAL, SUPERIOR_NOTIFIED, ends={}) == ""  # the default: three instances
    one = p.Policy(appeal_instances=1)
    assert "1 instâncias" in refuse(Act.APPEAL, DECISION_NOTIFIED, policy=one, today=D(2026, 4, 10))


def test_art57_the_last_instance_is_final_at_once():
    two = p.Policy(appeal_instances=2)
    assert p.final_refusal(SUPERIOR_NOTIFIED, two, today=D(2026, 5, 7), ends={}) == ""


def test_art56_par1_a_reversed_decision_is_notified_not_forwarded():
    reversed_ = APPEALED + acts((Act.RECONSIDERATION, D(2026, 4, 17), DISMISSED))
    assert refuse(Act.SUPERIOR_DECISION, reversed_) == FORWARD_REFUSED
    assert refuse(Act.DECISION_NOTICE, reversed_) == ""
    assert p.current_outcome(reversed_) is DISMISSED
    assert refuse(Act.DECISION_NOTICE, MAINTAINED) == p.NOTHING_TO_NOTIFY


def test_art59_the_decision_is_final_after_the_appeal_period_without_appeal():
    assert p.final_refusal(
        DECISION_NOTIFIED, POLICY, today=APPEAL_END, ends=ENDS
    ) == p.FINAL_APPEAL_OPEN.format(day="18/04/2026")
    assert p.final_refusal(DECISION_NOTIFIED, POLICY, today=D(2026, 4, 19), ends=ENDS) == ""


def test_art50_a_decision_states_its_outcome_and_only_decisions_do():
    assert p.refusal(Act.DECISION, REPORTED, POLICY, today=D(2026, 5, 1), ends=ENDS) == p.NEEDS_OUTCOME
    assert refuse(Act.REPORT, STATED, outcome=FALSITY) == p.NO_OUTCOME


def test_art49_the_decision_period_is_extended_once_with_reasons():
    assert refuse(Act.DECISION_EXTENSION, CLOSED, has_reasons=False) == p.EXTENSION_NEEDS_REASONS
    extended = CLOSED + acts((Act.DECISION_EXTENSION, D(2026, 4, 1)))
    assert refuse(Act.DECISION_EXTENSION, extended) == p.EXTENSION_ONCE
    periods = p.running_periods(extended, POLICY)
    assert periods[Period.DECISION] == p.PeriodStart(Period.DECISION, D(2026, 3, 20), 60)


def test_art59_par2_the_superior_may_extend_once_too():
    extended = MAINTAINED + acts((Act.DECISION_EXTENSION, D(2026, 5, 1)))
    assert refuse(Act.DECISION_EXTENSION, extended) == p.EXTENSION_ONCE
    assert p.running_periods(extended, POLICY)[Period.SUPERIOR_DECISION].amount == 60


def test_closed_case_takes_no_act():
    final = DECISION_NOTIFIED + acts((Act.FINAL, D(2026, 4, 20)))
    for kind in set(Act) - finality.AFTER_FINAL_ACTS:
        assert refuse(kind, final) == p.CLOSED


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (NOTIFIED, {Period.DEFENCE: p.PeriodStart(Period.DEFENCE, D(2026, 3, 6), 10)}),
        (
            CLOSED + acts((Act.CLOSING_NOTICE, D(2026, 3, 20))),
            {
                Period.DEFENCE: p.PeriodStart(Period.DEFENCE, D(2026, 3, 6), 10),
                Period.FINAL_STATEMENT: p.PeriodStart(Period.FINAL_STATEMENT, D(2026, 3, 20), 10),
                Period.DECISION: p.PeriodStart(Period.DECISION, D(2026, 3, 20), 30),
            },
        ),
    ],
)
def test_art24_art44_art49_deadlines_each_act_starts_with_the_policy_defaults(state, expected):
    assert p.running_periods(state, POLICY) == expected


def test_art59_art56_the_appeal_reconsideration_and_superior_periods():
    periods = p.running_periods(MAINTAINED, POLICY)
    assert periods[Period.APPEAL] == p.PeriodStart(Period.APPEAL, D(2026, 4, 8), 10)
    assert periods[Period.RECONSIDERATION] == p.PeriodStart(Period.RECONSIDERATION, D(2026, 4, 15), 5)
    assert periods[Period.SUPERIOR_DECISION] == p.PeriodStart(Period.SUPERIOR_DECISION, D(2026, 4, 17), 30)


def test_policy_deadlines_are_configurable():
    policy = p.Policy(defence_days=5, appeal_days=15)
    assert p.running_periods(NOTIFIED, policy)[Period.DEFENCE].amount == 5
    assert p.running_periods(DECISION_NOTIFIED, policy)[Period.APPEAL].amount == 15


def test_allowed_lists_the_lawful_next_acts():
    assert p.allowed((), POLICY, today=D(2026, 3, 1), ends={}) == (Act.OPENING,)
    assert p.allowed(OPENED, POLICY, today=D(2026, 3, 3), ends={}) == (Act.NOTICE,)
    during_defence = p.allowed(NOTIFIED, POLICY, today=D(2026, 3, 8), ends=ENDS)
    assert during_defence == (Act.DEFENCE, Act.EVIDENCE, Act.HEARING, Act.DILIGENCE)


# Art. 61: effects --------------------------------------------------------------------------------------


def test_art61_no_effect_before_the_decision_is_final():
    message = p.effects_refusal(DECISION_NOTIFIED, POLICY, today=D(2026, 4, 10), ends=ENDS)
    assert message.startswith("Os efeitos da falsidade só se aplicam") and "18/04/2026" in message
    final = DECISION_NOTIFIED + acts((Act.FINAL, D(2026, 4, 20)))
    assert p.effects_refusal(final, POLICY, today=D(2026, 4, 20), ends=ENDS) == ""


def test_art61_a_policy_may_apply_effects_from_the_first_decision():
    policy = p.Policy(effects_from_first_decision=True)
    assert p.effects_refusal(DECISION_NOTIFIED, policy, today=D(2026, 4, 10), ends=ENDS) == ""
    assert p.effects_refusal(DECIDED, policy, today=D(2026, 4, 10), ends=ENDS) == p.EFFECTS_NEED_NOTICE


@pytest.mark.parametrize(
    ("records", "applied", "due"),
    [
        (DECISION_NOTIFIED, True, False),  # falsity stands
        (MAINTAINED, True, False),  # the reconsideration maintains it
        (APPEALED + acts((Act.RECONSIDERATION, D(2026, 4, 17), DISMISSED)), True, True),
        (MAINTAINED + acts((Act.SUPERIOR_DECISION, D(2026, 5, 4), DISMISSED)), True, True),
        (MAINTAINED + acts((Act.SUPERIOR_DECISION, D(2026, 5, 4), DISMISSED)), False, False),  # none applied
    ],
)
def test_art61_art64_effects_applied_from_the_first_decision_fall_when_a_later_decision_dismisses(
    records, applied, due
):
    assert p.effects_undo_due(records, effects_applied=applied) is due


def test_art61_a_dismissed_case_has_no_effect():
    dismissed = REPORTED + acts(
        (Act.DECISION, D(2026, 4, 6), DISMISSED), (Act.DECISION_NOTICE, D(2026, 4, 8))
    )
    final = dismissed + acts((Act.FINAL, D(2026, 4, 20)))
    assert p.effects_refusal(final, POLICY, today=D(2026, 4, 20), ends={}) == p.NO_FALSITY


# Notices (art. 26) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("means", "unreachable", "edition", "page", "message"),
    [
        (n.Means.EMAIL, False, "", "", ""),
        (n.Means.LETTER, False, "", "", ""),
        (n.Means.IN_PERSON, False, "", "", ""),
        (n.Means.GAZETTE, False, "1234", "5", n.GAZETTE_ONLY_WHEN_UNREACHABLE),
        (n.Means.GAZETTE, True, "", "5", n.GAZETTE_NEEDS_EDITION),
        (n.Means.GAZETTE, True, "1234", "", n.GAZETTE_NEEDS_EDITION),
        (n.Means.GAZETTE, True, "1234", "5", ""),
    ],
)
def test_art26_par3_par4_notice_means(means, unreachable, edition, page, message):
    assert (
        n.notice_refusal(means, candidate_unreachable=unreachable, gazette_edition=edition, gazette_page=page)
        == message
    )


@pytest.mark.parametrize(
    ("basis", "days", "offered"),
    [("", None, False), ("", 10, False), ("Edital item 9.3", None, False), ("Edital item 9.3", 10, True)],
)
def test_rules5_tacit_acknowledgement_only_with_a_recorded_legal_basis(basis, days, offered):
    policy = p.Policy(electronic_notice_basis=basis, tacit_acknowledgement_days=days)
    assert n.tacit_acknowledgement_offered(policy) is offered


# Art. 41 and art. 54 -------------------------------------------------------------------------------------


def test_art41_hearing_notice_at_least_three_business_days_before():
    # RULES §6: hearing Tue 2026-11-24 (20 November a holiday), 3 business days → notify by Tue 2026-11-17.
    common = {"hearing_on": D(2026, 11, 24), "latest_notice_on": D(2026, 11, 17), "business_days": 3}
    assert n.hearing_notice_refusal(notified_on=D(2026, 11, 17), **common) == ""
    message = n.hearing_notice_refusal(notified_on=D(2026, 11, 18), **common)
    assert "17/11/2026" in message and "art. 41" in message


@pytest.mark.parametrize(
    ("act_on", "today", "warns"),
    [
        (D(2021, 3, 2), D(2026, 3, 2), False),
        (D(2021, 3, 2), D(2026, 3, 3), True),
        (D(2020, 2, 29), D(2025, 2, 28), False),
        (D(2020, 2, 29), D(2025, 3, 1), True),
    ],
)
def test_art54_warning_after_five_years(act_on, today, warns):
    assert bool(n.art54_warning(act_on, today)) is warns


def test_art66_a_period_no_longer_binds_once_its_act_is_recorded():
    periods = p.running_periods(DEFENDED, POLICY)
    assert p.period_done(periods[Period.DEFENCE], DEFENDED)
    assert not p.period_done(p.running_periods(NOTIFIED, POLICY)[Period.DEFENCE], NOTIFIED)
    appeal = p.running_periods(APPEALED, POLICY)[Period.APPEAL]
    assert p.period_done(appeal, APPEALED)
    assert not p.period_done(p.running_periods(APPEALED, POLICY)[Period.RECONSIDERATION], APPEALED)


def test_art26_par3_another_means_may_be_tried_and_the_first_to_take_effect_counts():
    pending_email = DECIDED + acts((Act.DECISION_NOTICE, None))
    assert refuse(Act.DECISION_NOTICE, pending_email) == ""  # by letter, say, while the e-mail waits
    by_letter = pending_email + acts((Act.DECISION_NOTICE, D(2026, 4, 9)))
    assert p.notice_in_effect(Act.DECISION_NOTICE, by_letter)
    assert not p.notice_in_effect(Act.DECISION_NOTICE, pending_email)
    assert refuse(Act.DECISION_NOTICE, by_letter) == p.NOTHING_TO_NOTIFY
    assert p.running_periods(by_letter, POLICY)[Period.APPEAL].start == D(2026, 4, 9)
