"""The acts after finality on the staff case page: offered when allowed, their forms filled through the page
(revision, annulment), each confirmed after a summary of what it does (the service rehearsed: nothing
rendered, signed nor written), the reversal shown on the case page and on the registration's page."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates.models import Registration
from candidates.services.nominations import nominations_call
from contests.documents import signing
from contests.documents.models import Document
from declarations.models import ProcedureReversal
from declarations.procedure import documents, services
from tests.builders import make_classified_position, make_contest, publish_final
from tests.declarations.test_confirmations import submit
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
    documents_before = Document.objects.count()
    response = post_form(
        client,
        act_url(case, "revision"),
        {"outcome": "dismissed", "text": "Certidão de nascimento juntada: fato novo."},
    )
    page = response.content.decode()
    # The summary: the case's new outcome, the effects undone, the document and who signs it; nothing done.
    assert response.status_code == 200 and "Confirmar: Revisão" in page
    assert "Improcedente" in page and "serão desfeitos" in page and "Decisão de revisão" in page
    assert "Certidão de nascimento juntada: fato novo." in page  # the document that will be published
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED and Document.objects.count() == documents_before
    assert not case.acts.filter(kind="revision").exists()
    done = submit(client, response, "confirm")
    assert done.status_code == 302, done.content.decode()[:2000]
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
    # The summary step refuses, with the pure module's reason (finality, art. 54).
    page = response.content.decode()
    assert response.status_code == 200 and "Confirmar: Anulação" not in page
    assert "art. 54" in page and "mais de cinco anos" in page
    assert not case.acts.filter(kind="annulment").exists()
    # The candidate heard on the intended annulment first (STF Tema 138; test_annulment_hearing).
    services.notice_send(
        procedure=case,
        by=cast["legal"],
        today=D(2031, 8, 1),
        kind="annulment_notice",
        means="in_person",
        text="Documentos falsificados.",
    )
    record("annulment_answer", D(2031, 8, 1), text="Os documentos são autênticos.")
    response = post_form(
        client, act_url(case, "annulment"), {"text": "Documentos falsificados.", "bad_faith": "on"}
    )
    assert response.status_code == 200 and "Confirmar: Anulação" in response.content.decode()
    # "Confirmar" with the bad faith taken back: the service refuses it too.
    refused = submit(client, response, "confirm", {"bad_faith": "False"})
    assert refused.status_code == 200 and "decaiu" in refused.content.decode()
    assert not case.acts.filter(kind="annulment").exists()
    done = submit(client, response, "confirm")
    assert done.status_code == 302
    case.refresh_from_db()
    assert case.outcome == "" and case.acts.filter(kind="annulment").exists()
    assert "Má-fé comprovada" in case.acts.get(kind="annulment").text


def test_art65_a_revision_that_would_worsen_is_refused_on_the_confirmation_page(client_for, nominated, cast):
    n2 = nominated.registrations.get(number="N2")
    case, record = decided(n2, cast["legal"], outcome="dismissed")
    record("final", D(2026, 7, 28))
    client = client_for("legal")
    assert "só é registrado ao confirmar" in client.get(act_url(case, "revision")).content.decode()
    response = post_form(
        client, act_url(case, "revision"), {"outcome": "falsity", "text": "Novas fotografias."}
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Confirmar: Revisão" not in page
    assert "não pode agravar a sanção" in page
    assert not case.acts.filter(kind="revision").exists()


def test_the_revisions_summary_renders_signs_and_stores_no_document(client_for, nominated, cast, monkeypatch):
    """The preview rehearses the service with ``publish=False``: no PDF rendered, none signed (nor
    timestamped), no document stored, no e-mail queued; "Confirmar" then publishes them."""
    n2 = nominated.registrations.get(number="N2")
    case, _record = final_with_effects(n2, cast["legal"])
    calls: list[str] = []
    render, sign = documents.render_pdf, signing.sign_pdf
    monkeypatch.setattr(documents, "render_pdf", lambda *a, **k: calls.append("render") or render(*a, **k))
    monkeypatch.setattr(signing, "sign_pdf", lambda *a, **k: calls.append("sign") or sign(*a, **k))
    client = client_for("legal")
    before = Document.objects.count()
    response = post_form(
        client, act_url(case, "revision"), {"outcome": "dismissed", "text": "Fato novo: certidão."}
    )
    assert "Confirmar: Revisão" in response.content.decode()
    assert calls == [] and Document.objects.count() == before
    done = submit(client, response, "confirm")
    assert done.status_code == 302
    assert "render" in calls and Document.objects.count() > before  # the revision and the void act


def test_art65_a_closed_case_is_found_from_the_procedures_list(client_for, nominated, cast):
    """A revision comes "a qualquer tempo": the closed case stays reachable from Jurídico's list."""
    n2 = nominated.registrations.get(number="N2")
    case, _record = final_with_effects(n2, cast["legal"])
    page = client_for("legal").get(reverse("declarations:list")).content.decode()
    assert "Processos encerrados" in page and f'href="{case.get_absolute_url()}"' in page
