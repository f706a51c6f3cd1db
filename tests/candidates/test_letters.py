"""The access code on paper, for candidates without e-mail (issue 19): the contest's batch ("Imprimir
cartas dos candidatos sem e-mail", one PDF, one letter per sheet), one registration's letter, the print
recorded as a print (never as a delivery) and logged; the nomination's "E-mail" means refused for a
nominee without an address and sent, for real, to those with one. Forms are taken from the rendered pages."""

from __future__ import annotations

import datetime
import io
import os

import pytest
from django.core import mail
from django.urls import reverse
from pypdf import PdfReader

from candidates import access
from candidates.models import AccessCodeDelivery, Nomination, Registration
from candidates.services.access import access_code_reissue
from contests.documents.letters import BATCH
from contests.models import AccessLog
from tests.builders import (
    make_classified_position,
    make_contest,
    make_position,
    make_registration,
    publish_final,
)
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db

SAVE = os.environ.get("LETTERS_SAVE_PDF")  # a folder: the tests leave their PDFs there, to look at


def pdf_pages(content: bytes, name: str = "") -> list[str]:
    if SAVE and name:
        with open(os.path.join(SAVE, name), "wb") as out:
            out.write(content)
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def post_button(client, page_url: str, action: str, **extra):
    """Submit the page's POST form whose action is ``action`` (a button without fields), as a person does."""
    page = client.get(page_url)
    assert page.status_code == 200
    forms = [f for f in forms_on(page.content.decode()) if f.method == "post" and f.action == action]
    assert forms, f"{page_url}: nenhum botão envia para {action}"
    return client.post(action, {**forms[0].values, **extra})


@pytest.fixture
def contest_without_emails():
    position = make_position()
    with_email = make_registration(position, racial_category="parda", number="A-001")
    with_email.candidate.email = "tem@example.org"
    with_email.candidate.save()
    paper = [
        make_registration(position, racial_category="preta", number="A-002"),
        make_registration(position, number="A-003"),
    ]
    for registration in paper:
        registration.candidate.address = "Rua das Flores, 10\n97000-000 Santa Maria/RS"
        registration.candidate.save()
    return position.contest, with_email, paper


def test_issue19_the_batch_prints_one_letter_per_candidate_without_email(client_for, contest_without_emails):
    contest, with_email, paper = contest_without_emails
    clerk = client_for("clerk")
    listing = reverse("candidates:registration_list", args=[contest.slug])
    html = clerk.get(listing).content.decode()
    assert "2 candidatos sem e-mail" in html and "2 ainda sem carta com o código atual" in html
    response = post_button(clerk, listing, reverse("candidates:access_letters", args=[contest.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    pages = pdf_pages(response.content, "cartas-codigo-lote.pdf")
    assert len(pages) == 2
    for text, registration in zip(pages, paper, strict=True):
        assert access.code_for(registration) in text and registration.number in text
        assert registration.candidate.full_name in text and "Rua das Flores" in text
        # LGPD: nothing sensitive on the letter (no CPF, no racial declaration, no reserve).
        flat = text.replace(".", "").replace("-", "")
        assert registration.candidate.cpf not in flat
        for word in ("preta", "parda", "autodeclara", "reserva", "heteroidentifica"):
            assert word not in text.lower()
    assert access.code_for(with_email) not in "".join(pages)
    deliveries = AccessCodeDelivery.objects.filter(channel="letter")
    assert sorted(d.registration_id for d in deliveries) == sorted(r.pk for r in paper)
    assert {d.status for d in deliveries} == {"printed"}
    assert AccessLog.objects.filter(action="document", detail__contains="carta com o código").count() == 2
    # Printed already: the next batch is empty, and the page says so.
    html = clerk.get(listing).content.decode()
    assert "Todos já têm a carta com o código atual impressa." in html
    again = clerk.post(reverse("candidates:access_letters", args=[contest.slug]), follow=True)
    assert "Nenhuma carta a imprimir" in again.content.decode()
    # A reissued code is a new code to print.
    access_code_reissue(registration=paper[0], by=None)
    assert "1 ainda sem carta" in clerk.get(listing).content.decode()


def test_issue19_the_batch_is_cut_at_the_batch_size(client_for, settings, monkeypatch):
    import candidates.views.letters as views

    monkeypatch.setattr(views, "BATCH", 2)
    position = make_position()
    people = [make_registration(position, number=f"B-{n:03d}") for n in range(3)]
    clerk = client_for("clerk")
    url = reverse("candidates:access_letters", args=[position.contest.slug])
    assert len(pdf_pages(clerk.post(url).content)) == 2
    assert len(pdf_pages(clerk.post(url).content)) == 1
    assert AccessCodeDelivery.objects.filter(channel="letter").count() == len(people)
    assert BATCH >= 100


def test_issue19_only_who_changes_registrations_prints_codes(client_for, contest_without_emails):
    contest, _, _ = contest_without_emails
    url = reverse("candidates:access_letters", args=[contest.slug])
    for role in ("manager", "legal", "auditor", "commission"):
        assert client_for(role).post(url).status_code in (403, 404), role
    listing = reverse("candidates:registration_list", args=[contest.slug])
    assert url not in client_for("auditor").get(listing).content.decode()
    assert (
        not AccessCodeDelivery.objects.exists() and not AccessLog.objects.filter(action="document").exists()
    )


def test_issue19_one_registration_letter_from_its_page(client_for, contest_without_emails):
    contest, _, paper = contest_without_emails
    registration = paper[0]
    clerk = client_for("clerk")
    detail = reverse("candidates:registration_detail", args=[contest.slug, registration.pk])
    assert "a carta com o código atual ainda não foi impressa" in clerk.get(detail).content.decode()
    action = reverse("candidates:registration_access_letter", args=[contest.slug, registration.pk])
    response = post_button(clerk, detail, action)
    (text,) = pdf_pages(response.content, "carta-codigo.pdf")
    assert (
        access.code_for(registration) in text and "Código de acesso à sua inscrição".upper() in text.upper()
    )
    html = clerk.get(detail).content.decode()
    assert (
        "Código atual, carta impressa: impressa 1 vez" in html and access.code_for(registration) not in html
    )
    # The reissue page (no e-mail) offers the letter of the new code.
    reissue = reverse("candidates:registration_access_code", args=[contest.slug, registration.pk])
    page = post_button(clerk, detail, reissue).content.decode()
    assert action in page
    registration.refresh_from_db()
    (text,) = pdf_pages(clerk.post(action).content)
    assert access.code_for(registration) in text


# The nomination's "E-mail" -----------------------------------------------------------------------------


@pytest.fixture
def classified(cast):
    contest = make_contest()
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    return position


def call_fill(**means) -> dict[str, str]:
    fill = {"count": "2", "act_number": "Portaria 77/2026", "act_date": "10/06/2026"}
    fill.update(means)
    return fill


def test_issue19_the_email_means_is_refused_for_a_nominee_without_email(client_for, classified):
    position = classified
    url = reverse("candidates:nomination_call", args=[position.contest.slug, position.pk])
    clerk = client_for("clerk")
    fill = call_fill(notified_email="on")
    fill.pop("notified_gazette", None)
    page = clerk.get(url).content.decode()
    form = next(f for f in forms_on(page) if "notified_email" in f.visible)
    values = {k: v for k, v in form.values.items() if k != "notified_gazette"}
    preview = clerk.post(form.action or url, {**values, **fill, "step": "preview"})
    confirm = next(f for f in forms_on(preview.content.decode()) if "notified_email" in f.visible)
    data = {k: v for k, v in confirm.values.items() if k != "notified_gazette"}
    data.update(fill)
    data["step"] = "confirm"
    response = clerk.post(confirm.action or url, data)
    text = response.content.decode()
    assert "Sem e-mail cadastrado: inscrição" in text and "Marque também a carta" in text
    assert not Nomination.objects.filter(act_number="Portaria 77/2026").exists()


def test_issue19_the_email_goes_only_to_who_has_one_and_is_recorded_when_sent(
    client_for, classified, django_capture_on_commit_callbacks, settings
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    position = classified
    first = Registration.objects.filter(position=position).order_by("number").first()
    first.candidate.email = "primeira@example.org"
    first.candidate.save()
    url = reverse("candidates:nomination_call", args=[position.contest.slug, position.pk])
    clerk = client_for("clerk")
    preview = post_form(clerk, url, call_fill(notified_email="on", notified_letter="on"))
    confirm = next(f for f in forms_on(preview.content.decode()) if "notified_email" in f.visible)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = clerk.post(confirm.action or url, {**confirm.values, "step": "confirm"}, follow=True)
    text = response.content.decode()
    nominations = list(
        Nomination.objects.filter(act_number="Portaria 77/2026").select_related("registration")
    )
    assert len(nominations) == 2
    emailed = [n for n in nominations if n.notified_email]
    assert [n.registration_id for n in emailed] == [first.pk]
    others = [n.registration.number for n in nominations if not n.notified_email]
    assert "Sem e-mail cadastrado, nada foi enviado por e-mail a: inscrição" in text
    for number in others:
        assert number in text
    (message,) = mail.outbox
    assert message.to == ["primeira@example.org"] and access.code_for(first) in message.body
    emailed[0].refresh_from_db()
    assert emailed[0].email_sent_at is not None
    assert all(n.notified_letter for n in nominations)


def test_issue19_the_nomination_letter_uses_the_one_layout(cast, client_for, classified):
    from candidates.services.nominations import nominations_call

    position = classified
    (nomination,) = nominations_call(
        position=position, count=1, act_number="Portaria 1/2026", act_date=datetime.date(2026, 6, 10), by=None
    )
    url = reverse("candidates:nomination_letter", args=[position.contest.slug, position.pk, nomination.pk])
    (text,) = pdf_pages(client_for("clerk").get(url).content, "carta-nomeacao.pdf")
    flat = " ".join(text.split())  # a longer name (another database's sequence) moves the line breaks
    assert "Portaria nº 1/2026" in flat and access.code_for(nomination.registration) in flat
    assert "Carta pessoal ao candidato" in flat
