"""Result screens: the access matrix, then what each action writes and the history it leaves."""

import pytest
from django.urls import reverse

from candidates.models import ResultRun
from candidates.services.results import result_run_compute
from contests.documents.models import Document
from contests.models import Signatory
from tests.access import ROLES, assert_access
from tests.builders import make_classified_position, make_contest, make_signatory
from tests.pages import forms_on, post_form


@pytest.fixture
def contest(db):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, code="ALEG")
    return contest


@pytest.fixture
def draft(contest, cast):
    return result_run_compute(contest=contest, by=cast["clerk"])


def urls(contest, run):
    return {
        "list": reverse("candidates:result_list", args=[contest.slug]),
        "detail": reverse("candidates:result_detail", args=[contest.slug, run.pk]),
        "compare": reverse("candidates:result_compare", args=[contest.slug, run.pk]),
    }


READERS = {"clerk", "manager", "auditor", "legal"}


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("page", ["list", "detail", "compare"])
def test_read_access_matrix(client_for, contest, draft, who, page):
    assert_access(client_for, who, urls(contest, draft)[page], READERS)


@pytest.mark.parametrize("who", ROLES)
def test_compute_access_matrix(client_for, contest, who):
    target = reverse("candidates:result_compute", args=[contest.slug])
    assert_access(client_for, who, target, {"clerk"}, method="post", data={"kind": "final"}, ok=302)
    assert ResultRun.objects.exists() == (who == "clerk")


@pytest.mark.parametrize("who", ROLES)
def test_publish_access_matrix(client_for, contest, draft, who):
    target = reverse("candidates:result_publish", args=[contest.slug, draft.pk])
    data = {"kind": "preliminary", "signer_name": "Ana Souza", "signer_office": "Presidente da Câmara"}
    assert_access(client_for, who, target, {"manager"}, method="post", data=data, ok=302)
    draft.refresh_from_db()
    assert draft.is_published == (who == "manager")


def test_clerk_computes_and_the_list_shows_places_and_why(client_for, contest, cast):
    client = client_for("clerk")
    response = client.post(
        reverse("candidates:result_compute", args=[contest.slug]), {"kind": "final"}, follow=True
    )
    run = ResultRun.objects.get()
    assert (run.status, run.kind, run.computed_by) == (ResultRun.Status.DRAFT, "final", cast["clerk"])
    assert run.history.first().history_user == cast["clerk"]
    page = response.content.decode()
    assert "Cálculo de " in page and "1º na ampla concorrência, nota final 90,00" in page
    racial = client.get(run.get_absolute_url() + "?lista=racial").content.decode()
    assert "1º da lista reservada a negros (2º na ampla concorrência" in racial
    assert "Publicar lista" not in page  # the clerk does not publish


def test_manager_publishes_and_the_run_freezes(client_for, contest, draft, cast):
    client = client_for("manager")
    page = client.get(draft.get_absolute_url()).content.decode()
    assert "Publicar lista" in page
    response = post_form(
        client,
        draft.get_absolute_url(),
        {"kind": "final", "signer_name": "Ana Souza", "signer_office": "Presidente da Câmara"},
        follow=True,
    )
    # One step: the list and its document; the manager stays on the staff page, with a link to the public one.
    assert response.redirect_chain[-1][0] == draft.get_absolute_url()
    html = response.content.decode()
    assert "com o seu documento assinado" in html and "não muda mais" in html
    document = Document.objects.get(kind=Document.Kind.RESULT_LIST)
    assert f'href="{document.get_absolute_url()}"' in html
    assert (document.signer_name, document.signer_office) == ("Ana Souza", "Presidente da Câmara")
    draft.refresh_from_db()
    assert (draft.status, draft.kind, draft.published_by) == ("published", "final", cast["manager"])
    entry = draft.history.first()
    assert (entry.history_user, entry.history_change_reason) == (
        cast["manager"],
        "Lista publicada como final",
    )
    # Publishing again changes nothing.
    again = client.post(
        reverse("candidates:result_publish", args=[contest.slug, draft.pk]), {"kind": "preliminary"}
    )
    assert again.status_code == 302
    draft.refresh_from_db()
    assert draft.kind == "final"


def test_discard_a_draft_but_never_a_published_run(client_for, contest, draft, cast):
    client = client_for("clerk")
    client.post(reverse("candidates:result_discard", args=[contest.slug, draft.pk]))
    assert not ResultRun.objects.exists()
    run = result_run_compute(contest=contest, by=cast["clerk"])
    run.status, run.kind, run.published_by = "published", "final", cast["manager"]
    from django.utils import timezone

    run.published_at = timezone.now()
    run.save()
    client.post(reverse("candidates:result_discard", args=[contest.slug, run.pk]))
    assert ResultRun.objects.filter(pk=run.pk).exists()


def test_compare_page_names_who_moved(client_for, contest, draft, cast):
    from candidates.models import Registration
    from candidates.services.registrations import registration_set_status
    from candidates.services.results import result_run_publish

    result_run_publish(run=draft, kind="preliminary", by=cast["manager"])
    registration_set_status(
        registration=Registration.objects.get(number="A"),
        status="eliminated",
        by=cast["clerk"],
        reason="Recurso",
    )
    second = result_run_compute(contest=contest, by=cast["clerk"])
    page = client_for("auditor").get(reverse("candidates:result_compare", args=[contest.slug, second.pk]))
    text = page.content.decode()
    assert "saiu da classificação: Inscrição eliminada do concurso" in text
    assert "1 que estava à frente saiu" in text


def test_publish_form_brings_the_signer_the_organisation_records_for_lists(client_for, draft, cast):
    make_signatory(Signatory.Kind.RESULT_LIST, "Ana Souza", "Presidente")
    page = client_for("manager").get(draft.get_absolute_url()).content.decode()
    publish = next(form for form in forms_on(page) if "kind" in form.visible)
    assert (publish.values["signer_name"], publish.values["signer_office"]) == ("Ana Souza", "Presidente")


def test_publishing_without_a_signer_publishes_neither_the_list_nor_a_document(client_for, contest, draft):
    target = reverse("candidates:result_publish", args=[contest.slug, draft.pk])
    response = client_for("manager").post(target, {"kind": "final"}, follow=True)
    assert "Nada foi publicado" in response.content.decode()
    draft.refresh_from_db()
    assert not draft.is_published and not Document.objects.exists()
