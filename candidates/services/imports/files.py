"""Reading an organiser's file into a ``Table``: CSV in any usual encoding and separator, or XLSX.

Every size is bounded while the file is read (``limits``; the XLSX reader is ``xlsx``). A cell the reader
cannot take (bytes that are no text in the file's encoding, a cell over the size limit, a text in a cell
the spreadsheet marks as a number...) does not stop the reading: it becomes a problem of its line and
column in ``Table.problems``, which the preview reports with the others, so nothing is imported.

The web wizard reads the upload once and keeps the table between its steps as JSON lines
(``save_table``/``load_table``): the later steps never parse the file again.
"""

from __future__ import annotations

import csv
import datetime
import gc
import io
import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from itertools import islice
from typing import IO, Any

from candidates.services.imports.cells import fold, text
from candidates.services.imports.limits import (
    HEADER_SEARCH_ROWS,
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    WEB_IMPORT_MAX_ROWS,
    Budget,
    ImportFileError,
    Limits,
    too_long_cell,
    too_many_columns,
    too_many_rows,
)
from candidates.services.imports.mapping import looks_like_header
from candidates.services.imports.report import Problem
from candidates.services.imports.xlsx import read_xlsx
from contests.wording import thousands

__all__ = [
    "WEB_IMPORT_MAX_ROWS",
    "ImportFileError",
    "Table",
    "load_table",
    "parse_upload",
    "save_table",
]

DELIMITERS = (";", ",", "\t", "|")
DELIMITER_NAMES = {";": "ponto e vírgula", ",": "vírgula", "\t": "tabulação", "|": "barra vertical"}
SNIFF_ROWS = 50
MAX_DECODING_ERRORS = 20
REPLACEMENT = "\ufffd"
MAX_SEPARATORS = 5 * MAX_COLUMNS  # on one line; trailing empty columns up to it are dropped


@dataclass
class Table:
    """The file as read: unique headers and data rows, each with its line in the file (1-based), and the
    cells the reader could not take (``problems``)."""

    headers: list[str]
    rows: list[tuple[int, list[Any]]]
    source: str = ""
    filename: str = ""
    header_line: int = 1
    extra: dict = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def row_count(self) -> int:
        return len(self.rows)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large file's rows are built: they are all kept until
    the end anyway, and with hundreds of thousands of them each collection walks them all again.

    At the end, what the pause allocated and kept is moved to the oldest generation as it is (``freeze``
    then ``unfreeze``), without the walk that would otherwise follow the next allocation, to find the
    rows still in use (0.07 s for the 100,000 rows of a file read); a cycle dropped meanwhile waits for
    the next full collection. Not where something else froze objects (``unfreeze`` would thaw them too)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def parse_upload(file: Any, *, max_rows: int | None = None, filename: str = "") -> Table:
    """Read ``file`` (a path, bytes, or a binary file object such as Django's ``UploadedFile``).

    Raises ``ImportFileError`` when the file is not a readable table or passes the limits: more than
    ``max_rows`` data rows (the web passes ``WEB_IMPORT_MAX_ROWS`` and with it the web's size limits;
    the command has none), data beyond ``MAX_COLUMNS``.
    """
    data, name = _read_bytes(file)
    filename = filename or name
    if not data.strip():
        raise ImportFileError("O arquivo está vazio.")
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise ImportFileError(
            "Planilha no formato antigo do Excel (.xls): salve-a como .xlsx ou .csv e envie de novo."
        )
    limits = Limits.for_rows(max_rows)
    budget = Budget(limits)
    with paused_gc():
        table = (
            _read_xlsx(data, limits, budget) if data[:4] == b"PK\x03\x04" else _read_csv(data, limits, budget)
        )
    table.filename = filename
    if max_rows is not None and table.row_count > max_rows:
        raise too_many_rows(thousands(table.row_count), max_rows)
    return table


def _read_bytes(file: Any) -> tuple[bytes, str]:
    if isinstance(file, bytes | bytearray):
        return bytes(file), ""
    if isinstance(file, str | os.PathLike):
        with open(file, "rb") as handle:
            return handle.read(), os.path.basename(os.fspath(file))
    if hasattr(file, "seek"):
        with suppress(OSError, ValueError):  # a stream that cannot rewind is read from where it is
            file.seek(0)
    data = file.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    return data, os.path.basename(getattr(file, "name", "") or "")


# CSV ---------------------------------------------------------------------------------------------------


def decode(data: bytes) -> tuple[str, str]:
    """``(text, encoding label)``: UTF-8 with or without BOM, UTF-16 with BOM, else Windows-1252."""
    content, label, _ = decode_reporting(data)
    return content, label


def decode_reporting(data: bytes) -> tuple[str, str, list[int]]:
    """``decode`` that also says where (offsets in the text) bytes were not text in the encoding: each
    such place holds U+FFFD and becomes a problem of its line; a file without a BOM that is not UTF-8 is
    read as Windows-1252, which takes any byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        content, errors = _decode_marking(memoryview(data)[3:], "utf-8")
        return content, "UTF-8 com BOM", errors
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"
        content, errors = _decode_marking(memoryview(data)[2:], codec)
        return content, "UTF-16", errors
    try:
        return data.decode("utf-8"), "UTF-8", []
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252", []
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1", []


def _decode_marking(data: memoryview, codec: str) -> tuple[str, list[int]]:
    pieces: list[str] = []
    errors: list[int] = []
    position = length = 0
    while True:
        try:
            pieces.append(str(data[position:], codec))
            break
        except UnicodeDecodeError as error:
            good = str(data[position : position + error.start], codec)
            pieces += [good, REPLACEMENT]
            length += len(good)
            errors.append(length)
            length += 1
            position += max(error.end, error.start + 1)
            if len(errors) == MAX_DECODING_ERRORS:
                pieces.append(str(data[position:], codec, "replace"))
                break
    return "".join(pieces), errors


def sniff_delimiter(sample_lines: list[str]) -> str:
    """The separator that splits the sample into the most consistent number of columns (> 1)."""
    best, best_score = None, None
    for delimiter in DELIMITERS:
        counts = [
            len(row) for row in csv.reader(sample_lines, delimiter=delimiter) if any(c.strip() for c in row)
        ]
        if not counts:
            continue
        width, frequency = Counter(counts).most_common(1)[0]
        if width < 2:
            continue
        score = (frequency / len(counts), width)
        if best_score is None or score > best_score:
            best, best_score = delimiter, score
    if best is None:
        raise ImportFileError(
            "Não foi possível identificar as colunas: use ponto e vírgula, vírgula ou tabulação como separador."
        )
    return best


class _Lines:
    """The physical lines handed to the csv reader, kept for the record being read (to tell which column
    a field too long for the csv module was in). A line with far more separators than ``MAX_COLUMNS`` is
    refused before the csv module splits it: a 5 MB line of ``ab;`` would be 1.7 million cells."""

    def __init__(self, content: str, delimiter: str):
        self.lines = iter(io.StringIO(content, newline=""))
        self.delimiter = delimiter
        self.record: list[str] = []
        self.number = 0

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self.lines)
        self.number += 1
        if len(line) > MAX_SEPARATORS and line.count(self.delimiter) > MAX_SEPARATORS:
            raise ImportFileError(
                f"A linha {self.number} tem mais de {thousands(MAX_SEPARATORS)} separadores; a importação aceita até "
                f"{MAX_COLUMNS} colunas. Confira o separador ou apague as colunas em excesso e envie de novo."
            )
        self.record.append(line)
        return line


def _long_field_index(record: str, delimiter: str) -> int:
    """The column (from 0) of the first field of ``record`` longer than ``MAX_CELL_CHARS``."""
    index = length = 0
    quoted = False
    for char in record:
        if char == '"':
            quoted = not quoted
        elif char == delimiter and not quoted:
            index, length = index + 1, 0
        else:
            length += 1
            if length > MAX_CELL_CHARS:
                break
    return index


def _read_csv(data: bytes, limits: Limits, budget: Budget) -> Table:
    content, encoding, decoding_errors = decode_reporting(data)
    if "\x00" in content:
        raise ImportFileError("O arquivo não parece ser texto (CSV) nem planilha XLSX.")
    # Under the csv module's field limit (131,072 characters) whatever the sample holds.
    delimiter = sniff_delimiter(content[:100_000].splitlines()[:SNIFF_ROWS])
    lines = _Lines(content, delimiter)
    reader = csv.reader(lines, delimiter=delimiter)
    rows: list[tuple[int, list[Any]]] = []
    problems: list[tuple[int, int, str]] = []
    spans: list[tuple[int, int, int]] = []  # first line, last line, index in rows
    start = 1
    counted = 0
    most = None if limits.max_rows is None else limits.max_rows + HEADER_SEARCH_ROWS
    while True:
        lines.record = []
        try:
            cells: list[Any] = next(reader)
        except StopIteration:
            break
        except csv.Error:  # a field longer than the csv module takes (131,072 characters)
            problems.append((start, _long_field_index("".join(lines.record), delimiter), too_long_cell()))
            start = reader.line_num + 1
            continue
        if len(cells) > MAX_COLUMNS:
            extra = next((i for i in range(len(cells) - 1, MAX_COLUMNS - 1, -1) if cells[i].strip()), None)
            if extra is not None:
                raise too_many_columns(start, extra + 1)
            cells = cells[:MAX_COLUMNS]
        if max(map(len, cells), default=0) > MAX_CELL_CHARS:  # rare: the cells looked at one by one only then
            for index, cell in enumerate(cells):
                if len(cell) > MAX_CELL_CHARS:
                    problems.append((start, index, too_long_cell()))
                    cells[index] = None
        if any(cells):
            budget.spend_row(cells)
            counted += 1
            if most is not None and counted > most:
                raise too_many_rows(f"mais de {thousands(limits.max_rows or 0)}", limits.max_rows or 0)
        spans.append((start, reader.line_num, len(rows)))
        rows.append((start, cells))
        start = reader.line_num + 1
    problems += _decoding_problems(content, decoding_errors, spans, rows, encoding)
    source = f"CSV ({encoding}, separador {DELIMITER_NAMES[delimiter]})"
    return _table(rows, problems, source=source, extra={"encoding": encoding, "delimiter": delimiter})


def _decoding_problems(
    content: str,
    errors: list[int],
    spans: list[tuple[int, int, int]],
    rows: list[tuple[int, list[Any]]],
    encoding: str,
) -> list[tuple[int, int, str]]:
    """Each place bytes were not text, as the line and column of the record holding it."""
    if not errors:
        return []
    codec = encoding.split(" ")[0]
    message = (
        f"bytes inválidos para a codificação {codec} (arquivo danificado?): o trecho virou “{REPLACEMENT}”"
    )
    newline = "\n" if "\n" in content else "\r"
    problems: dict[tuple[int, int], str] = {}
    for offset in errors:
        line = content.count(newline, 0, offset) + 1
        span = next((s for s in spans if s[0] <= line <= s[1]), None)
        if span is None:
            problems.setdefault((line, -1), message)
            continue
        start, cells = rows[span[2]]
        column = next((i for i, cell in enumerate(cells) if cell and REPLACEMENT in cell), -1)
        problems.setdefault((start, column), message)
    return [(line, column, message) for (line, column), message in problems.items()]


# XLSX --------------------------------------------------------------------------------------------------


def _read_xlsx(data: bytes, limits: Limits, budget: Budget) -> Table:

    rows, problems, title = read_xlsx(data, limits=limits, budget=budget)
    return _table(rows, problems, source=f"XLSX (planilha “{title}”)", extra={"sheet": title})


# Both --------------------------------------------------------------------------------------------------


def _non_empty(cells: list[Any]) -> bool:
    try:
        return bool("".join(cells).strip())  # CSV: every cell is text
    except TypeError:
        return any(text(cell) for cell in cells)


def _table(
    rows: list[tuple[int, list[Any]]], problems: list[tuple[int, int, str]], *, source: str, extra: dict
) -> Table:
    """Find the header (titles above it are skipped), make headers unique, drop empty rows; the reader's
    problems named by their column's header."""
    # The header is among the first rows with data: only those are looked for (the data rows are once, below).
    non_empty = ((i, line, cells) for i, (line, cells) in enumerate(rows) if _non_empty(cells))
    candidates = list(islice(non_empty, HEADER_SEARCH_ROWS))
    if not candidates:
        if problems:  # every cell with data was refused: say why
            line, _, message = problems[0]
            raise ImportFileError(f"Linha {line}: {message}.")
        raise ImportFileError("O arquivo não tem linhas com dados.")
    header_index, header_line, header_cells = candidates[0]
    for index, line, cells in candidates:
        if looks_like_header([text(c) for c in cells]):
            header_index, header_line, header_cells = index, line, cells
            break
    while header_cells and not text(header_cells[-1]):
        header_cells = header_cells[:-1]
    headers = unique_headers([text(c) for c in header_cells])
    data = [(line, cells) for line, cells in rows[header_index + 1 :] if _non_empty(cells)]
    named = [
        Problem(
            line,
            headers[column]
            if 0 <= column < len(headers)
            else (f"Coluna {column + 1}" if column >= 0 else ""),
            message,
        )
        for line, column, message in sorted(problems)
    ]
    return Table(
        headers=headers, rows=data, source=source, header_line=header_line, extra=extra, problems=named
    )


def unique_headers(raw: list[str]) -> list[str]:
    headers: list[str] = []
    seen: Counter = Counter()
    for i, name in enumerate(raw, start=1):
        name = name.lstrip("\ufeff").strip() or f"Coluna {i}"
        seen[fold(name)] += 1
        if seen[fold(name)] > 1:
            name = f"{name} ({seen[fold(name)]})"
        headers.append(name)
    return headers


# The table kept between the web wizard's steps ---------------------------------------------------------


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return {"$date": value.isoformat()}
    raise TypeError(type(value).__name__)


def _json_object(obj: dict) -> Any:
    if set(obj) == {"$date"}:
        return datetime.datetime.fromisoformat(obj["$date"])
    return obj


def save_table(table: Table, handle: IO[bytes]) -> None:
    """Write ``table`` to the binary ``handle`` as UTF-8 JSON lines: the file as read, in one pass."""
    meta = {
        "headers": table.headers,
        "source": table.source,
        "filename": table.filename,
        "header_line": table.header_line,
        "extra": table.extra,
        "problems": [[p.line, p.column, p.message] for p in table.problems],
    }
    handle.write((json.dumps(meta, ensure_ascii=False) + "\n").encode("utf-8"))
    for line, cells in table.rows:
        handle.write(
            (json.dumps([line, *cells], ensure_ascii=False, default=_json_default) + "\n").encode("utf-8")
        )


def load_table(stream: IO[bytes]) -> Table:
    """The table ``save_table`` wrote to ``stream`` (binary); ``ImportFileError`` if it is not one."""
    try:
        with io.TextIOWrapper(stream, encoding="utf-8") as handle, paused_gc():
            meta = json.loads(handle.readline())
            rows = []
            for row in handle:
                line, *cells = json.loads(row, object_hook=_json_object)
                rows.append((line, cells))
        return Table(
            headers=meta["headers"],
            rows=rows,
            source=meta["source"],
            filename=meta["filename"],
            header_line=meta["header_line"],
            extra=meta["extra"],
            problems=[Problem(*problem) for problem in meta["problems"]],
        )
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise ImportFileError(
            "O arquivo em importação não pôde ser lido de novo: envie-o outra vez."
        ) from None
