"""Reading an organiser's file into a ``Table``: CSV in any usual encoding and separator, or XLSX."""

from __future__ import annotations

import csv
import gc
import io
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from candidates.services.imports.cells import fold, text
from candidates.services.imports.mapping import looks_like_header

WEB_IMPORT_MAX_ROWS = 20_000
DELIMITERS = (";", ",", "\t", "|")
DELIMITER_NAMES = {";": "ponto e vírgula", ",": "vírgula", "\t": "tabulação", "|": "barra vertical"}
HEADER_SEARCH_ROWS = 20
SNIFF_ROWS = 50


class ImportFileError(ValueError):
    """The file cannot be read at all; ``str()`` is the Portuguese reason."""


@dataclass
class Table:
    """The file as read: unique headers and data rows, each with its line in the file (1-based)."""

    headers: list[str]
    rows: list[tuple[int, list[Any]]]
    source: str = ""
    filename: str = ""
    header_line: int = 1
    extra: dict = field(default_factory=dict)

    @property
    def row_count(self) -> int:
        return len(self.rows)


def fmt_int(n: int) -> str:
    return f"{n:,}".replace(",", ".")


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large file's rows are built: they are all kept until
    the end anyway, and with hundreds of thousands of them each collection walks them all again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_upload(file: Any, *, max_rows: int | None = None, filename: str = "") -> Table:
    """Read ``file`` (a path, bytes, or a binary file object such as Django's ``UploadedFile``).

    Raises ``ImportFileError`` when the file is not a readable table or has more than ``max_rows`` data
    rows (the web passes ``WEB_IMPORT_MAX_ROWS``; the command has no limit).
    """
    data, name = _read_bytes(file)
    filename = filename or name
    if not data.strip():
        raise ImportFileError("O arquivo está vazio.")
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise ImportFileError(
            "Planilha no formato antigo do Excel (.xls): salve-a como .xlsx ou .csv e envie de novo."
        )
    with paused_gc():
        table = _read_xlsx(data) if data[:4] == b"PK\x03\x04" else _read_csv(data)
    table.filename = filename
    if max_rows is not None and table.row_count > max_rows:
        raise ImportFileError(
            f"O arquivo tem {fmt_int(table.row_count)} linhas de dados; a importação pela web aceita até "
            f"{fmt_int(max_rows)}. Importe-o pelo comando: manage.py import_registrations CONCURSO ARQUIVO."
        )
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
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "UTF-8 com BOM"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "UTF-16"
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1"


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


def _read_csv(data: bytes) -> Table:
    content, encoding = decode(data)
    if "\x00" in content:
        raise ImportFileError("O arquivo não parece ser texto (CSV) nem planilha XLSX.")
    delimiter = sniff_delimiter(content[:200_000].splitlines()[:SNIFF_ROWS])
    reader = csv.reader(io.StringIO(content, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[Any]]] = []
    start = 1
    for cells in reader:
        rows.append((start, cells))
        start = reader.line_num + 1
    source = f"CSV ({encoding}, separador {DELIMITER_NAMES[delimiter]})"
    return _table(rows, source=source, extra={"encoding": encoding, "delimiter": delimiter})


# XLSX --------------------------------------------------------------------------------------------------


def _read_xlsx(data: bytes) -> Table:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken or foreign zip
        raise ImportFileError(f"Não foi possível abrir a planilha XLSX ({exc.__class__.__name__}).") from None
    try:
        for sheet in workbook.worksheets:
            sheet.reset_dimensions()
            rows = [(i, list(values)) for i, values in enumerate(sheet.iter_rows(values_only=True), start=1)]
            if any(_non_empty(cells) for _, cells in rows):
                return _table(rows, source=f"XLSX (planilha “{sheet.title}”)", extra={"sheet": sheet.title})
    finally:
        workbook.close()
    raise ImportFileError("A planilha não tem dados.")


# Both --------------------------------------------------------------------------------------------------


def _non_empty(cells: list[Any]) -> bool:
    try:
        return bool("".join(cells).strip())  # CSV: every cell is text
    except TypeError:
        return any(text(cell) for cell in cells)


def _table(rows: list[tuple[int, list[Any]]], *, source: str, extra: dict) -> Table:
    """Find the header (titles above it are skipped), make headers unique, drop empty rows."""
    candidates = [(i, line, cells) for i, (line, cells) in enumerate(rows) if _non_empty(cells)]
    if not candidates:
        raise ImportFileError("O arquivo não tem linhas com dados.")
    header_index, header_line, header_cells = candidates[0]
    for index, line, cells in candidates[:HEADER_SEARCH_ROWS]:
        if looks_like_header([text(c) for c in cells]):
            header_index, header_line, header_cells = index, line, cells
            break
    while header_cells and not text(header_cells[-1]):
        header_cells = header_cells[:-1]
    headers = unique_headers([text(c) for c in header_cells])
    data = [(line, cells) for line, cells in rows[header_index + 1 :] if _non_empty(cells)]
    return Table(headers=headers, rows=data, source=source, header_line=header_line, extra=extra)


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
