"""The text of a published act for the official gazette (``contests.documents.gazette``) as a download:
``texto.txt``, ``texto.docx`` or ``texto.odt`` beside each address that serves the act's PDF, with the same
access as that PDF (the caller checks it)."""

from __future__ import annotations

from django.http import Http404, HttpResponse

from contests.documents import gazette
from contests.documents.models import Document


def export_response(document: Document, fmt: str, *, filename: str, public: bool) -> HttpResponse:
    """``document``'s text in ``fmt`` as an attachment named ``filename``.``fmt``; ``public``: an act the
    public may read (cached like its PDF: a published version never changes), else private and not
    stored."""
    if fmt not in gazette.FORMATS:
        raise Http404("Formatos do texto: txt, docx, odt.")
    data = gazette.export(bytes(document.pdf), fmt, title=document.title, sha256=document.sha256)
    response = HttpResponse(data, content_type=gazette.FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    if public:
        response["ETag"] = f'"{document.sha256}-{fmt}"'
        response["Cache-Control"] = "public, max-age=86400, immutable"
    else:
        response["Cache-Control"] = "private, no-store"
    return response
