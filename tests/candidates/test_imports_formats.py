"""The same registrations in the shapes organisers deliver: encodings, separators, decimal point or comma,
and XLSX with Excel date serials, CPFs stored as numbers and floats everywhere. Plain functions, ``db``."""

from __future__ import annotations

import datetime
import gc
import io
from decimal import Decimal

import pytest
from openpyxl import Workbook

from candidates.models import PhaseResult, Registration
from candidates.services.imports import WEB_IMPORT_MAX_ROWS, ImportFileError, commit, parse_upload
from candidates.services.imports.files import paused_gc
from tests import builders

EXAMPLE = builders.EXAMPLE_CSV
AFTER_CLOSE = datetime.date(2026, 6, 1)


@pytest.fixture
def contest(db):
    contest = builders.make_example_contest()
    builders.make_phase(contest, name="Nota Objetiva", max_score=Decimal(100), pass_mark=Decimal(50))
    builders.make_phase(contest, name="Nota Discursiva", max_score=Decimal(10))
    return contest


def imported(contest) -> list[tuple]:
    """What the import left, in a comparable form."""
    rows = []
    for registration in Registration.objects.filter(contest=contest).select_related("candidate", "position"):
        candidate = registration.candidate
        scores = {
            r.phase.name: ("ausente" if r.absent else r.score)
            for r in registration.phase_results.select_related("phase")
        }
        rows.append(
            (
                registration.number,
                candidate.full_name,
                candidate.social_name,
                candidate.cpf,
                candidate.birth_date,
                registration.position.code,
                registration.racial_reserve,
                registration.pcd_reserve,
                registration.absent,
                tuple(sorted(scores.items())),
            )
        )
    return sorted(rows)


def example_rows() -> list[list[str]]:
    text = EXAMPLE.read_bytes().decode("cp1252")
    return [line.split(";") for line in text.splitlines()]


def as_csv(rows: list[list[str]], *, sep: str, decimal: str, encoding: str, bom: bool = False) -> bytes:
    import csv

    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    for i, row in enumerate(rows):
        writer.writerow(row if i == 0 else [cell.replace(",", decimal) for cell in row])
    return (("\ufeff" if bom else "") + out.getvalue()).encode(encoding)


def load(contest, data: bytes, filename: str = "arquivo") -> list[tuple]:
    commit(contest, parse_upload(data, filename=filename), None, None, today=AFTER_CLOSE)
    return imported(contest)


@pytest.fixture
def reference(db) -> list[tuple]:
    contest = builders.make_example_contest()
    builders.make_phase(contest, name="Nota Objetiva", max_score=Decimal(100))
    builders.make_phase(contest, name="Nota Discursiva", max_score=Decimal(10))
    result = load(contest, EXAMPLE.read_bytes())
    Registration.objects.filter(contest=contest).delete()  # free the numbers and pairs for the next import
    return result


@pytest.mark.parametrize(
    ("sep", "decimal", "encoding", "bom"),
    [
        (",", ".", "utf-8", True),  # UTF-8 with BOM, comma separator, decimal point (quoted where needed)
        (",", ",", "utf-8", False),  # comma separator with decimal comma: the csv writer quotes the scores
        ("\t", ",", "utf-8", False),  # tab, UTF-8 without BOM
        (";", ".", "cp1252", False),  # Windows-1252 with decimal point
    ],
)
def test_csv_variants_import_the_same_as_the_example(contest, reference, sep, decimal, encoding, bom):
    data = as_csv(example_rows(), sep=sep, decimal=decimal, encoding=encoding, bom=bom)
    table = parse_upload(data)
    assert table.headers[0] == "Inscrição"
    assert table.row_count == 132
    assert load(contest, data) == reference


def test_lf_line_ends_and_a_title_above_the_header(contest, reference):
    text = EXAMPLE.read_bytes().decode("cp1252").replace("\r\n", "\n")
    data = ("CÂMARA MUNICIPAL – CONCURSO 1/2026\n\nRelação de inscritos e notas\n" + text).encode("utf-8")
    table = parse_upload(data)
    assert table.header_line == 4
    assert load(contest, data) == reference


def test_xlsx_with_serials_numbers_and_floats(contest):
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Inscritos"
    sheet.append(["Relação de inscritos"])  # a title row above the header
    sheet.append(["Nº Inscrição", "Nome", "Nome social", "CPF", "Nascimento", "Cargo", "Cota", "PcD",
                  "Nota Objetiva", "Nota Discursiva"])  # fmt: skip
    sheet.append(
        [1001.0, "Carla Rocha Pereira", None, 3688169077, 38120, "ALEG", "Sim", "Não", 81.5199999, 6.26]
    )
    birth = datetime.datetime(1958, 8, 20)  # noqa: DTZ001 (a spreadsheet date cell: naive, no time zone)
    sheet.append(["1002.0", "Wellington Gomes", None, "096.807.849-40", birth, "aleg",
                  "Não", "X", 39.03, None])  # fmt: skip
    sheet.append([1003, "Ana Moreira", "Ana M.", 65916444079, 32318.0, "Técnico Legislativo", "Parda", None,
                  91.15, "AUSENTE"])  # fmt: skip
    sheet.append([None] * 10)  # an empty row at the end is no row
    buffer = io.BytesIO()
    workbook.save(buffer)

    table = parse_upload(buffer.getvalue(), filename="inscritos.xlsx")
    assert (table.source, table.header_line, table.row_count) == ("XLSX (planilha “Inscritos”)", 2, 3)
    commit(contest, table, None, None, today=AFTER_CLOSE)

    first = Registration.objects.get(number="1001")
    assert first.candidate.cpf == "03688169077"  # the number lost its leading zero
    assert first.candidate.birth_date == datetime.date(2004, 5, 13)  # Excel serial 38120
    assert first.racial_reserve and not first.pcd_reserve
    assert PhaseResult.objects.get(registration=first, phase__name="Nota Objetiva").score == Decimal("81.52")
    second = Registration.objects.get(number="1002")
    assert second.candidate.birth_date == datetime.date(1958, 8, 20)
    assert (second.position.code, second.pcd_reserve) == ("ALEG", True)
    third = Registration.objects.get(number="1003")
    assert third.position.code == "TLEG"  # found by its title
    assert third.self_declaration.category == "parda"
    assert third.candidate.display_name == "Ana M."
    assert third.absent


def test_web_import_refuses_a_file_above_its_limit_saying_what_to_do():
    assert WEB_IMPORT_MAX_ROWS == 20_000
    with pytest.raises(ImportFileError, match=r"Divida-o em arquivos menores") as error:
        parse_upload(EXAMPLE, max_rows=100)
    assert "manage.py" not in str(error.value)  # no command-line advice on a clerk's screen
    assert parse_upload(EXAMPLE, max_rows=132).row_count == 132


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "vazio"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, ".xls"),
        (b"PK\x03\x04not really a zip", "XLSX"),
        (b"apenas uma coluna\nsem separador\n", "separador"),
    ],
)
def test_files_that_are_not_tables(data, message):
    with pytest.raises(ImportFileError, match=message):
        parse_upload(data)


def test_upload_object_and_path(tmp_path):
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(EXAMPLE.read_bytes())
    with path.open("rb") as handle:
        from_handle = parse_upload(handle)
    from_path = parse_upload(path)
    assert from_handle.rows == from_path.rows
    assert from_path.filename == "inscricoes.csv"
    assert from_path.source == "CSV (Windows-1252, separador ponto e vírgula)"


def test_the_streaming_xlsx_reader_reads_what_openpyxl_reads():
    """The reader that replaced openpyxl's gives the same values on a workbook of every
    type openpyxl writes: text (shared), int, float, bool, dates and date-times, a 1904 calendar, gaps."""
    from openpyxl import load_workbook

    from candidates.services.imports.limits import Budget, Limits
    from candidates.services.imports.xlsx import read_xlsx

    for epoch_1904 in (False, True):
        workbook = Workbook()
        workbook.epoch = datetime.datetime(1904, 1, 1) if epoch_1904 else workbook.epoch  # noqa: DTZ001  (openpyxl epochs are naive)
        sheet = workbook.active
        sheet.append(["Inscrição", "Nome", "Nascimento", "Nota", "PcD", "Hora"])
        sheet.append(
            [
                1001,
                "Ana <&> “Moreira”",
                datetime.date(1988, 6, 24),
                81.52,
                True,
                datetime.datetime(2026, 4, 1, 9, 30),  # noqa: DTZ001  (a spreadsheet cell, naive as openpyxl gives it)
            ]
        )
        sheet.append([1002.0, "  espaços  ", datetime.datetime(1958, 8, 20), -0.5, False, None])  # noqa: DTZ001  (a spreadsheet cell)
        sheet.append([])
        sheet.append([None, None, None, None, None, "só a última"])
        sheet["H9"] = 12345678901
        buffer = io.BytesIO()
        workbook.save(buffer)

        expected = []
        book = load_workbook(io.BytesIO(buffer.getvalue()), read_only=True, data_only=True)
        for line, values in enumerate(book.active.iter_rows(values_only=True), start=1):
            values = list(values)
            while values and values[-1] is None:
                values.pop()
            if values:
                expected.append((line, values))
        rows, problems, title = read_xlsx(buffer.getvalue(), limits=Limits(), budget=Budget(Limits()))
        assert (rows, problems, title) == (expected, [], "Sheet")


def _collections_during(action) -> list[int]:
    """The generations the cyclic collector walked while ``action`` ran."""
    walked: list[int] = []

    def record(phase, info):
        if phase == "start":
            walked.append(info["generation"])

    assert gc.isenabled() and not gc.get_freeze_count()
    gc.collect()
    gc.callbacks.append(record)
    try:
        action()
    finally:
        gc.callbacks.remove(record)
    return walked


def test_the_rows_kept_through_a_pause_of_the_collector_are_not_walked_when_it_ends():
    """``paused_gc`` hands what it kept to the oldest generation: the allocations that follow do not start
    a collection of the 50,000 lists made meanwhile (before, the first one did)."""
    kept = []

    def read():
        with paused_gc():
            kept.extend([] for _ in range(50_000))
        kept.extend([] for _ in range(100))  # fewer than a young collection's threshold

    assert _collections_during(read) == []
    assert gc.is_tracked(kept[0]) and len(kept) == 50_100


def test_a_pause_inside_a_pause_leaves_the_collector_paused():
    with paused_gc():
        with paused_gc():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_where_objects_are_frozen_does_not_thaw_them():
    kept = [[] for _ in range(1000)]
    gc.freeze()
    try:
        assert gc.get_freeze_count() >= len(kept)
        with paused_gc():
            [[] for _ in range(1000)]
        # Still frozen (thawed, the count would be 0; a frozen object freed meanwhile leaves it lower).
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()
