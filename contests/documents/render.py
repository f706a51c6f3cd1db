"""The PDF pipeline: templates under ``templates/pdf/`` rendered by WeasyPrint with the bundled font.

Every page carries the organisation's header, "página n de N", the verification code, a QR code and the
verification address (a draft says "minuta" instead). Long lists are rendered in chunks (side by side in
worker processes when ``DOCUMENTS_WORKERS`` > 1), merged with pypdf, and their page numbers stamped
afterwards (``render_blocks``): one WeasyPrint document of 10,000 rows takes too long and too much memory.
A list longer than ``DOCUMENTS_TASK_ROWS`` is rendered by a task (``contests.jobs``), never in a request.
"""

from __future__ import annotations

import io
import secrets
import textwrap
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from pypdf import PdfReader, PdfWriter

from contests.models import Organization
from contests.wording import thousands

FONTS = Path(settings.BASE_DIR) / "static" / "fonts"
STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "pdf.css"
# Without look-alikes (0/O, 1/I/L): read aloud or typed from paper.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_code() -> str:
    """A short verification code, e.g. ``7KQ4-M2XD``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalize_code(typed: str) -> str:
    """A verification code as a person may type it (``" abcd 1234 "``, ``"abcd1234"``, ``"ABCD–1234"``) in
    the form it is stored in, ``"ABCD-1234"``: spaces, hyphens and dashes dropped, upper case, the hyphen put
    back after the fourth character of an eight-character code. Anything else comes back without its spaces
    and in upper case (it will simply not be found)."""
    raw = "".join(ch for ch in typed.upper() if not ch.isspace() and ch not in "-‐‑‒–—.")
    return f"{raw[:4]}-{raw[4:]}" if len(raw) == 8 else raw


def verification_url(code: str | None = None) -> str:
    if code is None:
        return settings.PUBLIC_BASE_URL + reverse("public:verify_home")
    return settings.PUBLIC_BASE_URL + reverse("public:verify", args=[code])


@dataclass(frozen=True)
class Stamp:
    """What the footer of every page says: the verification code and address, or "minuta" for a draft."""

    code: str | None = None
    draft: bool = True

    @property
    def url(self) -> str:
        return verification_url(self.code)

    @property
    def qr(self) -> str:
        """The QR code as a PNG data URI (segno), or "" for a draft (nothing to verify yet). A small raster
        image: WeasyPrint draws it on every page much faster than the same code as SVG paths."""
        if self.draft or not self.code:
            return ""
        return str(segno.make(self.url, error="m").png_data_uri(scale=6, border=0))


def base_context(stamp: Stamp, *, title: str) -> dict[str, Any]:
    organization = Organization.current()
    logo = ""
    if organization and organization.logo:
        try:
            logo = Path(organization.logo.path).as_uri()
        except (NotImplementedError, ValueError):
            logo = ""
    return {
        "organization": organization,
        "logo_uri": logo,
        "stamp": stamp,
        "document_title": title,
        "font_dir": FONTS.as_uri(),
        "css_uri": STYLESHEET.as_uri(),
    }


def render_html(template: str, context: dict[str, Any], stamp: Stamp, *, title: str) -> str:
    return render_to_string(template, {**base_context(stamp, title=title), **context})


def pdf_from_html(html: str) -> bytes:
    """One HTML string (from ``templates/pdf/``) to PDF bytes."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    return bytes(HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(font_config=font_config))


def render_pdf(template: str, context: dict[str, Any], stamp: Stamp, *, title: str) -> bytes:
    """A document that fits one WeasyPrint run (edital, nomination act): "página n de N" by CSS."""
    return pdf_from_html(render_html(template, context, stamp, title=title))


def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


# Long lists -----------------------------------------------------------------------------------------------


@dataclass
class Block:
    """A titled table, or a slice of one (``continued``): the unit long lists are chunked by.

    ``rows``: (rank, inscription number, name, score text), laid out by ``list_lines`` and ``paginate``.
    """

    title: str
    rows: Sequence[Any]
    subtitle: str = ""
    continued: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


LIST_COLUMNS = 96  # characters of DejaVu Sans Mono at 8 pt across the A4 text width
HEADERS = ("Classif.", "Inscrição", "Nome", "Nota final")


def list_lines(rows: Sequence[Any]) -> tuple[str, list[str]]:
    """(header, lines) of a list: rank and score right-aligned, a name too long for its column continues
    on the next lines of the same row."""
    ranks = [f"{r[0]}º" if r[0] is not None else "—" for r in rows]
    rank_w = max([len(HEADERS[0]), *map(len, ranks)])
    number_w = min(30, max([len(HEADERS[1]), *(len(str(r[1])) for r in rows)]))
    score_w = max([len(HEADERS[3]), *(len(str(r[3])) for r in rows)])
    name_w = LIST_COLUMNS - rank_w - number_w - score_w - 6
    header = (
        f"{HEADERS[0]:>{rank_w}}  {HEADERS[1]:<{number_w}}  {HEADERS[2]:<{name_w}}  {HEADERS[3]:>{score_w}}"
    )
    lines = []
    indent = " " * (rank_w + number_w + 4)
    for rank, row in zip(ranks, rows, strict=True):
        parts = textwrap.wrap(str(row[2]), name_w) or [""]
        first = f"{rank:>{rank_w}}  {row[1]!s:<{number_w}}  {parts[0]:<{name_w}}  {row[3]!s:>{score_w}}"
        lines.append("\n".join([first, *(indent + part for part in parts[1:])]))
    return header, lines


def _overlay(pages: int) -> bytes:
    """A PDF of ``pages`` blank pages with "Página n de N" where the footer leaves room for it."""
    html = render_to_string("pdf/page_numbers.html", {"pages": range(pages), "font_dir": FONTS.as_uri()})
    return pdf_from_html(html)


def merge_numbered(parts: Sequence[bytes]) -> bytes:
    """Merge PDF parts and stamp "Página n de N" on every page."""
    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    numbers = PdfReader(io.BytesIO(_overlay(len(writer.pages))))
    for page, number in zip(writer.pages, numbers.pages, strict=True):
        page.merge_page(number)
        page.compress_content_streams()  # merging leaves the page's content stream uncompressed
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _render_chunks(htmls: Sequence[str], workers: int) -> Iterator[bytes]:
    if len(htmls) == 1 or workers <= 1:
        yield from (pdf_from_html(html) for html in htmls)
        return
    # Each worker lays out one chunk: memory stays that of a chunk, the chunks render side by side.
    with ProcessPoolExecutor(max_workers=min(workers, len(htmls))) as pool:
        yield from pool.map(pdf_from_html, htmls)


# Manual pagination of long lists: every page is laid out here, so that WeasyPrint draws plain lines (one box
# each) instead of table rows, and the column header opens every page. Heights in points, from pdf.css
# (8 pt text, line-height 1.3, the rule and padding of a row; the A4 text height between the margins).
PAGE_HEIGHT = 671.0 - 14.0  # 297 − 34 − 26 mm, less a safety margin
LINE = 10.4
ROW_EXTRA = 1.8
HEADER_HEIGHT = 15.0
TITLE_HEIGHT = 28.0  # a block's title (h3) and its margins
TITLE_WRAP = 80  # characters of a title on one line
HEADING_HEIGHT = 100.0  # the document's heading and introduction, on its first page


@dataclass
class PagePart:
    """A block's rows on one page: its title when the block starts there, the header, the lines."""

    title: str
    continued: bool
    header: str
    lines: list[str]

    @property
    def body(self) -> str:
        return mark_safe("".join(f'<div class="r">{escape(line)}</div>' for line in self.lines))


def paginate(
    blocks: Sequence[Block],
    *,
    heading: bool = True,
    heading_height: float = HEADING_HEIGHT,
    closing_height: float = 0.0,
) -> list[list[PagePart]]:
    """The pages of a list: each block's rows in order, a page closed when the next row would not fit
    (the first page leaves ``heading_height`` points to the document's heading); when the last page has
    no room for the closing (``closing_height`` points: the place, the date and the signature), an empty
    page follows for it."""
    pages: list[list[PagePart]] = [[]]
    room = PAGE_HEIGHT - (heading_height if heading else 0)

    def title_height(title: str) -> float:
        return TITLE_HEIGHT + (LINE * 1.4 if len(title) > TITLE_WRAP else 0)

    for block in blocks:
        header, lines = list_lines(block.rows)
        need = title_height(block.title) + HEADER_HEIGHT + (LINE + ROW_EXTRA if lines else LINE * 2)
        if room < need:
            pages.append([])
            room = PAGE_HEIGHT
        part = PagePart(block.title, False, header, [])
        pages[-1].append(part)
        room -= title_height(block.title) + HEADER_HEIGHT
        for line in lines:
            height = LINE * (line.count("\n") + 1) + ROW_EXTRA
            if height > room:
                pages.append([])
                room = PAGE_HEIGHT - title_height(block.title) - HEADER_HEIGHT
                part = PagePart(block.title, True, header, [])
                pages[-1].append(part)
            part.lines.append(line)
            room -= height
        if not lines:
            room -= LINE * 2
    if closing_height and room < closing_height:
        pages.append([])
    return pages


# What a long rendering reports as it goes: (message in Portuguese, pages done, pages in all).
Progress = Callable[[str, int, int], None]


def render_blocks(
    template: str,
    context: dict[str, Any],
    blocks: Sequence[Block],
    stamp: Stamp,
    *,
    title: str,
    chunk_rows: int | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    heading_height: float = HEADING_HEIGHT,
    closing_height: float = 0.0,
) -> bytes:
    """A list document: the blocks paginated here (``paginate``), the pages rendered in chunks of about
    ``chunk_rows`` rows, side by side in worker processes, merged and numbered. ``template`` receives
    ``pages`` (the chunk's), ``first`` (the heading goes on the first page, ``heading_height`` points
    tall) and ``last`` (the closing and the signature follow the last list, ``closing_height`` points
    tall). ``progress`` is told after
    each chunk ("Gerando o PDF: página 120 de 400") and before the merge."""
    size = chunk_rows or settings.DOCUMENTS_CHUNK_ROWS
    pages = paginate(blocks, heading_height=heading_height, closing_height=closing_height)
    chunks: list[list[list[PagePart]]] = [[]]
    rows = 0
    for page in pages:
        count = sum(len(part.lines) for part in page)
        if chunks[-1] and rows + count > size:
            chunks.append([])
            rows = 0
        chunks[-1].append(page)
        rows += count
    base = {**base_context(stamp, title=title), **context}
    htmls = [
        render_to_string(template, {**base, "pages": chunk, "first": i == 0, "last": i == len(chunks) - 1})
        for i, chunk in enumerate(chunks)
    ]
    total = len(pages)
    report = progress or (lambda message, done, total: None)
    report(f"Gerando o PDF: {thousands(total)} páginas", 0, total)
    parts = []
    done = 0
    for chunk, part in zip(
        chunks,
        _render_chunks(htmls, workers if workers is not None else settings.DOCUMENTS_WORKERS),
        strict=True,
    ):
        parts.append(part)
        done += len(chunk)
        report(f"Gerando o PDF: página {thousands(done)} de {thousands(total)}", done, total)
    report(f"Juntando e numerando as {thousands(total)} páginas", total, total)
    return merge_numbered(parts)
