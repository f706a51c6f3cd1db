"""The pages of a long list written straight as PDF, in the look WeasyPrint gives them (issue 24: 10,000
rows in a few seconds; WeasyPrint took half a minute laying them out, a general-purpose writer several
seconds drawing them).

``render.render_blocks`` paginates the list (``render.paginate``) and has WeasyPrint render what is text
set as a person reads it: the first page (the heading and its rows), the last (its rows, the closing and
the signature) and one page with nothing but the frame every page carries (the organisation's header, the
footer with the verification code, the QR code and the address, or the draft's notice and watermark). The
pages between are written here, box by box where ``static/css/pdf.css`` puts them (keep the two in step):
the block's title and "(continuação)", the column header and the rows, in the bundled DejaVu fonts
(embedded as subsets by fontTools, with Pango's kerning from their ``kern`` table), each page with the
frame drawn over it as a form XObject stored once. Every page, WeasyPrint's too, gets "Página n de N" here.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# pypdf and fontTools are imported where a list is written: at the module's top they cost every process
# that imports the documents (each ``manage.py`` command, through the apps' imports) 0.35 s.
if TYPE_CHECKING:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, IndirectObject

FONTS = Path(settings.BASE_DIR) / "static" / "fonts"
MM = 72 / 25.4
PAGE_WIDTH, PAGE_HEIGHT = 210 * MM, 297 * MM
# pdf.css: @page { margin: 34mm 18mm 26mm 20mm }
LEFT, TOP, RIGHT, BOTTOM = 20 * MM, 34 * MM, 18 * MM, 26 * MM
WIDTH = PAGE_WIDTH - LEFT - RIGHT
TEXT = "#111111"  # html { color }
# h3 { font-size: 9.5pt; margin: 3mm 0 1.5mm } with html's line-height 1.4; .continued { 8pt, #444 }
TITLE_SIZE, TITLE_LINE, TITLE_BEFORE, TITLE_AFTER = 9.5, 9.5 * 1.4, 3 * MM, 1.5 * MM
CONTINUED, CONTINUED_SIZE, CONTINUED_COLOR = "(continuação)", 8.0, "#444444"
# .list { 8pt, line-height 1.3, margin-bottom 3mm }; .h { padding .6mm 1mm, #e6ebf2, .6pt #1f3a5f below };
# .r { padding .25mm 1mm, .3pt #d3d8df below }
LIST_SIZE, LIST_LINE, LIST_AFTER, LIST_INSET = 8.0, 8.0 * 1.3, 3 * MM, 1 * MM
HEADER_PAD, HEADER_FILL, HEADER_RULE, HEADER_RULE_COLOR = 0.6 * MM, "#e6ebf2", 0.6, "#1f3a5f"
ROW_PAD, ROW_RULE, ROW_RULE_COLOR = 0.25 * MM, 0.3, "#d3d8df"
# p { margin: 0 0 2mm } at html's 9.5pt, line-height 1.4
EMPTY_TEXT, EMPTY_AFTER = "Nenhum candidato nesta lista.", 2 * MM
# @bottom-right { "Página n de N"; 7.5pt; #333; vertical-align: top; padding-top: 3mm } (line-height normal)
NUMBER_SIZE, NUMBER_COLOR, NUMBER_TOP = 7.5, "#333333", PAGE_HEIGHT - BOTTOM + 3 * MM
FRAME_NAME = "/CotasPage"  # the WeasyPrint page drawn over each page, in the page's resources


@dataclass
class PagePart:
    """A block's rows on one page (``render.paginate``): its title when the block starts there, the column
    header, the lines (a row continued on the next lines has them after a newline)."""

    title: str
    continued: bool
    header: str
    lines: list[str]

    @property
    def body(self) -> SafeString:
        """The rows as WeasyPrint's template writes them (``templates/pdf/result_list.html``)."""
        return mark_safe("".join(f'<div class="r">{escape(line)}</div>' for line in self.lines))


# Fonts ----------------------------------------------------------------------------------------------------


# What fastlist writes itself: Latin (with its spacing modifiers) and general punctuation, set left to right
# glyph by glyph. Combining marks, other scripts (right to left, or shaped) and characters the bundled
# fonts lack are left to WeasyPrint, whose shaping and font fallback they need.
def _written(char: str) -> bool:
    return ord(char) < 0x300 or 0x2010 <= ord(char) <= 0x205E


@dataclass(frozen=True)
class Face:
    """A bundled font as Pango sets it: each character's glyph (the PDF's character code is the glyph id),
    the advances in whole thousandths of the size (as WeasyPrint's /W), the kerning pairs of its ``kern``
    table and the Latin ligatures of its ``liga`` feature ("fi", "ffl"), the ascent and descent of its
    ``hhea`` table."""

    file: str
    name: str
    glyphs: dict[str, int]
    widths: dict[int, int]
    kerning: dict[tuple[int, int], float]
    ligatures: dict[str, int]
    ascent: float
    descent: float
    bbox: tuple[float, float, float, float]
    fixed: bool
    codes: dict[int, str] = field(repr=False)  # str.translate table: character → its glyph as 4 hex digits

    @functools.cached_property
    def charset(self) -> frozenset[str]:
        """The characters fastlist sets in this face (``_written``)."""
        return frozenset(char for char in self.glyphs if _written(char))

    @property
    def plain(self) -> bool:
        """Whether a text is its characters' glyphs side by side (a monospaced face: no kerning, no
        ligature)."""
        return not self.kerning and not self.ligatures

    def tokens(self, text: str) -> list[tuple[int, str]]:
        """(glyph, the characters it shows) of ``text``: a ligature's glyph for its letters."""
        out = []
        k = 0
        while k < len(text):
            for length in (3, 2):
                glyph = self.ligatures.get(text[k : k + length]) if self.ligatures else None
                if glyph is not None:
                    out.append((glyph, text[k : k + length]))
                    k += length
                    break
            else:
                out.append((self.glyphs[text[k]], text[k]))
                k += 1
        return out

    def width(self, text: str, size: float) -> float:
        if self.plain:
            return sum(self.widths[self.glyphs[char]] for char in text) * size / 1000
        glyphs = [glyph for glyph, _ in self.tokens(text)]
        kerned = sum(self.kerning.get(pair, 0.0) for pair in itertools.pairwise(glyphs))
        return (sum(self.widths[glyph] for glyph in glyphs) + kerned) * size / 1000

    def baseline(self, top: float, line: float, size: float) -> float:
        """The baseline of a line box ``line`` points tall whose top is ``top`` points below the top of the
        page (CSS: the half-leading, then the font's ascent), in the PDF's upward coordinates."""
        return PAGE_HEIGHT - (top + (line - (self.ascent + self.descent) * size) / 2 + self.ascent * size)


@functools.cache
def face(file: str) -> Face:
    """The face of ``static/fonts/<file>``, read once per process."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(FONTS / file), lazy=True)
    em = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    order = font.getReverseGlyphMap()
    cmap = font.getBestCmap()
    glyphs = {chr(code): order[name] for code, name in cmap.items()}
    letters = {name: chr(code) for code, name in cmap.items() if chr(code).isascii() and chr(code).isalpha()}
    ligatures: dict[str, int] = {}
    if "GSUB" in font:
        table = font["GSUB"].table
        for record in table.FeatureList.FeatureRecord:
            if record.FeatureTag != "liga":
                continue
            for index in record.Feature.LookupListIndex:
                for sub in table.LookupList.Lookup[index].SubTable:
                    for first, found in getattr(sub, "ligatures", {}).items():
                        for ligature in found:
                            parts = [first, *ligature.Component]
                            if all(part in letters for part in parts):
                                ligatures["".join(letters[part] for part in parts)] = order[ligature.LigGlyph]
    kerning: dict[tuple[int, int], float] = {}
    if "kern" in font:
        for table in font["kern"].kernTables:
            for (left, right), value in table.kernTable.items():
                kerning[(order[left], order[right])] = value * 1000 / em
    widths = {order[name]: round(advance * 1000 / em) for name, (advance, _) in metrics.items()}
    head, hhea = font["head"], font["hhea"]
    return Face(
        file=file,
        name=font["name"].getDebugName(6) or Path(file).stem,
        glyphs=glyphs,
        widths=widths,
        kerning=kerning,
        ligatures=ligatures,
        ascent=hhea.ascent / em,
        descent=-hhea.descent / em,
        bbox=(head.xMin * 1000 / em, head.yMin * 1000 / em, head.xMax * 1000 / em, head.yMax * 1000 / em),
        fixed=bool(font["post"].isFixedPitch),
        codes={ord(char): f"{glyph:04x}" for char, glyph in glyphs.items()},
    )


REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"
MONO, MONO_BOLD = "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"


class Fonts:
    """The faces one document uses, with the glyphs shown in each (to embed just those) and the
    characters each glyph shows (for the ToUnicode map)."""

    def __init__(self) -> None:
        self.chars: dict[str, set[str]] = {}
        self.ligatures: dict[str, dict[int, str]] = {}
        self.resources: dict[str, str] = {}

    def resource(self, font: Face) -> str:
        if font.file not in self.resources:
            self.resources[font.file] = f"/F{len(self.resources) + 1}"
            self.chars[font.file] = set()
            self.ligatures[font.file] = {}
        return self.resources[font.file]

    def show(self, font: Face, size: float, x: float, y: float, color: str, text: str) -> str:
        """The operators that show ``text`` at (x, y), kerned and with the ligatures Pango sets."""
        resource = self.resource(font)
        if font.plain:
            self.chars[font.file].update(text)
            shown = f"<{text.translate(font.codes)}> Tj"
        else:
            pieces = []
            previous = None
            for glyph, chars in font.tokens(text):
                if len(chars) > 1:
                    self.ligatures[font.file][glyph] = chars
                else:
                    self.chars[font.file].add(chars)
                adjust = font.kerning.get((previous, glyph), 0.0) if previous is not None else 0.0
                if adjust:
                    pieces.append(f"{-adjust:.0f}")
                pieces.append(f"<{glyph:04x}>")
                previous = glyph
            shown = f"[{' '.join(pieces)}] TJ"
        return f"BT {resource} {size:g} Tf {_rgb(color)} rg 1 0 0 1 {x:.3f} {y:.3f} Tm {shown} ET\n"

    def embed(self, writer: PdfWriter) -> DictionaryObject:
        """The /Font resources: each face used, as a subset (its glyphs keep their numbers: the codes shown
        are glyph ids, CIDToGIDMap /Identity) with the widths and the ToUnicode map text extraction reads."""
        from pypdf.generic import DictionaryObject, NameObject

        fonts = DictionaryObject()
        for file, resource in self.resources.items():
            font = face(file)
            glyphs = {font.glyphs[char]: char for char in sorted(self.chars[file], reverse=True)}
            glyphs.update(self.ligatures[file])
            fonts[NameObject(resource)] = _embed(writer, font, glyphs)
        return fonts


def _embed(writer: PdfWriter, font: Face, glyphs: dict[int, str]) -> IndirectObject:
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    glyphs = {0: "", **glyphs}
    options = subset.Options()
    options.retain_gids = True
    options.notdef_outline = True
    options.layout_features = []
    options.name_IDs = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "MATH", "FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=sorted(glyphs))
    full = TTFont(str(FONTS / font.file), lazy=True)
    for tag in options.drop_tables:
        if tag in full:
            del full[tag]  # before they are read: decoding the layout tables took most of the time
    subsetter.subset(full)
    data = io.BytesIO()
    full.save(data)
    tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(repr(sorted(glyphs)).encode()).digest()[:6])
    name = NameObject(f"/{tag}+{font.name}")
    file = _stream(data.getvalue())
    file[NameObject("/Length1")] = NumberObject(len(data.getvalue()))
    descriptor = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/FontDescriptor"),
            NameObject("/FontName"): name,
            NameObject("/Flags"): NumberObject(4 + (1 if font.fixed else 0)),
            NameObject("/FontBBox"): ArrayObject(FloatObject(round(v, 3)) for v in font.bbox),
            NameObject("/ItalicAngle"): NumberObject(0),
            NameObject("/Ascent"): FloatObject(round(font.ascent * 1000, 3)),
            NameObject("/Descent"): FloatObject(round(-font.descent * 1000, 3)),
            NameObject("/CapHeight"): FloatObject(round(font.bbox[3], 3)),
            NameObject("/StemV"): NumberObject(80),
            NameObject("/FontFile2"): writer._add_object(file.flate_encode()),
        }
    )
    widths = ArrayObject()
    for glyph in sorted(glyphs):
        widths.extend([NumberObject(glyph), ArrayObject([NumberObject(font.widths.get(glyph, 0))])])
    cid_font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/CIDFontType2"),
            NameObject("/BaseFont"): name,
            NameObject("/CIDSystemInfo"): DictionaryObject(
                {
                    NameObject("/Registry"): TextStringObject("Adobe"),
                    NameObject("/Ordering"): TextStringObject("Identity"),
                    NameObject("/Supplement"): NumberObject(0),
                }
            ),
            NameObject("/FontDescriptor"): writer._add_object(descriptor),
            NameObject("/W"): widths,
            NameObject("/CIDToGIDMap"): NameObject("/Identity"),
        }
    )
    return writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type0"),
                NameObject("/BaseFont"): name,
                NameObject("/Encoding"): NameObject("/Identity-H"),
                NameObject("/DescendantFonts"): ArrayObject([writer._add_object(cid_font)]),
                NameObject("/ToUnicode"): writer._add_object(_stream(_to_unicode(glyphs)).flate_encode()),
            }
        )
    )


def _to_unicode(glyphs: dict[int, str]) -> bytes:
    """The ToUnicode CMap: each glyph shown back to its character."""
    pairs = [(glyph, char) for glyph, char in sorted(glyphs.items()) if char]
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<0000> <FFFF>",
        "endcodespacerange",
    ]
    for start in range(0, len(pairs), 100):
        chunk = pairs[start : start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines += [f"<{glyph:04x}> <{char.encode('utf-16-be').hex()}>" for glyph, char in chunk]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode()


def _rgb(color: str) -> str:
    return " ".join(f"{int(color[k : k + 2], 16) / 255:.4g}" for k in (1, 3, 5))


def _stream(data: bytes) -> DecodedStreamObject:
    from pypdf.generic import DecodedStreamObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    return stream


# Pages ----------------------------------------------------------------------------------------------------


def drawable(parts: Sequence[PagePart]) -> bool:
    """Whether the bundled faces have every character of the page (a name in another script is left to
    WeasyPrint, which falls back to the system's fonts)."""
    rows: set[str] = set()
    for part in parts:
        if not (
            face(BOLD).charset.issuperset(part.title) and face(MONO_BOLD).charset.issuperset(part.header)
        ):
            return False
        rows.update(*part.lines)
    rows.discard("\n")
    return face(MONO).charset.issuperset(rows)


def _wrap(words: list[tuple[str, Face, float]]) -> list[list[tuple[str, Face, float]]]:
    """Words (text, face, size) into lines of the text width, broken at spaces as a heading is."""
    lines: list[list[tuple[str, Face, float]]] = [[]]
    used = 0.0
    space = face(BOLD).width(" ", TITLE_SIZE)  # the heading's own spaces, in bold
    for word in words:
        text, font, size = word
        wide = font.width(text, size)
        if lines[-1] and used + space + wide > WIDTH:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0.0) + wide
        lines[-1].append(word)
    return lines


def _background(y: float, height: float, color: str) -> str:
    """A box's background across the text width: clipped to the box, then filled, as WeasyPrint does."""
    box = f"{LEFT:.3f} {y:.3f} {WIDTH:.3f} {height:.3f} re"
    return f"q {box} W n {_rgb(color)} rg {box} f Q\n"


def _bottom_border(y: float, height: float, width: float, color: str) -> str:
    """The bottom border of a box (``y``, ``height``: the box) as WeasyPrint paints it: clipped to the
    border's band, then the box less its inside filled by the even-odd rule. Painted as one thin rectangle
    instead, viewers snap it to a whole pixel and the list's rules come out darker."""
    right, top = LEFT + WIDTH, y + width
    band = f"{right:.3f} {y:.3f} m {LEFT:.3f} {y:.3f} l {LEFT:.3f} {top:.3f} l {right:.3f} {top:.3f} l W* n"
    ring = f"{LEFT:.3f} {top:.3f} {WIDTH:.3f} {height - width:.3f} re {LEFT:.3f} {y:.3f} {WIDTH:.3f} {height:.3f} re"
    return f"q {band} {_rgb(color)} rg {ring} f* Q\n"


def page_content(fonts: Fonts, parts: Sequence[PagePart]) -> str:
    """The page's blocks: the title (with "(continuação)" at the top of the page), the column header and
    the rows; margins collapse as CSS collapses them (the larger of two that touch)."""
    regular, bold, mono, mono_bold = face(REGULAR), face(BOLD), face(MONO), face(MONO_BOLD)
    boxes: list[str] = []
    texts: list[str] = []
    top = TOP
    margin = 0.0
    for index, part in enumerate(parts):
        if not part.continued or index == 0:
            top += max(margin, TITLE_BEFORE)
            words = [(word, bold, TITLE_SIZE) for word in part.title.split()]
            if part.continued:
                words.append((CONTINUED, regular, CONTINUED_SIZE))
            for title_line in _wrap(words):
                x = LEFT
                y = bold.baseline(top, TITLE_LINE, TITLE_SIZE)
                for k, (text, font, size) in enumerate(title_line):
                    x += bold.width(" ", TITLE_SIZE) if k else 0.0
                    color = CONTINUED_COLOR if text is CONTINUED else TEXT
                    texts.append(fonts.show(font, size, x, y, color, text))
                    x += font.width(text, size)
                top += TITLE_LINE
            margin = TITLE_AFTER
        if not part.lines:
            if not part.continued:
                top += margin
                y = regular.baseline(top, TITLE_LINE, TITLE_SIZE)
                texts.append(fonts.show(regular, TITLE_SIZE, LEFT, y, TEXT, EMPTY_TEXT))
                top += TITLE_LINE
                margin = EMPTY_AFTER
            continue
        top += margin
        height = 2 * HEADER_PAD + LIST_LINE + HEADER_RULE
        boxes.append(_background(PAGE_HEIGHT - top - height, height, HEADER_FILL))
        boxes.append(_bottom_border(PAGE_HEIGHT - top - height, height, HEADER_RULE, HEADER_RULE_COLOR))
        y = mono_bold.baseline(top + HEADER_PAD, LIST_LINE, LIST_SIZE)
        texts.append(fonts.show(mono_bold, LIST_SIZE, LEFT + LIST_INSET, y, TEXT, part.header))
        top += height
        for row in part.lines:
            lines = row.split("\n")
            for k, line in enumerate(lines):
                y = mono.baseline(top + ROW_PAD + k * LIST_LINE, LIST_LINE, LIST_SIZE)
                texts.append(fonts.show(mono, LIST_SIZE, LEFT + LIST_INSET, y, TEXT, line))
            height = 2 * ROW_PAD + len(lines) * LIST_LINE + ROW_RULE
            top += height
            boxes.append(_bottom_border(PAGE_HEIGHT - top, height, ROW_RULE, ROW_RULE_COLOR))
        margin = LIST_AFTER
    return "".join(boxes) + "".join(texts)  # WeasyPrint too paints the boxes first, then the text


def number_content(fonts: Fonts, page: int, total: int) -> str:
    """ "Página n de N" in the bottom right margin box (line-height normal: no half-leading)."""
    regular = face(REGULAR)
    text = f"Página {page} de {total}"
    x = LEFT + WIDTH - regular.width(text, NUMBER_SIZE)
    y = PAGE_HEIGHT - NUMBER_TOP - regular.ascent * NUMBER_SIZE
    return fonts.show(regular, NUMBER_SIZE, x, y, NUMBER_COLOR, text)


# The document ---------------------------------------------------------------------------------------------


def build(
    rendered: bytes,
    pages: Sequence[tuple[int, Sequence[PagePart] | None]],
    *,
    outline: tuple[str, Sequence[tuple[str, int]]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """The document: for each of its ``pages`` (the index of the WeasyPrint page of ``rendered`` drawn over
    it, and the parts written below it, or ``None`` for a page WeasyPrint drew whole), its number and
    rows written here, that page over them (each WeasyPrint page stored once, as a form XObject); the
    metadata WeasyPrint wrote (title, language). ``outline``: the bookmarks a reader's side panel lists,
    the document's title on its first page and under it each (list title, index of its page), as WeasyPrint
    made them of the headings (its own outline does not survive the pages being drawn as forms)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject

    source = PdfReader(io.BytesIO(rendered))
    writer = PdfWriter()
    writer.pdf_header = source.pdf_header  # WeasyPrint's version (pypdf's default, 1.3, has no transparency)
    forms = {index: _form(writer, source, index) for index in sorted({over for over, _ in pages})}
    fonts = Fonts()
    font_dictionary = DictionaryObject()  # filled in at the end, with the glyphs the pages showed
    font_resources = writer._add_object(font_dictionary)
    total = len(pages)
    for number, (over, parts) in enumerate(pages, start=1):
        rows = page_content(fonts, parts) if parts is not None else ""
        # The rows under the frame (the draft's watermark over them, as WeasyPrint paints it), the page's
        # number last (as the number stamped on a WeasyPrint page was).
        data = f"q\n{rows}Q\nq {FRAME_NAME} Do Q\n{number_content(fonts, number, total)}".encode()
        page = writer.add_blank_page(PAGE_WIDTH, PAGE_HEIGHT)
        page[NameObject("/Resources")] = DictionaryObject(
            {
                NameObject("/Font"): font_resources,
                NameObject("/XObject"): DictionaryObject({NameObject(FRAME_NAME): forms[over]}),
            }
        )
        page[NameObject("/Contents")] = writer._add_object(_stream(data).flate_encode())
        if progress is not None:
            progress(number)
    font_dictionary.update(fonts.embed(writer))
    if outline is not None:
        heading, items = outline
        parent = writer.add_outline_item(title=heading, page_number=0)
        for text, index in items:
            writer.add_outline_item(title=text, page_number=index, parent=parent)
    if source.metadata:
        writer.add_metadata({key: str(value) for key, value in source.metadata.items()})
    language = source.root_object.get("/Lang")
    if language:
        writer._root_object[NameObject("/Lang")] = language
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _form(writer: PdfWriter, source: PdfReader, index: int) -> IndirectObject:
    """WeasyPrint's page ``index`` as a form XObject of the writer (its resources copied with it)."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    page = source.pages[index]
    content = page.get_contents()
    form = _stream(content.get_data() if content is not None else b"")
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject(page.mediabox)
    resources = page["/Resources"].get_object()
    assert isinstance(resources, DictionaryObject)
    form[NameObject("/Resources")] = resources.clone(writer)
    return writer._add_object(form.flate_encode())
