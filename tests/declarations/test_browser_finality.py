"""In Debian's Chromium through the real pages: a case closed by a final decision of falsity, its effects
applied, is found from Jurídico's list; a revision on new facts (Lei 9.784 art. 65) is confirmed after a
summary saying the effects fall and the document it publishes; the candidate is notified in person; then,
heard first on the intended annulment (STF Tema 138), the revision is annulled for illegality (art. 53),
again after a summary and "Confirmar"."""

from __future__ import annotations

import re

import pytest

from candidates.models import Registration
from tests.builders import make_cast, make_registration
from tests.declarations.test_browser_appeal import login
from tests.declarations.test_finality_services import final_with_effects
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_art65_art53_a_revision_then_its_annulment_each_confirmed_after_a_summary(page, live_server):
    cast = make_cast()
    registration = make_registration(racial_category="parda")
    case, _record = final_with_effects(registration, cast["legal"])
    base = live_server.url
    case_url = base + case.get_absolute_url()
    login(page, base + "/painel/", "legal")
    page.get_by_role("link", name="Processos", exact=True).click()
    page.get_by_role("link", name=str(case), exact=True).click()
    page.wait_for_url(case_url)

    # The revision: the summary first (nothing done), then "Confirmar".
    page.get_by_role("link", name="Revisão", exact=True).click()
    page.get_by_label("Resultado da revisão").wait_for()  # the form's page, before counting its buttons
    assert page.get_by_role("button", name="Pré-visualizar o documento").count() == 0
    page.get_by_label("Resultado da revisão").select_option("dismissed")
    page.locator("textarea[name=text]").fill("Fato novo: certidão de nascimento e fotografias de família.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.get_by_role("heading", name="Confirmar: Revisão").wait_for()  # the click does not wait
    summary = page.locator(".confirm-summary").inner_text()
    assert "serão desfeitos" in summary and "Decisão de revisão" in summary
    assert page.get_by_role("heading", name="O documento que será publicado").is_visible()
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ELIMINATED
    page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(case_url)
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ACTIVE
    revision = case.acts.get(kind="revision")
    assert revision.document is not None and revision.document.signer_name

    # Its notice, in person; then the annulment (arts. 53-54), after its own summary.
    page.get_by_role("link", name=re.compile("^Intimar")).click()
    page.get_by_label("Ciência pessoal no processo").check()
    page.get_by_role("button", name="Registrar intimação").click()
    page.wait_for_url(case_url)
    # Annulling the revision (dismissed) would worsen: the candidate heard first (STF Tema 138), in person,
    # and their answer taken at the desk.
    assert page.get_by_role("link", name="Anulação da decisão", exact=True).count() == 0
    page.get_by_role("link", name="Intimar: intimação da anulação pretendida").click()
    page.get_by_label("Ciência pessoal no processo").check()
    page.locator("textarea[name=text]").fill("A revisão foi proferida sem a oitiva exigida pelo edital.")
    page.get_by_role("button", name="Registrar intimação").click()
    page.wait_for_url(case_url)
    page.get_by_role("link", name="Alegações sobre a anulação pretendida", exact=True).click()
    page.locator("textarea[name=text]").fill("A oitiva não era exigida: a revisão é regular.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.wait_for_url(case_url)
    page.get_by_role("link", name="Anulação da decisão", exact=True).click()
    page.locator("textarea[name=text]").fill("A revisão foi proferida sem a oitiva exigida pelo edital.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.get_by_role("heading", name="Confirmar: Anulação da decisão").wait_for()
    assert not case.acts.filter(kind="annulment").exists()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(case_url)
    screenshot(page, "browser-procedure-finality")
    annulment = case.acts.get(kind="annulment")
    assert annulment.document is not None and annulment.document.signer_name
    case.refresh_from_db()
    assert case.outcome == ""
