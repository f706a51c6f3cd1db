"""Who holds the key that signs the published documents: a pluggable backend (``SIGNATURE_BACKEND``,
docs/signing.md).

- ``pkcs12`` (default): the A1 certificate Gestão uploaded (``SigningCertificate``, decrypted only while a
  document is signed), else the PKCS#12 file of ``DOCUMENTS_PKCS12_PATH``;
- ``pkcs11``: an A3 token or an HSM through its PKCS#11 module (pyHanko's ``PKCS11Signer``; needs the
  ``python-pkcs11`` package, pyHanko's ``pkcs11`` extra);
- a dotted path to a ``SigningBackend`` subclass: a remote signing service, typically through a
  ``RemoteSigner`` whose ``sign_digest`` calls the service.

A backend opens a pyHanko ``Signer`` for the time of one signature (``with backend.open() as signer``): a
token's session is closed after it, a decrypted key is dropped with it. pyHanko is imported when a document
is signed, not with this module (every request imports the documents' services)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from asn1crypto import x509 as asn1_x509
from django.conf import settings
from django.utils.module_loading import import_string

from contests.documents import certificates
from contests.models import SigningCertificate

if TYPE_CHECKING:
    from pyhanko.sign.signers import Signer, SimpleSigner


class SigningError(RuntimeError):
    """The key cannot be used (no certificate, a wrong path or password, a token missing): the message is
    Portuguese, for the user."""


class SigningBackend:
    """The interface every backend implements."""

    def available(self) -> bool:
        """Whether documents are signed at all (a certificate is configured)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def open(self) -> Iterator[Signer]:
        """A pyHanko signer, valid inside the ``with`` block; raises ``SigningError``."""
        raise NotImplementedError
        yield  # pragma: no cover

    def trust_anchors(self) -> list[asn1_x509.Certificate]:
        """Certificates ``/verificar/`` trusts when no trust store is configured (the organisation's own,
        as before the trust store existed): the signing certificate, by default."""
        if not self.available():
            return []
        try:
            with self.open() as signer:
                return [signer.signing_cert] if signer.signing_cert is not None else []
        except SigningError:
            return []


# PKCS#12: the uploaded A1 certificate, else the configured file --------------------------------------------


def pkcs12_file_signer(path: str, password: str) -> SimpleSigner:
    from pyhanko.sign.signers import SimpleSigner

    if not Path(path).is_file():
        raise SigningError(f"Certificado não encontrado em {path} (DOCUMENTS_PKCS12_PATH).")
    signer = SimpleSigner.load_pkcs12(pfx_file=path, passphrase=password.encode() or None)
    if signer is None:
        raise SigningError(
            "Não foi possível abrir o certificado: confira a senha (DOCUMENTS_PKCS12_PASSWORD)."
        )
    return signer


def pkcs12_data_signer(data: bytes, password: str) -> SimpleSigner:
    from pyhanko.sign.signers import SimpleSigner

    try:
        return SimpleSigner.load_pkcs12_data(data, other_certs=(), passphrase=password.encode() or None)
    except (ValueError, TypeError):
        raise SigningError(
            "Não foi possível abrir o certificado guardado: envie-o de novo na tela da organização."
        ) from None


class Pkcs12Backend(SigningBackend):
    def available(self) -> bool:
        return SigningCertificate.objects.filter(active=True).exists() or bool(settings.DOCUMENTS_PKCS12_PATH)

    @contextlib.contextmanager
    def open(self) -> Iterator[Signer]:
        stored = SigningCertificate.current()
        if stored is not None:
            try:
                data = certificates.decrypt(stored.pkcs12)
                password = certificates.decrypt(stored.password).decode()
            except certificates.CertificateError as error:
                raise SigningError(str(error)) from None
            yield pkcs12_data_signer(data, password)
            return
        if not settings.DOCUMENTS_PKCS12_PATH:
            raise SigningError("Nenhum certificado de assinatura: a Gestão o envia na tela da organização.")
        yield pkcs12_file_signer(settings.DOCUMENTS_PKCS12_PATH, settings.DOCUMENTS_PKCS12_PASSWORD)


# PKCS#11: an A3 token or an HSM ----------------------------------------------------------------------------


class Pkcs11Backend(SigningBackend):
    """The key never leaves the device: pyHanko asks the token to sign (``SIGNATURE_PKCS11_*``)."""

    def available(self) -> bool:
        return bool(settings.SIGNATURE_PKCS11_MODULE)

    @contextlib.contextmanager
    def open(self) -> Iterator[Signer]:
        try:
            from pyhanko.sign import pkcs11
        except ImportError:
            raise SigningError(
                "A assinatura por token (PKCS#11) precisa do pacote python-pkcs11 instalado."
            ) from None
        if not settings.SIGNATURE_PKCS11_MODULE:
            raise SigningError("Informe o módulo PKCS#11 do token (SIGNATURE_PKCS11_MODULE).")
        try:
            session = pkcs11.open_pkcs11_session(
                settings.SIGNATURE_PKCS11_MODULE,
                token_criteria=pkcs11.TokenCriteria(label=settings.SIGNATURE_PKCS11_TOKEN_LABEL or None),
                user_pin=settings.SIGNATURE_PKCS11_PIN or None,
            )
        except Exception as error:  # the library's errors vary by module and token
            raise SigningError(f"Não foi possível abrir o token PKCS#11: {error}") from None
        try:
            yield pkcs11.PKCS11Signer(
                session,
                cert_label=settings.SIGNATURE_PKCS11_CERT_LABEL or None,
                key_label=settings.SIGNATURE_PKCS11_KEY_LABEL or None,
            )
        finally:
            session.close()


# The configured backend ------------------------------------------------------------------------------------

BACKENDS: dict[str, type[SigningBackend]] = {"pkcs12": Pkcs12Backend, "pkcs11": Pkcs11Backend}


def backend() -> SigningBackend:
    """The backend ``SIGNATURE_BACKEND`` names: ``pkcs12``, ``pkcs11`` or a dotted path to a class."""
    name = settings.SIGNATURE_BACKEND or "pkcs12"
    try:
        cls = BACKENDS[name] if name in BACKENDS else import_string(name)
    except ImportError:
        raise SigningError(f"SIGNATURE_BACKEND desconhecido: {name}.") from None
    if not (isinstance(cls, type) and issubclass(cls, SigningBackend)):
        raise SigningError(f"SIGNATURE_BACKEND deve nomear uma subclasse de SigningBackend: {name}.")
    return cls()
