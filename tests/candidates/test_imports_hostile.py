"""Hostile import files: each crafted file is refused with a clear Portuguese
reason, either at the upload or as a line of the problem report naming the line and the column, and
leaves the data as it was; no file can make the reader hold more than it should.

Plain functions with the ``db`` fixture; every file is built in the test (``bench.crafted_uploads``
holds the XLSX builder the benchmark uses too).
"""

from __future__ import annotations

import datetime
import io
import time
import tracemalloc
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from bench.crafted_uploads import (
    SHEET_HEAD,
    header_row,
    inline,
    shared_strings_xml,
    sheet_xml,
    xlsx_bytes,
    zip_bomb,
)
from candidates.models import Phase, PhaseResult, Registration
from candidates.services.imports import (
    WEB_IMPORT_MAX_ROWS,
    ImportFileError,
    ImportRejected,
    commit,
    parse_upload,
    preview,
)
from tests import builders

AFTER_CLOSE = datetime.date(2026, 6, 1)
HEADER = "Inscrição;Nome;CPF;Cargo;Cota Negros;PcD;Nota Objetiva"
ROWS = [
    "1001;Carla Rocha Pereira;036.881.690-77;ALEG;S;N;81,52",
    "1002;Wellington Gomes dos Santos;096.807.849-40;ALEG;N;N;39,03",
    "1003;Ana Moreira Ferreira;659.164.440-79;TLEG;S;N;91,15",
]
BASE_CSV = ("\r\n".join([HEADER, *ROWS]) + "\r\n").encode("utf-8")


@pytest.fixture
def contest(db):
    contest = builders.make_example_contest()
    builders.make_phase(contest, name="Nota Objetiva", max_score=Decimal(100), pass_mark=Decimal(50))
    return contest


def csv_with_cell(row: int, column: int, value: str, *, encoding: str = "utf-8") -> bytes:
    """The base file with one cell replaced (row and column from 0, the header excluded)."""
    rows = [r.split(";") for r in ROWS]
    rows[row][column] = value
    return ("\r\n".join([HEADER, *(";".join(r) for r in rows)]) + "\r\n").encode(encoding)


def xlsx_rows(*cells_of_row2: str, shared: tuple[str, ...] | None = ("Carla Rocha Pereira",)) -> bytes:
    """An XLSX with the base file's header, row 2 made of the crafted cells given, and rows 3–4 sound."""
    rows = [header_row()]
    rows.append('<row r="2">' + "".join(cells_of_row2) + "</row>")
    for line, row in enumerate(ROWS[1:], start=3):
        rows.append(
            f'<row r="{line}">'
            + "".join(inline(f"{'ABCDEFG'[i]}{line}", value) for i, value in enumerate(row.split(";")))
            + "</row>"
        )
    return xlsx_bytes(
        sheet_xml(rows), shared_strings=shared_strings_xml(shared) if shared is not None else None
    )


SOUND_ROW2 = [inline(f"{'ABCDEFG'[i]}2", value) for i, value in enumerate(ROWS[0].split(";"))]


def row2_with(column: int, crafted: str) -> list[str]:
    cells = list(SOUND_ROW2)
    cells[column] = crafted
    return cells


def utf16_with_lone_surrogate() -> bytes:
    data = BASE_CSV.decode("utf-8").encode("utf-16")  # with its BOM
    name = "Carla".encode("utf-16-le")
    return data.replace(name, name + b"\x00\xd8", 1)  # U+D800 alone is no character


# (name, file, the problem expected in the report)
CRAFTED = [
    (
        "score 1e100",
        csv_with_cell(0, 6, "1e100"),
        "Linha 2, coluna Nota Objetiva: Nota “1e100” grande demais",
    ),
    (
        "score 1E+400",
        csv_with_cell(0, 6, "1E+400"),
        "Linha 2, coluna Nota Objetiva: Nota “1E+400” grande demais",
    ),
    (
        "UTF-16 with a stray byte at the end",
        BASE_CSV.decode("utf-8").encode("utf-16") + b"\x41",
        "Linha 5, coluna Inscrição: Bytes inválidos para a codificação UTF-16",
    ),
    (
        "UTF-16 with a lone surrogate",
        utf16_with_lone_surrogate(),
        "Linha 2, coluna Nome: Bytes inválidos para a codificação UTF-16",
    ),
    (
        "CSV cell beyond the csv module's limit",
        csv_with_cell(0, 1, "A" * 200_000),
        "Linha 2, coluna Nome: Célula com mais de 32.767 caracteres",
    ),
    (
        "CSV cell beyond the cell cap",
        csv_with_cell(1, 1, "B" * 40_000),
        "Linha 3, coluna Nome: Célula com mais de 32.767 caracteres",
    ),
    (
        "text in a numeric XLSX cell",
        xlsx_rows(*row2_with(6, '<c r="G2" t="n"><v>abc</v></c>')),
        "Linha 2, coluna Nota Objetiva: A planilha marca a célula como número, mas ela contém “abc”",
    ),
    (
        "text in an XLSX cell of no type",
        xlsx_rows(*row2_with(6, '<c r="G2"><v>1e99999</v></c>')),
        "Linha 2, coluna Nota Objetiva: A planilha marca a célula como número, mas ela contém “1e99999”",
    ),
    (
        "shared string out of range",
        xlsx_rows(*row2_with(1, '<c r="B2" t="s"><v>7</v></c>'), shared=["Carla Rocha Pereira"]),
        "Linha 2, coluna Nome: A célula aponta para o texto compartilhado nº 7, que a planilha não tem",
    ),
    (
        "shared string without a shared-strings part",
        xlsx_rows(*row2_with(1, '<c r="B2" t="s"><v>0</v></c>'), shared=None),
        "Linha 2, coluna Nome: A célula aponta para o texto compartilhado nº 0, que a planilha não tem",
    ),
    (
        "a header that makes a phase name over 100 characters",
        BASE_CSV.replace(b"Nota Objetiva", ("Nota " + "Objetiva e discursiva " * 5).encode()),
        "Linha 1, coluna Nota "
        + "Objetiva e discursiva " * 4
        + "Objetiva e discursiva: Nome de fase com mais "
        "de 100 caracteres",
    ),
]
IDS = [name for name, _, _ in CRAFTED]


def state(contest) -> list[tuple]:
    return sorted(
        Registration.objects.filter(contest=contest).values_list(
            "number", "candidate__full_name", "racial_reserve", "phase_results__score"
        )
    )


@pytest.mark.parametrize(("name", "data", "expected"), CRAFTED, ids=IDS)
def test_defect5_crafted_file_is_a_line_of_the_report_and_changes_nothing(contest, name, data, expected):
    commit(contest, parse_upload(BASE_CSV), None, None, today=AFTER_CLOSE)
    before, phases = state(contest), list(Phase.objects.values_list("name", flat=True))

    table = parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS)
    report = [str(problem) for problem in preview(contest, table, None, today=AFTER_CLOSE).problems]
    assert any(line.startswith(expected) for line in report), report
    with pytest.raises(ImportRejected):
        commit(contest, table, None, None, today=AFTER_CLOSE)
    assert state(contest) == before
    assert list(Phase.objects.values_list("name", flat=True)) == phases


# The web wizard: no crafted file gives a 500 -----------------------------------------------------------


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def url(name, contest):
    return reverse(f"candidates:{name}", args=[contest.slug])


@pytest.mark.parametrize(("name", "data", "expected"), CRAFTED, ids=IDS)
def test_defect5_web_wizard_shows_the_problem_and_imports_nothing(
    client_for, contest, media, name, data, expected
):
    client = client_for("clerk")
    filename = "crafted.xlsx" if data[:2] == b"PK" else "crafted.csv"
    response = client.post(url("import_upload", contest), {"file": SimpleUploadedFile(filename, data)})
    assert response.status_code == 302, response.context["form"].errors
    mapping = client.get(url("import_mapping", contest))
    assert mapping.status_code == 200
    form = mapping.context["form"]
    posted = {field: form.fields[field].initial or "" for field in form.fields}
    assert client.post(url("import_mapping", contest), posted).status_code == 302
    response = client.get(url("import_preview", contest))
    assert response.status_code == 200
    assert any(str(p).startswith(expected) for p in response.context["result"].problems)
    response = client.post(url("import_commit", contest), follow=True)
    assert response.status_code == 200
    assert "Nada foi importado" in response.content.decode()
    assert not Registration.objects.exists() and not PhaseResult.objects.exists()


# Defect 6: small uploads that expand --------------------------------------------------------------------


def peak_of(read) -> tuple[BaseException | None, float]:
    """What ``read()`` raised (or None) and its peak traced memory in MB."""
    tracemalloc.start()
    try:
        read()
    except ImportFileError as exc:
        return exc, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return None, peak


def huge_string_part(megabytes: int) -> Iterator[bytes]:
    yield b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>'
    for _ in range(megabytes):
        yield b"A" * 2**20
    yield b"</t></si></sst>"


def test_defect6_twenty_thousand_rows_with_a_cell_in_column_xfd_refused_at_the_first(db):
    rows = [header_row()] + [f'<row r="{i}">{inline(f"XFD{i}", "x")}</row>' for i in range(2, 20_002)]
    data = xlsx_bytes(sheet_xml(rows))
    assert len(data) < 150_000
    started = time.monotonic()
    error, peak = peak_of(lambda: parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS))
    assert "A linha 2 tem dados na 16.384ª coluna; a importação aceita até 200 colunas" in str(error)
    assert peak < 32 and time.monotonic() - started < 5


def test_defect6_one_200_mb_shared_string_refused_before_it_is_read(db):
    rows = [header_row(), '<row r="2"><c r="A2" t="s"><v>0</v></c></row>']
    data = xlsx_bytes(sheet_xml(rows), shared_strings=huge_string_part(200))
    assert len(data) < 300_000
    error, peak = peak_of(lambda: parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS))
    assert "se expande, descompactada, para mais de 64 MB (parte xl/sharedStrings.xml)" in str(error)
    assert peak < 32


def test_defect6_a_long_text_without_markup_is_refused_while_reading(db):
    rows = [header_row(), '<row r="2"><c r="A2" t="s"><v>0</v></c></row>']
    data = xlsx_bytes(sheet_xml(rows), shared_strings=huge_string_part(6))  # under the size and ratio limits
    error, peak = peak_of(lambda: parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS))
    assert "um trecho de mais de 1 MB sem marcação" in str(error)
    assert peak < 32


def test_defect6_a_shared_string_over_the_cell_limit_in_pieces_is_a_problem_of_its_cells(contest):
    pieces = "".join(f"<r><t>{'A' * 1000}</t></r>" for _ in range(40))  # 40,000 characters in runs
    shared = shared_strings_xml(["Carla Rocha Pereira"]).replace(
        b"</sst>", f"<si>{pieces}</si></sst>".encode()
    )
    rows = [header_row(), '<row r="2">' + "".join(row2_with(1, '<c r="B2" t="s"><v>1</v></c>')) + "</row>"]
    table = parse_upload(xlsx_bytes(sheet_xml(rows), shared_strings=shared), max_rows=WEB_IMPORT_MAX_ROWS)
    assert [str(p) for p in table.problems] == [
        "Linha 2, coluna Nome: Célula com mais de 32.767 caracteres (o limite de uma célula do Excel): o "
        "conteúdo não foi lido."
    ]


def test_defect6_rows_past_the_limit_refused_while_reading(db):
    rows = [header_row()] + [
        f'<row r="{i}">{inline(f"A{i}", str(i))}{inline(f"B{i}", "Nome")}</row>' for i in range(2, 40_000)
    ]
    data = xlsx_bytes(sheet_xml(rows))
    error, peak = peak_of(lambda: parse_upload(data, max_rows=1_000))
    assert "O arquivo tem mais de 1.000 linhas de dados; a importação pela web aceita até 1.000" in str(error)
    assert peak < 16  # 1,020 rows kept, not 40,000


def test_defect6_a_declared_dimension_past_the_limit_refused_before_the_rows(db):
    data = xlsx_bytes(sheet_xml([header_row()], dimension="A1:G1048576"))
    with pytest.raises(
        ImportFileError, match=r"A planilha declara 1\.048\.576 linhas \(dimensão A1:G1048576\)"
    ):
        parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS)
    assert parse_upload(data).headers == HEADER.split(";")  # the command has no row limit


def test_defect6_a_long_shared_string_in_every_cell_passes_the_table_budget(db):
    shared = shared_strings_xml(["Z" * 30_000])
    rows = [header_row()] + [
        f'<row r="{line}">'
        + "".join(f'<c r="{c}{line}" t="s"><v>0</v></c>' for c in "ABCDEFGHIJKLMNOPQRST")
        + "</row>"
        for line in range(2, 400)
    ]
    data = xlsx_bytes(sheet_xml(rows), shared_strings=shared)
    # Shared in the file, but each cell would be a copy in the table kept between the wizard's steps.
    with pytest.raises(ImportFileError, match="mais de 96 MB: grande demais para a importação pela web"):
        parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS)
    assert parse_upload(data).row_count == 398  # the command's memory is the operator's


@pytest.mark.parametrize(
    "markup",
    [b'<!DOCTYPE x [<!ENTITY a "aaaa">]>', b"<!-- a comment -->", b"<![CDATA[x]]>"],
    ids=["DTD", "comment", "CDATA"],
)
def test_defect6_markup_no_spreadsheet_writes_is_refused(db, markup):
    sheet = sheet_xml([header_row()]).replace(b"<sheetData>", markup + b"<sheetData>")
    with pytest.raises(ImportFileError, match="marcação que nenhuma planilha usa"):
        parse_upload(xlsx_bytes(sheet), max_rows=WEB_IMPORT_MAX_ROWS)


def test_defect6_csv_data_beyond_the_column_limit_refused(db):
    data = BASE_CSV + ("1004" + ";" * 300 + "x\r\n").encode()
    with pytest.raises(ImportFileError, match="A linha 5 tem dados na 301ª coluna"):
        parse_upload(data)
    wide_but_empty = BASE_CSV.replace(b"\r\n", b";" * 300 + b"\r\n")
    assert parse_upload(wide_but_empty).headers == HEADER.split(";")


def test_defect6_the_wizard_reads_the_upload_once(client_for, contest, media, monkeypatch):
    from candidates.views import imports as views

    client = client_for("clerk")
    long_name = "Carla " + "R" * 5_000
    data = csv_with_cell(0, 1, long_name)
    response = client.post(url("import_upload", contest), {"file": SimpleUploadedFile("a.csv", data)})
    assert response.status_code == 302

    def no_second_parse(*args, **kwargs):
        raise AssertionError("the upload was parsed again")

    monkeypatch.setattr(views, "parse_upload", no_second_parse)
    page = client.get(url("import_mapping", contest)).content.decode()
    assert long_name not in page and "Carla RRRR" in page  # samples are cut short
    form = client.get(url("import_mapping", contest)).context["form"]
    posted = {field: form.fields[field].initial or "" for field in form.fields}
    assert client.post(url("import_mapping", contest), posted).status_code == 302
    result = client.get(url("import_preview", contest)).context["result"]
    assert str(result.problems[0]).startswith("Linha 2, coluna Nome: Nome com mais de 200 caracteres")


def test_defect6_a_zip_bomb_is_refused_by_its_ratio_before_it_is_read(db):
    data = zip_bomb(60)()  # 60 MB of empty cells in 121 KB: under the size limit, but no sheet packs so
    error, peak = peak_of(lambda: parse_upload(data, max_rows=WEB_IMPORT_MAX_ROWS))
    assert "se expande 513 vezes ao ser descompactada (parte xl/worksheets/sheet1.xml)" in str(error)
    assert peak < 8


def test_defect5_the_command_reports_the_crafted_cell_and_imports_nothing(contest, tmp_path):
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(csv_with_cell(0, 6, "1E+400"))
    out = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_registrations", contest.slug, str(path), "--commit", stdout=out)
    assert refused.value.returncode == 1
    assert "Linha 2, coluna Nota Objetiva: Nota “1E+400” grande demais (até 999999,99)." in out.getvalue()
    assert not Registration.objects.exists()


def test_defect5_a_cell_the_reader_refused_does_not_hide_the_other_rows_problems(contest):
    rows = [r.split(";") for r in ROWS]
    rows[0][1] = "A" * 200_000
    rows[2][2] = "659.164.440-70"
    data = ("\r\n".join([HEADER, *(";".join(r) for r in rows)]) + "\r\n").encode()
    report = [str(p) for p in preview(contest, parse_upload(data), None, today=AFTER_CLOSE).problems]
    assert report[0].startswith("Linha 2, coluna Nome: Célula com mais de 32.767 caracteres")
    assert any(line.startswith("Linha 4, coluna CPF: CPF 659.164.440-70 inválido") for line in report), report


def test_defect6_elements_nested_without_end_are_refused_at_a_sane_depth(db):
    sheet = SHEET_HEAD + b"<sheetData>" + b"<a>" * (2 * 2**20)  # expat keeps every open element
    error, peak = peak_of(lambda: parse_upload(xlsx_bytes(sheet), max_rows=WEB_IMPORT_MAX_ROWS))
    assert "elementos aninhados a mais de 64 níveis" in str(error)
    assert peak < 8
