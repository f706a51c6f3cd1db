"""Query discipline of the declarations screens with a list: the procedures' desk, the case page, the
heteroidentification contest page (commissions, members, draws, sessions, appeals, acts), the registrations'
status, the session list and the session page (for Jurídico and for a member), the candidate's two private
pages, and the confirmed list a publication reads. Each is built with a few rows, counted, given more rows,
and counted again: one query more per row fails (as Zulip guards against N+1)."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from candidates.models import Registration
from contests.documents.models import Document, EditalText
from declarations import links
from declarations.deadlines import Calendar
from declarations.hetero import selectors
from declarations.hetero import services as hs
from declarations.models import Appeal, CommissionMember, MemberDraw, Verification
from declarations.procedure import services
from tests.builders import make_classified_position, make_contest, make_position, make_registration, make_user
from tests.declarations.hetero_world import SEED, at, make_hetero_world
from tests.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n%%EOF\n"
_numbers = itertools.count(1)


def pdf(name: str = "prova.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


# The procedure ----------------------------------------------------------------------------------------------


def open_notified_case(legal, *, contest=None):
    """A procedure notified in person (its defence period running), on a new registration."""
    position = make_position(contest) if contest else None
    registration = make_registration(position, racial_category="preta")
    today = timezone.localdate()
    procedure = services.procedure_open(
        registration=registration, origin="ex_officio", facts="Indícios.", by=legal, today=today
    )
    services.notice_send(procedure=procedure, by=legal, today=today, means="in_person")
    return procedure


def add_evidence(procedure, legal, count: int) -> None:
    for n in range(count):
        services.act_record(
            procedure=procedure,
            kind="evidence",
            by=legal,
            today=timezone.localdate(),
            text=f"Prova {n}.",
            uploads=[pdf(f"prova-{n}.pdf"), pdf(f"anexo-{n}.pdf")],
        )


def test_procedure_list_does_not_grow_with_procedures(client_for, cast):
    legal = cast["legal"]
    open_notified_case(legal)

    def add_rows():
        for _ in range(2):  # procedures of other contests too
            contest = make_contest()
            for _ in range(3):
                add_evidence(open_notified_case(legal, contest=contest), legal, 1)

    assert_queries_do_not_grow(client_for("legal"), reverse("declarations:list"), add_rows)


def test_case_page_does_not_grow_with_acts_attachments_and_links(client_for, cast):
    legal = cast["legal"]
    procedure = open_notified_case(legal)
    add_evidence(procedure, legal, 1)

    def add_rows():
        add_evidence(procedure, legal, 6)
        for n in range(4):
            links.link_issue(
                procedure=procedure, holder="candidate", name=f"Candidata {n}", by=legal, now=timezone.now()
            )

    assert_queries_do_not_grow(client_for("legal"), procedure.get_absolute_url(), add_rows)
    assert_queries_do_not_grow(client_for("auditor"), procedure.get_absolute_url(), add_rows)


def test_candidates_private_case_page_does_not_grow_with_acts(client, cast):
    legal = cast["legal"]
    procedure = open_notified_case(legal)
    add_evidence(procedure, legal, 1)
    _link, token = links.link_issue(
        procedure=procedure, holder="candidate", name="Candidata", by=legal, now=timezone.now()
    )

    def add_rows():
        add_evidence(procedure, legal, 6)

    assert_queries_do_not_grow(client, reverse("declarations:portal", args=[token]), add_rows)


# Heteroidentification -----------------------------------------------------------------------------------------


@pytest.fixture
def world(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    return make_hetero_world(cast, contest) | {"contest": contest}


def call_more(world, legal, count: int) -> list[Verification]:
    """``count`` more racial-reserve registrations of the contest, called to the world's session."""
    session = world["hetero_session"]
    position = world["contest"].positions.first()
    new = [
        make_registration(position, racial_category="parda", number=f"Q{next(_numbers)}")
        for _ in range(count)
    ]
    return hs.candidates_call(session=session, by=legal, registrations=new)


def record_opinions(verifications, members) -> None:
    for verification in verifications:
        for member in members:
            hs.opinion_record(
                verification=verification,
                user=member.user,
                confirms=True,
                reasons="Pele parda, cabelo crespo.",
            )


def test_session_page_does_not_grow_with_the_candidates_called(client_for, cast, world):
    legal = cast["legal"]
    members = list(world["hetero_session"].commission.members.order_by("pk"))
    record_opinions(world["hetero_session"].verifications.all(), members)

    def add_rows():
        called = call_more(world, legal, 8)
        record_opinions(called, members)
        for verification in called[:3]:
            hs.attendance_record(verification=verification, attended=True, by=legal)

    url = reverse("declarations:hetero_session", args=[world["hetero_session"].pk])
    assert_queries_do_not_grow(client_for("legal"), url, add_rows)
    assert_queries_do_not_grow(client_for("auditor"), url, add_rows)
    assert_queries_do_not_grow(client_for("commission"), url, add_rows)  # a member: their own opinion


def test_closed_session_page_does_not_grow_with_results_and_procedures(client_for, cast, world):
    legal = cast["legal"]
    session = world["hetero_session"]
    members = list(session.commission.members.order_by("pk"))
    call_more(world, legal, 6)
    for verification in session.verifications.all():
        hs.attendance_record(verification=verification, attended=True, by=legal)
    record_opinions(session.verifications.all(), members)
    hs.session_close(session=session, by=legal, now=at(datetime.date(2026, 6, 20), 18), calendar=Calendar())
    verifications = list(session.verifications.order_by("pk"))
    url = reverse("declarations:hetero_session", args=[session.pk])

    def add_rows():
        for verification in verifications[1:]:  # the consequences and the procedures they opened
            Verification.objects.filter(pk=verification.pk).update(
                consequence="open_procedure",
                consequence_applied_on=datetime.date(2026, 7, 1),
                procedure=open_notified_case(legal),
            )

    Verification.objects.filter(pk=verifications[0].pk).update(
        consequence="open_procedure",
        consequence_applied_on=datetime.date(2026, 7, 1),
        procedure=open_notified_case(legal),
    )
    assert_queries_do_not_grow(client_for("legal"), url, add_rows)


def test_session_list_does_not_grow_with_sessions_and_contests(client_for, cast, world):
    legal = cast["legal"]

    def add_rows():
        for commission in (world["hetero_session"].commission, world["appeal_commission"]):
            for n in range(3):
                hs.session_schedule(
                    commission=commission,
                    starts_at=at(datetime.date(2026, 7, 1 + n)),
                    video_link="https://video.example.org/sala",
                    by=legal,
                )
        for _ in range(2):  # contests that announce heteroidentification without a commission yet
            EditalText.objects.update_or_create(
                contest=make_contest(pcd_percent=0), defaults={"uses_heteroidentification": True}
            )

    url = reverse("declarations:hetero_sessions")
    assert_queries_do_not_grow(client_for("legal"), url, add_rows)
    assert_queries_do_not_grow(client_for("commission"), url, add_rows)


def test_contest_page_does_not_grow_with_members_draws_sessions_appeals_and_acts(client_for, cast, world):
    legal = cast["legal"]
    contest = world["contest"]
    first = world["hetero_session"].commission
    url = reverse("declarations:hetero_contest", args=[contest.slug])

    def add_rows():
        for commission in (first, world["appeal_commission"]):
            for n in range(3):
                hs.session_schedule(
                    commission=commission, starts_at=at(datetime.date(2026, 7, 1 + n)), place="Sala", by=legal
                )
                CommissionMember.objects.create(
                    commission=commission,
                    name=f"Suplente {commission.kind} {n}",
                    office="Servidor(a)",
                    gender="feminino",
                    colour="preta",
                    user=make_user(f"suplente-{commission.kind}-{n}", "Comissão"),
                )
        record = world["draw"]
        for _ in range(3):
            MemberDraw.objects.create(
                commission=first, seed=SEED, pool=record.pool, pool_digest=record.pool_digest, k=record.k,
                algorithm=record.algorithm, result=record.result, drawn_at=timezone.now(), drawn_by=legal,
            )  # fmt: skip
        for verification in call_more(world, legal, 4):
            Appeal.objects.create(verification=verification, reasons="Recorro.", filed_at=timezone.now())
        for n in range(3):
            Document.objects.create(
                contest=contest, kind=Document.Kind.HETERO_CALL, subject=f"call-x{n}", title=f"Convocação {n}",
                pdf=PDF, sha256=f"{n + 900:064d}", code=f"HC{n:02d}-TEST", published_at=timezone.now(),
                published_by=legal, signer_name="Ana Souza", signer_office="Procuradora",
            )  # fmt: skip

    Appeal.objects.create(verification=world["verification"], reasons="Recorro.", filed_at=timezone.now())
    assert_queries_do_not_grow(client_for("legal"), url, add_rows)


def test_status_page_does_not_grow_with_the_registrations_called(client_for, cast, world):
    url = reverse("declarations:hetero_status", args=[world["contest"].slug])
    assert_queries_do_not_grow(client_for("legal"), url, lambda: call_more(world, cast["legal"], 8))


def test_candidates_private_result_page_does_not_grow_with_opinions(client, cast, world):
    verification = world["verification"]
    members = list(world["hetero_session"].commission.members.order_by("pk"))
    record_opinions([verification], members[:1])
    url = reverse("declarations:hetero_portal", args=[world["hetero_token"]])
    assert_queries_do_not_grow(client, url, lambda: record_opinions([verification], members[1:]))


def test_the_confirmed_list_a_publication_reads_does_not_grow_with_candidates(cast, world):
    legal = cast["legal"]
    contest = world["contest"]
    session = world["hetero_session"]

    def close_all() -> None:
        Verification.objects.filter(session=session).update(
            attended=True, outcome="confirmed", appeal_deadline=datetime.date(2026, 7, 1)
        )

    close_all()
    Appeal.objects.create(verification=world["verification"], reasons="Recorro.", filed_at=timezone.now())
    today = datetime.date(2026, 8, 1)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            selectors.confirmed(contest, today=today)
        return len(queries)

    few = count()
    for verification in call_more(world, legal, 10)[:5]:
        Appeal.objects.create(verification=verification, reasons="Recorro.", filed_at=timezone.now())
    close_all()
    assert count() == few
    assert (
        len(selectors.confirmed(contest, today=today))
        == Registration.objects.filter(
            verifications__session=session, verifications__appeal__isnull=True
        ).count()
    )
