"""The acts after finality on the staff case page: offered when allowed, their forms filled through the page
(revision, annulment), the reversal shown on the case page and on the registration's page."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates.models import Registration
from candidates.services.nominations import nominations_call
from declarations.models import ProcedureReversal
from tests.builders import make_classified_position, make_contest, publish_final
from tests.declarations.test_finality_services import decided, final_with_effects
from tests.pages import post_form

pytestmark = pytest.mark.django_db
D = datetime.date


@pytest.fixture
def nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    return position


def act_url(case, kind):
    return reverse("declarations:act", args=[case.year, case.number, kind])


def test_art65_the_revision_is_offered_and_filled_through_the_case_page_and_the_reversal_shows(
    client_for,
    nominated,
    cast,
):
    n2 = nominated.registrations.get(number="N2")
    case, _record = final_with_effects(n2, cast["legal"])
    client = client_for("legal")
    page = client.get(case.get_absolute_url()).content.decode()
    assert act_url(case, "revision") in page and act_url(case, "annulment") in page
    response = post_form(
        client,
        act_url(case, "revision"),
        {"outcome": "dismissed", "text": "Certidão de nascimento juntada: fato novo."},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    assert ProcedureReversal.objects.filter(procedure=case).count() == 1
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Reversões da decisão de falsidade" in page and "Eliminação da inscrição" in page
    registration_page = client.get(
        reverse("candidates:registration_detail", args=[n2.contest.slug, n2.pk])
    ).content.decode()
    assert "decisão de falsidade revertida em" in registration_page


def test_art54_the_annulment_form_asks_for_bad_faith_and_refuses_a_lapsed_annulment_without_it(
    client_for,
    nominated,
    cast,
    monkeypatch,
):
    n2 = nominated.registrations.get(number="N2")
    case, record = decided(n2, cast["legal"], outcome="dismissed")
    record("final", D(2026, 7, 28))
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2031, 8, 1))
    client = client_for("legal")
    response = post_form(client, act_url(case, "annulment"), {"text": "Vício de competência."})
    assert response.status_code == 200 and "art. 54" in response.content.decode()
    assert not case.acts.filter(kind="annulment").exists()
    response = post_form(
        client, act_url(case, "annulment"), {"text": "Documentos falsificados.", "bad_faith": "on"}
    )
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.outcome == "" and case.acts.filter(kind="annulment").exists()
