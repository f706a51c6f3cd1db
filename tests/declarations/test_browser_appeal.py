"""In Debian's Chromium through the real pages: a case dismissed, the next cotista appeals (a third party,
Lei 9.784 art. 58 II); the reconsideration into falsity is refused until the candidate is heard (arts. 62 and
64 sole paragraph); Jurídico notifies the candidate of the appeal by e-mail; the candidate, on a phone,
acknowledges it through the private link and answers with a PDF; then the authority reconsiders."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from declarations.models import Procedure
from declarations.procedure import services
from tests.builders import PASSWORD, make_cast, make_registration
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def login(page, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def dismissed_and_notified(legal) -> Procedure:
    """A case decided "improcedente" and notified in person today (the steps before the appeal)."""
    today = timezone.localdate()
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "candidata@example.org"
    registration.candidate.save()
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.COMPLAINT,
        complainant="Maria Souza, próxima cotista",
        facts="Denúncia de falsidade.",
        by=legal,
        today=today,
    )
    services.notice_send(procedure=case, by=legal, today=today, means="in_person")
    for kind, extra in (
        ("defence", {"text": "Sou parda."}),
        ("instruction_closed", {}),
        ("final_statement", {"text": "Reitero."}),
        ("report", {"text": "Proponho a improcedência."}),
        ("decision", {"text": "Improcedente: fundamentos.", "outcome": "dismissed"}),
    ):
        services.act_record(procedure=case, kind=kind, by=legal, today=today, **extra)
    services.notice_send(procedure=case, by=legal, today=today, means="in_person")
    return case


def next_act(page, case_url: str, label: str) -> None:
    page.goto(case_url)
    page.get_by_role("link", name=label, exact=True).click()


def test_a_third_partys_appeal_is_notified_answered_by_the_candidate_then_reconsidered(
    page, live_server, browser
):
    cast = make_cast()
    case = dismissed_and_notified(cast["legal"])
    base = live_server.url
    case_url = base + case.get_absolute_url()
    login(page, case_url, "legal")
    page.wait_for_url(case_url)

    # The next cotista's appeal, received at the desk: who appeals and with which standing (art. 58).
    next_act(page, case_url, "Recurso")
    page.get_by_label("Recorrente", exact=True).fill("Maria Souza")
    page.get_by_label("Legitimidade do recorrente (art. 58)").select_option("affected")
    page.locator("textarea[name=text]").fill("A candidata não tem fenótipo pardo.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.wait_for_url(case_url)
    assert "Terceiro indiretamente afetado" in page.content()

    # Reconsidering into falsity before the candidate is heard: refused, with the reason.
    next_act(page, case_url, "Juízo de reconsideração")
    page.get_by_label("Juízo de reconsideração").select_option(label="Reconsiderar a decisão")
    page.get_by_label(re.compile(r"^Motivação")).fill("O recurso procede: falsidade.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    # Waited for, not read from content(): the click does not wait for the new page.
    page.get_by_text("agravaria a situação do candidato").first.wait_for()
    assert not case.acts.filter(kind="reconsideration").exists()

    # The candidate is notified of the appeal by e-mail with the private link (art. 62).
    page.goto(case_url)
    page.get_by_role("link", name="Intimar").click()
    page.get_by_text("Intimação do recurso de terceiro").first.wait_for()
    page.get_by_label("Mensagem eletrônica com o link privado (ciência pelo link)").check()
    page.get_by_role("button", name="Registrar intimação").click()
    page.wait_for_url(case_url)
    (message,) = mail.outbox
    portal = (
        re.search(r"https?://\S+/processo/\S+/", message.body)
        .group(0)
        .replace(settings.PUBLIC_BASE_URL, base)
    )

    # The candidate, on a phone: acknowledges, then answers with a PDF.
    phone = browser.new_context(
        locale="pt-BR", viewport={"width": 390, "height": 844}, is_mobile=True
    ).new_page()
    phone.goto(portal)
    assert phone.get_by_role("heading", name="Intimação do recurso de terceiro").is_visible()
    phone.get_by_role("link", name="Dou ciência desta intimação").click()
    # Art. 62 counts business days, and says so before the candidate confirms.
    assert "Prazo de alegações sobre o recurso de 5 (cinco) dias úteis (Lei 9.784 art. 62)" in phone.content()
    phone.get_by_role("button", name="Confirmar a ciência").click()
    phone.wait_for_url(portal)
    assert phone.get_by_text("Prazo de alegações sobre o recurso").is_visible()
    phone.get_by_label("O que apresenta").select_option("appeal_answer")
    phone.get_by_label("Texto").fill("Contrarrazões: sou parda, como a comissão reconheceu.")
    phone.get_by_label("Arquivos").set_input_files(
        {"name": "contrarrazoes.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )
    phone.get_by_role("button", name="Enviar").click()
    phone.wait_for_url(portal)
    assert "Alegações sobre o recurso recebidas" in phone.content()

    # Heard: the authority may now reconsider; the case's table names the unit too.
    page.goto(case_url)
    assert page.get_by_text(
        "Prazo de alegações sobre o recurso (5 dias úteis; Lei 9.784 art. 62)"
    ).is_visible()
    next_act(page, case_url, "Juízo de reconsideração")
    page.get_by_label("Juízo de reconsideração").select_option(label="Reconsiderar a decisão")
    page.get_by_label(re.compile(r"^Motivação")).fill("Ouvida a candidata, o recurso procede: falsidade.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(case_url)
    screenshot(page, "browser-procedure-appeal")
    case.refresh_from_db()
    assert case.outcome == "falsity"
    answer = case.acts.get(kind="appeal_answer")
    assert answer.attachments.get().name == "contrarrazoes.pdf"
    assert answer.filed_by.endswith("(candidato)")
