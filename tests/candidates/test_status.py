"""The status change of a registration reaches its position's seats at once (RULES §4 item 4)."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call, nominations_preview
from candidates.services.status import registration_change_status
from tests.builders import make_classified_position, make_contest, publish_final

ACT_DATE = datetime.date(2026, 6, 10)
DECIDED = datetime.date(2026, 7, 1)


@pytest.fixture
def worked(cast):
    """RULES §4's worked example: 5 vacancies, racial seat 3; general list A, N1, B, C, D, E, N2, N3."""
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    return position


def call(position, by, count, act_number="Portaria 10/2026"):
    return nominations_call(position=position, count=count, by=by, act_number=act_number, act_date=ACT_DATE)


def nominee(nominations, number):
    return next(n for n in nominations if n.registration.number == number)


def change(nomination, status, by, reason="Processo 3/2026"):
    return registration_change_status(
        registration=nomination.registration, status=status, reason=reason, by=by, today=DECIDED
    )


def test_rules_s4_item4_elimination_annuls_the_nomination_at_once(worked, cast):
    n2 = nominee(call(worked, cast["clerk"], 5), "N2")
    result = change(n2, Registration.Status.ELIMINATED, cast["legal"], "Falsidade: processo 3/2026")
    n2.refresh_from_db()
    assert result.registration.status == Registration.Status.ELIMINATED
    assert (n2.status, n2.ended_on) == (Nomination.Status.ANNULLED, DECIDED)
    history = n2.history.first()
    assert history.history_user == cast["legal"]
    assert history.history_change_reason.startswith("Inscrição N2: Eliminada")
    # Words agree: "inscrição N2: eliminação do concurso", never "inscrição N2 eliminado".
    assert "inscrição N2: eliminação do concurso; sai de todas as listas." in result.messages
    assert not any("eliminado" in m for m in result.messages)
    assert any("3ª vaga fica livre" in m for m in result.messages)
    # The racial seat goes to the next of the racial list (SM art. 4 §4).
    preview = nominations_preview(position=worked, count=1)
    assert [(r.seat, r.registration.number, r.list) for r in preview.rows] == [(3, "N3", "racial")]


def test_rules_s4_item4_a_nominee_withdraws_on_the_nomination_with_the_signed_statement(worked, cast):
    n2 = nominee(call(worked, cast["clerk"], 5), "N2")
    with pytest.raises(ValidationError, match="registre a desistência na nomeação"):
        change(n2, Registration.Status.WITHDRAWN, cast["clerk"], "Desistência protocolada")
    n2.refresh_from_db()
    assert (n2.status, n2.registration.status) == (Nomination.Status.ACTIVE, Registration.Status.ACTIVE)


def test_rules_s4_item4_withdrawal_before_the_call_takes_the_candidate_off_the_lists(worked, cast):
    call(worked, cast["clerk"], 2)
    n2 = worked.registrations.get(number="N2")
    registration_change_status(
        registration=n2,
        status=Registration.Status.WITHDRAWN,
        reason="Desistência",
        by=cast["clerk"],
        today=DECIDED,
    )
    (third,) = call(worked, cast["clerk"], 1, act_number="Portaria 11/2026")
    assert (third.seat, third.registration.number, third.source_list) == (3, "N3", "racial")


def test_rules_s4_item4_exclusion_from_the_reserve_annuls_only_a_reserved_nomination(worked, cast):
    first = call(worked, cast["clerk"], 5)
    n1, n2 = nominee(first, "N1"), nominee(first, "N2")
    change(n1, Registration.Status.EXCLUDED_FROM_RESERVE, cast["legal"])
    n1.refresh_from_db()
    assert n1.status == Nomination.Status.ACTIVE  # N1 holds an open seat: the reserve is not used
    change(n2, Registration.Status.EXCLUDED_FROM_RESERVE, cast["legal"])
    n2.refresh_from_db()
    assert n2.status == Nomination.Status.ANNULLED


def test_without_nominations_only_the_status_changes(worked, cast):
    registration = worked.registrations.get(number="N2")
    result = registration_change_status(
        registration=registration,
        status=Registration.Status.ELIMINATED,
        reason="Processo 3/2026",
        by=cast["legal"],
        today=DECIDED,
    )
    assert result.messages == ()
    assert result.registration.status == Registration.Status.ELIMINATED
    assert not Nomination.objects.exists()
    (first,) = call(worked, cast["clerk"], 3)[2:]
    assert (first.seat, first.registration.number) == (3, "N3")


def test_a_refused_change_leaves_status_and_seats_alone(worked, cast):
    n2 = nominee(call(worked, cast["clerk"], 5), "N2")
    with pytest.raises(ValidationError, match="Informe o motivo"):
        change(n2, Registration.Status.ELIMINATED, cast["legal"], reason=" ")
    n2.refresh_from_db()
    assert n2.status == Nomination.Status.ACTIVE
    assert n2.registration.status == Registration.Status.ACTIVE
