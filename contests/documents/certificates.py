"""The organisation's signing certificate as data: a PKCS#12 file read and checked (``read_pkcs12``), kept
encrypted at rest (``encrypt``/``decrypt``, Fernet under ``SIGNING_KEY_ENCRYPTION_KEY``), and the roots
``/verificar/`` trusts (``trust_roots``, the folder ``SIGNATURE_TRUST_STORE`` read once).

Every refusal is a ``CertificateError`` whose message is Portuguese, for the person who uploaded the file."""

from __future__ import annotations

import base64
import datetime
import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from asn1crypto import pem
from asn1crypto import pkcs12 as asn1_pkcs12
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, pkcs12
from django.conf import settings

# An A1 certificate with its chain is a few kilobytes: anything far larger is not one.
MAX_PKCS12_BYTES = 100 * 1024
# The SubjectPublicKeyInfo format, to compare a key with its certificate.
_SPKI = PublicFormat.SubjectPublicKeyInfo


class CertificateError(ValueError):
    """The file is not a usable certificate: the message says why, in Portuguese; ``field`` is what to
    correct (``certificate``: the file, ``password``: its password)."""

    def __init__(self, message: str, field: str = "certificate") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class CertificateInfo:
    """What the screen shows of a certificate (never its key)."""

    subject: str
    common_name: str
    issuer: str
    serial: str  # hexadecimal, as certificate viewers show it
    not_before: datetime.datetime
    not_after: datetime.datetime


def _name(name: x509.Name) -> str:
    return name.rfc4514_string()


def _common_name(name: x509.Name) -> str:
    values = name.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    return str(values[0].value) if values else _name(name)


def describe(certificate: x509.Certificate) -> CertificateInfo:
    return CertificateInfo(
        subject=_name(certificate.subject),
        common_name=_common_name(certificate.subject),
        issuer=_name(certificate.issuer),
        serial=format(certificate.serial_number, "X"),
        not_before=certificate.not_valid_before_utc,
        not_after=certificate.not_valid_after_utc,
    )


def read_pkcs12(data: bytes, password: str, *, now: datetime.datetime) -> CertificateInfo:
    """Check an uploaded A1 certificate: a PKCS#12 file of bounded size that ``password`` opens, with the
    private key of its certificate, valid at ``now`` and meant for signing. Returns what the screen shows."""
    if not data:
        raise CertificateError("O arquivo está vazio.")
    if len(data) > MAX_PKCS12_BYTES:
        raise CertificateError(
            f"O arquivo tem {len(data) // 1024} KB: um certificado A1 (.pfx ou .p12) tem poucos KB. "
            "Confira se escolheu o arquivo certo."
        )
    try:
        structure = asn1_pkcs12.Pfx.load(data, strict=True)
        structure["auth_safe"]["content_type"].native  # noqa: B018 (parses the outer structure)
    except ValueError:
        raise CertificateError(
            "O arquivo não é um certificado digital no formato PKCS#12 (.pfx ou .p12)."
        ) from None
    try:
        key, certificate, _ = pkcs12.load_key_and_certificates(data, password.encode() or None)
    except ValueError:
        raise CertificateError(
            "A senha não abre o certificado: confira a senha e envie de novo.", "password"
        ) from None
    if key is None:
        raise CertificateError(
            "O arquivo não contém a chave privada do certificado: exporte o certificado com a chave privada."
        )
    if certificate is None:
        raise CertificateError("O arquivo não contém o certificado do titular.")
    public = certificate.public_key().public_bytes(Encoding.DER, _SPKI)
    if key.public_key().public_bytes(Encoding.DER, _SPKI) != public:
        raise CertificateError("A chave privada do arquivo não corresponde ao certificado.")
    info = describe(certificate)
    if info.not_after <= now:
        raise CertificateError(
            f"O certificado venceu em {info.not_after:%d/%m/%Y}: envie um certificado válido."
        )
    if info.not_before > now:
        raise CertificateError(f"O certificado só vale a partir de {info.not_before:%d/%m/%Y}.")
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        usage = None
    if usage is not None and not (usage.digital_signature or usage.content_commitment):
        raise CertificateError("O certificado não serve para assinar documentos (uso da chave).")
    return info


# Encryption at rest ---------------------------------------------------------------------------------------


def _fernet_key(secret: str) -> bytes:
    return base64.urlsafe_b64encode(hashlib.sha256(secret.encode()).digest())


def _cipher() -> MultiFernet:
    secrets = [settings.SIGNING_KEY_ENCRYPTION_KEY, *settings.SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS]
    return MultiFernet([Fernet(_fernet_key(secret)) for secret in secrets])


def encrypt(data: bytes) -> bytes:
    return _cipher().encrypt(data)


def decrypt(token: bytes) -> bytes:
    try:
        return _cipher().decrypt(bytes(token))
    except InvalidToken:
        raise CertificateError(
            "O certificado guardado não pode ser aberto: a chave de cifragem (SIGNING_KEY_ENCRYPTION_KEY ou "
            "SECRET_KEY) mudou. Envie o certificado de novo na tela da organização."
        ) from None


# Trust store ----------------------------------------------------------------------------------------------


def _certificates_in(data: bytes) -> list[asn1_x509.Certificate]:
    if pem.detect(data):
        return [asn1_x509.Certificate.load(der) for _, _, der in pem.unarmor(data, multiple=True)]
    return [asn1_x509.Certificate.load(data)]


@functools.cache
def _roots_in(folder: str) -> tuple[asn1_x509.Certificate, ...]:
    roots = []
    for path in sorted(Path(folder).iterdir()):
        if not path.is_file():
            continue
        try:
            certificates = _certificates_in(path.read_bytes())
            for certificate in certificates:
                certificate.native  # noqa: B018 (a file that is not a certificate fails here)
        except (ValueError, TypeError, OSError):
            continue  # a README or a stray file in the folder is not a root
        roots.extend(certificates)
    return tuple(roots)


def trust_roots(folder: str | None = None) -> tuple[asn1_x509.Certificate, ...] | None:
    """The root certificates of the trust store (PEM or DER files in ``folder``, by default
    ``SIGNATURE_TRUST_STORE``), read once per folder; None when no trust store is configured."""
    folder = settings.SIGNATURE_TRUST_STORE if folder is None else folder
    if not folder:
        return None
    if not Path(folder).is_dir():
        return ()
    return _roots_in(str(Path(folder).resolve()))


def forget_trust_roots() -> None:
    """Read the trust store again on next use (after its folder changed)."""
    _roots_in.cache_clear()
