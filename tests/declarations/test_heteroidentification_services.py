"""Heteroidentification's services (declarations/hetero/services.py; RULES §5, ADC 41)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from candidates.models import Registration
from candidates.services.nominations import nominations_call, nominations_preview
from contests.models import Publication
from declarations.deadlines import Calendar
from declarations.hetero import draw_services, selectors
from declarations.hetero import services as hs
from declarations.hetero.documents import Signer
from declarations.models import Opinion, Procedure
from tests.builders import make_classified_position, make_contest, make_user, publish_final, set_policy
from tests.contests.test_publication import nomination_urls

pytestmark = pytest.mark.django_db
D = datetime.date
SEED = "Mega-Sena concurso 2900: 05 12 23 34 45 56"
GENDERS = ("feminino", "masculino")
COLOURS = ("preta", "parda", "branca")


def at(day: datetime.date, hour: int = 10) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def people(prefix: str, n: int, role: str | None = "Comissão"):
    return [
        hs.MemberInput(
            name=f"{prefix} {i}",
            office="Servidor(a)",
            gender=GENDERS[i % 2],
            colour=COLOURS[i % 3],
            user=make_user(f"{prefix.lower()}{i}", role) if role else None,
            no_conflict_signed_on=D(2026, 6, 1),
        )
        for i in range(1, n + 1)
    ]


@pytest.fixture
def world(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    pool = people("Membro", 7)
    announcement = draw_services.draw_announce(
        contest=contest,
        kind="first",
        pool=pool,
        seed_source="Mega-Sena, concurso 2900, de 30/05/2026",
        seed_known_on=D(2026, 5, 30),
        by=cast["legal"],
        now=at(D(2026, 5, 25)),
        signer=Signer("Ana Souza", "Procuradora"),
    )
    first = draw_services.draw_perform(
        announcement=announcement,
        seed=SEED,
        formed_on=D(2026, 6, 1),
        by=cast["legal"],
        now=at(D(2026, 6, 1)),
    )
    appeal = hs.commission_form(
        contest=contest,
        kind="appeal",
        pool=people("Recursal", 3),
        formed_on=D(2026, 6, 1),
        by=cast["legal"],
        now=at(D(2026, 6, 1)),
    )
    return {
        "contest": contest,
        "position": position,
        "first": first,
        "appeal": appeal.commission,
        "pool": pool,
    }


def opinions_by(session, verification, votes):
    for member, vote in zip(session.commission.members.order_by("pk"), votes, strict=True):
        hs.opinion_record(
            verification=verification, user=member.user, confirms=vote, reasons=f"Fenótipo: {member.name}."
        )


def run_first_session(world, cast, votes_n2=(True, True, False, False, False)):
    legal = cast["legal"]
    session = hs.session_schedule(
        commission=world["first"].commission,
        starts_at=at(D(2026, 6, 20)),
        video_link="https://meet.example.org/x",
        by=legal,
    )
    called = hs.candidates_call(session=session, by=legal)
    for verification in called:
        hs.attendance_record(verification=verification, attended=True, by=legal)
        votes = votes_n2 if verification.registration.number == "N2" else (True,) * 5
        opinions_by(session, verification, votes)
    return session, {v.registration.number: v for v in called}


def test_rules_s5_the_drawn_commission_is_published_and_recomputable(world):
    formed = world["first"]
    assert formed.draw is not None and formed.draw.k == 5
    assert selectors.draw_recompute(formed.draw).drawn == tuple(formed.draw.drawn)
    assert sorted(m.name for m in formed.commission.members.all()) == sorted(formed.draw.drawn)
    assert formed.commission.history.first().history_user is not None


def test_rules_s5_appeal_commission_with_a_member_in_common_is_refused(cast):
    contest = make_contest()
    first = hs.commission_form(
        contest=contest,
        kind="first",
        pool=people("Um", 5),
        formed_on=D(2026, 6, 1),
        by=cast["legal"],
        now=at(D(2026, 6, 1)),
    )
    shared = [
        *people("Dois", 2, role=None),
        hs.MemberInput(name=" um  1", office="x", gender="f", colour="preta"),
    ]
    with pytest.raises(ValidationError, match="membro em comum"):
        hs.commission_form(
            contest=contest,
            kind="appeal",
            pool=shared,
            formed_on=D(2026, 6, 1),
            by=cast["legal"],
            now=at(D(2026, 6, 1)),
        )
    assert contest.commissions.get() == first.commission


def test_rules_s5_only_racial_reserve_candidates_are_called(world, cast):
    session, called = run_first_session(world, cast)
    assert sorted(called) == ["N1", "N2", "N3"]
    with pytest.raises(ValidationError, match="já foram chamados"):
        hs.candidates_call(session=session, by=cast["legal"])


def test_rules_s5_a_member_records_only_their_own_opinion_and_not_after_closing(world, cast):
    session, called = run_first_session(world, cast)
    outsider = world["appeal"].members.first().user
    with pytest.raises(PermissionDenied):
        hs.opinion_record(verification=called["N2"], user=outsider, confirms=True, reasons="x")
    hs.session_close(session=session, by=cast["legal"], now=at(D(2026, 6, 20), 18), calendar=Calendar())
    member = session.commission.members.order_by("pk").first()
    before = list(Opinion.objects.values_list("pk", "confirms", "reasons"))
    with pytest.raises(ValidationError, match="encerrada"):
        hs.opinion_record(verification=called["N2"], user=member.user, confirms=False, reasons="mudei")
    assert list(Opinion.objects.values_list("pk", "confirms", "reasons")) == before


def test_rules_s5_session_cannot_close_with_an_opinion_missing(world, cast):
    legal = cast["legal"]
    session = hs.session_schedule(
        commission=world["first"].commission, starts_at=at(D(2026, 6, 20)), place="Sala 1", by=legal
    )
    (n1, *_rest) = hs.candidates_call(session=session, by=legal)
    for v in [n1, *_rest]:
        hs.attendance_record(verification=v, attended=True, by=legal)
    with pytest.raises(ValidationError, match="Faltam os pareceres"):
        hs.session_close(session=session, by=legal, now=at(D(2026, 6, 20), 18), calendar=Calendar())
    session.refresh_from_db()
    assert session.closed_at is None


def _through_appeal(world, cast, appeal_votes=(False, False, False)):
    legal = cast["legal"]
    session, called = run_first_session(world, cast)
    hs.session_close(session=session, by=legal, now=at(D(2026, 6, 20), 18), calendar=Calendar())
    n2 = called["N2"]
    n2.refresh_from_db()
    assert (n2.outcome, n2.confirming, n2.not_confirming) == ("not_confirmed", 2, 3)
    assert n2.appeal_deadline is None  # no message has left yet (issue 25 N7)
    hs.result_letter_printed(verification=n2, by=legal, now=at(D(2026, 6, 20), 18))
    n2.refresh_from_db()
    assert n2.appeal_deadline == D(2026, 6, 30)  # Santa Maria's policy: 10 days from the letter
    with pytest.raises(ValidationError, match="não é definitivo"):
        hs.result_apply(verification=n2, by=legal, today=D(2026, 6, 21))
    appeal = hs.appeal_file(verification=n2, reasons="Sou parda.", now=at(D(2026, 6, 25)))
    appeal_session = hs.session_schedule(
        commission=world["appeal"], starts_at=at(D(2026, 7, 2)), place="Sala 2", by=legal
    )
    judged = hs.appeal_call(appeal=appeal, session=appeal_session, by=legal)
    hs.attendance_record(verification=judged, attended=True, by=legal)
    opinions_by(appeal_session, judged, appeal_votes)
    hs.session_close(session=appeal_session, by=legal, now=at(D(2026, 7, 2), 18), calendar=Calendar())
    return n2


def test_rules_s5_keep_open_the_candidate_leaves_the_reserve_and_the_next_cotista_takes_the_seat(world, cast):
    set_policy(world["contest"].policy, non_confirmation="keep_open")
    n2 = _through_appeal(world, cast)
    applied = hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))
    assert applied.consequence == "keep_open"
    registration = Registration.objects.get(pk=n2.registration_id)
    assert registration.status == Registration.Status.EXCLUDED_FROM_RESERVE
    preview = nominations_preview(position=world["position"], count=1)
    assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]
    with pytest.raises(ValidationError, match="já foi aplicado"):
        hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))


def test_rules_s5_open_procedure_opens_a_procedure_with_the_opinions(world, cast):
    n2 = _through_appeal(world, cast)
    applied = hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))
    assert applied.consequence == "open_procedure"
    procedure = Procedure.objects.get(registration=n2.registration)
    assert procedure.origin == Procedure.Origin.COMMISSION
    assert (
        "Membro" in procedure.facts and "Recursal 1" in procedure.facts and "não confirma" in procedure.facts
    )
    assert Registration.objects.get(pk=n2.registration_id).status == Registration.Status.ACTIVE


def test_rules_s5_appeal_that_confirms_ends_the_check(world, cast):
    n2 = _through_appeal(world, cast, appeal_votes=(True, True, False))
    applied = hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))
    assert (applied.outcome, applied.consequence) == ("confirmed", "none")


def test_rules_s5_appeal_out_of_time_is_refused(world, cast):
    session, called = run_first_session(world, cast)
    hs.session_close(session=session, by=cast["legal"], now=at(D(2026, 6, 20), 18), calendar=Calendar())
    hs.result_letter_printed(verification=called["N2"], by=cast["legal"], now=at(D(2026, 6, 20), 18))
    with pytest.raises(ValidationError, match="prazo de recurso terminou"):
        hs.appeal_file(verification=called["N2"], reasons="x", now=at(D(2026, 7, 1)))


def test_rules_s5_a_session_closed_late_at_night_counts_the_local_day(world, cast):
    # The view passes timezone.now() (UTC): 22:30 in Brasília is already the next day in UTC.
    session, called = run_first_session(world, cast)
    late = at(D(2026, 6, 20), 22).astimezone(datetime.UTC)
    assert late.date() == D(2026, 6, 21)
    hs.session_close(session=session, by=cast["legal"], now=late, calendar=Calendar())
    hs.result_letter_printed(verification=called["N2"], by=cast["legal"], now=late)
    n2 = called["N2"]
    n2.refresh_from_db()
    assert (n2.notified_on, n2.appeal_deadline) == (D(2026, 6, 20), D(2026, 6, 30))


# What the public sees -------------------------------------------------------------------------------------


def test_a_result_that_takes_the_cotista_off_the_reserve_is_one_publication_naming_the_position(
    client, world, cast, django_capture_on_commit_callbacks
):
    """Through the service, no signal: the nomination page, its CSV and its JSON move on in the same cycle
    (the cotista's reserved seat is annulled), and the result's own line names the position only."""
    set_policy(world["contest"].policy, non_confirmation="keep_open")
    n2 = _through_appeal(world, cast)
    urls = nomination_urls(world)
    before = {url: client.get(url) for url in urls}
    start = Publication.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))
    for url, page in before.items():
        after = client.get(url)
        assert after["ETag"] != page["ETag"], url
    assert "Nomeação anulada" in client.get(urls[0]).content.decode()
    title = world["position"].title
    added = [(p.kind, p.title, p.url, p.by) for p in Publication.objects.order_by("pk")[start:]]
    assert added == [
        (
            Publication.Kind.NOMINATION_EVENT,
            f"Ordem de nomeação de {title} atualizada",
            urls[0],
            cast["legal"],
        ),
        (
            Publication.Kind.HETEROIDENTIFICATION,
            f"Resultado de heteroidentificação aplicado – {title}",
            reverse("public:contest", args=[world["contest"].slug]),
            cast["legal"],
        ),
    ]
    candidate = n2.registration.candidate
    assert not any(candidate.display_name in row[1] or "N2" in row[1] for row in added)


@pytest.mark.parametrize("appeal_votes", [(True, True, False), (False, False, False)])
def test_a_confirmation_or_a_procedure_opened_is_no_publication(world, cast, appeal_votes):
    """Confirmed: nothing changes. A procedure opened stays confidential until its effects (RULES §7)."""
    n2 = _through_appeal(world, cast, appeal_votes=appeal_votes)
    start = Publication.objects.count()
    applied = hs.result_apply(verification=n2, by=cast["legal"], today=D(2026, 7, 3))
    assert applied.consequence in ("none", "open_procedure")
    assert Publication.objects.count() == start
