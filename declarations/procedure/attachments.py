"""The files joined to a procedure's acts (a defence's evidence, a power of attorney, a decision's
annexes): checked by their content (PDF or image, not empty, under the size limit), hashed and stored under a
random name. Split from ``services``, which records the acts (and is at its size limit)."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from contests.audit import User, audited_save
from declarations.models import Attachment, ProcedureAct
from declarations.models.procedures import EXTENSIONS


def _refuse(message: str) -> None:
    raise ValidationError(message)


# Content signatures (magic bytes): the name and the browser's content type are not trusted.
SIGNATURES = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
)


def sniff(head: bytes) -> str:
    """The content type of a file from its first bytes, or '' when it is not a PDF, PNG, JPEG or WEBP."""
    for magic, content_type in SIGNATURES:
        if head.startswith(magic):
            return content_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return ""


def attachment_check(upload: UploadedFile) -> str:
    """The upload's content type, or a ValidationError (not PDF or image by content, too large, empty)."""
    limit = settings.PROCEDURE_ATTACHMENT_MAX_BYTES
    name = upload.name or "arquivo"
    if not upload.size:
        _refuse(f"O arquivo {name} está vazio.")
    if upload.size and upload.size > limit:
        _refuse(f"O arquivo {name} tem {upload.size / 1048576:.1f} MB; o limite é {limit / 1048576:.0f} MB.")
    upload.seek(0)
    content_type = sniff(upload.read(16))
    upload.seek(0)
    if not content_type:
        _refuse(
            f"O arquivo {name} não é PDF nem imagem (PNG, JPEG, WEBP): o conteúdo foi verificado, não o nome."
        )
    return content_type


@transaction.atomic
def attachment_add(
    *, act: ProcedureAct, upload: UploadedFile, protected: bool, by: User | None
) -> Attachment:
    content_type = attachment_check(upload)
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    attachment = Attachment(
        act=act,
        name=(upload.name or "arquivo")[:200],
        content_type=content_type,
        size=upload.size or 0,
        sha256=digest.hexdigest(),
        protected=protected,
    )
    extension = EXTENSIONS.get(content_type, "")  # named by the type found, never the name typed
    attachment.file.save(
        f"{act.procedure.year}-{act.procedure.number}-{secrets.token_hex(8)}{extension}", upload, save=False
    )
    audited_save(attachment, by=by, reason="Anexo")
    return attachment
