"""Reading an XLSX workbook as a stream, every size bounded before it is held.

openpyxl, even ``read_only``, loads every shared string whole and pads each row to the sheet's widest
column: a 205 KB file holding one 200 MB string, or 20,000 rows with one cell in column XFD, took gigabytes.
Here each part is read from the zip in chunks through expat, and nothing the file declares is believed:

- a zip member whose declared size passes the limit, or that expands like no spreadsheet does (a zip
  bomb), is refused before it is read, and reading stops at the limit anyway;
- a shared string or a cell longer than ``MAX_CELL_CHARS`` is not kept: the cell becomes a problem of its
  line and column, as do a text in a cell marked numeric and a reference to a shared string that is not
  there;
- a value beyond ``MAX_COLUMNS`` refuses the file at once, as do more rows than the row limit (counted as
  they are read), a declared dimension beyond it, and a table that would take more than its budget;
- markup no spreadsheet writes (a DTD, comments, CDATA, elements nested deeper than ``MAX_DEPTH``) is
  refused, and so is a run of more than ``MAX_TOKEN_BYTES`` without a tag: expat holds a whole tag, and
  every open element, in memory.

Cells come out as openpyxl's ``values_only`` gives them: str, int, float, bool, datetime (a number in a
date format) or None.
"""

from __future__ import annotations

import datetime
import io
import math
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from typing import Any
from xml.parsers import expat

from candidates.services.imports.limits import (
    HEADER_SEARCH_ROWS,
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    TOO_BIG_ADVICE,
    Budget,
    ImportFileError,
    Limits,
    too_long_cell,
    too_many_columns,
    too_many_rows,
)
from contests.wording import thousands

CHUNK = 64 * 1024
# A zip member that declares more than this many times its compressed size (and at least the floor) is a
# bomb: spreadsheets' XML compresses 5 to 20 times; empty cells repeated a million times, a thousand.
BOMB_RATIO = 100
BOMB_FLOOR_BYTES = 8 * 1024 * 1024
MAX_TOKEN_BYTES = 1024 * 1024
MAX_SHEETS = 50  # tabs looked at for the first with data
MAX_DEPTH = 64  # a sheet nests 7 deep (worksheet, sheetData, row, c, is, r, t); extensions a few more
EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384
# A sheet's declared dimension may pass the data by formatted empty rows; beyond this margin it is refused.
DIMENSION_MARGIN = 1_000
CELL_REF_RE = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")
COLUMNS: dict[str, int] = {}  # "AB" -> 28, filled as references are met
TOO_LONG = object()  # a shared string over the cell limit, not kept
# Exceptions a damaged or foreign zip raises while it is opened or read.
ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    KeyError,
)
Rows = list[tuple[int, list[Any]]]
CellProblems = list[tuple[int, int, str]]


def read_xlsx(data: bytes, *, limits: Limits, budget: Budget) -> tuple[Rows, CellProblems, str]:
    """``(rows, problems, sheet title)`` of the first sheet with data; ``problems`` are ``(line, column
    index, message)``. Raises ``ImportFileError`` when the workbook cannot be read within the limits."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS:
        raise ImportFileError("Não foi possível abrir a planilha XLSX: o arquivo está danificado.") from None
    with archive:
        try:
            return _Workbook(archive, limits, budget).read()
        except expat.ExpatError as exc:
            raise ImportFileError(
                f"A planilha XLSX está danificada (XML inválido: {expat.ErrorString(exc.code)})."
            ) from None
        except ImportFileError:
            raise
        except ZIP_ERRORS:
            raise ImportFileError(
                "A planilha XLSX está danificada: uma de suas partes não pôde ser lida."
            ) from None


def local(name: str) -> str:
    """An element or attribute name without its namespace prefix (``x:c`` is ``c``)."""
    return name.rpartition(":")[2]


def column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


class _Workbook:
    def __init__(self, archive: zipfile.ZipFile, limits: Limits, budget: Budget):
        self.archive = archive
        self.limits = limits
        self.budget = budget
        self.names = set(archive.namelist())

    def read(self) -> tuple[Rows, CellProblems, str]:
        workbook = self.office_document()
        sheets, epoch = self.workbook(workbook)
        relations = self.relations(workbook)
        folder = posixpath.dirname(workbook)
        shared_path = self.target(folder, relations, "sharedStrings", "sharedStrings.xml")
        styles_path = self.target(folder, relations, "styles", "styles.xml")
        date_styles = self.date_styles(styles_path) if styles_path else set()
        shared = self.shared_strings(shared_path) if shared_path else []
        if not sheets:
            raise ImportFileError("A planilha XLSX não tem abas.")
        read: set[str] = set()
        for title, relation_id in sheets[:MAX_SHEETS]:
            target = relations.get(relation_id, ("", ""))[1]
            path = self.resolve(folder, target)
            if path not in self.names:
                raise ImportFileError(f"A planilha XLSX está danificada: falta a aba “{title}”.")
            if path in read:  # two tabs naming one part: a file crafted to be read over and over
                continue
            read.add(path)
            sheet = _Sheet(shared, date_styles, epoch, self.limits, self.budget)
            self.parse(path, sheet, self.limits.member_bytes)
            if sheet.rows:
                return sheet.rows, sheet.problems, title
        raise ImportFileError(
            "A planilha não tem dados."
            if len(sheets) <= MAX_SHEETS
            else f"As primeiras {MAX_SHEETS} abas da planilha não têm dados."
        )

    # The package's small parts -------------------------------------------------------------------------

    def office_document(self) -> str:
        default = "xl/workbook.xml"
        if "_rels/.rels" not in self.names:
            return default
        for _, (kind, target) in self.relations_of("_rels/.rels").items():
            if kind.endswith("/officeDocument"):
                return self.resolve("", target)
        return default

    def workbook(self, path: str) -> tuple[list[tuple[str, str]], datetime.datetime]:
        if path not in self.names:
            raise ImportFileError(
                "Não foi possível abrir a planilha XLSX: falta a parte principal (workbook)."
            )
        # openpyxl only where a workbook is read: importing it costs every process 0.25 s (manage.py's
        # commands, the CSV import).
        from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

        sheets: list[tuple[str, str]] = []
        epoch = [CALENDAR_WINDOWS_1900]

        def start(name: str, attrs: dict[str, str]) -> None:
            name = local(name)
            if name == "sheet":
                relation = next((v for k, v in attrs.items() if ":" in k and local(k) == "id"), "")
                sheets.append((attrs.get("name", "")[:100], relation))
            elif name == "workbookPr" and attrs.get("date1904", "").lower() in ("1", "true"):
                epoch[0] = CALENDAR_MAC_1904

        self.parse(path, _Handlers(start), self.limits.small_member_bytes)
        return sheets, epoch[0]

    def relations(self, workbook: str) -> dict[str, tuple[str, str]]:
        path = posixpath.join(posixpath.dirname(workbook), "_rels", posixpath.basename(workbook) + ".rels")
        return self.relations_of(path) if path in self.names else {}

    def relations_of(self, path: str) -> dict[str, tuple[str, str]]:
        relations: dict[str, tuple[str, str]] = {}

        def start(name: str, attrs: dict[str, str]) -> None:
            if local(name) == "Relationship" and attrs.get("TargetMode") != "External":
                relations[attrs.get("Id", "")] = (attrs.get("Type", ""), attrs.get("Target", ""))

        self.parse(path, _Handlers(start), self.limits.small_member_bytes)
        return relations

    def target(
        self, folder: str, relations: dict[str, tuple[str, str]], kind: str, default: str
    ) -> str | None:
        for relation_kind, target in relations.values():
            if relation_kind.endswith(f"/{kind}"):
                path = self.resolve(folder, target)
                return path if path in self.names else None
        path = posixpath.join(folder, default)
        return path if path in self.names else None

    @staticmethod
    def resolve(folder: str, target: str) -> str:
        if target.startswith("/"):
            return posixpath.normpath(target.lstrip("/"))
        return posixpath.normpath(posixpath.join(folder, target))

    def date_styles(self, path: str) -> set[int]:
        """The cell formats (``s`` of a cell) that show a number as a date, as openpyxl decides it."""
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

        custom: dict[int, str] = {}
        formats: list[int] = []
        depth = {"cellXfs": 0}

        def start(name: str, attrs: dict[str, str]) -> None:
            name = local(name)
            if name == "numFmt":
                with_id = attrs.get("numFmtId", "")
                if with_id.isdigit() and len(with_id) < 7:
                    custom[int(with_id)] = attrs.get("formatCode", "")[:255]
            elif name == "cellXfs":
                depth["cellXfs"] += 1
            elif name == "xf" and depth["cellXfs"]:
                with_id = attrs.get("numFmtId", "0")
                formats.append(int(with_id) if with_id.isdigit() and len(with_id) < 7 else 0)

        def end(name: str) -> None:
            if local(name) == "cellXfs":
                depth["cellXfs"] -= 1

        self.parse(path, _Handlers(start, end), self.limits.small_member_bytes)
        dates = set()
        for index, format_id in enumerate(formats):
            code = custom.get(format_id) or BUILTIN_FORMATS.get(format_id)
            if code and is_date_format(code) and not is_timedelta_format(code):
                dates.add(index)
        return dates

    def shared_strings(self, path: str) -> list[Any]:
        reader = _SharedStrings(self.budget)
        self.parse(path, reader, self.limits.member_bytes)
        return reader.strings

    # Streaming one part through expat ------------------------------------------------------------------

    def parse(self, path: str, handlers: _Handlers, max_bytes: int | None) -> None:
        info = self.archive.getinfo(path)
        if max_bytes is not None and info.file_size > max_bytes:
            raise _too_big(path, info.file_size, max_bytes)
        if info.file_size > BOMB_FLOOR_BYTES and info.file_size > BOMB_RATIO * max(info.compress_size, 1):
            raise ImportFileError(
                f"A planilha XLSX se expande {thousands(info.file_size // max(info.compress_size, 1))} vezes ao ser "
                f"descompactada (parte {path[:60]}): nenhuma planilha real se comprime assim. Salve-a de novo "
                "no Excel ou exporte-a como CSV."
            )
        parser = expat.ParserCreate()
        parser.buffer_text = True  # a text in one call, not one per line or entity
        parser.buffer_size = CHUNK
        parser.StartElementHandler = handlers.start
        parser.EndElementHandler = handlers.end
        parser.CharacterDataHandler = handlers.data
        read = 0
        since_tag = 0
        previous = b""
        with self.archive.open(info) as member:
            while True:
                chunk = member.read(CHUNK)
                if not chunk:
                    break
                read += len(chunk)
                if max_bytes is not None and read > max_bytes:
                    raise _too_big(path, read, max_bytes)
                # "<!" starts a DTD, a comment or CDATA: none is in a spreadsheet, and expat keeps each whole.
                if b"<!" in previous[-1:] + chunk[:1] or b"<!" in chunk:
                    raise ImportFileError(
                        "A planilha XLSX tem marcação que nenhuma planilha usa (DTD ou comentário)."
                    )
                first = chunk.find(b"<")
                if first == -1:
                    longest = since_tag = since_tag + len(chunk)
                else:
                    longest = since_tag + first
                    since_tag = len(chunk) - chunk.rfind(b"<") - 1
                if max(longest, since_tag) > MAX_TOKEN_BYTES:
                    raise ImportFileError(
                        "A planilha XLSX tem um trecho de mais de 1 MB sem marcação: o arquivo não é uma "
                        "planilha de inscrições ou está danificado."
                    )
                previous = chunk
                parser.Parse(chunk, False)
        parser.Parse(b"", True)


def _too_big(path: str, size: int, limit: int | None) -> ImportFileError:
    mb = (limit or size) // (1024 * 1024)
    return ImportFileError(
        f"A planilha XLSX se expande, descompactada, para mais de {thousands(mb)} MB (parte {path[:60]}): grande "
        "demais para a importação pela web. " + TOO_BIG_ADVICE
    )


class _Handlers:
    """What expat calls; ``nest``/``unnest`` keep the depth bounded (expat keeps every open element)."""

    depth = 0

    def __init__(
        self,
        start: Callable[[str, dict[str, str]], None] | None = None,
        end: Callable[[str], None] | None = None,
    ):
        self.on_start = start
        self.on_end = end

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ImportFileError(
                f"A planilha XLSX tem elementos aninhados a mais de {MAX_DEPTH} níveis: nenhuma planilha real "
                "é assim."
            )

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.nest()
        if self.on_start is not None:
            self.on_start(name, attrs)

    def end(self, name: str) -> None:
        self.depth -= 1
        if self.on_end is not None:
            self.on_end(name)

    def data(self, text: str) -> None:
        pass


class _Text:
    """Text gathered across expat's pieces, up to ``MAX_CELL_CHARS``; past it, only that it was too long."""

    __slots__ = ("length", "parts", "too_long")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.too_long = False

    def add(self, text: str) -> None:
        self.length += len(text)
        if self.length > MAX_CELL_CHARS:
            self.too_long, self.parts = True, []
        elif not self.too_long:
            self.parts.append(text)

    def value(self) -> str:
        return "".join(self.parts)


class _SharedStrings(_Handlers):
    """``<si>`` elements in order: the text of their ``<t>`` (phonetic runs ``<rPh>`` left out)."""

    def __init__(self, budget: Budget):
        self.budget = budget
        self.strings: list[Any] = []
        self.text: _Text | None = None
        self.collect = False
        self.phonetic = 0

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.nest()
        name = local(name)
        if name == "si":
            self.text = _Text()
        elif name == "rPh":
            self.phonetic += 1
        elif name == "t" and self.text is not None and not self.phonetic:
            self.collect = True

    def end(self, name: str) -> None:
        self.depth -= 1
        name = local(name)
        if name == "t":
            self.collect = False
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "si" and self.text is not None:
            value = TOO_LONG if self.text.too_long else self.text.value()
            self.budget.spend_value(value)
            self.strings.append(value)
            self.text = None

    def data(self, text: str) -> None:
        if self.collect and self.text is not None:
            self.text.add(text)


class _Sheet(_Handlers):
    """The sheet's rows as ``(line, cells)``, empty rows left out, each row as long as its last value."""

    def __init__(
        self,
        shared: list[Any],
        date_styles: set[int],
        epoch: datetime.datetime,
        limits: Limits,
        budget: Budget,
    ):
        from openpyxl.utils.datetime import from_excel

        self.from_excel = from_excel
        self.shared = shared
        self.date_styles = date_styles
        self.epoch = epoch
        self.limits = limits
        self.budget = budget
        self.rows: Rows = []
        self.problems: CellProblems = []
        self.line = 0
        self.column = 0
        self.cells: dict[int, Any] | None = None
        self.cell: tuple[int, str, int] | None = None  # column, type, style
        self.parts: list[str] = []  # the cell's text so far, up to MAX_CELL_CHARS
        self.length = 0
        self.collect = False
        self.inline = False
        self.phonetic = 0
        self.max_data_rows = None if limits.max_rows is None else limits.max_rows + HEADER_SEARCH_ROWS

    # expat calls these for every element: the cell's own path comes first and does the least.

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.nest()
        if ":" in name:
            name = local(name)
        if name == "c":
            self.start_cell(attrs)
        elif name == "v":
            self.collect = self.cell is not None
        elif name == "t":
            self.collect = self.inline and not self.phonetic
        elif name == "is":
            self.inline = True
        elif name == "rPh":
            self.phonetic += 1
        elif name == "row":
            line = attrs.get("r", "")
            self.line = int(line) if line.isdigit() and 0 < int(line) <= EXCEL_MAX_ROWS else self.line + 1
            self.column = 0
            self.cells = {}
        elif name == "dimension":
            self.check_dimension(attrs.get("ref", ""))

    def end(self, name: str) -> None:
        self.depth -= 1
        if ":" in name:
            name = local(name)
        if name == "c":
            self.end_cell()
        elif name == "v" or name == "t":
            self.collect = False
        elif name == "is":
            self.inline = False
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "row":
            self.end_row()

    def data(self, text: str) -> None:
        if self.collect:
            self.length += len(text)
            if self.length <= MAX_CELL_CHARS:
                self.parts.append(text)
            else:
                self.parts = []

    def check_dimension(self, ref: str) -> None:
        """The sheet says how far it goes: believed only to refuse early, never to allocate."""
        match = CELL_REF_RE.match(ref.rpartition(":")[2])
        if (
            match
            and self.max_data_rows is not None
            and int(match.group(2)) > self.max_data_rows + DIMENSION_MARGIN
        ):
            raise ImportFileError(
                f"A planilha declara {thousands(int(match.group(2)))} linhas (dimensão {ref[:30]}); a importação "
                f"pela web aceita até {thousands(self.limits.max_rows or 0)} linhas de dados. Apague as linhas "
                "vazias formatadas no fim da planilha. " + TOO_BIG_ADVICE
            )

    def start_cell(self, attrs: dict[str, str]) -> None:
        if self.cells is None:  # a cell outside a row: no spreadsheet writes one
            self.cell = None
            return
        ref = attrs.get("r")
        column = self.column + 1
        if ref:
            letters = ref.rstrip("0123456789")
            number = COLUMNS.get(letters)
            if number is None and CELL_REF_RE.match(ref):
                number = COLUMNS[letters] = column_number(letters.lstrip("$"))
            if number is not None and number <= EXCEL_MAX_COLUMNS:
                column = number
        self.column = column
        style = attrs.get("s")
        self.cell = (
            column,
            attrs.get("t", "n"),
            int(style) if style and style.isdigit() and len(style) < 7 else 0,
        )
        self.parts = []
        self.length = 0

    def end_cell(self) -> None:
        if self.cell is None or self.cells is None:
            return
        column, kind, style = self.cell
        self.cell = None
        if not self.length:
            return  # no value: a styled empty cell, however far right
        if self.length > MAX_CELL_CHARS:
            self.problem(column - 1, too_long_cell())
            return
        value = self.value(kind, style, "".join(self.parts), column - 1)
        if value is None or value == "":
            return
        if column > MAX_COLUMNS:
            raise too_many_columns(self.line, column)
        self.cells[column - 1] = value

    def value(self, kind: str, style: int, raw: str, index: int) -> Any:
        if kind == "n":
            return self.number(raw, style, index)
        if kind == "s":
            return self.shared_string(raw, index)
        if kind in ("inlineStr", "str", "e"):
            return raw
        if kind == "b":
            if raw.strip() in ("0", "1", ""):
                return raw.strip() == "1" if raw.strip() else None
            self.problem(
                index, f"a planilha marca a célula como verdadeiro/falso, mas ela contém “{raw[:40]}”"
            )
            return None
        if kind == "d":
            try:
                return datetime.datetime.fromisoformat(raw.strip()) if raw.strip() else None
            except ValueError:
                self.problem(index, f"a planilha marca a célula como data, mas ela contém “{raw[:40]}”")
                return None
        return raw  # a type no spreadsheet writes: its text

    def number(self, raw: str, style: int, index: int) -> Any:
        number: int | float
        try:  # as openpyxl reads it: a float if it has a point or an exponent
            number = float(raw) if "." in raw or "e" in raw or "E" in raw else int(raw)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            self.problem(index, f"a planilha marca a célula como número, mas ela contém “{raw.strip()[:40]}”")
            return None
        if style in self.date_styles:
            try:
                moment = self.from_excel(number, self.epoch)
            except (OverflowError, ValueError):
                return number
            if isinstance(moment, datetime.datetime):
                return moment
        return number

    def shared_string(self, raw: str, index: int) -> Any:
        position = raw.strip()
        value = None
        if position.isdigit() and len(position) < 10 and int(position) < len(self.shared):
            value = self.shared[int(position)]
        else:
            self.problem(
                index,
                f"a célula aponta para o texto compartilhado nº {position[:12]}, que a planilha não tem",
            )
            return None
        if value is TOO_LONG:
            self.problem(index, too_long_cell())
            return None
        return value

    def problem(self, index: int, message: str) -> None:
        self.problems.append((self.line, index, message))

    def end_row(self) -> None:
        cells, self.cells = self.cells, None
        if not cells or not any(not isinstance(v, str) or v.strip() for v in cells.values()):
            return
        row: list[Any] = [None] * (max(cells) + 1)
        for index, value in cells.items():
            row[index] = value
        self.budget.spend_row(row)
        self.rows.append((self.line, row))
        if self.max_data_rows is not None and len(self.rows) > self.max_data_rows:
            raise too_many_rows(f"mais de {thousands(self.limits.max_rows or 0)}", self.limits.max_rows or 0)
