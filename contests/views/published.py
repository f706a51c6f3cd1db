"""What a person who published a document reads next: the success message, in the staff area they stay
in, with the code and a link to the document's public page (never a jump to the public site)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.html import format_html

from contests.documents.models import Document


def published_message(request: HttpRequest, done: str, document: Document) -> None:
    """``done`` ("Edital publicado.") followed by the verification code and a link to the public page."""
    messages.success(
        request,
        format_html(
            '{} Código de verificação: {}. <a href="{}">Ver a página pública do documento</a>.',
            done,
            document.code,
            document.get_absolute_url(),
        ),
    )
