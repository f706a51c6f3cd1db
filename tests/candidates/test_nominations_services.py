"""Nomination services: the RULES §4 worked example end to end, the deadline to take office, refusals."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from candidates.models import AllocationLedger, Nomination, Registration
from candidates.selectors import seat_strip
from candidates.services.nominations import (
    nomination_end_of_list,
    nomination_no_show,
    nomination_took_office,
    nomination_withdraw,
    nominations_call,
    nominations_preview,
    state_for,
    vacancies_open,
)
from contests.models import Policy, Position
from tests.builders import make_classified_position, make_contest, make_position, publish_final

ACT_DATE = datetime.date(2026, 6, 10)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def statement():
    return SimpleUploadedFile("termo.pdf", b"%PDF-1.4 termo de desistencia", content_type="application/pdf")


def call(position, by, count, **kwargs):
    data = {"act_number": "Portaria 10/2026", "act_date": ACT_DATE}
    data.update(kwargs)
    return nominations_call(position=position, count=count, by=by, **data)


def seats(nominations):
    return [(n.seat, n.registration.number, n.seat_kind, n.source_list) for n in nominations]


@pytest.fixture
def worked(cast):
    contest = make_contest(pcd_percent=0)  # RULES §4's example has no PcD reserve
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    return position


def test_rules_s4_worked_example_end_to_end(worked, cast):
    clerk = cast["clerk"]
    first = call(worked, clerk, 5)
    assert seats(first) == [
        (1, "A", "open", "open"),
        (2, "N1", "open", "open"),
        (3, "N2", "racial", "racial"),
        (4, "B", "open", "open"),
        (5, "C", "open", "open"),
    ]
    n2 = next(n for n in first if n.registration.number == "N2")
    nomination_withdraw(nomination=n2, statement_file=statement(), by=clerk, date=datetime.date(2026, 6, 12))
    n2.refresh_from_db()
    assert n2.status == Nomination.Status.WITHDRAWN
    assert n2.withdrawal_statement.name.endswith(".pdf")
    assert n2.registration.status == Registration.Status.WITHDRAWN
    again = call(worked, clerk, 1, act_number="Portaria 11/2026")
    assert seats(again) == [(3, "N3", "racial", "racial")]
    assert again[0].order == 6
    assert "N3" in again[0].why
    history = again[0].history.first()
    assert history.history_user == clerk
    assert history.history_change_reason.startswith("Nomeação: ato Portaria 11/2026")
    assert n2.history.first().history_user == clerk


def test_preview_shows_who_and_why_and_writes_nothing(worked, cast):
    preview = nominations_preview(position=worked, count=3)
    assert [(r.seat, r.registration.number, r.kind) for r in preview.rows] == [
        (1, "A", "open"),
        (2, "N1", "open"),
        (3, "N2", "racial"),
    ]
    assert "reservada a negros" in preview.rows[2].why
    assert not Nomination.objects.exists()
    assert not AllocationLedger.objects.exists()


def test_deadline_and_took_office_and_no_show(worked, cast):
    clerk = cast["clerk"]
    a, n1 = call(worked, clerk, 2, gazette_date=datetime.date(2026, 6, 11))
    assert a.office_deadline == datetime.date(2026, 7, 11)
    nomination_took_office(nomination=a, date=datetime.date(2026, 7, 1), by=clerk)
    a.refresh_from_db()
    assert (a.status, a.took_office_on) == (Nomination.Status.TOOK_OFFICE, datetime.date(2026, 7, 1))
    with pytest.raises(ValidationError, match="só pode ser registrado depois"):
        nomination_no_show(nomination=n1, by=clerk, today=datetime.date(2026, 7, 11))
    nomination_no_show(nomination=n1, by=clerk, today=datetime.date(2026, 7, 12))
    n1.refresh_from_db()
    assert n1.status == Nomination.Status.NO_SHOW
    assert "sem efeito" in n1.end_reason
    (b,) = call(worked, clerk, 1, act_date=datetime.date(2026, 7, 20))
    assert (b.seat, b.registration.number) == (2, "B")


def test_end_of_list_moves_the_candidate_behind_everyone(worked, cast):
    clerk = cast["clerk"]
    (a,) = call(worked, clerk, 1)
    nomination_end_of_list(nomination=a, by=clerk, date=datetime.date(2026, 6, 12))
    a.refresh_from_db()
    assert a.status == Nomination.Status.END_OF_LIST
    noms = call(worked, clerk, 5)
    # Seat 1 is refilled first, by the next of the general list; A is now last on it.
    assert [(n.seat, n.registration.number) for n in noms] == [
        (1, "N1"),
        (2, "B"),
        (3, "N2"),
        (4, "C"),
        (5, "D"),
    ]


def test_calls_only_within_validity_and_after_homologation(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    from candidates.services.results import result_run_compute, result_run_publish

    result_run_publish(
        run=result_run_compute(contest=contest, by=cast["clerk"]), kind="final", by=cast["manager"]
    )
    with pytest.raises(ValidationError, match="homologação"):
        call(position, cast["clerk"], 1)
    from tests.builders import homologate

    homologate(contest)
    with pytest.raises(ValidationError, match="fora da validade"):
        call(position, cast["clerk"], 1, act_date=datetime.date(2028, 6, 2))
    assert not Nomination.objects.exists()


def test_open_vacancies_extends_the_schedule(worked, cast):
    clerk = cast["clerk"]
    call(worked, clerk, 5)
    opened = vacancies_open(
        position=worked, count=5, date=datetime.date(2026, 8, 1), act="Lei 50/2026", by=clerk
    )
    assert opened.before == ("open", "open", "racial", "open", "open")
    assert opened.after == (
        "open",
        "open",
        "racial",
        "open",
        "open",
        "open",
        "open",
        "racial",
        "open",
        "open",
    )
    more = call(worked, clerk, 3, act_date=datetime.date(2026, 8, 2))
    # With 10 vacancies there are 8 open seats: N3, 8th in the general list, is within open competition,
    # so the racial seat 8 has no cotista beyond it and reverts (SM art. 4 §§3 and 5); N3 fills it.
    assert seats(more) == [(6, "D", "open", "open"), (7, "E", "open", "open"), (8, "N3", "racial", "open")]
    assert more[2].reverted


def test_an_elimination_elsewhere_annuls_the_nomination_before_the_next_call(worked, cast):
    """A procedure's decision (RULES §5) reaches the registration; the next call sees it first."""
    from candidates.services.registrations import registration_set_status

    clerk = cast["clerk"]
    first = call(worked, clerk, 5)
    n2 = next(n for n in first if n.registration.number == "N2")
    registration_set_status(
        registration=n2.registration,
        status="eliminated",
        by=cast["legal"],
        reason="Falsidade: processo 3/2026",
    )
    preview = nominations_preview(position=worked, count=1)
    assert [(r.seat, r.registration.number) for r in preview.rows] == [(3, "N3")]
    (again,) = call(worked, clerk, 1, act_number="Portaria 12/2026")
    assert (again.seat, again.registration.number) == (3, "N3")
    n2.refresh_from_db()
    assert n2.status == Nomination.Status.ANNULLED
    assert n2.history.first().history_user == clerk


def test_a_call_beyond_the_vacancies_fills_what_it_can(worked, cast):
    preview = nominations_preview(position=worked, count=9)
    assert len(preview.rows) == 5
    assert any("Só 5 vagas" in message for message in preview.messages)
    assert len(call(worked, cast["clerk"], 9)) == 5
    with pytest.raises(ValidationError, match="Não há vaga a preencher"):
        call(worked, cast["clerk"], 1)


def test_sync_annuls_at_once_what_a_procedure_decided(worked, cast):
    from candidates.services.nominations import nominations_sync
    from candidates.services.registrations import registration_set_status

    first = call(worked, cast["clerk"], 3)
    assert nominations_sync(position=worked, by=cast["legal"], today=ACT_DATE) == []
    n2 = first[2]
    registration_set_status(
        registration=n2.registration, status="eliminated", by=cast["legal"], reason="Processo 3"
    )
    messages = nominations_sync(position=worked, by=cast["legal"], today=datetime.date(2026, 7, 1))
    assert any("eliminação" in m for m in messages)
    n2.refresh_from_db()
    assert (n2.status, n2.ended_on) == (Nomination.Status.ANNULLED, datetime.date(2026, 7, 1))
    assert n2.history.first().history_user == cast["legal"]


def test_a_published_runs_roster_is_read_once_then_from_djangos_cache(
    worked, cast, django_assert_num_queries
):
    """The roster lives in the configured ``rosters`` cache (thread-safe), not in a module global."""
    from django.core.cache import caches

    from candidates.services.nominations import ROSTER_CACHE, _run_lists
    from candidates.services.results import final_run_for

    run = final_run_for(worked)
    general, _ = _run_lists(run, worked)
    assert [number for _, number in general][:3] == ["A", "N1", "B"]
    with django_assert_num_queries(0):
        assert _run_lists(run, worked)[0] == general
    caches[ROSTER_CACHE].clear()
    with django_assert_num_queries(1):
        assert _run_lists(run, worked)[0] == general


# The threshold counted on the contest, and the articles the engine cites (SM art. 1 §§1–4) --------------


def test_sm_art1_par4_vacancies_opened_message_cites_the_article_like_the_position_page(worked, cast):
    call(worked, cast["clerk"], 5)
    opened = vacancies_open(
        position=worked, count=2, date=datetime.date(2026, 8, 1), act="Lei 50/2026", by=cast["clerk"]
    )
    (message,) = opened.messages
    page = Position.objects.get(pk=worked.pk).reservation().racial_explanation
    assert page.endswith("0,4 considerado nas próximas nomeações, art. 1º §4º.")
    assert message.endswith(page)


@pytest.fixture
def on_contest(cast):
    """SM at 30% with the threshold (3) counted on the contest: position P1 with 2 vacancies and the
    worked example's candidates, P2 with none yet (cadastro reserva). 2 vacancies in all: no reserve."""
    policy = Policy.objects.get(slug="santa-maria")
    policy.percent = Decimal(30)
    policy.threshold_basis = Policy.ThresholdBasis.CONTEST
    policy.save()
    contest = make_contest(pcd_percent=0, policy=policy)
    first = make_classified_position(contest, vacancies=2, code="P1")
    second = make_position(contest, vacancies=0, code="P2")
    publish_final(contest, cast["manager"])
    return first, second


def test_sm_art1_par2_the_ledger_follows_vacancies_opened_on_other_positions(on_contest, cast):
    """Decision: with ``threshold_basis = contest`` a position's nominations count the contest's vacancies
    open now, those opened later on other positions included, exactly as the position's page does."""
    first, second = on_contest
    (seat1,) = call(first, cast["clerk"], 1)
    assert (seat1.seat, seat1.seat_kind) == (1, "open")
    assert first.reservation().racial == 0 and state_for(first).reservation().racial == 0
    # One vacancy opened on the OTHER position: the contest reaches 3, the threshold (SM art. 1 §2).
    vacancies_open(
        position=second, count=1, date=datetime.date(2026, 8, 1), act="Lei 50/2026", by=cast["clerk"]
    )
    first = Position.objects.get(pk=first.pk)
    page = first.reservation()
    assert page.racial == 1  # 30% of 2 = 0,6 → 1
    assert state_for(first).reservation().racial == page.racial
    assert [seat.kind for seat in seat_strip(first).seats] == ["open", "racial"]
    preview = nominations_preview(position=first, count=1)
    assert [(r.seat, r.registration.number, r.kind) for r in preview.rows] == [(2, "N1", "racial")]
    assert any("O concurso tem agora 3 vagas" in m and "art. 1º §2º" in m for m in preview.messages)
    (seat2,) = call(
        first, cast["clerk"], 1, act_number="Portaria 11/2026", act_date=datetime.date(2026, 8, 2)
    )
    assert (seat2.seat, seat2.seat_kind, seat2.source_list) == (2, "racial", "racial")
    assert AllocationLedger.objects.get(position=first).state["params"]["threshold_extra"] == 1
