"""The web import of the organiser's file: upload, column mapping, preview, all-or-nothing commit."""

import io
import os
import time
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from candidates.models import ImportMapping, Phase, PhaseResult, Registration, SelfDeclaration
from candidates.services.imports import WEB_IMPORT_MAX_ROWS
from candidates.views.imports import SESSION_KEY
from contests.models import AccessLog
from tests.access import ROLES, assert_access
from tests.builders import EXAMPLE_CSV, make_example_contest

EXAMPLE = EXAMPLE_CSV
EXAMPLE_ROWS = 132
HEADERS = [
    "Inscrição",
    "Nome",
    "Nome Social",
    "CPF",
    "Data de Nascimento",
    "Cargo",
    "Cota Negros",
    "PcD",
    "Nota Objetiva",
    "Nota Discursiva",
]


@pytest.fixture(autouse=True)
def media(settings, uploads_folder):
    """The uploads' private storage is ``uploads_folder / "imports"`` (tests/conftest.py), media beside it."""
    settings.MEDIA_ROOT = uploads_folder / "media"
    return uploads_folder


@pytest.fixture
def contest(db):
    """Built like ``demo-santa-maria``: Santa Maria's policy, ALEG 2, TLEG 7, ANSI 13."""
    return make_example_contest()


def url(name, contest):
    return reverse(f"candidates:{name}", args=[contest.slug])


def example_bytes() -> bytes:
    return EXAMPLE.read_bytes()


def upload(client, contest, data: bytes, name="inscricoes.csv"):
    return client.post(url("import_upload", contest), {"file": SimpleUploadedFile(name, data)})


def stored_files(media: Path) -> list[Path]:
    directory = media / "imports"
    return sorted(directory.iterdir()) if directory.exists() else []


def mapping_post(form) -> dict:
    return {name: field.initial or "" for name, field in form.fields.items()}


def confirm_phases(client, contest):
    """Confirm the maximum and pass mark of the phases the file creates as shown (no import without it)."""
    form = client.get(url("import_preview", contest)).context["phases_form"]
    data = {name: "" if field.initial is None else str(field.initial) for name, field in form.fields.items()}
    assert client.post(url("import_preview", contest), data).status_code == 302


def run_to_preview(client, contest, data: bytes, name="inscricoes.csv"):
    """Upload, accept the suggested mapping, return the preview response."""
    assert upload(client, contest, data, name).status_code == 302
    form = client.get(url("import_mapping", contest)).context["form"]
    assert client.post(url("import_mapping", contest), mapping_post(form)).status_code == 302
    return client.get(url("import_preview", contest))


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_import_upload_access(client_for, contest, who):
    assert_access(client_for, who, url("import_upload", contest), {"clerk"})


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("step", ["import_mapping", "import_preview"])
def test_import_steps_access(client_for, contest, who, step):
    # With no file uploaded the clerk is sent back to the upload.
    assert_access(client_for, who, url(step, contest), {"clerk"}, ok=302)


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("step", ["import_commit", "import_cancel"])
def test_import_post_steps_access(client_for, contest, who, step):
    assert_access(client_for, who, url(step, contest), {"clerk"}, method="post", ok=302)


def test_commit_needs_post(client_for, contest):
    assert client_for("clerk").get(url("import_commit", contest)).status_code == 405


# The full flow with the example file -----------------------------------------------------------------


def test_full_import_of_the_example_file(client_for, cast, contest, media):
    client = client_for("clerk")
    response = upload(client, contest, example_bytes(), "inscricoes-notas-latin1.csv")
    assert response.status_code == 302
    assert response.url == url("import_mapping", contest)
    (stored,) = stored_files(media)
    state = client.session[SESSION_KEY][str(contest.pk)]
    assert stored.name == state["token"]  # a name the server made, not the client's
    assert state["filename"] == "inscricoes-notas-latin1.csv"

    # Mapping: suggested from the usual names, then saved for the contest.
    response = client.get(url("import_mapping", contest))
    form = response.context["form"]
    assert [form.fields[f"col_{i}"].label for i in range(len(HEADERS))] == HEADERS
    suggested = {form.fields[f"col_{i}"].label: form.fields[f"col_{i}"].initial for i in range(len(HEADERS))}
    assert suggested["Inscrição"] == "number"
    assert suggested["CPF"] == "cpf"
    assert suggested["Cota Negros"] == "racial"
    assert suggested["Nota Objetiva"] == "phase:Nota Objetiva"
    assert "036.881.690-77" in response.content.decode()  # sample values of each column
    response = client.post(url("import_mapping", contest), mapping_post(form))
    assert response.url == url("import_preview", contest)
    saved = ImportMapping.objects.get(contest=contest)
    assert saved.columns["PcD"] == "pcd"
    assert saved.history.first().history_user == cast["clerk"]

    # Preview: counts, first rows as understood, phases to create; nothing written.
    response = client.get(url("import_preview", contest))
    result = response.context["result"]
    assert result.ok
    assert (result.new, result.updated, result.unchanged) == (EXAMPLE_ROWS, 0, 0)
    assert result.per_position == {"ALEG": 12, "ANSI": 78, "TLEG": 42}
    page = response.content.decode()
    assert "Carla Rocha Pereira" in page and "036.881.690-77" in page
    assert [spec.name for spec in result.phases_to_create] == ["Nota Objetiva", "Nota Discursiva"]
    assert not Registration.objects.exists()
    # The rows as understood show the reserves chosen: a logged view.
    assert AccessLog.objects.filter(user=cast["clerk"], object_id=str(contest.pk)).exists()

    # Phases the file creates: no import until their maximum and pass mark are confirmed.
    assert response.context["unconfirmed_phases"] == ["Nota Objetiva", "Nota Discursiva"]
    assert "Confirme as fases novas antes de importar" in page
    assert "Pronto para importar" not in page
    assert url("import_commit", contest) not in page
    response = client.post(url("import_commit", contest), follow=True)
    assert "confirme antes a nota máxima e a nota mínima das fases novas" in response.content.decode()
    assert not Registration.objects.exists() and not Phase.objects.exists()
    assert stored_files(media) == [stored]

    # The pass mark of the objective exam (50 of 100) is given before importing.
    phases = {"max_0": "100", "min_0": "50", "max_1": "10", "min_1": ""}
    assert client.post(url("import_preview", contest), phases).status_code == 302
    response = client.get(url("import_preview", contest))
    result = response.context["result"]
    assert [(s.max_score, s.pass_mark) for s in result.phases_to_create] == [(100, 50), (10, None)]
    assert response.context["unconfirmed_phases"] == []
    assert "Pronto para importar" in response.content.decode()

    # Commit: everything at once, history naming the clerk, the file deleted.
    response = client.post(url("import_commit", contest), follow=True)
    assert response.redirect_chain[-1][0] == url("registration_list", contest)
    assert "Importação concluída: 132 inscrições criadas" in response.content.decode()
    registrations = Registration.objects.filter(contest=contest)
    assert registrations.count() == EXAMPLE_ROWS
    first = registrations.get(number="1001")
    assert first.candidate.cpf == "03688169077"
    assert first.racial_reserve
    assert SelfDeclaration.objects.filter(registration=first).exists()
    assert first.history.get().history_user == cast["clerk"]
    objective = Phase.objects.get(contest=contest, name="Nota Objetiva")
    assert (objective.max_score, objective.pass_mark) == (100, 50)
    assert PhaseResult.objects.get(registration=first, phase=objective).score == Decimal("81.52")
    assert stored_files(media) == []
    assert str(contest.pk) not in client.session.get(SESSION_KEY, {})

    # The same file again: nothing changes, and the screens say so.
    result = run_to_preview(client, contest, example_bytes(), "inscricoes-notas-latin1.csv").context["result"]
    assert result.ok and not result.has_changes
    assert result.unchanged == EXAMPLE_ROWS
    history_rows = Registration.history.count()
    response = client.post(url("import_commit", contest), follow=True)
    assert "Nada foi alterado" in response.content.decode()
    assert Registration.history.count() == history_rows
    assert stored_files(media) == []


def test_mapping_is_suggested_from_the_saved_one_next_time(client_for, contest):
    client = client_for("clerk")
    upload(client, contest, example_bytes())
    form = client.get(url("import_mapping", contest)).context["form"]
    data = mapping_post(form)
    data["col_2"] = ""  # "Nome Social": ignored by the clerk
    client.post(url("import_mapping", contest), data)
    assert ImportMapping.objects.get(contest=contest).columns["Nome Social"] == ""
    upload(client, contest, example_bytes())
    form = client.get(url("import_mapping", contest)).context["form"]
    assert form.fields["col_2"].initial == ""
    assert form.fields["col_0"].initial == "number"


def test_mapping_refuses_two_columns_for_one_field(client_for, contest):
    client = client_for("clerk")
    upload(client, contest, example_bytes())
    data = mapping_post(client.get(url("import_mapping", contest)).context["form"])
    data["col_2"] = "full_name"  # "Nome Social" as the name too
    response = client.post(url("import_mapping", contest), data)
    assert response.status_code == 200
    assert "Este campo já está na coluna “Nome”" in response.content.decode()
    assert not ImportMapping.objects.exists()


def test_xlsx_file(client_for, contest):
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Relação de inscritos"])  # a title row above the header
    sheet.append(["Nº de inscrição", "Nome do candidato", "CPF", "Cargo", "Cota", "PcD"])
    sheet.append([1001.0, "Carla Rocha Pereira", 3688169077, "ALEG", "S", "N"])
    sheet.append([1002.0, "Wellington Gomes dos Santos", "096.807.849-40", "TLEG", "N", "S"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    client = client_for("clerk")
    result = run_to_preview(client, contest, buffer.getvalue(), "inscritos.xlsx").context["result"]
    assert result.ok, result.problems
    assert result.new == 2
    client.post(url("import_commit", contest))
    registration = Registration.objects.get(number="1001")  # not "1001.0"
    assert registration.candidate.cpf == "03688169077"  # the leading zero restored


# Refusals --------------------------------------------------------------------------------------------


def test_a_bad_row_imports_nothing_and_is_named(client_for, contest):
    lines = example_bytes().split(b"\r\n")
    assert lines[4].startswith(b"1004;")
    lines[4] = lines[4].replace(b"263.733.416-90", b"263.733.416-91")  # line 5 of the file: bad check digit
    response = run_to_preview(client_for("clerk"), contest, b"\r\n".join(lines))
    result = response.context["result"]
    assert not result.ok
    [problem] = result.problems
    assert (problem.line, problem.column) == (5, "CPF")
    assert "dígitos verificadores" in problem.message
    page = response.content.decode()
    assert "nada será importado" in page
    assert "Linha 5" in page and "dígitos verificadores não conferem" in page
    assert "Importar</button>" not in page
    # Posting the commit anyway writes nothing.
    response = client_for("clerk").post(url("import_commit", contest), follow=True)
    assert "Nada foi importado" in response.content.decode()
    assert not Registration.objects.exists()
    assert not Phase.objects.exists()


def test_unknown_position_and_duplicate_inscription_are_reported(client_for, contest):
    lines = example_bytes().split(b"\r\n")
    lines[2] = lines[2].replace(b";ALEG;", b";XPTO;")
    lines[3] = b"1001" + lines[3][4:]
    result = run_to_preview(client_for("clerk"), contest, b"\r\n".join(lines)).context["result"]
    problems = {(p.line, p.column): p.message for p in result.problems}
    assert "XPTO" in problems[(3, "Cargo")]
    assert "repetida" in problems[(4, "Inscrição")]


def test_more_rows_than_the_web_accepts_are_refused(client_for, contest, media):
    header = ";".join(HEADERS).encode()
    row = b"%d;Nome;;036.881.690-77;01/01/1990;ALEG;N;N;50;5"
    data = b"\r\n".join([header] + [row % (100000 + i) for i in range(WEB_IMPORT_MAX_ROWS + 1)])
    response = upload(client_for("clerk"), contest, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "20.001 linhas de dados" in page and "até 20.000" in page
    assert "Divida-o em arquivos menores" in page
    assert "manage.py" not in page  # no command-line advice on a clerk's screen
    assert stored_files(media) == []


def test_file_over_5_mb_is_refused(client_for, contest, media):
    data = example_bytes() + b"\r\n" * (5 * 1024 * 1024)
    response = upload(client_for("clerk"), contest, data)
    assert response.status_code == 200
    assert "até 5 MB" in response.content.decode()
    assert stored_files(media) == []


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("relatorio.pdf", b"%PDF-1.4", "Envie um arquivo .csv ou .xlsx"),
        ("antigo.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "formato antigo do Excel"),
        ("vazio.csv", b"", "vazio"),
    ],
)
def test_unreadable_files_are_refused(client_for, contest, media, name, data, message):
    response = upload(client_for("clerk"), contest, data, name)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert stored_files(media) == []


# The stored file -------------------------------------------------------------------------------------


def test_cancel_deletes_the_file(client_for, contest, media):
    client = client_for("clerk")
    upload(client, contest, example_bytes())
    assert len(stored_files(media)) == 1
    response = client.post(url("import_cancel", contest))
    assert response.url == url("import_upload", contest)
    assert stored_files(media) == []
    assert client.get(url("import_preview", contest)).url == url("import_upload", contest)


def test_the_file_is_kept_private_outside_media(client_for, contest, media):
    upload(client_for("clerk"), contest, example_bytes())
    (stored,) = stored_files(media)
    assert stored.stat().st_mode & 0o777 == 0o600
    assert not (media / "media").exists()


def test_files_abandoned_for_a_day_are_swept_at_the_next_upload(client_for, contest, media):
    directory = media / "imports"
    directory.mkdir(parents=True)
    abandoned, recent = directory / ("a" * 32), directory / ("b" * 32)  # other clerks' imports
    for path in (abandoned, recent):
        path.write_bytes(b"x")
    two_days_ago = time.time() - 2 * 24 * 60 * 60
    os.utime(abandoned, (two_days_ago, two_days_ago))
    upload(client_for("clerk"), contest, example_bytes())
    remaining = {path.name for path in stored_files(media)}
    assert abandoned.name not in remaining
    assert recent.name in remaining
    assert len(remaining) == 2  # the recent one and the one just uploaded


def test_a_new_upload_replaces_the_previous_file(client_for, contest, media):
    client = client_for("clerk")
    upload(client, contest, example_bytes())
    first = stored_files(media)
    upload(client, contest, example_bytes())
    second = stored_files(media)
    assert len(second) == 1 and second != first


@pytest.mark.parametrize("token", ["../../etc/passwd", "/etc/passwd", "0" * 31, None])
def test_a_tampered_token_is_never_used_as_a_path(client_for, contest, media, token):
    client = client_for("clerk")
    session = client.session
    session[SESSION_KEY] = {
        str(contest.pk): {"token": token, "filename": "x.csv", "mapping": None, "phases": {}}
    }
    session.save()
    response = client.get(url("import_preview", contest))
    assert response.status_code == 302
    assert response.url == url("import_upload", contest)
    response = client.post(url("import_commit", contest))
    assert response.url == url("import_upload", contest)
    assert not Registration.objects.exists()


def test_each_contest_has_its_own_import(client_for, contest, media):
    other = make_example_contest()
    client = client_for("clerk")
    upload(client, contest, example_bytes())
    assert client.get(url("import_preview", other)).url == url("import_upload", other)
    assert client.get(url("import_preview", contest)).status_code == 200


def test_a_corrected_file_updates_what_changed_with_history(client_for, cast, contest):
    client = client_for("clerk")
    run_to_preview(client, contest, example_bytes())
    confirm_phases(client, contest)
    client.post(url("import_commit", contest))
    lines = example_bytes().split(b"\r\n")
    lines[1] = lines[1].replace(b";81,52;", b";82,00;")
    response = run_to_preview(client, contest, b"\r\n".join(lines))
    result = response.context["result"]
    assert (result.new, result.updated, result.unchanged) == (0, 1, EXAMPLE_ROWS - 1)
    assert "81,52 → 82,00" in response.content.decode()
    # The contest has the phases now: nothing to confirm.
    assert response.context["unconfirmed_phases"] == []
    assert "Pronto para importar" in response.content.decode()
    client.post(url("import_commit", contest))
    result_row = PhaseResult.objects.get(registration__number="1001", phase__name="Nota Objetiva")
    assert result_row.score == 82
    assert result_row.history.first().history_user == cast["clerk"]


# The model spreadsheet, the phases' form hidden while the file is refused, duplicate CPFs ----------


@pytest.mark.parametrize("who", ROLES)
def test_model_spreadsheet_access(client_for, contest, who):
    assert_access(client_for, who, url("import_template", contest), {"clerk"})


def _model(client, contest):
    from openpyxl import load_workbook

    response = client.get(url("import_template", contest))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert f"modelo-inscricoes-{contest.slug}.xlsx" in response["Content-Disposition"]
    return load_workbook(io.BytesIO(response.content))


def test_model_spreadsheet_columns_map_themselves_with_the_contests_phases(client_for, contest):
    from candidates.services.imports.mapping import FIELDS, suggest
    from tests.builders import make_phase

    make_phase(contest, name="Prova Objetiva")
    make_phase(contest, name="Títulos")
    client = client_for("clerk")
    assert url("import_template", contest) in client.get(url("import_upload", contest)).content.decode()
    workbook = _model(client, contest)
    assert workbook.sheetnames == ["Inscrições", "Instruções"]
    headers = [cell.value for cell in workbook["Inscrições"][1]]
    mapping = suggest(headers, phase_names=["Prova Objetiva", "Títulos"])
    expected = {f.key for f in FIELDS} - {"final_score"} | {"phase:Prova Objetiva", "phase:Títulos"}
    assert set(mapping.values()) == expected  # every column maps to its own field, none ignored
    assert "Nota Títulos" in headers and "Prova Objetiva" in headers
    notes = [row[0] for row in workbook["Instruções"].iter_rows(min_row=2, max_col=1, values_only=True)]
    assert set(headers) <= set(notes)  # each column explained


def test_model_spreadsheet_filled_in_imports_without_problems(client_for, contest):
    client = client_for("clerk")
    workbook = _model(client, contest)
    sheet = workbook["Inscrições"]
    headers = [cell.value for cell in sheet[1]]
    row = {
        "Número de inscrição": "5001",
        "Nome civil": "Maria da Silva Santos",
        "CPF": "036.881.690-77",
        "Data de nascimento": "13/05/1990",
        "Cargo": "TLEG",
        "Reserva racial (S/N)": "S",
        "Categoria declarada (cor/raça)": "parda",
        "Reserva PcD (S/N)": "N",
        "Nota final": "72,5",
    }
    sheet.append([row.get(header, "") for header in headers])
    buffer = io.BytesIO()
    workbook.save(buffer)
    result = run_to_preview(client, contest, buffer.getvalue(), "modelo.xlsx").context["result"]
    assert result.problems == [] and result.new == 1


def test_same_cpf_under_two_names_blocks_the_import(client_for, contest):
    lines = example_bytes().split(b"\r\n")
    # Line 3 gets line 2's CPF under its own name (Wellington): the same person, or a typing error?
    lines[2] = lines[2].replace(b"096.807.849-40", b"036.881.690-77")
    client = client_for("clerk")
    response = run_to_preview(client, contest, b"\r\n".join(lines))
    result = response.context["result"]
    assert not result.ok
    assert any(
        p.line == 3 and p.column == "CPF" and "036.881.690-77 já está na linha 2 com outro nome" in p.message
        for p in result.problems
    )
    assert client.post(url("import_commit", contest)).status_code == 302
    assert Registration.objects.count() == 0  # blocking: nothing imported


def test_phase_form_is_hidden_while_the_file_has_blocking_problems(client_for, contest):
    lines = example_bytes().split(b"\r\n")
    lines[1] = lines[1].replace(b"036.881.690-77", b"12345")
    client = client_for("clerk")
    response = run_to_preview(client, contest, b"\r\n".join(lines))
    result = response.context["result"]
    assert result.phases_to_create and not result.ok  # the example's phases are new to this contest
    assert response.context["phases_form"] is None
    page = response.content.decode()
    assert "Confirmar as fases" not in page
    assert "Corrija antes os problemas do arquivo" in page
    assert "CPF “12345” inválido" in page  # the raw value in the error
    # The same file without the bad CPF shows the form.
    response = run_to_preview(client, contest, example_bytes())
    assert response.context["phases_form"] is not None
