"""The services of RULES §4 items 7–8: ``registration_reinstate``, ``court_hold``, ``court_release`` record
the engine's events with the ``Nomination`` rows, in one audited transaction."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from candidates.models import AllocationLedger, Nomination, Registration
from candidates.services.nominations import (
    court_hold,
    court_release,
    nominations_call,
    nominations_on_hold,
    registration_reinstate,
)
from candidates.services.status import registration_change_status
from contests.models import Publication
from tests.builders import make_classified_position, make_contest, publish_final

ACT_DATE = datetime.date(2026, 6, 10)
TODAY = datetime.date(2026, 6, 20)
APPEAL = "Provimento do recurso no PA nº 3/2026"


def call(position, by, count, number="Portaria 10/2026"):
    return nominations_call(position=position, count=count, by=by, act_number=number, act_date=ACT_DATE)


def reg(position, number):
    return Registration.objects.get(position=position, number=number)


def eliminate(position, number, by):
    registration_change_status(
        registration=reg(position, number),
        status="eliminated",
        reason="Falsidade: PA nº 3/2026",
        by=by,
        today=TODAY,
    )


def rows(position):
    return [
        (n.order, n.seat, n.registration.number, n.status, n.reinstated, n.displaced)
        for n in Nomination.objects.filter(position=position).order_by("order").select_related("registration")
    ]


@pytest.fixture
def position(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, vacancies=6)
    publish_final(contest, cast["manager"])
    return position


def test_rules_par4_item7_next_seat_reinstated_candidate_gets_the_next_seat(position, cast):
    clerk = cast["clerk"]
    call(position, clerk, 5)
    eliminate(position, "N2", clerk)
    call(position, clerk, 1, "Portaria 11/2026")
    result = registration_reinstate(
        registration=reg(position, "N2"),
        by=cast["legal"],
        today=TODAY,
        reason=APPEAL,
        ground="por decisão em grau de recurso no PA nº 3/2026",
    )
    assert result.registration.status == Registration.Status.ACTIVE
    assert any("devida" in m for m in result.messages)
    (paid,) = call(position, clerk, 1, "Portaria 12/2026")
    assert (paid.seat, paid.registration.number, paid.reinstated) == (6, "N2", True)
    assert paid.why.startswith(
        "6ª vaga: devida a inscrição N2, reintegrado(a) por decisão em grau de recurso"
    )
    assert rows(position)[5][2:4] == ("N3", "active")  # the substitute keeps the seat
    history = reg(position, "N2").history.first()
    assert history.history_user == cast["legal"] and "Reintegração" in history.history_change_reason
    ledger = AllocationLedger.objects.get(position=position)
    assert "Reintegração" in ledger.history.all()[1].history_change_reason
    assert Publication.objects.filter(title__startswith="Reintegração na ordem de nomeação").exists()


def test_rules_par4_item7_own_seat_restores_the_nomination_and_displaces_the_substitute(position, cast):
    policy = position.contest.policy
    policy.reinstatement = "own_seat"
    policy.save()
    clerk = cast["clerk"]
    call(position, clerk, 5)
    eliminate(position, "N2", clerk)
    call(position, clerk, 1, "Portaria 11/2026")
    registration_reinstate(registration=reg(position, "N2"), by=cast["legal"], today=TODAY, reason=APPEAL)
    assert rows(position)[2] == (3, 3, "N2", "active", True, False)
    assert rows(position)[5] == (6, 3, "N3", "annulled", False, True)
    restored = Nomination.objects.get(position=position, order=3)
    assert restored.ended_on is None and restored.end_reason == ""
    displaced = Nomination.objects.get(position=position, order=6)
    assert "restabelecida" in displaced.end_reason and displaced.ended_on == TODAY
    (paid,) = call(position, clerk, 1, "Portaria 12/2026")
    assert (paid.seat, paid.registration.number, paid.reinstated) == (6, "N3", True)


def test_rules_par4_item7_reinstating_after_an_exclusion_goes_back_to_the_reserve(position, cast):
    clerk = cast["clerk"]
    call(position, clerk, 5)
    registration_change_status(
        registration=reg(position, "N2"),
        status="excluded_from_reserve",
        reason="Não confirmada",
        by=clerk,
        today=TODAY,
    )
    registration_reinstate(registration=reg(position, "N2"), by=clerk, today=TODAY, reason=APPEAL)
    assert reg(position, "N2").status == Registration.Status.ACTIVE
    (paid,) = call(position, clerk, 1, "Portaria 11/2026")
    assert (paid.seat, paid.registration.number, paid.seat_kind, paid.reinstated) == (3, "N2", "racial", True)


@pytest.mark.parametrize(
    ("status", "message"), [("withdrawn", "desistência é ato do próprio candidato"), ("active", "nada")]
)
def test_rules_par4_item7_reinstate_refuses_a_withdrawal_and_an_active_registration(
    position, cast, status, message
):
    registration = reg(position, "N2")
    if status == "withdrawn":
        registration_change_status(
            registration=registration, status=status, reason="Pedido", by=cast["clerk"], today=TODAY
        )
    with pytest.raises(ValidationError, match=message if status == "withdrawn" else "não há eliminação"):
        registration_reinstate(registration=registration, by=cast["clerk"], today=TODAY, reason=APPEAL)
    assert reg(position, "N2").status == status


def test_rules_par4_item7_without_nominations_only_the_status_goes_back(position, cast):
    eliminate(position, "N2", cast["clerk"])
    registration_reinstate(registration=reg(position, "N2"), by=cast["clerk"], today=TODAY, reason=APPEAL)
    assert reg(position, "N2").status == Registration.Status.ACTIVE
    assert not AllocationLedger.objects.exists()


def test_rules_par4_item8_court_hold_keeps_the_seat_on_hold_then_release_activates_it(position, cast):
    clerk, legal = cast["clerk"], cast["legal"]
    court_hold(registration=reg(position, "N2"), by=legal, today=TODAY, reason="Liminar no processo 0000001")
    noms = call(position, clerk, 5)
    held = next(n for n in noms if n.registration.number == "N2")
    assert held.status == Nomination.Status.ON_HOLD and held.seat == 3
    assert nominations_on_hold(position) == [held]
    assert call(position, clerk, 1, "Portaria 11/2026")[0].seat == 6  # the held seat is not refilled
    court_release(
        registration=reg(position, "N2"), by=legal, today=datetime.date(2026, 7, 1), reason="Sentença"
    )
    held.refresh_from_db()
    assert held.status == Nomination.Status.ACTIVE
    assert held.office_deadline == datetime.date(2026, 7, 31)  # runs again from the release
    assert held.history.first().history_user == legal
    assert Publication.objects.filter(title__contains="sub judice").exists()


def test_rules_par4_item8_an_active_nomination_goes_on_hold_and_losing_annuls_it(position, cast):
    clerk = cast["clerk"]
    call(position, clerk, 5)
    court_hold(registration=reg(position, "B"), by=clerk, today=TODAY, reason="Liminar")
    assert rows(position)[3][3] == "on_hold"
    eliminate(position, "B", clerk)
    assert rows(position)[3][3] == "annulled"
    (refill,) = call(position, clerk, 1, "Portaria 11/2026")
    assert refill.seat == 4


def test_rules_par4_item8_refusals_leave_everything_unchanged(position, cast):
    clerk = cast["clerk"]
    call(position, clerk, 2)
    version = AllocationLedger.objects.get(position=position).version
    with pytest.raises(ValidationError, match="não está sob ordem judicial"):
        court_release(registration=reg(position, "A"), by=clerk, today=TODAY, reason="Sentença")
    court_hold(registration=reg(position, "A"), by=clerk, today=TODAY, reason="Liminar")
    with pytest.raises(ValidationError, match="já está sob ordem judicial"):
        court_hold(registration=reg(position, "A"), by=clerk, today=TODAY, reason="Liminar")
    with pytest.raises(ValidationError, match="Informe o motivo"):
        court_hold(registration=reg(position, "B"), by=clerk, today=TODAY, reason=" ")
    assert AllocationLedger.objects.get(position=position).version == version + 1


def test_rules_par4_item8_public_order_says_sub_judice_and_the_clerk_sees_the_hold(
    position, cast, client, client_for
):
    from django.urls import reverse

    court_hold(
        registration=reg(position, "N2"), by=cast["legal"], today=TODAY, reason="Liminar no processo 0000001"
    )
    call(position, cast["clerk"], 5)
    public = client.get(reverse("public:nominations", args=[position.contest.slug, position.pk]))
    page = public.content.decode()
    assert "sub judice" in page and "Liminar" not in page and "0000001" not in page
    staff = client_for("clerk").get(
        reverse("candidates:nomination_list", args=[position.contest.slug, position.pk])
    )
    assert "Vaga reservada por ordem judicial (sub judice)" in staff.content.decode()
