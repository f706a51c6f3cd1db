"""A qualified signature, ready for ICP-Brasil (issue 20): documents signed with an A1 certificate of a test
ICP-Brasil-like chain declare the PAdES AD-RB signature policy, and ``/verificar/`` judges the chain against
the trust store (a folder of roots), without fetching anything."""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io

import pytest
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, utils
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from contests.documents import certificates, signers, signing
from contests.documents.models import Document
from contests.documents.remote import RemoteSigner
from contests.documents.render import pdf_from_html
from contests.documents.services import document_publish, signing_certificate_replace
from contests.models import SigningCertificate
from tests import builders
from tests.contests.icp_chain import LEAF_CN, PASSWORD, chain

pytestmark = pytest.mark.django_db
AD_RB_V1_1 = "2.16.76.1.7.1.11.1.1"


def publish(title: str = "Portaria de teste") -> Document:
    return document_publish(
        contest=builders.make_contest(),
        kind=Document.Kind.PROCEDURE_ACT,
        subject=title,
        title=title,
        render=lambda stamp: pdf_from_html(
            f"<p>{title} {stamp.code}</p><p>Helena Bastos Prado<br>Presidente da Câmara Municipal</p>"
        ),
        by=None,
        signer_name="Helena Bastos Prado",
        signer_office="Presidente da Câmara Municipal",
    )


@pytest.fixture
def a1(settings):
    """The test A1 certificate installed as Gestão would, no settings file behind it."""
    settings.DOCUMENTS_PKCS12_PATH = ""
    return signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=None)


def trust_store(settings, tmp_path, *pems: bytes) -> None:
    folder = tmp_path / "raizes"
    folder.mkdir()
    for number, pem in enumerate(pems):
        (folder / f"raiz-{number}.pem").write_bytes(pem)
    (folder / "LEIAME.txt").write_text("Raízes da ICP-Brasil instaladas pelo município.")
    settings.SIGNATURE_TRUST_STORE = str(folder)
    certificates.forget_trust_roots()


def verify_page(client, document: Document) -> str:
    upload = SimpleUploadedFile("ato.pdf", bytes(document.pdf), content_type="application/pdf")
    response = client.post(f"/verificar/{document.code}/", {"file": upload})
    assert response.status_code == 200
    return response.content.decode()


# The acceptance: trusted with the root in the store, "cadeia não confiável" without ----------------------


def test_a_pdf_signed_with_the_a1_validates_as_trusted_when_its_root_is_in_the_trust_store(
    client, settings, tmp_path, a1
):
    trust_store(settings, tmp_path, chain().root_pem)
    document = publish()
    assert document.signed and LEAF_CN in document.signature_subject
    page = verify_page(client, document)
    assert "Autêntico" in page
    assert f"Assinatura digital válida de {LEAF_CN} (cadeia de certificação confiável)" in page
    assert "<dt>Assinado por</dt><dd>CAMARA MUNICIPAL DE TESTE:12345678000199</dd>" in page
    assert "AC Intermediária de Teste v5" in page  # who issued it
    assert f"ICP-Brasil PAdES AD-RB (referência básica) v1.1 ({AD_RB_V1_1})" in page
    assert "<dt>Cadeia de certificação</dt><dd>confiável</dd>" in page
    assert "horário declarado na assinatura" in page
    assert "não conferida: o arquivo não traz informação de revogação" in page


def test_the_same_pdf_is_an_untrusted_chain_when_its_root_is_not_in_the_trust_store(
    client, settings, tmp_path, a1
):
    trust_store(settings, tmp_path, chain().stranger_root_pem)
    document = publish()
    page = verify_page(client, document)
    assert "Autêntico" in page  # the file is ours; its signature's chain is what is not trusted
    assert "cadeia não confiável" in page
    assert "<dt>Cadeia de certificação</dt><dd>cadeia não confiável</dd>" in page
    report = signing.signature_report(bytes(document.pdf))
    assert report.intact and report.valid and not report.trusted
    assert report.trust == signing.Trust.UNTRUSTED and report.trust_store


def test_an_intermediate_alone_in_the_store_is_not_a_root(settings, tmp_path, a1):
    """The store holds roots: the intermediate the file embeds does not make the chain trusted by itself,
    and the root the A1 file carried (embedded in the signature) is not trusted for being there."""
    trust_store(settings, tmp_path)  # an empty store (only a README)
    report = signing.signature_report(bytes(publish().pdf))
    assert report.trust == signing.Trust.UNTRUSTED


def test_the_trust_store_is_read_once(settings, tmp_path):
    trust_store(settings, tmp_path, chain().root_pem, chain().stranger_root_pem)
    first = certificates.trust_roots()
    (tmp_path / "raizes" / "nova.pem").write_bytes(chain().intermediate_pem)
    assert certificates.trust_roots() is first and len(first) == 2
    certificates.forget_trust_roots()
    assert len(certificates.trust_roots()) == 3


def test_without_a_trust_store_the_organisation_s_own_certificate_is_trusted(settings, a1):
    settings.SIGNATURE_TRUST_STORE = ""
    report = signing.signature_report(bytes(publish().pdf))
    assert report.trusted and not report.trust_store
    assert "certificado da organização" in report.summary


def test_a_revoked_certificate_is_reported_revoked_from_the_crl_the_file_embeds(settings, tmp_path, a1):
    """Revocation is judged from what the file carries (a CRL in its DSS), never fetched."""
    from asn1crypto import crl as asn1_crl
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation.dss import DocumentSecurityStore

    trust_store(settings, tmp_path, chain().root_pem)
    signed = bytes(publish().pdf)
    now = datetime.datetime.now(datetime.UTC)
    c = chain()
    revoked = (
        x509.RevokedCertificateBuilder()
        .serial_number(c.leaf.serial_number)
        .revocation_date(now - datetime.timedelta(days=2))
        .build()
    )
    crl = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(c.intermediate.subject)
        .last_update(now - datetime.timedelta(days=1))
        .next_update(now + datetime.timedelta(days=7))
        .add_revoked_certificate(revoked)
        .sign(c.intermediate_key, hashes.SHA256())
    )
    output = io.BytesIO(signed)
    DocumentSecurityStore.add_dss(
        output_stream=output,
        sig_contents=PdfFileReader(io.BytesIO(signed)).embedded_signatures[0].pkcs7_content,
        crls=[asn1_crl.CertificateList.load(crl.public_bytes(Encoding.DER))],
    )
    report = signing.signature_report(output.getvalue())
    assert report.trust == signing.Trust.REVOKED and not report.trusted
    assert "certificado revogado" in report.summary


# The signature policy ----------------------------------------------------------------------------------


def _policy_id(pdf: bytes):
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.general import find_unique_cms_attribute

    signature = PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0]
    return find_unique_cms_attribute(
        signature.signer_info["signed_attrs"], "signature_policy_identifier"
    ).chosen


def test_pyhanko_reads_back_the_signature_policy_identifier(settings, a1):
    policy = _policy_id(bytes(publish().pdf))
    assert policy["sig_policy_id"].dotted == AD_RB_V1_1 == settings.SIGNATURE_POLICY_OID
    assert policy["sig_policy_hash"]["digest_algorithm"]["algorithm"].native == "sha256"
    assert policy["sig_policy_hash"]["digest"].native.hex() == settings.SIGNATURE_POLICY_HASH
    qualifier = policy["sig_policy_qualifiers"][0]
    assert qualifier["sig_policy_qualifier_id"].native == "sp_uri"
    assert "PA_PAdES_AD_RB_v1_1.der" in qualifier["sig_qualifier"].native


def test_the_policy_oid_is_configurable_and_can_be_left_out(settings, a1):
    settings.SIGNATURE_POLICY_OID = "2.16.76.1.7.1.11.1.3"
    assert _policy_id(bytes(publish("Com a v1.3").pdf))["sig_policy_id"].dotted == "2.16.76.1.7.1.11.1.3"
    settings.SIGNATURE_POLICY_OID = ""
    report = signing.signature_report(bytes(publish("Sem política").pdf))
    assert report.valid and report.policy_oid == ""


def test_the_policy_hash_is_read_from_the_policy_document(settings, tmp_path, a1):
    """SIGNATURE_POLICY_FILE: the SignPolicyHash the policy document carries, not the file's own hash."""
    from asn1crypto import algos, core

    class Info(core.Sequence):
        _fields = [("policy", core.ObjectIdentifier)]

    class PolicyDocument(core.Sequence):
        _fields = [("alg", algos.DigestAlgorithm), ("info", Info), ("hash", core.OctetString)]

    inner = hashlib.sha256(Info({"policy": AD_RB_V1_1}).dump()).digest()
    der = PolicyDocument(
        {"alg": {"algorithm": "sha256"}, "info": {"policy": AD_RB_V1_1}, "hash": inner}
    ).dump()
    path = tmp_path / "PA_PAdES_AD_RB_v1_1.der"
    path.write_bytes(der)
    settings.SIGNATURE_POLICY_FILE = str(path)
    digest = _policy_id(bytes(publish().pdf))["sig_policy_hash"]["digest"].native
    assert digest == inner != hashlib.sha256(der).digest()


@pytest.mark.parametrize(
    ("oid", "name"),
    [
        ("2.16.76.1.7.1.11.1", "ICP-Brasil PAdES AD-RB (referência básica) v1.0 (2.16.76.1.7.1.11.1)"),
        ("2.16.76.1.7.1.11.1.1", "ICP-Brasil PAdES AD-RB (referência básica) v1.1 (2.16.76.1.7.1.11.1.1)"),
        ("2.16.76.1.7.1.12.1.3", "ICP-Brasil PAdES AD-RT (referência de tempo) v1.3 (2.16.76.1.7.1.12.1.3)"),
        ("1.2.3.4", "1.2.3.4"),
    ],
)
def test_doc_icp_15_03_policy_names(oid, name):
    assert signing.policy_name(oid) == name


# The timestamp -----------------------------------------------------------------------------------------


def _dummy_tsa():
    from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    c = chain()
    return DummyTimeStamper(
        tsa_cert=_asn1(c.tsa),
        tsa_key=_asn1_key(c.tsa_key),
        certs_to_embed=SimpleCertificateStore.from_certs([_asn1(c.intermediate)]),
    )


def _asn1(certificate) -> asn1_x509.Certificate:
    from cryptography.hazmat.primitives.serialization import Encoding

    return asn1_x509.Certificate.load(certificate.public_bytes(Encoding.DER))


def _asn1_key(key):
    from asn1crypto import keys
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    return keys.PrivateKeyInfo.load(key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption()))


def test_a_configured_tsa_stamps_the_signature_and_the_page_says_the_time_is_the_tsa_s(
    client, settings, tmp_path, monkeypatch, a1
):
    trust_store(settings, tmp_path, chain().root_pem)
    monkeypatch.setattr(signing, "_timestamper", _dummy_tsa)
    document = publish()
    report = signing.signature_report(bytes(document.pdf))
    assert report.timestamped and report.trusted
    assert "carimbo do tempo de uma autoridade de carimbo do tempo" in verify_page(client, document)


def test_an_unreachable_tsa_signs_without_a_timestamp(settings, a1, caplog):
    settings.SIGNATURE_TSA_URL = "http://127.0.0.1:9/tsa"  # nothing listens on the discard port
    settings.SIGNATURE_TSA_TIMEOUT = 2
    document = publish()
    report = signing.signature_report(bytes(document.pdf))
    assert document.signed and report.valid and not report.timestamped
    assert "assinado sem carimbo" in caplog.text


def test_signing_works_offline_without_a_tsa(settings, a1):
    settings.SIGNATURE_TSA_URL = ""
    assert signing._timestamper() is None
    assert publish().signed


# Encryption at rest --------------------------------------------------------------------------------------


def test_the_certificate_and_its_password_are_stored_encrypted(a1):
    stored = SigningCertificate.objects.get()
    assert bytes(stored.pkcs12) != chain().pkcs12 and chain().pkcs12[:64] not in bytes(stored.pkcs12)
    assert certificates.decrypt(stored.pkcs12) == chain().pkcs12
    assert certificates.decrypt(stored.password) == PASSWORD.encode()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM contests_signingcertificate")
        assert PASSWORD not in repr(cursor.fetchall())
    history = stored.history.first()
    assert not hasattr(history, "pkcs12") and not hasattr(history, "password")


def test_a_changed_encryption_key_is_a_clear_error_and_a_fallback_still_decrypts(settings, a1):
    old = settings.SIGNING_KEY_ENCRYPTION_KEY
    settings.SIGNING_KEY_ENCRYPTION_KEY = "outra-chave"
    settings.SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS = []
    with pytest.raises(signing.SigningError, match="Envie o certificado de novo"), signers.backend().open():
        pass
    settings.SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS = [old]
    with signers.backend().open() as signer:
        assert LEAF_CN in signer.signing_cert.subject.human_friendly


# Pluggable backends ---------------------------------------------------------------------------------------


class RemoteServiceDouble(signers.SigningBackend):
    """A remote signing service as a test double: the "service" holds the A1 key and signs the digests it
    is sent; the application holds only the certificate."""

    digests: list[tuple[str, bytes]] = []

    class Client(RemoteSigner):
        def sign_digest(self, digest: bytes, digest_algorithm: str) -> bytes:
            RemoteServiceDouble.digests.append((digest_algorithm, digest))
            algorithm = {"sha256": hashes.SHA256()}[digest_algorithm]
            return chain().leaf_key.sign(digest, padding.PKCS1v15(), utils.Prehashed(algorithm))

    def available(self) -> bool:
        return True

    @contextlib.contextmanager
    def open(self):
        c = chain()
        yield self.Client(_asn1(c.leaf), chain=[_asn1(c.intermediate)])


def test_a_remote_signing_service_plugs_in_through_signature_backend(settings, tmp_path):
    settings.SIGNATURE_BACKEND = "tests.contests.test_signing_icp.RemoteServiceDouble"
    settings.DOCUMENTS_PKCS12_PATH = ""
    RemoteServiceDouble.digests.clear()
    trust_store(settings, tmp_path, chain().root_pem)
    assert signing.configured()
    document = publish()
    assert document.signed and LEAF_CN in document.signature_subject
    assert [algorithm for algorithm, _ in RemoteServiceDouble.digests] == ["sha256"]
    report = signing.signature_report(bytes(document.pdf))
    assert report.valid and report.trusted and report.policy_oid == AD_RB_V1_1


def test_an_unknown_backend_is_a_clear_error(settings):
    settings.SIGNATURE_BACKEND = "nada.disso.Existe"
    with pytest.raises(signing.SigningError, match="SIGNATURE_BACKEND desconhecido"):
        signers.backend()
    assert not signing.configured()


def test_the_pkcs11_backend_says_what_it_needs(settings):
    settings.SIGNATURE_BACKEND = "pkcs11"
    settings.SIGNATURE_PKCS11_MODULE = ""
    backend = signers.backend()
    assert isinstance(backend, signers.Pkcs11Backend) and not backend.available()
    with pytest.raises(signing.SigningError, match="PKCS#11"), backend.open():
        pass


def test_a_certificate_that_cannot_be_opened_stops_the_publication_with_the_reason(settings, a1):
    from django.core.exceptions import ValidationError

    settings.SIGNING_KEY_ENCRYPTION_KEY = "outra-chave"
    settings.SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS = []
    with pytest.raises(
        ValidationError, match="não pôde ser assinado: O certificado guardado não pode ser aberto"
    ):
        publish()
    assert not Document.objects.exists()
