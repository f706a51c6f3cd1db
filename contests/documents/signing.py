"""PAdES signatures with pyHanko: the organisation's key (a backend, ``contests.documents.signers``: the A1
certificate Gestão uploaded by default) signs every published PDF, declaring the signature policy
(``SIGNATURE_POLICY_*``, ICP-Brasil PAdES AD-RB by default) and, where a TSA is configured, with a
timestamp; ``signature_report`` says what a file's signature is worth, against the trust store
(``SIGNATURE_TRUST_STORE``) and never fetching anything. docs/signing.md explains the settings."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import hashlib
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.utils import timezone

from contests.documents import certificates, signers
from contests.documents.signers import SigningError
from contests.models import SigningCertificate

__all__ = ["SignatureReport", "SigningError", "Trust", "configured", "sign_pdf", "signature_report"]

logger = logging.getLogger(__name__)


def _local(moment: datetime.datetime) -> datetime.datetime:
    """A signature's time in the installation's time zone (America/Sao_Paulo) when it carries a zone."""
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def configured() -> bool:
    try:
        return signers.backend().available()
    except SigningError:
        return False


def uses_settings_certificate() -> bool:
    """Whether documents are signed with the settings' PKCS#12 file (no certificate uploaded yet)."""
    return (
        settings.SIGNATURE_BACKEND in ("", "pkcs12")
        and bool(settings.DOCUMENTS_PKCS12_PATH)
        and not SigningCertificate.objects.filter(active=True).exists()
    )


def backend_label() -> str:
    """What signs when it is not the uploaded certificate ("" for the default ``pkcs12`` backend)."""
    name = settings.SIGNATURE_BACKEND or "pkcs12"
    if name == "pkcs12":
        return ""
    return "um token ou HSM (PKCS#11)" if name == "pkcs11" else f"um serviço de assinatura ({name})"


def _signer(path: str, password: str):
    """The signer of a PKCS#12 file (the settings' fallback certificate, or a file a test made)."""
    return signers.pkcs12_file_signer(path, password)


def signer_subject(path: str | None = None, password: str | None = None) -> str:
    if path:
        return str(_signer(path, password or "").signing_cert.subject.human_friendly)
    with signers.backend().open() as signer:
        certificate = signer.signing_cert
        if certificate is None:
            raise SigningError("O assinante configurado não informa o seu certificado.")
        return str(certificate.subject.human_friendly)


# The signature policy ---------------------------------------------------------------------------------------


def _policy_hash() -> tuple[str, bytes]:
    """(digest algorithm, SignPolicyHash) of the configured policy: read from the policy document when
    ``SIGNATURE_POLICY_FILE`` is set (the hash it carries, else the hash of its SignPolicyInfo), else the
    configured hex value."""
    from asn1crypto import algos, core

    class PolicyDocument(core.Sequence):  # ETSI TR 102 272 SignaturePolicy, as ICP-Brasil publishes it
        _fields = [
            ("sign_policy_hash_alg", algos.DigestAlgorithm),
            ("sign_policy_info", core.Any),
            ("sign_policy_hash", core.OctetString, {"optional": True}),
        ]

    if settings.SIGNATURE_POLICY_FILE:
        try:
            document = PolicyDocument.load(Path(settings.SIGNATURE_POLICY_FILE).read_bytes())
            algorithm = document["sign_policy_hash_alg"]["algorithm"].native
            stored = document["sign_policy_hash"].native
            return algorithm, stored or hashlib.new(algorithm, document["sign_policy_info"].dump()).digest()
        except (OSError, ValueError) as error:
            raise SigningError(
                f"Não foi possível ler a política de assinatura em {settings.SIGNATURE_POLICY_FILE} "
                f"(SIGNATURE_POLICY_FILE): {error}"
            ) from None
    try:
        return settings.SIGNATURE_POLICY_HASH_ALGORITHM, bytes.fromhex(settings.SIGNATURE_POLICY_HASH)
    except ValueError:
        raise SigningError("SIGNATURE_POLICY_HASH deve ser o hash da política em hexadecimal.") from None


def policy_attributes():
    """The CAdES signed attributes declaring the configured signature policy (None: no policy)."""
    if not settings.SIGNATURE_POLICY_OID:
        return None
    from asn1crypto import algos, core
    from pyhanko.sign.ades.api import CAdESSignedAttrSpec
    from pyhanko.sign.ades.cades_asn1 import (
        SignaturePolicyId,
        SignaturePolicyIdentifier,
        SigPolicyQualifierInfo,
        SigPolicyQualifierInfos,
    )

    algorithm, digest = _policy_hash()
    policy: dict[str, Any] = {
        "sig_policy_id": settings.SIGNATURE_POLICY_OID,
        "sig_policy_hash": algos.DigestInfo(
            {"digest_algorithm": algos.DigestAlgorithm({"algorithm": algorithm}), "digest": digest}
        ),
    }
    if settings.SIGNATURE_POLICY_URI:
        policy["sig_policy_qualifiers"] = SigPolicyQualifierInfos(
            [
                SigPolicyQualifierInfo(
                    {
                        "sig_policy_qualifier_id": "sp_uri",
                        "sig_qualifier": core.IA5String(settings.SIGNATURE_POLICY_URI),
                    }
                )
            ]
        )
    identifier = SignaturePolicyIdentifier({"signature_policy_id": SignaturePolicyId(policy)})
    return CAdESSignedAttrSpec(signature_policy_identifier=identifier)


# ICP-Brasil's PAdES policies (DOC-ICP-15.03): the arc of each family; the last digits are the version.
ICP_BRASIL_PADES = {
    "2.16.76.1.7.1.11": "AD-RB (referência básica)",
    "2.16.76.1.7.1.12": "AD-RT (referência de tempo)",
    "2.16.76.1.7.1.13": "AD-RC (referências completas)",
    "2.16.76.1.7.1.14": "AD-RA (referências para arquivamento)",
}


def policy_name(oid: str) -> str:
    """How the verification page names a signature policy: ICP-Brasil's PAdES policies by name and
    version (2.16.76.1.7.1.11.1.1 is AD-RB v1.1; 2.16.76.1.7.1.11.1, v1.0), any other by its OID."""
    for arc, name in ICP_BRASIL_PADES.items():
        if oid.startswith(arc + "."):
            rest = oid[len(arc) + 1 :].split(".")
            version = f"v{rest[0]}.{rest[1] if len(rest) > 1 else '0'}" if rest[0].isdigit() else ""
            return f"ICP-Brasil PAdES {name} {version} ({oid})".replace("  ", " ")
    return oid


# Signing ----------------------------------------------------------------------------------------------------


def _timestamper():
    """The configured TSA's client (None: no timestamp)."""
    if not settings.SIGNATURE_TSA_URL:
        return None
    from pyhanko.sign.timestamps import HTTPTimeStamper

    return HTTPTimeStamper(settings.SIGNATURE_TSA_URL, timeout=settings.SIGNATURE_TSA_TIMEOUT)


def _sign(pdf: bytes, meta, signer, timestamper) -> bytes:
    """pyHanko's synchronous signing runs its own event loop: where the calling thread already runs one
    (an async caller, a browser test driving Playwright), it signs in a thread of its own."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers as pdf_signers

    def sign() -> bytes:
        writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
        return bytes(pdf_signers.sign_pdf(writer, meta, signer=signer, timestamper=timestamper).getvalue())

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return sign()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(sign).result()


def sign_pdf(
    pdf: bytes, *, reason: str, location: str, name: str, path: str | None = None, password: str | None = None
) -> bytes:
    """``pdf`` signed PAdES with the configured backend (or the PKCS#12 file ``path``): the signature
    policy declared, and a timestamp when a TSA is configured and answers (an unreachable TSA signs
    without it, logged: the signature itself does not depend on it)."""
    from pyhanko.sign import fields
    from pyhanko.sign.signers import PdfSignatureMetadata
    from pyhanko.sign.timestamps.common_utils import TimestampRequestError

    meta = PdfSignatureMetadata(
        field_name="Assinatura",
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        reason=reason,
        location=location,
        name=name,
        cades_signed_attr_spec=policy_attributes(),
    )
    timestamper = _timestamper()
    if path:
        signer = _signer(path, password or "")
        return _sign(pdf, meta, signer, timestamper)
    with signers.backend().open() as signer:
        try:
            return _sign(pdf, meta, signer, timestamper)
        except TimestampRequestError as error:
            logger.warning(
                "TSA %s não respondeu; documento assinado sem carimbo: %s", settings.SIGNATURE_TSA_URL, error
            )
            return _sign(pdf, meta, signer, None)


# Verification -----------------------------------------------------------------------------------------------


class Trust:
    """What the certificate chain is worth (the page's words)."""

    TRUSTED = "confiável"
    UNTRUSTED = "cadeia não confiável"
    REVOKED = "revogado"
    UNKNOWN = "desconhecido"


@dataclass(frozen=True)
class SignatureReport:
    present: bool
    intact: bool = False  # the signed bytes were not changed
    valid: bool = False  # the cryptographic signature checks
    trusted: bool = False  # the chain reaches a root of the trust store (or the organisation's certificate)
    signer: str = ""  # the certificate's subject, in full
    signer_name: str = ""  # its common name (CN)
    issuer: str = ""
    signed_at: str = ""
    timestamped: bool = False  # the time comes from a TSA's timestamp, not the signer's clock
    policy_oid: str = ""
    trust: str = ""  # a Trust value
    trust_store: bool = False  # judged against SIGNATURE_TRUST_STORE (False: the organisation's certificate)
    # Whether the certificates' revocation was checked: only from what the file embeds (a CRL or an OCSP
    # response in its DSS); a certificate whose revocation could not be checked is not called revoked.
    revocation_checked: bool = False
    covers_whole_file: bool = False

    @property
    def policy(self) -> str:
        return policy_name(self.policy_oid) if self.policy_oid else ""

    @property
    def summary(self) -> str:
        if not self.present:
            return "O arquivo não tem assinatura digital."
        if not (self.intact and self.valid):
            return "A assinatura digital NÃO confere: o arquivo foi alterado depois de assinado."
        if self.trust == Trust.TRUSTED:
            trust = "cadeia de certificação confiável" if self.trust_store else "certificado da organização"
        elif self.trust == Trust.REVOKED:
            trust = "certificado revogado"
        elif self.trust == Trust.UNTRUSTED:
            trust = (
                "cadeia não confiável: a autoridade certificadora raiz não está entre as reconhecidas aqui"
                if self.trust_store
                else "cadeia não confiável: certificado não reconhecido como o da organização"
            )
        else:
            trust = "situação do certificado desconhecida"
        whole = (
            "" if self.covers_whole_file else " (o arquivo tem conteúdo acrescentado depois da assinatura)"
        )
        return f"Assinatura digital válida de {self.signer_name or self.signer} ({trust}){whole}."


def _trust(status) -> str:
    from pyhanko.sign.ades.report import AdESIndeterminate

    if status.trusted:
        return Trust.TRUSTED
    if status.revoked:
        return Trust.REVOKED
    if status.trust_problem_indic == AdESIndeterminate.NO_CERTIFICATE_CHAIN_FOUND:
        return Trust.UNTRUSTED
    return Trust.UNKNOWN


def signature_policy_oid(signature) -> str:
    """The signature policy an embedded signature declares (its signature-policy-identifier), or ""."""
    from pyhanko.sign.ades.cades_asn1 import SignaturePolicyId
    from pyhanko.sign.general import find_cms_attribute_iter

    for value in find_cms_attribute_iter(
        signature.signer_info["signed_attrs"], "signature_policy_identifier"
    ):
        if isinstance(value.chosen, SignaturePolicyId):
            return str(value.chosen["sig_policy_id"].dotted)
    return ""


def _context(reader, roots: list):
    """(the validation context, whether the file embeds revocation information): ``roots`` trusted, the
    certificates and revocation information (CRLs, OCSP responses) the file carries in its DSS, nothing
    fetched."""
    from pyhanko.sign.validation.dss import DocumentSecurityStore
    from pyhanko.sign.validation.errors import NoDSSFoundError
    from pyhanko_certvalidator import ValidationContext

    options: dict[str, Any] = {"trust_roots": roots, "allow_fetching": False}
    try:
        dss = DocumentSecurityStore.read_dss(reader)
        return dss.as_validation_context(options), bool(dss.crls or dss.ocsps)
    except NoDSSFoundError:
        return ValidationContext(**options), False
    except Exception:  # a malformed DSS carries no revocation information worth reading
        return ValidationContext(**options), False


def _legacy_roots(trust_pkcs12: tuple[str, str] | None) -> list:
    """No trust store: the organisation's own certificate is the only one trusted (as before)."""
    if trust_pkcs12 is not None:
        try:
            return [_signer(*trust_pkcs12).signing_cert]
        except SigningError:
            return []
    try:
        return signers.backend().trust_anchors()
    except SigningError:
        return []


def signature_report(
    pdf: bytes | IO[bytes],
    *,
    trust_pkcs12: tuple[str, str] | None = None,
    trust_roots: Iterable | None = None,
) -> SignatureReport:
    """Check the first embedded signature of ``pdf`` (bytes, or a seekable binary stream read in place):
    who signed, when, under which policy, and whether its chain reaches a trusted root: ``trust_roots``,
    by default the trust store (``SIGNATURE_TRUST_STORE``); without one, the organisation's own certificate
    (``trust_pkcs12``, the configured one by default). Nothing is fetched (``allow_fetching=False``)."""
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature

    try:
        reader = PdfFileReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf, strict=False)
        signatures = reader.embedded_signatures
    except Exception:  # an unreadable file has no signature worth reporting
        return SignatureReport(present=False)
    if not signatures:
        return SignatureReport(present=False)
    store = certificates.trust_roots() if trust_roots is None else tuple(trust_roots)
    roots = list(store) if store is not None else _legacy_roots(trust_pkcs12)
    signature = signatures[0]
    context, revocation_embedded = _context(reader, roots)
    status = validate_pdf_signature(signature, context)
    certificate = signature.signer_cert
    timestamp = status.timestamp_validity.timestamp if status.timestamp_validity else None
    signed_at = timestamp or signature.self_reported_timestamp
    subject_cn = certificate.subject.native.get("common_name", "")
    issuer_cn = certificate.issuer.native.get("common_name", "")
    return SignatureReport(
        present=True,
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        signer=str(certificate.subject.human_friendly),
        signer_name=str(subject_cn),
        issuer=str(issuer_cn or certificate.issuer.human_friendly),
        signed_at=f"{_local(signed_at):%d/%m/%Y %H:%M}" if signed_at else "",
        timestamped=timestamp is not None,
        policy_oid=signature_policy_oid(signature),
        trust=_trust(status),
        trust_store=store is not None,
        revocation_checked=revocation_embedded and not context.soft_fail_exceptions,
        covers_whole_file=status.coverage is not None and status.coverage.name == "ENTIRE_FILE",
    )
