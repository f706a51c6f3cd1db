"""Heteroidentification screens: Comissão sees only its own sessions, records only its own opinion, and
nothing after the session closes; Secretaria sees the status without opinions; every view is logged."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from contests.models import AccessLog
from declarations.deadlines import Calendar
from declarations.hetero import services as hs
from declarations.models import Opinion
from tests.builders import make_classified_position, make_contest, make_user
from tests.declarations.hetero_world import at, make_hetero_world
from tests.pages import post_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    return make_hetero_world(cast, contest) | {"contest": contest}


def post_opinion(client, verification, confirms="0", reasons="Fenótipo observado: não confirma."):
    prefix = f"v{verification.pk}"
    return client.post(
        reverse("declarations:hetero_opinion", args=[verification.pk]),
        {f"{prefix}-confirms": confirms, f"{prefix}-reasons": reasons},
    )


def test_rules_s5_a_member_of_another_commission_gets_403(client, world):
    other = world["appeal_commission"].members.first().user
    client.force_login(other)
    session = world["hetero_session"]
    assert client.get(reverse("declarations:hetero_session", args=[session.pk])).status_code == 403
    assert post_opinion(client, world["verification"]).status_code == 403
    assert not Opinion.objects.exists()
    listed = client.get(reverse("declarations:hetero_sessions"))
    assert listed.status_code == 200 and str(session) not in listed.content.decode()


def test_rules_s5_the_member_records_their_own_opinion_and_the_view_is_logged(client, cast, world):
    client.force_login(cast["commission"])
    session = world["hetero_session"]
    page = client.get(reverse("declarations:hetero_session", args=[session.pk]))
    assert page.status_code == 200 and "Registrar meu parecer" in page.content.decode()
    assert AccessLog.objects.filter(user=cast["commission"], object_id=str(session.pk)).exists()
    response = post_opinion(client, world["verification"])
    assert response.status_code == 302
    opinion = Opinion.objects.get()
    assert (opinion.member.user, opinion.confirms) == (cast["commission"], False)
    assert post_opinion(client, world["verification"], reasons="  ").status_code == 200
    assert Opinion.objects.get().reasons == "Fenótipo observado: não confirma."


def test_rules_s5_editing_after_the_session_closed_is_refused_and_changes_nothing(client, cast, world):
    session, legal = world["hetero_session"], cast["legal"]
    for verification in session.verifications.all():
        hs.attendance_record(verification=verification, attended=True, by=legal)
        for member in session.commission.members.all():
            hs.opinion_record(
                verification=verification,
                user=member.user,
                confirms=True,
                reasons="Pele parda, cabelo crespo: confirma.",
            )
    hs.session_close(session=session, by=legal, now=at(datetime.date(2026, 6, 20), 18), calendar=Calendar())
    client.force_login(cast["commission"])
    before = list(Opinion.objects.order_by("pk").values_list("confirms", "reasons"))
    response = post_opinion(client, world["verification"])
    assert response.status_code == 200 and "encerrada" in response.content.decode()
    assert list(Opinion.objects.order_by("pk").values_list("confirms", "reasons")) == before


def test_rules_s5_secretaria_sees_the_status_never_the_opinions(client, cast, world):
    hs.opinion_record(
        verification=world["verification"],
        user=cast["commission"],
        confirms=False,
        reasons="Parecer sigiloso.",
    )
    client.force_login(cast["clerk"])
    page = client.get(reverse("declarations:hetero_status", args=[world["contest"].slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert world["verification"].registration.number in text and "Parecer sigiloso" not in text
    assert (
        client.get(reverse("declarations:hetero_session", args=[world["hetero_session"].pk])).status_code
        == 403
    )


def test_rules_s5_the_public_draw_page_recomputes_the_record(client, world):
    page = client.get(reverse("public:hetero_draw", args=[world["draw"].pk]))
    assert page.status_code == 200
    assert "confere com o registro" in page.content.decode() and "NÃO confere" not in page.content.decode()
    record = world["draw"]
    record.result = list(reversed(record.result))  # a tampered record
    record.save()
    page = client.get(reverse("public:hetero_draw", args=[record.pk]))
    assert "NÃO confere com o registro" in page.content.decode()


def test_rules_s5_a_comissao_user_without_a_seat_sees_no_session(client, world):
    client.force_login(make_user("sem-cadeira", "Comissão"))
    assert (
        client.get(reverse("declarations:hetero_session", args=[world["hetero_session"].pk])).status_code
        == 403
    )


def test_rules_s5_juridico_records_attendance_and_closes_with_the_majority_computed(client, cast, world):
    session = world["hetero_session"]
    client.force_login(cast["legal"])
    close = reverse("declarations:hetero_close", args=[session.pk])
    page = client.post(close, follow=True)
    assert "Registre o comparecimento" in page.content.decode()
    for verification in session.verifications.all():
        url = reverse("declarations:hetero_attendance", args=[verification.pk])
        assert (
            client.post(url, {"attended": "1" if verification == world["verification"] else "0"}).status_code
            == 302
        )
        if verification == world["verification"]:
            for member, vote in zip(session.commission.members.order_by("pk"), (1, 1, 0, 0, 0), strict=True):
                hs.opinion_record(
                    verification=verification,
                    user=member.user,
                    confirms=bool(vote),
                    reasons="Pele clara, cabelo liso.",
                )
    page = client.post(close, follow=True)
    assert "Sessão encerrada" in page.content.decode()
    world["verification"].refresh_from_db()
    assert (world["verification"].outcome, world["verification"].not_confirming) == ("not_confirmed", 3)
    absent = session.verifications.exclude(pk=world["verification"].pk)
    assert {v.outcome for v in absent} == {"absent"}


@pytest.mark.parametrize("bare", ["Não confirma.", "Fenótipo incompatível.", "Não atende ao fenótipo"])
def test_rules_s5_an_opinion_that_states_only_its_conclusion_is_refused_through_the_page(
    client, cast, world, bare
):
    """Federal courts annulled non-confirmations whose opinions gave no reasons (Lei 9.784 art. 50): the
    member's form refuses a bare conclusion, in Portuguese, and keeps nothing."""
    client.force_login(cast["commission"])
    session, verification = world["hetero_session"], world["verification"]
    url = reverse("declarations:hetero_session", args=[session.pk])
    prefix = f"v{verification.pk}"
    page = post_form(client, url, {f"{prefix}-confirms": "0", f"{prefix}-reasons": bare}, follow=True)
    assert "não pode ser só a conclusão" in page.content.decode()
    assert not Opinion.objects.exists()
    reasons = "Pele clara, cabelo liso e traços finos observados na sessão."
    post_form(client, url, {f"{prefix}-confirms": "0", f"{prefix}-reasons": reasons}, follow=True)
    assert Opinion.objects.get().reasons == reasons
