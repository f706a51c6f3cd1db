"""Crafted uploads: peak memory and time of the import reader on hostile files.

Builds each crafted file, then reads it in a fresh subprocess the way the web wizard does (the upload
step parses it with the web's row limit and keeps the normalised table; the later steps load that, and
the preview step checks every row against a contest in a migrated SQLite copy), and measures the peak memory (``ru_maxrss`` of the child, and the peak traced by ``tracemalloc``) and the
time. Prints a table and the worst peak; the acceptance is at most 256 MB for any file, accepted or
refused.

    DEBUG=1 SECRET_KEY=x .venv/bin/python bench/crafted_uploads.py [--only NAME]

The builders (``xlsx_bytes`` and ``CRAFTED``) are also what the tests use to build crafted files.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_MB = 256
UPLOAD_MAX_BYTES = 5 * 1024 * 1024  # the web form refuses larger files before reading them

Part = bytes | Iterable[bytes]

CONTENT_TYPES = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
</Types>"""
ROOT_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
WORKBOOK = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Inscritos" sheetId="1" r:id="rId1"/></sheets>
</workbook>"""
WORKBOOK_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>"""
STYLES = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>
</styleSheet>"""
SHEET_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
)
HEADER = ["Inscrição", "Nome", "CPF", "Cargo", "Cota Negros", "PcD", "Nota Objetiva"]


def _chunks(part: Part) -> Iterator[bytes]:
    if isinstance(part, bytes | bytearray):
        yield bytes(part)
    else:
        yield from part


def xlsx_bytes(sheet: Part, *, shared_strings: Part | None = None, styles: Part = STYLES) -> bytes:
    """A minimal XLSX: one sheet (``sheet`` is the whole worksheet XML, or its chunks) and, optionally,
    the shared strings part; parts are written chunk by chunk, so a huge part never sits in memory."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/styles.xml", b"".join(_chunks(styles)))
        parts = [("xl/worksheets/sheet1.xml", sheet)]
        if shared_strings is not None:
            parts.append(("xl/sharedStrings.xml", shared_strings))
        for name, part in parts:
            with archive.open(name, "w", force_zip64=True) as member:
                for chunk in _chunks(part):
                    member.write(chunk)
    return buffer.getvalue()


def escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def inline(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'


def sheet_xml(rows: Iterable[str], *, dimension: str | None = None) -> bytes:
    """A worksheet from ``<row>`` elements given as text."""
    head = SHEET_HEAD + (f'<dimension ref="{dimension}"/>'.encode() if dimension else b"")
    return head + b"<sheetData>" + "".join(rows).encode() + b"</sheetData></worksheet>"


def header_row(line: int = 1, header: list[str] = HEADER) -> str:
    columns = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return (
        f'<row r="{line}">'
        + "".join(inline(f"{columns[i]}{line}", h) for i, h in enumerate(header))
        + "</row>"
    )


def shared_strings_xml(strings: Iterable[str]) -> bytes:
    body = "".join(f"<si><t>{escape(s)}</t></si>" for s in strings)
    return (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' + body.encode() + b"</sst>"
    )


# The crafted files ------------------------------------------------------------------------------------

MB = 2**20
COLUMN_LETTERS = [chr(65 + i) for i in range(26)] + [
    chr(65 + i) + chr(65 + j) for i in range(26) for j in range(26)
]
ROW_LIMIT = 20_000  # WEB_IMPORT_MAX_ROWS, the web's limit


def column_letters(index: int) -> str:
    """A, B, ..., Z, AA, ... for ``index`` from 0 (up to 3 letters)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _cpf(base: int) -> str:
    """A fictitious CPF with valid check digits, formatted."""
    digits = f"{base % 10**9:09d}"
    for weights in (range(10, 1, -1), range(11, 1, -1)):
        rest = sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11
        digits += str(0 if rest < 2 else 11 - rest)
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def _organiser_rows(count: int) -> Iterator[list[str]]:
    for i in range(count):
        yield [
            str(100_000 + i),
            f"Pessoa Fictícia {i:05d}",
            _cpf(100_000_000 + i * 7919),
            "ALEG",
            "S" if i % 4 == 0 else "N",
            "N",
            f"{i % 100},{i % 7}0",
        ]


def organiser_xlsx() -> bytes:
    """Accepted: 20,000 rows in the organiser's shape, as inline strings (the largest the web takes)."""

    def rows() -> Iterator[bytes]:
        yield SHEET_HEAD + b"<sheetData>" + header_row().encode()
        for line, cells in enumerate(_organiser_rows(ROW_LIMIT), start=2):
            yield (
                f'<row r="{line}">'
                + "".join(inline(f"{column_letters(i)}{line}", v) for i, v in enumerate(cells) if v)
                + "</row>"
            ).encode()
        yield b"</sheetData></worksheet>"

    return xlsx_bytes(rows())


def organiser_csv() -> bytes:
    """Accepted: 20,000 rows in the organiser's shape (Windows-1252, ``;``, decimal comma)."""
    lines = [";".join(HEADER)] + [";".join(cells) for cells in _organiser_rows(ROW_LIMIT)]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def xfd_rows() -> bytes:
    """20,000 rows, each with one cell in the last column (XFD); about 100 KB."""
    rows = [header_row()] + [f'<row r="{i}">{inline(f"XFD{i}", "x")}</row>' for i in range(2, ROW_LIMIT + 2)]
    return xlsx_bytes(sheet_xml(rows))


def xfd_empty_styled_rows() -> bytes:
    """The same with styled cells holding no value (formatting only): read and dropped."""
    rows = [header_row()] + [f'<row r="{i}"><c r="XFD{i}" s="1"/></row>' for i in range(2, ROW_LIMIT + 2)]
    return xlsx_bytes(sheet_xml(rows))


def _huge_string(megabytes: int, *, runs: bool) -> Iterator[bytes]:
    yield b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si>'
    if runs:  # rich-text runs of 512 KB: tags all along, so only the cell limit stops it
        for _ in range(megabytes * 2):
            yield b"<r><t>" + b"A" * (MB // 2) + b"</t></r>"
    else:
        yield b"<t>" + b"A" * MB
        for _ in range(megabytes - 1):
            yield b"A" * MB
        yield b"</t>"
    yield b"</si></sst>"


def huge_shared_string() -> bytes:
    """One 200 MB shared string; about 205 KB."""
    rows = [header_row(), '<row r="2"><c r="A2" t="s"><v>0</v></c></row>']
    return xlsx_bytes(sheet_xml(rows), shared_strings=_huge_string(200, runs=False))


def long_shared_string_in_runs() -> bytes:
    """A 7 MB shared string of pseudo-random letters (so it does not look like a bomb) in 512 KB runs:
    tags all along, so only the cell limit stops it."""
    rng = random.Random(14)

    def parts() -> Iterator[bytes]:
        yield b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si>'
        for _ in range(14):
            yield b"<r><t>" + bytes(rng.choices(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", k=MB // 2)) + b"</t></r>"
        yield b"</si></sst>"

    rows = [header_row(), '<row r="2"><c r="B2" t="s"><v>0</v></c></row>']
    return xlsx_bytes(sheet_xml(rows), shared_strings=parts())


def many_columns(rows: int) -> Callable[[], bytes]:
    """``rows`` rows of 200 columns (the most the reader takes), a distinct number in every cell."""

    def build() -> bytes:
        def parts() -> Iterator[bytes]:
            letters = [column_letters(i) for i in range(200)]
            header = HEADER + [f"Extra {i}" for i in range(len(HEADER), 200)]
            yield SHEET_HEAD + b"<sheetData>" + b'<row r="1">'
            yield (
                "".join(inline(f"{c}1", h) for c, h in zip(letters, header, strict=True)).encode() + b"</row>"
            )
            for line in range(2, rows + 2):
                cells = "".join(f'<c r="{c}{line}"><v>{line}.{i}</v></c>' for i, c in enumerate(letters))
                yield f'<row r="{line}">{cells}</row>'.encode()
            yield b"</sheetData></worksheet>"

        return xlsx_bytes(parts())

    return build


def long_shared_string_everywhere() -> bytes:
    """One 32,000-character shared string referenced by 200 cells in each of 2,000 rows."""
    shared = shared_strings_xml(["Z" * 32_000])
    letters = [column_letters(i) for i in range(200)]
    rows = [header_row()] + [
        f'<row r="{line}">' + "".join(f'<c r="{c}{line}" t="s"><v>0</v></c>' for c in letters) + "</row>"
        for line in range(2, 2_002)
    ]
    return xlsx_bytes(sheet_xml(rows), shared_strings=shared)


def xlsx_rows_past_the_limit() -> bytes:
    """200,000 short rows (the web takes 20,000): refused while reading, at the limit."""
    rows = [header_row()] + [f'<row r="{i}"><c r="A{i}"><v>{i}</v></c></row>' for i in range(2, 200_002)]
    return xlsx_bytes(sheet_xml(rows))


def nesting_bomb() -> bytes:
    """Two million elements opened and never closed (expat keeps each open one): 2 MB in 2 KB."""
    return xlsx_bytes(SHEET_HEAD + b"<sheetData>" + b"<a>" * (2 * MB // 3))


def many_members() -> bytes:
    """A valid workbook followed by 40,000 tiny zip members (the central directory is read whole)."""
    buffer = io.BytesIO(xlsx_bytes(sheet_xml([header_row()])))
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_STORED) as archive:
        for i in range(40_000):
            archive.writestr(f"x/{i}", b"")
    return buffer.getvalue()


def many_tabs() -> bytes:
    """100,000 tabs all naming the same empty sheet."""
    tabs = "".join(f'<sheet name="A{i}" sheetId="{i + 1}" r:id="rId1"/>' for i in range(100_000))
    workbook = WORKBOOK.replace(b'<sheet name="Inscritos" sheetId="1" r:id="rId1"/>', tabs.encode())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", workbook)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/worksheets/sheet1.xml", sheet_xml([]))
    return buffer.getvalue()


def zip_bomb(megabytes: int) -> Callable[[], bytes]:
    """A sheet that deflates ~1000:1: ``megabytes`` of empty styled cells in one row."""

    def build() -> bytes:
        def parts() -> Iterator[bytes]:
            yield SHEET_HEAD + b"<sheetData>" + header_row().encode() + b'<row r="2">'
            block = b'<c s="1"/>' * (MB // 10)
            for _ in range(megabytes):
                yield block
            yield b"</row></sheetData></worksheet>"

        return xlsx_bytes(parts())

    return build


def csv_huge_line() -> bytes:
    """A 5 MB CSV whose second line is one 5 MB field (the csv module stops at 131,072 characters)."""
    return (";".join(HEADER) + "\r\n1001;" + "A" * (5 * MB - 100) + "\r\n").encode()


def csv_many_cells() -> bytes:
    """A 5 MB CSV line of 1.7 million two-character cells."""
    return (";".join(HEADER) + "\r\n" + "ab;" * ((5 * MB - 200) // 3) + "\r\n").encode()


def csv_rows_past_the_limit() -> bytes:
    """A 5 MB CSV of 1.2 million short rows."""
    return (";".join(HEADER) + "\r\n" + "1;x\r\n" * ((5 * MB - 200) // 5)).encode()


CRAFTED: dict[str, tuple[str, Callable[[], bytes]]] = {
    "organiser-xlsx-20000": ("xlsx", organiser_xlsx),
    "organiser-csv-20000": ("csv", organiser_csv),
    "xfd-20000-rows": ("xlsx", xfd_rows),
    "xfd-styled-empty": ("xlsx", xfd_empty_styled_rows),
    "shared-string-200mb": ("xlsx", huge_shared_string),
    "shared-string-7mb-runs": ("xlsx", long_shared_string_in_runs),
    "columns-200x2000": ("xlsx", many_columns(2_000)),
    "columns-200x8000": ("xlsx", many_columns(8_000)),
    "long-string-everywhere": ("xlsx", long_shared_string_everywhere),
    "xlsx-rows-past-limit": ("xlsx", xlsx_rows_past_the_limit),
    "nesting-bomb": ("xlsx", nesting_bomb),
    "zip-many-members": ("xlsx", many_members),
    "many-tabs": ("xlsx", many_tabs),
    "zip-bomb-60mb": ("xlsx", zip_bomb(60)),
    "zip-bomb-1gb": ("xlsx", zip_bomb(1024)),
    "csv-huge-line": ("csv", csv_huge_line),
    "csv-many-cells": ("csv", csv_many_cells),
    "csv-rows-past-limit": ("csv", csv_rows_past_the_limit),
}


# Measuring ---------------------------------------------------------------------------------------------


def _maxrss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def child(path: Path, trace: bool, database: Path | None) -> None:
    """Read ``path`` as the web wizard does and print one JSON line of figures; with ``database`` (a
    migrated SQLite file, copied), also preview the table for a contest, as the preview step does."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if database is not None:
        copy = path.with_suffix(".sqlite3")
        shutil.copyfile(database, copy)
        os.environ["DATABASE_URL"] = f"sqlite:///{copy}"
    import django

    django.setup()
    import openpyxl.styles.numbers  # noqa: F401  (imported by the reader: its cost is not the file's)

    from candidates.services.imports import (
        WEB_IMPORT_MAX_ROWS,
        ImportFileError,
        load_table,
        parse_upload,
        preview,
        save_table,
    )
    from candidates.services.imports.mapping import suggest
    from tests.builders import make_example_contest

    baseline = _maxrss_mb()
    if trace:
        import tracemalloc

        tracemalloc.start()
    started = time.perf_counter()
    outcome, detail = "aceito", ""
    data = path.read_bytes()  # the upload, as the view reads it (at most 5 MB through the web form)
    try:
        table = parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS, filename=path.name)
        del data
        with tempfile.TemporaryDirectory() as directory:
            kept = Path(directory) / "table"
            with open(kept, "wb") as handle:
                save_table(table, handle)  # the upload step keeps the table...
            rows, problems = table.row_count, len(table.problems)
            del table
            with open(kept, "rb") as stream:
                table = load_table(stream)  # ...and the mapping, preview and commit steps load it
            suggest(table.headers)
        if database is not None:
            result = preview(make_example_contest(), table, None, today=datetime.date(2026, 6, 1))
            problems = len(result.problems)
        detail = f"{rows} linhas, {problems} problemas"
        if problems:
            outcome = "problemas"
            detail += f": {result.problems[0] if database is not None else table.problems[0]}"
    except ImportFileError as error:
        outcome, detail = "recusado", str(error)
    seconds = time.perf_counter() - started
    traced = None
    if trace:
        traced = tracemalloc.get_traced_memory()[1] / MB
    print(
        json.dumps(
            {
                "outcome": outcome,
                "detail": detail,
                "seconds": seconds,
                "maxrss_mb": _maxrss_mb(),
                "baseline_mb": baseline,
                "traced_mb": traced,
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(CRAFTED), help="Só estes arquivos.")
    parser.add_argument("--trace", action="store_true", help="Também o pico do tracemalloc (mais lento).")
    parser.add_argument(
        "--no-preview",
        action="store_true",
        help="Só a leitura, sem a prévia (que precisa de um banco SQLite).",
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--database", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.trace, args.database)
        return 0
    names = args.only or list(CRAFTED)
    print(
        f"{'arquivo':<26} {'tamanho':>10} {'resultado':<10} {'tempo':>7} {'pico RSS':>9} {'traced':>8}  detalhe"
    )
    worst = 0.0
    with tempfile.TemporaryDirectory() as directory:
        database = None
        if not args.no_preview:
            database = Path(directory) / "template.sqlite3"
            environment = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
            migrate = [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput"]
            subprocess.run(migrate, env=environment, capture_output=True, check=True)
        for name in names:
            extension, build = CRAFTED[name]
            path = Path(directory) / f"{name}.{extension}"
            path.write_bytes(build())
            size = path.stat().st_size
            assert size <= UPLOAD_MAX_BYTES, f"{name}: {size} bytes, more than the web form takes"
            command = [sys.executable, __file__, "--child", str(path)] + (["--trace"] if args.trace else [])
            command += ["--database", str(database)] if database else []
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            path.unlink()
            if done.returncode != 0:
                print(f"{name:<26} {size / 1024:>8.0f} KB ERRO\n{done.stderr[-2000:]}")
                return 1
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            worst = max(worst, figures["maxrss_mb"])
            traced = f"{figures['traced_mb']:.0f} MB" if figures["traced_mb"] is not None else "—"
            print(
                f"{name:<26} {size / 1024:>8.0f} KB {figures['outcome']:<10} {figures['seconds']:>6.2f}s "
                f"{figures['maxrss_mb']:>6.0f} MB {traced:>8}  {figures['detail'][:90]}"
            )
    print(f"\nBase do processo (Python + Django, antes de ler): ~{figures['baseline_mb']:.0f} MB.")
    verdict = "OK" if worst <= LIMIT_MB else "ACIMA DO LIMITE"
    print(f"Pior pico de memória: {worst:.0f} MB (limite {LIMIT_MB} MB): {verdict}.")
    return 0 if worst <= LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())
