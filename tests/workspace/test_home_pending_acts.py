"""Acts of heteroidentification and procedures' effects waiting for publication, on the home page of the
role that may publish them (Jurídico: ``manage_heteroidentification``, ``conduct_procedure``; Gestão is
told so), and the organisation's signer prefilled on heteroidentification's publication forms."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from contests.documents.models import Document
from contests.models import Signatory
from declarations.hetero import documents as hetero_documents
from declarations.hetero import services as hs
from declarations.hetero.selectors import acts_to_publish
from declarations.models import MemberDraw, Verification
from declarations.procedure import services
from declarations.procedure.selectors import effects_waiting
from tests.builders import make_classified_position, make_contest, make_registration, make_signatory
from tests.declarations.hetero_world import at, make_hetero_world
from tests.declarations.test_documents import decide_falsity, open_case
from tests.pages import post_form
from tests.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db
FINAL_ON = datetime.date(2026, 7, 29)
TODAY = datetime.date(2026, 6, 25)


def home(client_for, who: str) -> str:
    response = client_for(who).get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def hetero_contest():
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    return contest


def final_falsity(cast):
    case = open_case(make_registration(racial_category="parda"), cast["legal"])
    decide_falsity(case, cast["legal"])
    services.act_record(procedure=case, kind="final", by=cast["legal"], today=FINAL_ON)
    return case


def test_the_unpublished_call_waits_and_the_published_draw_does_not(cast):
    world = make_hetero_world(cast, hetero_contest())
    session = world["hetero_session"]
    waiting = acts_to_publish(today=TODAY)
    assert [act.url for act in waiting] == [reverse("declarations:hetero_call_publish", args=[session.pk])]
    assert waiting[0].what.startswith("convocação da sessão de 20/06/2026")
    hetero_documents.call_publish(
        session=session, by=cast["legal"], signer=hetero_documents.Signer("Ana Souza", "Procuradora")
    )
    assert acts_to_publish(today=TODAY) == []


def test_an_unpublished_draw_record_waits(cast):
    world = make_hetero_world(cast, hetero_contest())
    published = world["draw"]
    record = MemberDraw.objects.create(
        commission=world["appeal_commission"], seed=published.seed, pool=published.pool,
        pool_digest=published.pool_digest, k=3, algorithm=published.algorithm, result=published.result[:3],
        drawn_at=published.drawn_at, drawn_by=cast["legal"],
    )  # fmt: skip
    urls = [act.url for act in acts_to_publish(today=TODAY)]
    assert reverse("declarations:hetero_draw_publish", args=[record.pk]) in urls
    assert reverse("declarations:hetero_draw_publish", args=[published.pk]) not in urls


def test_a_final_falsity_waits_for_its_effects_until_they_are_applied(cast):
    case = final_falsity(cast)
    assert [s.procedure for s in effects_waiting(today=FINAL_ON)] == [case]
    services.effects_apply(procedure=case, by=cast["legal"], today=FINAL_ON)
    assert effects_waiting(today=FINAL_ON) == []


def test_a_falsity_not_yet_final_does_not_wait(cast):
    case = open_case(make_registration(racial_category="parda"), cast["legal"])
    decide_falsity(case, cast["legal"])
    assert effects_waiting(today=datetime.date(2026, 7, 10)) == []


def test_juridico_home_lists_the_acts_and_effects_with_links_and_gestao_is_told(client_for, cast):
    world = make_hetero_world(cast, hetero_contest())
    case = final_falsity(cast)
    html = home(client_for, "legal")
    call = reverse("declarations:hetero_call_publish", args=[world["hetero_session"].pk])
    assert "Atos de heteroidentificação a publicar" in html and f'href="{call}"' in html
    assert "Efeitos de decisão a aplicar" in html and case.get_absolute_url() in html
    manager = home(client_for, "manager")
    assert "Atos de heteroidentificação a publicar" not in manager and call not in manager
    assert "são publicados pelo Jurídico" in manager


def test_juridico_home_queries_do_not_grow_with_acts_and_effects(client_for, cast):
    world = make_hetero_world(cast, hetero_contest())
    final_falsity(cast)
    client = client_for("legal")
    first = world["hetero_session"]
    published = world["draw"]

    def add_rows():
        for day in (21, 22):
            session = hs.session_schedule(
                commission=first.commission, starts_at=at(datetime.date(2026, 6, day)), place="Sala 2",
                by=cast["legal"],
            )  # fmt: skip
            Verification.objects.create(session=session, registration=world["verification"].registration)
            MemberDraw.objects.create(
                commission=world["appeal_commission"], seed=published.seed, pool=published.pool,
                pool_digest=published.pool_digest, k=3, algorithm=published.algorithm,
                result=published.result[:3], drawn_at=published.drawn_at, drawn_by=cast["legal"],
            )  # fmt: skip
            final_falsity(cast)
        assert len(acts_to_publish(today=TODAY)) == 5 and len(effects_waiting(today=FINAL_ON)) == 3

    assert_queries_do_not_grow(client, reverse("home"), add_rows)


@pytest.mark.parametrize("url_name", ["hetero_call_publish", "hetero_draw_publish", "hetero_draw_announce"])
def test_the_publication_forms_are_prefilled_with_the_organisations_signer(client_for, cast, url_name):
    make_signatory(Signatory.Kind.HETEROIDENTIFICATION, "Beatriz Lima", "Procuradora-Geral")
    contest = hetero_contest()
    world = make_hetero_world(cast, contest)
    arg = {
        "hetero_call_publish": world["hetero_session"].pk,
        "hetero_draw_publish": world["draw"].pk,
        "hetero_draw_announce": contest.slug,
    }[url_name]
    html = client_for("legal").get(reverse(f"declarations:{url_name}", args=[arg])).content.decode()
    assert re.search(r'name="signer_name"[^>]*value="Beatriz Lima"', html)
    assert re.search(r'name="signer_office"[^>]*value="Procuradora-Geral"', html)


def test_the_signer_stays_editable_on_the_published_call(client_for, cast):
    make_signatory(Signatory.Kind.HETEROIDENTIFICATION, "Beatriz Lima", "Procuradora")
    world = make_hetero_world(cast, hetero_contest())

    url = reverse("declarations:hetero_call_publish", args=[world["hetero_session"].pk])
    post_form(client_for("legal"), url, {"signer_name": "Carla Dias"})
    document = Document.objects.get(kind=Document.Kind.HETERO_CALL)
    assert (document.signer_name, document.signer_office) == ("Carla Dias", "Procuradora")


def test_the_confirmed_list_waits_once_every_result_is_final_and_not_before(cast):
    contest = hetero_contest()
    world = make_hetero_world(cast, contest)
    result = reverse("declarations:hetero_result_publish", args=[contest.slug])
    called = Verification.objects.filter(session=world["hetero_session"])
    assert result not in [act.url for act in acts_to_publish(today=TODAY)]  # no result yet
    called.update(outcome="confirmed")
    first = called.order_by("pk").first()
    Verification.objects.filter(pk=first.pk).update(outcome="not_confirmed", appeal_deadline=TODAY)
    assert result not in [act.url for act in acts_to_publish(today=TODAY)]  # its appeal may still come
    later = TODAY + datetime.timedelta(days=1)
    assert result in [act.url for act in acts_to_publish(today=later)]
