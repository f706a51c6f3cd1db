"""PAdES signatures with pyHanko: the organisation's certificate (a PKCS#12 file and its password, from the
environment) signs every published PDF; ``signature_report`` says what a file's signature is worth."""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from django.conf import settings
from django.utils import timezone


class SigningError(RuntimeError):
    """The certificate cannot be read (wrong path or password): the message is Portuguese, for the user."""


def _local(moment: datetime.datetime) -> datetime.datetime:
    """A signature's time in the installation's time zone (America/Sao_Paulo) when it carries a zone."""
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def configured() -> bool:
    return bool(settings.DOCUMENTS_PKCS12_PATH)


def _signer(path: str, password: str):
    from pyhanko.sign import signers

    if not Path(path).is_file():
        raise SigningError(f"Certificado não encontrado em {path} (DOCUMENTS_PKCS12_PATH).")
    signer = signers.SimpleSigner.load_pkcs12(pfx_file=path, passphrase=password.encode() or None)
    if signer is None:
        raise SigningError(
            "Não foi possível abrir o certificado: confira a senha (DOCUMENTS_PKCS12_PASSWORD)."
        )
    return signer


def signer_subject(path: str | None = None, password: str | None = None) -> str:
    signer = _signer(path or settings.DOCUMENTS_PKCS12_PATH, password or settings.DOCUMENTS_PKCS12_PASSWORD)
    return str(signer.signing_cert.subject.human_friendly)


def sign_pdf(
    pdf: bytes, *, reason: str, location: str, name: str, path: str | None = None, password: str | None = None
) -> bytes:
    """``pdf`` signed PAdES (baseline B) with the configured certificate."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    signer = _signer(path or settings.DOCUMENTS_PKCS12_PATH, password or settings.DOCUMENTS_PKCS12_PASSWORD)
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    meta = signers.PdfSignatureMetadata(
        field_name="Assinatura",
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        reason=reason,
        location=location,
        name=name,
    )
    out = signers.sign_pdf(writer, meta, signer=signer)
    return bytes(out.getvalue())


@dataclass(frozen=True)
class SignatureReport:
    present: bool
    intact: bool = False  # the signed bytes were not changed
    valid: bool = False  # the cryptographic signature checks
    trusted: bool = False  # the certificate chains to the organisation's configured certificate
    signer: str = ""
    signed_at: str = ""
    covers_whole_file: bool = False

    @property
    def summary(self) -> str:
        if not self.present:
            return "O arquivo não tem assinatura digital."
        if not (self.intact and self.valid):
            return "A assinatura digital NÃO confere: o arquivo foi alterado depois de assinado."
        trust = (
            "certificado da organização"
            if self.trusted
            else "certificado não reconhecido como o da organização"
        )
        whole = (
            "" if self.covers_whole_file else " (o arquivo tem conteúdo acrescentado depois da assinatura)"
        )
        return f"Assinatura digital válida de {self.signer} ({trust}){whole}."


def signature_report(
    pdf: bytes | IO[bytes], *, trust_pkcs12: tuple[str, str] | None = None
) -> SignatureReport:
    """Check the first embedded signature of ``pdf`` (bytes, or a seekable binary stream read in place);
    trusted when its certificate is the organisation's own (``trust_pkcs12``, the configured certificate
    by default)."""
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    try:
        reader = PdfFileReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf, strict=False)
        signatures = reader.embedded_signatures
    except Exception:  # an unreadable file has no signature worth reporting
        return SignatureReport(present=False)
    if not signatures:
        return SignatureReport(present=False)
    roots = []
    path, password = trust_pkcs12 or (settings.DOCUMENTS_PKCS12_PATH, settings.DOCUMENTS_PKCS12_PASSWORD)
    if path:
        try:
            roots = [_signer(path, password).signing_cert]
        except SigningError:
            roots = []
    signature = signatures[0]
    context = ValidationContext(trust_roots=roots, allow_fetching=False)
    status = validate_pdf_signature(signature, context)
    signer = str(signature.signer_cert.subject.human_friendly)
    signed_at = signature.self_reported_timestamp
    return SignatureReport(
        present=True,
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        signer=signer,
        signed_at=f"{_local(signed_at):%d/%m/%Y %H:%M}" if signed_at else "",
        covers_whole_file=status.coverage is not None and status.coverage.name == "ENTIRE_FILE",
    )
