"""The files the candidate joins to the appeal against the commission's decision (RULES §5): a bounded
number and total size, each checked by its content like the procedure's attachments (PDF or image), hashed
(SHA-256) and kept in the restricted storage under a name with the extension of the type found, never the
one typed. The caller holds the appeal's transaction."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from contests.audit import audited_save
from declarations.models import Appeal, AppealAttachment
from declarations.models.procedures import EXTENSIONS
from declarations.procedure.services import attachment_check

MAX_FILES = 5
MAX_TOTAL_BYTES = 20 * 1024 * 1024
FILES_HELP = (
    f"Opcional: até {MAX_FILES} arquivos, {MAX_TOTAL_BYTES // 1048576} MB no total; PDF ou imagem (PNG, JPEG, "
    "WEBP), verificados pelo conteúdo."
)


# Refusals of the upload handler (the request is read no further).
UNKNOWN_FILE_FIELD = (
    "Envie os arquivos somente no campo “Documentos e imagens” do recurso: nada foi recebido."
)
TOO_MANY_FILES = f"Envie no máximo {MAX_FILES} arquivos com o recurso: nada foi recebido."
TOO_LARGE = (
    f"Os arquivos passam de {MAX_TOTAL_BYTES // 1048576} MB no total, o limite do recurso: nada foi recebido."
)
_REFUSAL = "appeal_upload_refusal"


class AppealUploadLimit(FileUploadHandler):
    """The appeal's bounds enforced while the request is read, before any file is kept: a sixth file, a file
    under another field, or the byte past the total stop the reading (``StopUpload``: the files read are
    dropped, the rest of the body is discarded as it arrives, never kept; the form's fields read before it,
    the CSRF token and the reasons, stay). ``upload_refusal`` tells the view why; nothing is recorded."""

    def __init__(self, request=None) -> None:
        super().__init__(request)
        self.count = 0
        self.total = 0

    def new_file(self, field_name, *args, **kwargs) -> None:
        super().new_file(field_name, *args, **kwargs)
        if field_name != "attachments":
            self._stop(UNKNOWN_FILE_FIELD)
        self.count += 1
        if self.count > MAX_FILES:
            self._stop(TOO_MANY_FILES)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.total += len(raw_data)
        if self.total > MAX_TOTAL_BYTES:
            self._stop(TOO_LARGE)
        return raw_data  # on to the next handler, which keeps it

    def file_complete(self, file_size: int) -> None:
        return None

    def _stop(self, message: str) -> None:
        setattr(self.request, _REFUSAL, message)
        raise StopUpload(connection_reset=False)


def upload_refusal(request: HttpRequest) -> str:
    """Why ``AppealUploadLimit`` stopped reading ``request``, or ''."""
    return getattr(request, _REFUSAL, "")


def uploads_problem(uploads: Sequence[UploadedFile]) -> str:
    """Why these files cannot go with an appeal (too many, too large together), or ''."""
    if len(uploads) > MAX_FILES:
        return f"Envie no máximo {MAX_FILES} arquivos com o recurso (foram {len(uploads)})."
    total = sum(upload.size or 0 for upload in uploads)
    if total > MAX_TOTAL_BYTES:
        return (
            f"Os arquivos somam {total / 1048576:.1f} MB; o limite do recurso é "
            f"{MAX_TOTAL_BYTES // 1048576} MB no total."
        )
    return ""


def appeal_files_check(uploads: Sequence[UploadedFile]) -> list[str]:
    """Each upload's content type, in order, or a ValidationError on the field ``attachments`` (the count,
    the total, then each file's content, size and emptiness)."""
    problem = uploads_problem(uploads)
    if problem:
        raise ValidationError({"attachments": problem})
    types = []
    for upload in uploads:
        try:
            types.append(attachment_check(upload))
        except ValidationError as error:
            raise ValidationError({"attachments": error.messages}) from None
    return types


def appeal_files_add(
    *, appeal: Appeal, uploads: Sequence[UploadedFile], types: Sequence[str]
) -> list[AppealAttachment]:
    """Store the checked ``uploads`` (with their ``types`` from ``appeal_files_check``) on ``appeal``."""
    stored = []
    for upload, content_type in zip(uploads, types, strict=True):
        digest = hashlib.sha256()
        for chunk in upload.chunks():
            digest.update(chunk)
        upload.seek(0)
        attachment = AppealAttachment(
            appeal=appeal,
            name=(upload.name or "arquivo")[:200],
            content_type=content_type,
            size=upload.size or 0,
            sha256=digest.hexdigest(),
        )
        extension = EXTENSIONS.get(content_type, "")  # named by the type found, never the name typed
        attachment.file.save(f"recurso-{appeal.pk}-{secrets.token_hex(8)}{extension}", upload, save=False)
        audited_save(attachment, by=None, reason="Anexo do recurso enviado pelo candidato")
        stored.append(attachment)
    return stored
