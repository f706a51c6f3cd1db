"""T4, T5, T7 and T10 (issue 23) on built worlds, the numbers worked out by hand in each test."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from candidates.models import AllocationLedger, Nomination
from contests.models import Contest
from declarations.models import Appeal, Commission, CourtOrder, CourtOrderEffect, Session, Verification
from monitoring import court_orders, exposure, hetero
from monitoring.indicators import Scope
from tests.builders import make_contest, make_position, policy
from tests.declarations.courts_world import make_court_order
from tests.monitoring.test_indicators import scope, world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db
D = datetime.date


def test_t4_exposure_positions_below_threshold_splitting_and_short_contests():
    # Santa Maria: 20%, a reserve from 3 vacancies, half up. First contest (homologated 01/06/2026, valid 24
    # months): X 5 vacancies (reserves 1), Y 2 and Professor 2 (below the threshold: 0 each). Its 9
    # vacancies together would reserve 20% of 9 = 1,8 → 2 > 1. Second contest, edital 01/09/2026 (within
    # the first's validity): Professor 2 again (0); the two Professor positions together, 4 vacancies,
    # would reserve 20% of 4 = 0,8 → 1 > 0: the splitting ADC 41 warns against.
    first = make_contest(
        slug="c-t4-a", homologation_date=D(2026, 6, 1), validity_months=24, status=Contest.Status.HOMOLOGATED
    )
    make_position(first, vacancies=5, code="X", title="Auxiliar")
    make_position(first, vacancies=2, code="Y", title="Motorista")
    make_position(first, vacancies=2, code="P", title="Professor")
    second = make_contest(slug="c-t4-b", edital_date=D(2026, 9, 1))
    make_position(second, vacancies=2, code="P2", title="professor ")
    found = exposure.exposure(Scope(policy(), D(2026, 1, 1), D(2026, 12, 31)))
    assert sorted(p.code for p in found.below_threshold) == ["P", "P2", "Y"]
    assert found.escaped == 6
    (split,) = found.splits
    assert (split.reserved_apart, split.reserved_together) == (0, 1)
    assert sorted(p.code for p in split.positions) == ["P", "P2"]
    (short,) = found.short_contests
    assert (short.contest.slug, short.vacancies, short.reserved_apart, short.reserved_together) == (
        "c-t4-a",
        9,
        1,
        2,
    )


def _verification(session, registration, **fields) -> Verification:
    return Verification.objects.create(
        session=session, registration=registration, basis="phenotype", **fields
    )


def test_t5_heteroidentification_called_present_results_appeals_consequences(world, cast):  # noqa: F811
    contest = world["contest"]
    first = Commission.objects.create(contest=contest, kind="first", size=5, formed_on=D(2026, 6, 1))
    appeal_commission = Commission.objects.create(
        contest=contest, kind="appeal", size=3, formed_on=D(2026, 6, 1)
    )
    at = datetime.datetime(2026, 6, 20, 13, tzinfo=datetime.UTC)
    session = Session.objects.create(commission=first, starts_at=at, place="Sala 1")
    appeal_session = Session.objects.create(
        commission=appeal_commission, starts_at=at + datetime.timedelta(days=10), place="Sala 2"
    )
    people = {r.number: r for r in world["position"].registrations.all()}
    # N1 confirmed. N2 not confirmed, appealed, confirmed on appeal (reversed). N3 absent, moved to open
    # competition. E (called as well) present, not confirmed, appeal period over, eliminated.
    _verification(session, people["N1"], attended=True, outcome="confirmed")
    n2 = _verification(
        session, people["N2"], attended=True, outcome="not_confirmed", appeal_deadline=D(2026, 6, 25)
    )
    judged = _verification(appeal_session, people["N2"], attended=True, outcome="confirmed")
    Appeal.objects.create(verification=n2, reasons="Razões.", filed_at=at, judged_in=judged)
    _verification(
        session,
        people["N3"],
        attended=False,
        outcome="absent",
        consequence="keep_open",
        consequence_applied_on=D(2026, 6, 21),
    )
    _verification(
        session,
        people["E"],
        attended=True,
        outcome="not_confirmed",
        appeal_deadline=D(2026, 6, 25),
        consequence="eliminate",
        consequence_applied_on=D(2026, 7, 1),
    )
    (line,) = hetero.heteroidentification(scope(world))
    assert line.counts == {
        "called": 4,
        "present": 3,
        "absent": 1,
        "unrecorded": 0,
        "confirmed": 2,  # N1, N2 after the appeal
        "not_confirmed": 1,  # E
        "pending": 0,
        "appeals": 1,
        "reversed": 1,
        "moved_to_open": 1,
        "eliminated": 1,
        "reinstated": 0,
    }
    # Before the appeal commission's session existed the appeal was still pending: by 22/06 the called
    # are the same, N2 without a final result.
    (early,) = hetero.heteroidentification(scope(world, end=D(2026, 6, 22)))
    assert (early.counts["called"], early.counts["eliminated"], early.counts["moved_to_open"]) == (4, 0, 1)


def test_t7_court_orders_sub_judice_seats_kept_complied_revoked(world, cast):  # noqa: F811
    contest = world["contest"]
    people = {r.number: r for r in world["position"].registrations.all()}
    keep = make_court_order(contest, cast["legal"], [people["N2"]])
    CourtOrderEffect.objects.create(order=keep, registration=people["N2"], applied_on=timezone.localdate())
    suspend = make_court_order(contest, cast["legal"], [people["B"], people["C"]], effect="reinclude_lists")
    CourtOrder.objects.filter(pk=suspend.pk).update(status="revoked", status_on=timezone.localdate())
    found = court_orders.court_orders(scope(world))
    # Two orders; one complied with (its effect applied), one revoked. In effect: the seat kept for N2 only.
    assert (found.orders, found.complied, found.revoked) == (2, 1, 1)
    assert (found.sub_judice, found.seats_kept) == (1, 1)
    assert found.by_cause["Reservar vaga (sem nomeação até decisão)"] == 1
    assert sum(found.by_cause.values()) == 1  # B and C: their order fell


def test_t10_conformance_lists_and_order_and_reports_on_time(world):  # noqa: F811
    (line,) = exposure.conformance(scope(world))
    # The final list was published with a racial list (N2, N3 on it); the seats were called.
    assert (line.separate_lists, line.order_rule) == ("sim", "sim")
    assert line.reserve_in_edital in ("sim", "ainda não")
    # Before the calls (10/06/2026): no nomination yet.
    (before,) = exposure.conformance(scope(world, end=D(2026, 6, 9)))
    assert before.order_rule == "ainda não"


def test_t10_a_nomination_not_decided_by_the_engine_breaks_the_order_rule(world):  # noqa: F811
    """The order rule is checked against the engine's ledger, not taken for granted: a nomination whose seat
    kind was edited outside the engine (a reserved seat recorded as open competition), then one whose
    position has no ledger at all, each make the contest's line "não"."""
    nomination = Nomination.objects.filter(position__contest=world["contest"]).order_by("order").first()
    assert nomination is not None
    kind = nomination.seat_kind
    other = next(choice for choice, _ in Nomination._meta.get_field("seat_kind").choices if choice != kind)
    Nomination.objects.filter(pk=nomination.pk).update(seat_kind=other)
    (line,) = exposure.conformance(scope(world))
    assert line.order_rule == "não"
    Nomination.objects.filter(pk=nomination.pk).update(seat_kind=kind)
    assert exposure.conformance(scope(world))[0].order_rule == "sim"
    AllocationLedger.objects.filter(position=nomination.position).delete()
    assert exposure.conformance(scope(world))[0].order_rule == "não"
