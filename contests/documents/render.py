"""The PDF pipeline: templates under ``templates/pdf/`` rendered by WeasyPrint with the bundled font.

Every page carries the organisation's header, "página n de N", the verification code, a QR code and the
verification address (a draft says "minuta" instead). Long lists are paginated here and only their first
and last pages and the frame of the others rendered by WeasyPrint; the pages between are drawn by
``fastlist`` in the same look (``render_blocks``): WeasyPrint took half a minute to lay out 10,000 rows.
A list longer than ``DOCUMENTS_TASK_ROWS`` is rendered by a task (``contests.jobs``), never in a request.

WeasyPrint is imported inside the functions that use it, not at the top: importing it took 1.0-1.2 s
(``python -X importtime -c "import weasyprint"``), and every web process imports this module through the
views, most of them never making a PDF (pypdf likewise, where a PDF is read).
"""

from __future__ import annotations

import atexit
import functools
import gc
import io
import itertools
import secrets
import textwrap
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from contests.documents import fastlist
from contests.documents.fastlist import FONTS, PagePart
from contests.models import Organization
from contests.wording import thousands

if TYPE_CHECKING:  # pypdf where a PDF is read (see ``fastlist``)
    from pypdf import PdfReader

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
        return qr_data_uri(self.url)


@functools.lru_cache(maxsize=256)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as a PNG data URI, made once per address: a document's pages and its versions
    print the same one (about 4 ms of CPU each time)."""
    return str(segno.make(url, error="m").png_data_uri(scale=6, border=0))


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


# WeasyPrint's font configuration, kept for the thread's next PDFs: a new one per PDF loaded the six fonts of
# pdf.css's @font-face rules again, a quarter of each PDF's time (0.11 s of CPU a PDF); a kept one finds a
# font it already loaded by its rule (the file's address among it) and the PDF comes out byte for byte the
# same. One per thread: fontconfig's configuration is not meant to be shared between threads.
_fonts = threading.local()


@atexit.register
def _forget_fonts() -> None:
    """WeasyPrint removes a font configuration's temporary folder when the configuration is collected: the
    main thread's (and the stylesheet that refers to it) go at exit, while the modules it needs are there."""
    if _fonts.__dict__:  # this process rendered a PDF
        _fonts.__dict__.clear()
        gc.collect()


def _font_config() -> Any:
    config = getattr(_fonts, "config", None)
    if config is None:
        from weasyprint.text.fonts import FontConfiguration

        config = _fonts.config = FontConfiguration()
    return config


# pdf.css parsed once per thread, with the thread's font configuration (its @font-face rules are loaded into
# it), and given to WeasyPrint in place of the <link> that templates/pdf/base.html puts in every document:
# parsing it for each PDF was 15% of an act's time (the 264 documents of a test run: 57.4 s → 48.9 s of
# CPU), and the PDFs come out byte for byte the same (tests/contests/test_render_stylesheet.py). Parsed again
# when the file changes (its size or time of change).
def _stylesheet_link() -> str:
    """The <link> as templates/pdf/base.html renders it (its address escaped as the template escapes it)."""
    return f'<link rel="stylesheet" href="{escape(STYLESHEET.as_uri())}">'


def _stylesheet(font_config: Any) -> Any:
    stat = STYLESHEET.stat()
    key = (stat.st_size, stat.st_mtime_ns, id(font_config))
    kept = getattr(_fonts, "stylesheet", None)
    if kept is None or kept[0] != key:
        from weasyprint import CSS

        kept = _fonts.stylesheet = (key, CSS(filename=str(STYLESHEET), font_config=font_config))
    return kept[1]


def pdf_from_html(html: str) -> bytes:
    """One HTML string (from ``templates/pdf/``) to PDF bytes."""
    from weasyprint import HTML

    font_config = _font_config()
    link = _stylesheet_link()
    if link not in html:  # an HTML that does not link pdf.css (every templates/pdf/ document does)
        return bytes(HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(font_config=font_config))
    return bytes(
        HTML(string=html.replace(link, "", 1), base_url=str(settings.BASE_DIR)).write_pdf(
            stylesheets=[_stylesheet(font_config)], font_config=font_config
        )
    )


def render_pdf(template: str, context: dict[str, Any], stamp: Stamp, *, title: str) -> bytes:
    """A document that fits one WeasyPrint run (edital, nomination act): "página n de N" by CSS."""
    return pdf_from_html(render_html(template, context, stamp, title=title))


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


# Long lists -----------------------------------------------------------------------------------------------


@dataclass
class Block:
    """A titled table, or a slice of one (``continued``): the unit long lists are paginated by.

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
        name = str(row[2])
        if len(name) <= name_w and name.isprintable() and name == name.strip():
            parts = [name]  # what textwrap gives, without its cost (most names)
        else:
            parts = textwrap.wrap(name, name_w) or [""]
        first = f"{rank:>{rank_w}}  {row[1]!s:<{number_w}}  {parts[0]:<{name_w}}  {row[3]!s:>{score_w}}"
        lines.append("\n".join([first, *(indent + part for part in parts[1:])]))
    return header, lines


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
FRAME = "frame"  # the id of the section of the page WeasyPrint renders with nothing but the frame


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


def _page_of(reader: PdfReader, anchor: str) -> int:
    """The index of the page where the element whose id is ``anchor`` starts (WeasyPrint writes every id
    as a named destination)."""
    page = reader.get_destination_page_number(reader.named_destinations[anchor])
    if page is None:
        raise ValueError(f"sem a página de #{anchor}")
    return page


def render_blocks(
    template: str,
    context: dict[str, Any],
    blocks: Sequence[Block],
    stamp: Stamp,
    *,
    title: str,
    progress: Progress | None = None,
    heading_height: float = HEADING_HEIGHT,
    closing_height: float = 0.0,
) -> bytes:
    """A list document: the blocks paginated here (``paginate``), the pages between the first and the last
    written by ``fastlist`` under the frame WeasyPrint renders once. WeasyPrint renders ``template`` with
    ``pages``, each a section whose id is ``sections[i]``: the first page (after the heading,
    ``heading_height`` points tall), any page ``fastlist`` cannot write (a character its fonts lack), an
    empty one (the frame) and the last page (before the closing and the signature, ``closing_height``
    points tall); a document of one or two pages, whole. ``progress`` is told as the pages are written
    ("Gerando o PDF: página 120 de 400")."""
    from pypdf import PdfReader  # where a PDF is read (see ``fastlist``)

    pages = paginate(blocks, heading_height=heading_height, closing_height=closing_height)
    report = progress or (lambda message, done, total: None)
    report(f"Gerando o PDF: {thousands(len(pages))} páginas", 0, len(pages))
    written = {i for i in range(1, len(pages) - 1) if fastlist.drawable(pages[i])}
    shown = [i for i in range(len(pages)) if i not in written]
    sections = [f"p{i}" for i in shown]
    rendered_pages: list[list[PagePart]] = [pages[i] for i in shown]
    if written:
        sections.insert(-1, FRAME)
        rendered_pages.insert(-1, [])
    html = render_to_string(
        template,
        {**base_context(stamp, title=title), **context, "pages": zip(sections, rendered_pages, strict=True)},
    )
    rendered = pdf_from_html(html)
    reader = PdfReader(io.BytesIO(rendered))
    # Where each section starts in WeasyPrint's pages: the heading or the closing may take a page more than
    # ``paginate`` allowed them, and that page follows its section.
    starts = [_page_of(reader, name) for name in sections]
    spans = dict(zip(sections, itertools.pairwise([*starts, len(reader.pages)]), strict=True))
    document: list[tuple[int, Sequence[PagePart] | None]] = []
    # The bookmarks: each list where it starts (its title's page), under the document's title.
    bookmarks: list[tuple[str, int]] = []
    frame = spans[FRAME][0] if written else -1
    for i, page in enumerate(pages):
        bookmarks += [(part.title, len(document)) for part in page if not part.continued]
        if i in written:
            document.append((frame, page))
        else:
            document += [(k, None) for k in range(*spans[f"p{i}"])]
    total = len(document)

    def writing(page: int) -> None:
        report(f"Gerando o PDF: página {thousands(page)} de {thousands(total)}", page, total)

    return fastlist.build(rendered, document, outline=(title, bookmarks), progress=writing)
