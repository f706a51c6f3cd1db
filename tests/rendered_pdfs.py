"""The PDFs of a test session rendered once per distinct HTML.

WeasyPrint takes most of the time of the tests that publish acts (the demo's edital alone, about 3 s of
CPU), and many tests publish the same acts of the same rows: the demo (``seed_demo``) is built by a dozen
modules, the example contest by hundreds of tests. ``pdf_from_html`` is the one place WeasyPrint is called
(``render_pdf``; a long list's first and last pages and the frame of the others, whose rows
``contests.documents.fastlist`` writes): in the tests it keeps each distinct HTML's PDF and gives the same
bytes when the same HTML comes again. Nothing else changes: the HTML is still rendered from the templates
and the rows, and the PDF is the one WeasyPrint made of that HTML.

An act's HTML carries its verification code, which the product draws at random: in the tests the codes
come from a generator reset at the start of each module and of each test (``deterministic_codes``), so the
same scenario prints the same codes and its acts the same HTML. Codes stay distinct: a drawn code already
in use is drawn again (``contests.documents.services._unused_code``), as in production.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from contests.documents import render

SEED = 20  # any: the same for every test


class Codes:
    def __init__(self) -> None:
        self.rng = random.Random(SEED)

    def reset(self) -> None:
        self.rng.seed(SEED)

    def __call__(self) -> str:
        raw = "".join(self.rng.choice(render.CODE_ALPHABET) for _ in range(8))
        return f"{raw[:4]}-{raw[4:]}"


class PdfCache:
    def __init__(self, render_pdf: Callable[[str], bytes], limit: int = 512) -> None:
        self.render_pdf = render_pdf
        self.limit = limit
        self.pdfs: dict[bytes, bytes] = {}
        self.hits = 0
        self.misses = 0

    def __call__(self, html: str) -> bytes:
        key = hashlib.sha256(html.encode()).digest()
        pdf = self.pdfs.get(key)
        if pdf is None:
            self.misses += 1
            pdf = self.render_pdf(html)
            if len(self.pdfs) >= self.limit:
                self.pdfs.pop(next(iter(self.pdfs)))  # the oldest
            self.pdfs[key] = pdf
        else:
            self.hits += 1
        return pdf
