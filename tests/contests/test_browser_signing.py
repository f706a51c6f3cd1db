"""The signing certificate in Chromium (issue 20): Gestão installs the body's A1 from the organisation's
screen, sees what it installed, and a document it signs is read back on /verificar/ with who signed, the
policy and a trusted chain; axe finds nothing on either page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from contests.documents import certificates
from contests.models import SigningCertificate
from tests.axe import assert_accessible
from tests.builders import PASSWORD, make_cast
from tests.contests.icp_chain import LEAF_CN, chain
from tests.contests.icp_chain import PASSWORD as A1_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_manager_installs_the_a1_and_the_public_reads_the_signature(page, live_server, settings, tmp_path):
    from tests.contests.test_signing_icp import publish

    make_cast()
    settings.DOCUMENTS_PKCS12_PATH = ""
    store = tmp_path / "raizes"
    store.mkdir()
    (store / "raiz.pem").write_bytes(chain().root_pem)
    settings.SIGNATURE_TRUST_STORE = str(store)
    certificates.forget_trust_roots()
    a1 = tmp_path / "orgao.pfx"
    a1.write_bytes(chain().pkcs12)

    page.goto(live_server.url + reverse("login"))
    page.get_by_label("Usuário").fill("manager")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    page.goto(live_server.url + reverse("contests:organization"))
    page.get_by_role("link", name="Certificado de assinatura").click()
    page.get_by_label("Arquivo do certificado (.pfx ou .p12)").set_input_files(str(a1))
    page.get_by_label("Senha do certificado").fill("errada")
    page.get_by_role("button", name="Enviar o certificado").click()
    page.get_by_text("A senha não abre o certificado").first.wait_for()
    assert not SigningCertificate.objects.exists()
    assert_accessible(page)
    page.get_by_label("Arquivo do certificado (.pfx ou .p12)").set_input_files(str(a1))
    page.get_by_label("Senha do certificado").fill(A1_PASSWORD)
    page.get_by_role("button", name="Enviar o certificado").click()
    page.get_by_text(f"Certificado de {LEAF_CN} instalado").wait_for()
    assert page.get_by_label("Senha do certificado").input_value() == ""
    assert_accessible(page)

    document = publish()
    pdf = tmp_path / "ato.pdf"
    pdf.write_bytes(bytes(document.pdf))
    page.goto(live_server.url + reverse("public:verify", args=[document.code]))
    page.get_by_label("Arquivo PDF a conferir").set_input_files(str(pdf))
    page.get_by_role("button", name="Conferir", exact=True).click()
    page.get_by_text("Autêntico.").wait_for()
    text = page.locator("main").inner_text()
    assert LEAF_CN in text and "AD-RB" in text and "cadeia de certificação confiável" in text
    assert_accessible(page)
