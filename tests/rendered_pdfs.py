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

The PDFs are also kept on disk (``.pytest_cache/rendered-pdfs/``), shared by the pytest-xdist workers and by
later runs: the other worker, or the next ``make test``, takes the bytes WeasyPrint made of the same HTML
instead of laying it out again. The key holds everything the bytes depend on besides the HTML: every file
the HTML names by a ``file://`` address (the stylesheet, the emblem), by its content and not by its address
(a test's emblem lies in the test's own temporary folder: the PDF given back may name the image
differently inside, the pages are the same), the fonts the stylesheet names, the source of
``contests/documents/render.py`` and the versions of the installed packages (WeasyPrint and what it draws
with). A file is written under a temporary name and renamed, so a reader never sees half a PDF. Files
older than two days go. ``COTAS_TEST_PDF=1`` renders every PDF again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.conf import settings

from contests.documents import render
from tests import kept_files

SEED = 20  # any: the same for every test


class Codes:
    def __init__(self) -> None:
        self.rng = random.Random(SEED)

    def reset(self) -> None:
        self.rng.seed(SEED)

    def __call__(self) -> str:
        raw = "".join(self.rng.choice(render.CODE_ALPHABET) for _ in range(8))
        return f"{raw[:4]}-{raw[4:]}"


FILE_URI = re.compile(r"file://[^\s\"'<>)]+")


def _environment() -> bytes:
    """What every PDF depends on besides its HTML and the files it names: the renderer's source, the fonts,
    the installed packages."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    digest.update((base / "contests" / "documents" / "render.py").read_bytes())
    for path in sorted((base / "static" / "fonts").glob("*")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    for dist in sorted(metadata.distributions(), key=lambda d: d.metadata["Name"].lower()):
        digest.update(f"{dist.metadata['Name']}=={dist.version};".encode())
    return digest.digest()


class PdfCache:
    def __init__(
        self, render_pdf: Callable[[str], bytes], limit: int = 512, folder: Path | None = None
    ) -> None:
        self.render_pdf = render_pdf
        self.limit = limit
        self.pdfs: dict[bytes, bytes] = {}
        self.hits = 0
        self.misses = 0
        self.from_disk = 0
        self.folder = folder
        self.refresh = bool(os.environ.get("COTAS_TEST_PDF"))
        self._environment: bytes | None = None
        self._files: dict[tuple[str, int, int], bytes] = {}

    def _file(self, uri: str) -> bytes:
        """A named file's digest (by its path, size and time of change: read once per session)."""
        path = unquote(urlparse(uri).path)
        try:
            stat = os.stat(path)
        except OSError:
            return b"missing:" + path.encode()
        key = (path, stat.st_size, stat.st_mtime_ns)
        found = self._files.get(key)
        if found is None:
            with open(path, "rb") as handle:
                found = self._files[key] = hashlib.sha256(handle.read()).digest()
        return found

    def _key(self, html: str) -> bytes:
        """The HTML with each file's address replaced by its content's digest: a test's emblem lies in its
        own temporary folder, and the same emblem at another address draws the same page."""
        if self._environment is None:
            self._environment = _environment()
        digest = hashlib.sha256(self._environment)
        digest.update(FILE_URI.sub(lambda uri: self._file(uri.group()).hex(), html).encode())
        return digest.digest()

    def _read(self, path: Path) -> bytes | None:
        if self.folder is None or self.refresh:
            return None
        with contextlib.suppress(OSError):
            return path.read_bytes()
        return None

    def _write(self, path: Path, pdf: bytes) -> None:
        if self.folder is None:
            return
        kept_files.write_whole(path, pdf)

    def __call__(self, html: str) -> bytes:
        key = self._key(html)
        pdf = self.pdfs.get(key)
        if pdf is not None:
            self.hits += 1
            return pdf
        path = (self.folder or Path()) / f"{key.hex()[:40]}.pdf"
        pdf = self._read(path)
        if pdf is None:
            self.misses += 1
            pdf = self.render_pdf(html)
            self._write(path, pdf)
        else:
            self.from_disk += 1
        if len(self.pdfs) >= self.limit:
            self.pdfs.pop(next(iter(self.pdfs)))  # the oldest
        self.pdfs[key] = pdf
        return pdf

    def prune(self) -> None:
        """PDFs older than two days go (a key of an older checkout rarely comes back)."""
        if self.folder is not None:
            kept_files.prune(self.folder, "*.pdf")
