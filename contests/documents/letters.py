"""Personal letters to candidates: one layout for every communication that goes on paper to someone without
e-mail (the access code, a procedure's notice, the heteroidentification result, the nomination).

A letter is never published nor stored: it may carry a secret (the access code, a private link), so it is
rendered on demand, served ``private, no-store``, and the view that prints it writes the access log. Many
letters print as one PDF, one letter per sheet (``render_letters``), so a clerk prints a contest's batch at
once. Each kind of letter builds a ``Letter`` in its own app (``candidates.letters``,
``declarations.procedure.documents``, ``declarations.hetero.documents``); this module knows nothing of
candidates.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

import segno
from django.utils.safestring import SafeString

from contests.documents.render import Stamp, render_pdf

# Letters per PDF: a batch beyond this is printed in several runs (each run takes those not printed yet),
# so a request never lays out thousands of pages.
BATCH = 200


@dataclass(frozen=True)
class Letter:
    """One letter: who it goes to, what it says (``body``: HTML rendered from a template of
    ``templates/pdf/letters/``), and what the candidate needs to act on it."""

    title: str
    recipient: str
    reference: str  # "Inscrição 1023 · Concurso …": what the letter is about
    body: SafeString
    address: str = ""
    dated: datetime.date | None = None
    access_code: str = ""  # the candidate's personal code, boxed, with ``access_url``
    access_url: str = ""
    link_url: str = ""  # a private link (printed in full and as a QR code)
    link_label: str = ""

    @property
    def link_qr(self) -> str:
        if not self.link_url:
            return ""
        return str(segno.make(self.link_url, error="m").png_data_uri(scale=4, border=0))


def render_letters(letters: Sequence[Letter], *, title: str) -> bytes:
    """The letters as one PDF, each starting on a new sheet."""
    if not letters:
        raise ValueError("Nenhuma carta a imprimir.")
    return render_pdf("pdf/letters.html", {"letters": letters}, Stamp(), title=title)
