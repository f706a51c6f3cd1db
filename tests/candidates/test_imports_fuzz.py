"""The import parser on generated files: random bytes, CSV grids of odd cells, small XLSX of
every cell type. Whatever the file, reading it either refuses it (``ImportFileError``) or gives a table;
the preview of that table returns its problems; the commit writes or raises ``ImportRejected``. Nothing
else may come out: no other exception is "the importer's own reported problem".
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.crafted_uploads import escape, shared_strings_xml, sheet_xml, xlsx_bytes
from candidates.services.imports import ImportFileError, ImportRejected, commit, parse_upload, preview
from tests import builders

AFTER_CLOSE = datetime.date(2026, 6, 1)
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HEADERS = [
    "Inscrição",
    "Nome",
    "Nome Social",
    "CPF",
    "Data de Nascimento",
    "Cargo",
    "Cota Negros",
    "Categoria",
    "PcD",
    "Reserva preferida",
    "Nota Objetiva",
    "Nota Prática de um nome de fase novo",
    "Nota Final",
    "Ausente",
    "E-mail",
    "Telefone",
    "Data da inscrição",
    "Data da autodeclaração",
    "Jurado",
]
ODD_CELLS = [
    "",
    " ",
    "1001",
    "1002",
    "1001.0",
    "1e100",
    "1E+400",
    "-1",
    "NaN",
    "sNaN",
    "Infinity",
    "²",
    "١٢٣",
    "9" * 40,
    "0,005",
    "1.234,56",
    "AUSENTE",
    "S",
    "N",
    "X",
    "Parda",
    "preta",
    "indígena",
    "racial",
    "PcD",
    "ALEG",
    "TLEG",
    "Assistente Legislativo",
    "036.881.690-77",
    "096.807.849-40",
    "3688169077",
    "3.68817E+09",
    "000.000.000-00",
    "13/05/2004",
    "31/12/9999",
    "01/01/0001",
    "29/02/2023",
    "2004-05-13",
    "38120",
    "99999999",
    "a@b.c",
    "=1+1",
    "\ufffd",
    '"',
    ";",
    "\n",
]


@pytest.fixture
def contest(db):
    contest = builders.make_example_contest()
    builders.make_phase(contest, name="Nota Objetiva", max_score=Decimal(100), pass_mark=Decimal(50))
    return contest


class _Undo(Exception):
    pass


def import_survives(contest, data: bytes) -> None:
    """Read, preview and commit ``data``; only the importer's own refusals may be raised."""
    try:
        table = parse_upload(data, max_rows=200)
    except ImportFileError as error:
        assert str(error)
        return
    result = preview(contest, table, None, today=AFTER_CLOSE)
    assert all(str(problem) for problem in result.problems)
    try:
        with transaction.atomic():
            commit(contest, table, None, None, today=AFTER_CLOSE)
            raise _Undo  # the next example starts from the same data
    except (ImportRejected, _Undo):
        pass


cells = st.one_of(st.sampled_from(ODD_CELLS), st.text(max_size=12))


@st.composite
def csv_files(draw) -> bytes:
    headers = draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=8, unique=True))
    if "Inscrição" not in headers and draw(st.booleans()):
        headers.insert(0, "Inscrição")
    rows = draw(st.lists(st.lists(cells, min_size=0, max_size=len(headers) + 2), max_size=6))
    delimiter = draw(st.sampled_from([";", ",", "\t", "|"]))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=draw(st.sampled_from(["\r\n", "\n", "\r"])))
    writer.writerow(headers)
    writer.writerows(rows)
    text = out.getvalue()
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
    data = text.encode(encoding, errors="replace")
    if draw(st.booleans()):  # a stray byte somewhere
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=2)) + data[at:]
    return data


CELL_TYPES = [None, "n", "s", "inlineStr", "str", "b", "e", "d", "x"]
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """``value`` as XML text: without the characters XML cannot hold (a file with them is refused whole)."""
    return escape(NOT_XML.sub("", value))


@st.composite
def xlsx_files(draw) -> bytes:
    shared = draw(st.lists(cells, max_size=5))
    rows = []
    line = 0
    for _ in range(draw(st.integers(1, 5))):
        line = draw(st.sampled_from([line + 1, line + 2, line, max(line - 1, 1)]))
        row_cells = []
        for column in range(draw(st.integers(0, 8))):
            kind = draw(st.sampled_from(CELL_TYPES))
            usual = f"{'ABCDEFGHIJ'[column]}{line}"
            ref = draw(st.sampled_from([usual] * 12 + ["", "ZZZZ1", "A0", f"$B${line}", f"GS{line}"]))
            value = draw(
                st.one_of(
                    cells,
                    st.integers(-5, 12).map(str),
                    st.floats(allow_nan=True, allow_infinity=True).map(repr),
                )
            )
            style = draw(st.sampled_from(["", ' s="1"', ' s="99"', ' s="x"']))
            attributes = (f' r="{ref}"' if ref else "") + (f' t="{kind}"' if kind else "") + style
            if kind == "inlineStr":
                row_cells.append(f"<c{attributes}><is><t>{xml_text(value)}</t></is></c>")
            else:
                row_cells.append(f"<c{attributes}><v>{xml_text(value)}</v></c>")
        rows.append(f'<row r="{line}">' + "".join(row_cells) + "</row>")
    header = '<row r="1">' + "".join(
        f'<c r="{"ABCDEFGHIJ"[i]}1" t="inlineStr"><is><t>{xml_text(h)}</t></is></c>'
        for i, h in enumerate(draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=8, unique=True)))
    )
    rows.insert(0, header + "</row>")
    return xlsx_bytes(
        sheet_xml(rows),
        shared_strings=shared_strings_xml(NOT_XML.sub("", s) for s in shared)
        if draw(st.booleans())
        else None,
    )


@FUZZ
@given(data=st.one_of(st.binary(max_size=600), st.binary(max_size=600).map(lambda b: b"PK\x03\x04" + b)))
def test_random_bytes_are_read_or_refused(contest, data):
    import_survives(contest, data)


@FUZZ
@given(data=csv_files())
def test_csv_grids_of_odd_cells_are_read_or_refused(contest, data):
    import_survives(contest, data)


@FUZZ
@given(data=xlsx_files())
def test_small_xlsx_of_every_cell_type_are_read_or_refused(contest, data):
    import_survives(contest, data)


@FUZZ
@given(data=xlsx_files(), cut=st.integers(0, 4000))
def test_truncated_xlsx_are_refused(contest, data, cut):
    import_survives(contest, data[: max(cut, 5)])
