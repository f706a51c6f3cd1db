"""A remote signing service as a pyHanko signer (docs/signing.md, section 1.3): the key stays with the
service; the application sends it the digest of what is signed and embeds the signature it returns. A
``SigningBackend`` (``SIGNATURE_BACKEND``) yields a subclass of ``RemoteSigner`` from ``open()``."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from asn1crypto import x509 as asn1_x509
from pyhanko.sign.signers import Signer
from pyhanko_certvalidator.registry import SimpleCertificateStore


class RemoteSigner(Signer):
    """A pyHanko signer whose key is elsewhere: subclass it and implement ``sign_digest``, which sends the
    digest of the signed attributes to the service and returns the raw signature (PKCS#1 v1.5 for RSA, DER
    ECDSA for EC keys) made with the private key of ``certificate``."""

    # Zeros of this length stand for the signature while pyHanko only estimates its size.
    placeholder_size = 512

    def __init__(self, certificate: asn1_x509.Certificate, chain: Iterable[asn1_x509.Certificate] = ()):
        super().__init__(
            signing_cert=certificate,
            cert_registry=SimpleCertificateStore.from_certs([certificate, *chain]),
        )

    def sign_digest(self, digest: bytes, digest_algorithm: str) -> bytes:
        raise NotImplementedError

    async def async_sign_raw(self, data: bytes, digest_algorithm: str, dry_run: bool = False) -> bytes:
        if dry_run:
            return bytes(self.placeholder_size)
        return self.sign_digest(hashlib.new(digest_algorithm, data).digest(), digest_algorithm)
