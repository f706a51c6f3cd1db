"""The signing certificate screen (issue 20): Gestão uploads the body's A1 certificate (PKCS#12) through the
rendered form; a refused file (a wrong password, not a PKCS#12 file, an expired certificate) says why in
Portuguese and leaves the certificate in use in place; a replacement keeps the old one as history."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from contests.documents import certificates
from contests.documents.services import signing_certificate_replace
from contests.models import SigningCertificate
from tests.access import ROLES, assert_access
from tests.contests.icp_chain import LEAF_CN, PASSWORD, chain
from tests.pages import forms_on, post_form

URL = "/organizacao/certificado/"
READERS = {"clerk", "legal", "manager", "auditor"}


def a1(content: bytes | None = None, name: str = "orgao.pfx") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, chain().pkcs12 if content is None else content)


def upload(client, content: bytes | None = None, password: str = PASSWORD, name: str = "orgao.pfx"):
    fill: dict = {"certificate": a1(content, name), "certificate_password": password}  # a file among them
    return post_form(client, URL, fill, follow=True)


@pytest.mark.parametrize("who", ROLES)
def test_signing_certificate_access(client_for, who):
    assert reverse("contests:signing_certificate") == URL
    assert_access(client_for, who, URL, READERS)


def test_manager_uploads_the_a1_and_the_screen_shows_it_without_its_secrets(client_for, cast):
    page = upload(client_for("manager")).content.decode()
    assert f"Certificado de {LEAF_CN} instalado" in page
    certificate = SigningCertificate.objects.get()
    assert certificate.active and certificate.uploaded_by == cast["manager"]
    assert certificate.history.first().history_user == cast["manager"]
    leaf = chain().leaf
    # Subject, issuer, serial and validity on the screen.
    assert f"<dt>Titular</dt><dd>{LEAF_CN}</dd>" in page
    assert "RFB e-CNPJ A1" in page and "AC Intermediária de Teste v5" in page
    assert certificate.serial == f"{leaf.serial_number:X}" == "1A2B3C4D"
    assert "<code>1A2B3C4D</code>" in page
    # The screen speaks São Paulo time: between 00:00 and 03:00 UTC the date is the day before UTC's.
    assert f"a {timezone.localtime(leaf.not_valid_after_utc):%d/%m/%Y}" in page
    # The password is never shown back, nor kept in the form.
    assert PASSWORD not in page
    form = next(f for f in forms_on(page) if "certificate_password" in f.visible)
    assert form.values.get("certificate_password", "") == ""
    assert "Substituir o certificado" in page


def test_a_wrong_password_says_so_and_keeps_the_certificate_in_use(client_for, cast):
    signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])
    page = upload(client_for("manager"), password="senha-errada").content.decode()
    assert "A senha não abre o certificado: confira a senha e envie de novo." in page
    assert SigningCertificate.objects.count() == 1 and SigningCertificate.current().serial == "1A2B3C4D"
    assert "senha-errada" not in page


def test_a_file_that_is_not_pkcs12_is_refused(client_for, cast):
    signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])
    before = bytes(SigningCertificate.current().pkcs12)
    page = upload(client_for("manager"), b"%PDF-1.7 um PDF, nao um certificado", name="ato.pdf")
    assert (
        "O arquivo não é um certificado digital no formato PKCS#12 (.pfx ou .p12)." in page.content.decode()
    )
    assert SigningCertificate.objects.count() == 1 and bytes(SigningCertificate.current().pkcs12) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (lambda: chain().expired_pkcs12, "O certificado venceu em"),
        (lambda: b"0" * (certificates.MAX_PKCS12_BYTES + 1), "não é um certificado A1"),
        (lambda: chain().root_pem, "não é um certificado digital no formato PKCS#12"),
    ],
    ids=["expired", "too-large", "a-bare-certificate"],
)
def test_other_refusals_change_nothing(client_for, content, message):
    page = upload(client_for("manager"), content()).content.decode()
    assert message in page
    assert not SigningCertificate.objects.exists()


def test_a_certificate_without_its_private_key_is_refused():
    from cryptography.hazmat.primitives.serialization import BestAvailableEncryption, pkcs12

    only_certificate = pkcs12.serialize_key_and_certificates(
        b"a1", None, chain().leaf, None, BestAvailableEncryption(PASSWORD.encode())
    )
    with pytest.raises(certificates.CertificateError, match="chave privada"):
        certificates.read_pkcs12(only_certificate, PASSWORD, now=datetime.datetime.now(datetime.UTC))


def test_replacing_keeps_the_old_certificate_as_history_with_its_secrets_erased(client_for, cast):
    first = signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])
    page = upload(client_for("manager")).content.decode()
    assert "Certificados anteriores" in page
    first.refresh_from_db()
    assert not first.active and first.replaced_at is not None
    assert bytes(first.pkcs12) == b"" and bytes(first.password) == b""
    assert first.history.first().history_change_reason.startswith("Substituído pelo certificado de série")
    assert SigningCertificate.objects.filter(active=True).count() == 1


def test_readers_see_the_certificate_without_a_form(client_for, cast):
    signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])
    client = client_for("clerk")
    page = client.get(URL).content.decode()
    assert LEAF_CN in page and "certificate_password" not in page
    assert client.post(URL, {"certificate_password": PASSWORD}).status_code == 403


def test_the_organisation_screen_links_to_the_certificate(client_for):
    page = client_for("manager").get(reverse("contests:organization")).content.decode()
    assert f'href="{URL}"' in page


def test_the_screen_says_when_a_token_signs_instead(client_for, settings):
    settings.SIGNATURE_BACKEND = "pkcs11"
    page = client_for("manager").get(URL).content.decode()
    assert "Os documentos são assinados por um token ou HSM (PKCS#11)" in page


def test_the_screen_s_queries_do_not_grow_with_the_replaced_certificates(client_for, cast):
    from tests.queries import assert_queries_do_not_grow

    signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])

    def replace_many() -> None:
        for _ in range(5):
            signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=cast["manager"])

    assert_queries_do_not_grow(client_for("manager"), URL, replace_many)
