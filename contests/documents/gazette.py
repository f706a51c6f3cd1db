"""The text of a published act for the official gazette (Diário Oficial): plain text, .docx and .odt, with
the words of the PDF that was published.

The text is read back from the stored PDF, not rendered again: whatever the template or the act, it is the
published file's words by construction, and every document ever published has it without storing anything
new. PDFium (``pypdfium2``) gives the text runs of each page in the order WeasyPrint drew them (the order of
the HTML) with their boxes; from those:

- the page's furniture is dropped by position: the organisation's header in the top margin, the footer
  (verification code, address, QR code) and "Página n de N" in the bottom margin (``static/css/pdf.css``:
  ``@page`` margins), and the draft's "MINUTA" watermark by its size;
- the lines of a justified paragraph are joined into one paragraph (a line that reaches the right margin
  continues on the next; a word hyphenated at the end of a line is joined again); a heading, a clause, an
  article, a line of a signature stays on its own;
- the rows of a table stay one per line, cell by cell, and the long lists' rows (rank, inscription, name,
  score) one per line, a name continued on the next line of the PDF joined to its row;
- what only the pagination of a long list repeats (its title "(continuação)" and its column header at the
  top of each page) is not repeated.

``paragraphs`` is cached by the PDF's SHA-256 (the PDF never changes): a list of 10,000 rows is read once.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.core.cache import cache

from contests.documents.render import HEADERS

MM = 72 / 25.4
# static/css/pdf.css: @page { margin: 34mm 18mm 26mm 20mm }. A run outside the text area is the page's
# header or footer; the tolerance keeps a run whose box only touches the edge.
TOP_MARGIN = 34 * MM
BOTTOM_MARGIN = 26 * MM
RIGHT_MARGIN = 18 * MM
EDGE = 3.0
# A run this tall, or in a font this large (points), is the draft's watermark ("MINUTA", 80 pt), never text
# of the act. WeasyPrint sets text in CSS pixels scaled to points.
WATERMARK_HEIGHT = 40.0
SCALE = 0.75
# Cells of a table are at least their padding apart (pdf.css: 1.5 mm each side); words of a line are closer.
CELL_GAP = 7.0
# A line ending this close to the right margin is full: a justified paragraph goes on in the next line.
FULL_LINE = 12.0
# The next line of a paragraph: within this factor of the line height (a paragraph's margin, 1 mm for a list
# item, is more).
LINE_PITCH = 1.12
# Line height over font size (pdf.css: line-height 1.4) and DejaVu's ascent + descent over font size.
LINE_HEIGHT = 1.4
FONT_BOX = 1.164
SOFT_HYPHENS = ("\u2010", "\u00ad")
CONTINUED = "(continuação)"
CACHE_VERSION = 1

Style = Literal["title", "heading", "subheading", "text", "header", "row"]


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of the act: a title or heading, a paragraph of text, or a table row (``cells``)."""

    style: Style
    text: str
    cells: tuple[str, ...] = ()

    @property
    def is_row(self) -> bool:
        return self.style in ("header", "row")


@dataclass
class Run:
    """A run of text on one line of a page, as PDFium found it, with its box (points, origin bottom left;
    ``bottom``/``top`` from the font's ascent and descent, so the runs of one line align)."""

    text: str
    x0: float
    x1: float
    bottom: float
    top: float
    size: float
    bold: bool
    mono: bool

    @property
    def height(self) -> float:
        return self.top - self.bottom


@dataclass
class Line:
    """A line of a page, or a table row (several cells, each possibly over several lines)."""

    page: int
    runs: list[Run]
    cells: list[list[str]] = field(default_factory=list)  # each cell: its lines' texts
    right: float = 0.0  # where the page's text area ends

    @property
    def first(self) -> Run:
        return self.runs[0]

    @property
    def last(self) -> Run:
        return self.runs[-1]

    @property
    def x0(self) -> float:
        return min(run.x0 for run in self.runs)

    @property
    def top(self) -> float:
        return max(run.top for run in self.runs)

    @property
    def bottom(self) -> float:
        return min(run.bottom for run in self.runs)

    @property
    def is_table_row(self) -> bool:
        return len(self.cells) > 1

    @property
    def bold(self) -> bool:
        return all(run.bold for run in self.runs if run.text.strip())

    @property
    def mono(self) -> bool:
        return all(run.mono for run in self.runs if run.text.strip())

    @property
    def full(self) -> bool:
        return max(run.x1 for run in self.runs) >= self.right - FULL_LINE

    def text(self) -> str:
        return " ".join(join_lines(cell) for cell in self.cells)


def join_lines(lines: Iterable[str]) -> str:
    """Lines of one paragraph as one: a word hyphenated at the end of a line (the typesetter's hyphen,
    U+2010) joined again; a hyphen of the word itself ("autodeclara-" / "se") kept, without a space."""
    text = ""
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            continue
        if not text:
            text = line
        elif text.endswith(SOFT_HYPHENS):
            text = text[:-1] + line
        elif text.endswith("-") and len(text) > 1 and text[-2].isalpha() and line[0].isalpha():
            text += line
        else:
            text += " " + line
    return text


# Reading the PDF ------------------------------------------------------------------------------------------


def _runs(pdf: bytes) -> Iterable[tuple[int, float, list[Run]]]:
    """(page index, right edge of the text area, the page's runs in drawing order), furniture dropped."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(pdf)
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()

    def font_size(textpage: pdfium.PdfTextPage, index: int) -> float:
        return float(pdfium_c.FPDFText_GetFontSize(textpage.raw, index)) * SCALE  # type: ignore[attr-defined]

    try:
        for number in range(len(document)):
            page = document[number]
            textpage = page.get_textpage()
            width, height = page.get_size()
            boxes = []
            marked = False
            for k in range(textpage.count_rects()):
                left, bottom, right, top = textpage.get_rect(k)
                if top - bottom > WATERMARK_HEIGHT:
                    marked = True
                    continue
                if top > height - TOP_MARGIN + EDGE or bottom < BOTTOM_MARGIN - EDGE:
                    continue
                index = textpage.get_index(left + 0.5, (bottom + top) / 2, 1.5, (top - bottom) / 2)
                boxes.append((left, bottom, right, top, index))
            # A draft's page: the watermark's letters (rotated, each its own box) fall inside the boxes of
            # the lines they cross; found by their size, they are left out of those lines.
            watermark = (
                {k for k in range(textpage.count_chars()) if font_size(textpage, k) > WATERMARK_HEIGHT}
                if marked
                else set()
            )
            runs = []
            for left, bottom, right, top, index in boxes:
                if index in watermark:
                    continue
                if watermark and index >= 0:
                    text = _chars_in(textpage, index, (left, bottom, right, top), watermark)
                else:
                    text = textpage.get_text_bounded(left, bottom, right, top)
                if not text.strip():
                    continue
                if index < 0:
                    box_bottom, box_top, size, bold, mono = (
                        bottom,
                        top,
                        (top - bottom) / FONT_BOX,
                        False,
                        False,
                    )
                else:
                    _l, box_bottom, _r, box_top = textpage.get_charbox(index, loose=True)
                    size = (box_top - box_bottom) / FONT_BOX
                    pdfium_c.FPDFText_GetFontInfo(  # type: ignore[attr-defined]
                        textpage.raw, index, buffer, len(buffer), ctypes.byref(flags)
                    )
                    name = buffer.value.decode("latin-1")
                    bold, mono = "Bold" in name, "Mono" in name
                text = _CONTROL.sub("", text)  # a drawing's glyphs (a chart) may read as control characters
                runs.append(Run(text, left, right, box_bottom, box_top, size, bold, mono))
            textpage.close()
            page.close()
            yield number, width - RIGHT_MARGIN, runs
    finally:
        document.close()


# Characters XML (docx, odt) cannot hold: the C0 controls but tab, line feed and carriage return.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _chars_in(textpage, first: int, box: tuple[float, float, float, float], skip: set[int]) -> str:
    """The text of a run read character by character from its first (on a page with a watermark, whose
    letters fall inside the runs' boxes): up to the end of the line or of the box."""
    _left, bottom, right, top = box
    count = textpage.count_chars()
    out = []
    k = first
    while k < count:
        if k not in skip:
            char = textpage.get_text_range(k, 1)
            if char in ("\r", "\n"):
                break
            x0, y0, _x1, y1 = textpage.get_charbox(k)
            if char.strip() and (x0 > right + 1 or (y0 + y1) / 2 < bottom or (y0 + y1) / 2 > top):
                break
            out.append(char)
        k += 1
    return "".join(out)


def _same_line(a: Run, b: Run) -> bool:
    overlap = min(a.top, b.top) - max(a.bottom, b.bottom)
    return overlap > 0.5 * min(a.height, b.height)


def _append(cell: list[str], text: str, *, same_line: bool) -> None:
    if same_line and cell:
        cell[-1] = cell[-1] + ("" if cell[-1].endswith(" ") or text.startswith(" ") else " ") + text
    else:
        cell.append(text)


def lines_of(pdf: bytes) -> list[Line]:
    """The lines (and table rows) of every page, in reading order."""
    lines: list[Line] = []
    for page, right, runs in _runs(pdf):
        start = len(lines)
        for run in runs:
            current = lines[-1] if len(lines) > start else None
            if current is None:
                lines.append(Line(page, [run], [[run.text]], right))
                continue
            last = current.last
            # A list marker ("•") is drawn after its item's text: back to the line it marks.
            marked = None
            if len(run.text.strip()) <= 3:
                marked = next(
                    (
                        line
                        for line in reversed(lines[start:])
                        if _same_line(line.first, run) and run.x1 <= line.first.x0 + 1
                    ),
                    None,
                )
            if marked is not None:
                marked.runs.insert(0, run)
                marked.cells[0][0] = run.text.rstrip() + " " + marked.cells[0][0]
                continue
            if _same_line(last, run) and run.x0 >= last.x1 - 1:
                current.runs.append(run)
                if run.x0 - last.x1 > CELL_GAP:
                    current.cells.append([run.text])
                else:
                    _append(current.cells[-1], run.text, same_line=True)
                continue
            if run.bottom > last.top - 1 and run.x0 > last.x0:
                # Back up the page, to the right: the next cell of a table row. The row began at the first
                # of the lines just read that is not wholly above this cell.
                k = len(lines) - 1
                while k - 1 >= start and lines[k - 1].bottom <= run.top + 1 and lines[k - 1].x0 <= run.x0:
                    k -= 1
                row = lines[k]
                for line in lines[k + 1 :]:
                    row.runs.extend(line.runs)
                    for cell in line.cells:
                        row.cells[-1].extend(cell)
                del lines[k + 1 :]
                row.runs.append(run)
                row.cells.append([run.text])
                continue
            if current.is_table_row and run.top < last.bottom + 1 and run.x0 >= _cell_x0(current) - 2:
                # Down again, under the last cell: that cell goes on in the next line.
                current.runs.append(run)
                _append(current.cells[-1], run.text, same_line=False)
                continue
            lines.append(Line(page, [run], [[run.text]], right))
    for k, line in enumerate(lines[:-1]):
        following = lines[k + 1]
        if (
            len(line.cells) == 2
            and all(len(cell) == 1 for cell in line.cells)
            and line.full
            and not following.is_table_row
            and following.x0 <= line.x0 + 2
        ):
            # Not a row: a justified line whose last word (a long code) stands far from the others.
            line.cells = [[" ".join(cell[0].strip() for cell in line.cells)]]
    return lines


def _starts_cell(previous: Run, run: Run) -> bool:
    """Whether ``run`` begins a new cell: far to the right on the same line, or back up the page."""
    if _same_line(previous, run):
        return run.x0 - previous.x1 > CELL_GAP
    return run.bottom > previous.top - 1 and run.x0 > previous.x0


def _cell_x0(line: Line) -> float:
    """Where the last cell of a row starts (the first run after the last gap between cells)."""
    x0 = line.runs[0].x0
    previous = None
    for run in line.runs:
        if previous is not None and _starts_cell(previous, run):
            x0 = run.x0
        previous = run
    return x0


# From lines to paragraphs ---------------------------------------------------------------------------------


def _list_cells(text: str, header: tuple[str, ...]) -> tuple[str, ...]:
    """A row of a long list (render.list_lines): rank, inscription number, name, score."""
    words = text.split()
    if header == HEADERS and len(words) >= 3:
        return (words[0], words[1], " ".join(words[2:-1]), words[-1])
    return (text,)


def _goes_on(previous: Line, line: Line, paragraph_x0: float) -> bool:
    """Whether ``line`` continues the paragraph whose last line is ``previous``."""
    if line.is_table_row or previous.is_table_row or line.mono or previous.mono:
        return False
    if line.bold != previous.bold or abs(line.first.size - previous.first.size) > 0.3:
        return False
    hyphenated = previous.text().rstrip().endswith(SOFT_HYPHENS)  # a word goes on, whatever the alignment
    if not previous.bold and not previous.full and not hyphenated:
        return False
    if not previous.bold and not hyphenated and (line.x0 > paragraph_x0 + 15 or line.x0 < paragraph_x0 - 40):
        return False
    if line.page != previous.page:
        return not previous.bold
    pitch = previous.first.bottom - line.first.bottom
    return 0 < pitch <= LINE_PITCH * LINE_HEIGHT * previous.first.size


def _style(line: Line, title_size: float) -> Style:
    if line.bold and not line.mono:
        if line.first.size >= title_size - 0.3:
            return "title"
        return "heading" if line.first.size >= 9.8 else "subheading"
    return "text"


def build(lines: Sequence[Line]) -> list[Paragraph]:
    """The act's paragraphs from its lines (see the module's docstring)."""
    title_size = max((line.first.size for line in lines if line.bold and not line.mono), default=99.0)
    paragraphs: list[Paragraph] = []
    header: tuple[str, ...] = ()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.mono:
            text = line.text()
            if line.bold:
                cells = tuple(HEADERS) if " ".join(text.split()) == " ".join(HEADERS) else (text,)
                # At the top of each page of a list, after its last row: the same header again.
                repeated = paragraphs and paragraphs[-1].style == "row" and cells == header
                if not repeated:
                    paragraphs.append(Paragraph("header", "\t".join(cells), cells))
                header = cells
            elif (
                paragraphs
                and paragraphs[-1].style == "row"
                and lines[i - 1].mono
                and not lines[i - 1].bold
                and lines[i - 1].page == line.page
                and line.x0 > lines[i - 1].x0 + 20
            ):
                # A long name goes on in the next line of the PDF: the same row.
                last = paragraphs[-1]
                cells = (*last.cells[:-2], last.cells[-2] + " " + " ".join(text.split()), last.cells[-1])
                if len(last.cells) < 2:
                    cells = (last.text + " " + " ".join(text.split()),)
                paragraphs[-1] = Paragraph("row", "\t".join(cells), cells)
            else:
                cells = _list_cells(text, header)
                paragraphs.append(Paragraph("row", "\t".join(cells), cells))
            i += 1
            continue
        if line.is_table_row:
            cells = tuple(join_lines(cell) for cell in line.cells)
            style: Style = "header" if line.bold else "row"
            paragraphs.append(Paragraph(style, "\t".join(cells), cells))
            i += 1
            continue
        group = [line]
        x0 = line.x0
        while i + 1 < len(lines) and _goes_on(group[-1], lines[i + 1], x0):
            i += 1
            group.append(lines[i])
        i += 1
        text = join_lines(cell_line for member in group for cell in member.cells for cell_line in cell)
        if line.first.bold and text.endswith(CONTINUED):
            continue  # a long list's title repeated on its next page
        style = _style(line, title_size)
        paragraphs.append(Paragraph(style, text))
    return paragraphs


def paragraphs(pdf: bytes, sha256: str | None = None) -> list[Paragraph]:
    """The act's paragraphs, read from its PDF (cached by ``sha256`` when given: a published PDF never
    changes)."""
    key = f"gazette:{CACHE_VERSION}:{sha256}"
    if sha256:
        found = cache.get(key)
        if found is not None:
            return [Paragraph(style, text, tuple(cells)) for style, text, cells in found]
    result = build(lines_of(pdf))
    if sha256:
        cache.set(key, [(p.style, p.text, list(p.cells)) for p in result], timeout=None)
    return result


# The three files ------------------------------------------------------------------------------------------


def as_text(items: Sequence[Paragraph]) -> str:
    """Plain text: one paragraph per line, table rows one per line with their cells separated by tabs, a
    blank line before each heading."""
    out: list[str] = []
    for item in items:
        if item.style in ("title", "heading", "subheading") and out:
            out.append("")
        out.append(item.text)
    return "\n".join(out) + "\n"


def _tables(items: Sequence[Paragraph]) -> Iterable[Paragraph | list[Paragraph]]:
    """The paragraphs with each run of table rows gathered into one list (one table)."""
    rows: list[Paragraph] = []
    for item in items:
        if item.is_row:
            if rows and item.style == "header" and rows[-1].style == "row":
                yield rows
                rows = []
            rows.append(item)
            continue
        if rows:
            yield rows
            rows = []
        yield item
    if rows:
        yield rows


def as_docx(items: Sequence[Paragraph], *, title: str) -> bytes:
    """A Word document (python-docx): the title and headings as headings, the paragraphs justified, each
    table as a table."""
    from docx import Document as WordDocument
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    word = WordDocument()
    word.core_properties.title = title
    levels = {"title": 0, "heading": 1, "subheading": 2}
    for part in _tables(items):
        if isinstance(part, list):
            columns = max(len(row.cells) for row in part)
            table = word.add_table(rows=0, cols=columns)
            table.style = "Table Grid"
            # The rows as XML, directly: python-docx's add_row walks the table each time (10,000 rows: a
            # minute); this is the same markup a row of plain text cells has.
            grid = table._tbl
            for row in part:
                grid.append(_docx_row(row, columns))
            continue
        if part.style in levels:
            word.add_heading(part.text, level=levels[part.style])
        else:
            word.add_paragraph(part.text).alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    out = io.BytesIO()
    word.save(out)
    return out.getvalue()


def _docx_row(row: Paragraph, columns: int) -> Any:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    tr = OxmlElement("w:tr")
    for k in range(columns):
        tc = OxmlElement("w:tc")
        paragraph = OxmlElement("w:p")
        run = OxmlElement("w:r")
        if row.style == "header":
            properties = OxmlElement("w:rPr")
            properties.append(OxmlElement("w:b"))
            run.append(properties)
        text = OxmlElement("w:t")
        text.set(qn("xml:space"), "preserve")
        text.text = row.cells[k] if k < len(row.cells) else ""
        run.append(text)
        paragraph.append(run)
        tc.append(paragraph)
        tr.append(tc)
    return tr


def as_odt(items: Sequence[Paragraph], *, title: str) -> bytes:
    """An OpenDocument text (odfpy): the same paragraphs, headings and tables as ``as_docx``."""
    from odf import dc, table, text
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TableColumnProperties, TextProperties

    document = OpenDocumentText()
    document.meta.addElement(dc.Title(text=title))
    justified = Style(name="Corpo", family="paragraph")
    justified.addElement(ParagraphProperties(textalign="justify"))
    document.automaticstyles.addElement(justified)
    bold = Style(name="Negrito", family="paragraph")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    headings = {}
    for style_name, level, size in (("title", 1, "14pt"), ("heading", 2, "12pt"), ("subheading", 3, "11pt")):
        style = Style(name=f"Titulo{level}", family="paragraph")
        style.addElement(TextProperties(fontweight="bold", fontsize=size))
        document.automaticstyles.addElement(style)
        headings[style_name] = (level, style)
    column = Style(name="Coluna", family="table-column")
    column.addElement(TableColumnProperties(columnwidth="3cm"))
    document.automaticstyles.addElement(column)
    for number, part in enumerate(_tables(items), 1):
        if isinstance(part, list):
            columns = max(len(row.cells) for row in part)
            grid = table.Table(name=f"Tabela{number}")
            grid.addElement(table.TableColumn(numbercolumnsrepeated=columns, stylename=column))
            for row in part:
                # Without odfpy's grammar check per element (the same elements each time; 10,000 rows).
                line = table.TableRow(check_grammar=False)
                for k in range(columns):
                    cell = table.TableCell(check_grammar=False)  # a text cell (no office:value-type)
                    value = row.cells[k] if k < len(row.cells) else ""
                    style = {"stylename": bold} if row.style == "header" else {}
                    cell.addElement(text.P(text=value, check_grammar=False, **style), check_grammar=False)
                    line.addElement(cell, check_grammar=False)
                grid.addElement(line, check_grammar=False)
            document.text.addElement(grid)
            continue
        if part.style in headings:
            level, style = headings[part.style]
            document.text.addElement(text.H(outlinelevel=level, stylename=style, text=part.text))
        else:
            document.text.addElement(text.P(stylename=justified, text=part.text))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


# The downloads --------------------------------------------------------------------------------------------

FORMATS = {
    "txt": "text/plain; charset=utf-8",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "odt": "application/vnd.oasis.opendocument.text",
}


def export(pdf: bytes, fmt: str, *, title: str, sha256: str | None = None) -> bytes:
    """The act in ``fmt`` (``txt``, ``docx`` or ``odt``; ``FORMATS``)."""
    if fmt not in FORMATS:
        raise ValueError(fmt)
    key = f"gazette:{CACHE_VERSION}:{sha256}:{fmt}"
    if sha256 and (found := cache.get(key)) is not None:
        return bytes(found)
    items = paragraphs(pdf, sha256)
    if fmt == "txt":
        data = as_text(items).encode("utf-8")
    elif fmt == "docx":
        data = as_docx(items, title=title)
    else:
        data = as_odt(items, title=title)
    if sha256:
        cache.set(key, data, timeout=None)
    return data


def words(text: str) -> list[str]:
    """The words of a text (its runs of letters and digits), for comparing the text with the PDF's:
    punctuation and spacing around it aside ("NUQ4-JETH )," and "NUQ4-JETH)," are the same words)."""
    return re.findall(r"\w+", text)
