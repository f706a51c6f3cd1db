"""In Debian's Chromium through the real pages: Jurídico opens a case on a nominee's
registration, notifies by e-mail (the task sends it), the candidate acknowledges through the private link
and files a defence with a PDF; decision of falsity, appeal refused by the superior instance, final; the
nomination is annulled and the next cotista of the same list takes the seat at the next call.

The policy allows two instances here, so that the superior's decision is final the same day (with three,
the case would wait for the appeal period of the second decision to run out).
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.core import mail

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call, nominations_preview
from contests.documents.models import Document
from declarations.models import Procedure
from tests.builders import (
    PASSWORD,
    make_cast,
    make_classified_position,
    make_contest,
    publish_final,
    set_policy,
)
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def login(page, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def act(page, case_url: str, label: str, text: str = "", outcome: str = "") -> None:
    page.goto(case_url)
    page.get_by_role("link", name=label, exact=True).click()
    if outcome:
        # A decision's result; the reconsideration's is its judgement (art. 56 §1º).
        page.get_by_label(re.compile(r"^(Resultado|Juízo de reconsideração)( \*)?$")).select_option(outcome)
    if text:
        page.locator("textarea[name=text]").fill(text)
    page.get_by_role("button", name="Registrar", exact=True).click()
    if outcome or label == "Decisão definitiva":  # an act that decides or ends the case: confirmed
        page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(case_url)


def notify_in_person(page, case_url: str) -> None:
    page.goto(case_url)
    page.get_by_role("link", name="Intimar").click()
    page.get_by_label("Ciência pessoal no processo").check()
    page.get_by_role("button", name="Registrar intimação").click()
    page.wait_for_url(case_url)


def candidate_files(page, portal: str, kind: str, text: str, with_pdf: bool = False) -> None:
    page.goto(portal)
    page.get_by_label("O que apresenta").select_option(kind)
    page.get_by_label("Texto").fill(text)
    if with_pdf:
        page.get_by_label("Arquivos").set_input_files(
            {"name": "defesa.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
    page.get_by_role("button", name="Enviar").click()
    page.wait_for_url(portal)


def test_a_whole_case_ends_with_the_nomination_annulled_and_the_next_cotista_called(
    page, live_server, browser
):
    cast = make_cast()
    set_policy("santa-maria", appeal_instances=2)
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=5,
        by=cast["clerk"],
        act_number="Portaria 10/2026",
        act_date=datetime.date(2026, 6, 10),
    )
    n2 = position.registrations.get(number="N2")
    n2.candidate.email = "n2@example.org"
    n2.candidate.save()
    base = live_server.url

    login(page, f"{base}/concursos/{contest.slug}/inscricoes/{n2.pk}/", "legal")
    page.get_by_role("link", name="Instaurar processo administrativo").click()
    page.get_by_label("Origem").select_option("ex_officio")
    page.get_by_label("Fatos").fill("Não confirmação pela comissão; indícios de falsidade.")
    page.get_by_role("button", name="Instaurar").click()
    procedure = Procedure.objects.get(registration=n2)
    case_url = base + procedure.get_absolute_url()
    page.wait_for_url(case_url)

    # Notice by e-mail: the task sends it with the private link.
    page.get_by_role("link", name="Intimar").click()
    page.get_by_label("Mensagem eletrônica com o link privado (ciência pelo link)").check()
    page.get_by_role("button", name="Registrar intimação").click()
    page.wait_for_url(case_url)
    (message,) = mail.outbox
    portal = (
        re.search(r"https?://\S+/processo/\S+/", message.body)
        .group(0)
        .replace(settings.PUBLIC_BASE_URL, base)
    )

    # The candidate, on a phone, acknowledges and files a defence with a PDF.
    phone = browser.new_context(
        locale="pt-BR", viewport={"width": 390, "height": 844}, is_mobile=True
    ).new_page()
    phone.goto(portal)
    phone.get_by_role("link", name="Dou ciência desta intimação").click()
    assert "Prazo de defesa de 10 (dez) dias" in phone.content()
    phone.get_by_role("button", name="Confirmar a ciência").click()
    phone.wait_for_url(portal)
    candidate_files(phone, portal, "defence", "Sou parda; junto fotografias e documentos.", with_pdf=True)
    assert "Defesa recebida" in phone.content()

    act(page, case_url, "Encerramento da instrução")
    candidate_files(phone, portal, "final_statement", "Reitero a defesa.")
    act(page, case_url, "Relatório com proposta de decisão", "Proponho a confirmação da falsidade.")
    act(page, case_url, "Decisão", "Falsidade confirmada: fundamentos.", outcome="falsity")
    notify_in_person(page, case_url)
    candidate_files(phone, portal, "appeal", "Recorro da decisão.")
    act(page, case_url, "Juízo de reconsideração", "Mantenho a decisão; ao superior.", outcome="maintain")
    act(page, case_url, "Decisão da instância superior", "Recurso desprovido.", outcome="falsity")
    notify_in_person(page, case_url)
    act(page, case_url, "Decisão definitiva")
    page.get_by_role("link", name="Aplicar os efeitos").click()
    # Waited for, not read from content(): the click does not wait for the new page.
    page.get_by_text("A inscrição nº N2 passa de").first.wait_for()
    page.get_by_role("button", name="Confirmar").click()
    page.wait_for_url(case_url)
    assert f"nos termos do {procedure}" in page.content()
    screenshot(page, "browser-procedure-case")

    # The public act, published through the documents pipeline, verifies on /verificar/ (anonymous).
    public_act = Document.objects.get(kind=Document.Kind.PROCEDURE_EFFECTS)
    sentence = (
        f"Eliminação de {n2.candidate.full_name}, inscrição N2, do {contest} e anulação da sua nomeação, "
        f"nos termos do {procedure}."
    )
    assert public_act.title == sentence
    anonymous = browser.new_context(locale="pt-BR").new_page()
    anonymous.goto(case_url)
    assert "/entrar/" in anonymous.url  # the case page is not public
    page.get_by_role("link", name=sentence).click()
    page.wait_for_url(f"{base}/verificar/{public_act.code}/")
    anonymous.goto(f"{base}/verificar/{public_act.code}/")
    assert anonymous.get_by_role("heading", name=sentence).is_visible()
    assert public_act.sha256 in anonymous.content()
    # The acts themselves are restricted: their verification page names nobody and serves no PDF.
    decision = procedure.acts.get(kind="decision").document
    anonymous.goto(f"{base}/verificar/{decision.code}/")
    assert anonymous.get_by_role("heading", name="Documento autêntico").is_visible()
    assert n2.candidate.full_name not in anonymous.content()
    assert anonymous.request.get(f"{base}/verificar/{decision.code}/documento.pdf").status == 404

    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ANNULLED
    preview = nominations_preview(position=position, count=1)
    assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]
    # One notice by e-mail; every filing of the candidate's (defence, final statement, appeal) got its
    # protocol receipt by e-mail.
    receipts = [m for m in mail.outbox if m.subject.startswith("Recibo de protocolo")]
    assert len(mail.outbox) - len(receipts) == 1 and len(receipts) == 3
