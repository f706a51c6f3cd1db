"""A file that also carries another contest's position (the example's 78 ANSI rows in a contest of ALEG and
TLEG only): identical problems told once with their lines, and "Importar só os cargos deste concurso",
all or nothing for the remaining rows, stated in the preview with the rows left out and kept in history."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from candidates.models import Registration
from candidates.services.imports import ImportRejected, commit, parse_upload, preview
from candidates.services.imports.report import Problem, group_problems
from tests import builders
from tests.pages import forms_on, post_form

AFTER_CLOSE = datetime.date(2026, 6, 1)
ANSI_ROWS, OTHER_ROWS = 78, 54


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path


@pytest.fixture
def contest(db):
    """Two of the example file's three positions: its ANSI rows belong to another contest."""
    contest = builders.make_contest()
    builders.make_position(contest, vacancies=2, code="ALEG", title="Assistente Legislativo")
    builders.make_position(contest, vacancies=7, code="TLEG", title="Técnico Legislativo")
    return contest


def example_table():
    return parse_upload(builders.EXAMPLE_CSV, filename="inscricoes.csv")


# The service and the report ------------------------------------------------------------------------------


def test_identical_problems_make_one_group_with_their_lines():
    problems = [
        Problem(12, "Cargo", "cargo “ANSI” não existe neste concurso"),
        Problem(13, "CPF", "CPF ausente"),
        Problem(15, "Cargo", "cargo “ANSI” não existe neste concurso"),
        Problem(None, "", "nenhuma coluna foi indicada como número de inscrição"),
    ]
    groups = group_problems(problems)
    assert [(g.column, g.lines, g.count) for g in groups] == [
        ("Cargo", (12, 15), 2),
        ("CPF", (13,), 1),
        ("", (), 1),
    ]
    assert (
        str(groups[0]) == "2 linhas: cargo “ANSI” não existe neste concurso (coluna Cargo) — linhas 12, 15."
    )
    assert str(groups[1]) == "Linha 13, coluna CPF: CPF ausente."
    assert str(groups[2]) == "Nenhuma coluna foi indicada como número de inscrição."


def test_many_lines_are_cut_after_ten_with_how_many_more():
    problems = [Problem(line, "Cargo", "cargo “ANSI” não existe neste concurso") for line in range(2, 80)]
    [group] = group_problems(problems)
    assert group.headline == "78 linhas"
    assert group.lines_text == "linhas 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … (e mais 68)"


def test_the_other_positions_rows_are_one_group_and_the_only_problem(contest):
    result = preview(contest, example_table(), None, today=AFTER_CLOSE)
    assert len(result.problems) == ANSI_ROWS
    [group] = result.problem_groups
    assert group.column == "Cargo" and len(group.lines) == ANSI_ROWS
    assert group.message == "cargo “ANSI” não existe neste concurso (cargos: ALEG, TLEG)"
    assert str(group).startswith("78 linhas: cargo “ANSI” não existe neste concurso")
    assert list(result.other_positions) == ["ANSI"]
    assert result.can_leave_out_other_positions
    assert result.rows_of_this_contest == OTHER_ROWS


def test_no_offer_when_another_problem_remains(contest):
    lines = builders.EXAMPLE_CSV.read_bytes().split(b"\r\n")
    assert lines[4].startswith(b"1004;") and b";ALEG;" in lines[4]
    lines[4] = lines[4].replace(b"263.733.416-90", b"263.733.416-91")  # a bad CPF on a row of ALEG
    result = preview(contest, parse_upload(b"\r\n".join(lines)), None, today=AFTER_CLOSE)
    assert result.other_positions and not result.can_leave_out_other_positions
    # Left out anyway, the bad row still blocks: all or nothing for the remaining rows.
    result = preview(
        contest, parse_upload(b"\r\n".join(lines)), None, today=AFTER_CLOSE, only_contest_positions=True
    )
    assert [p.line for p in result.problems] == [5]


def test_only_the_contests_positions_are_imported_with_history_saying_what_was_left_out(contest, cast):
    with pytest.raises(ImportRejected):
        commit(contest, example_table(), None, cast["clerk"], today=AFTER_CLOSE)
    assert not Registration.objects.exists()

    result = commit(
        contest, example_table(), None, cast["clerk"], today=AFTER_CLOSE, only_contest_positions=True
    )
    assert result.created == OTHER_ROWS
    assert result.preview.left_out_rows == ANSI_ROWS
    assert result.summary.endswith("78 linhas de outros cargos ficaram de fora.")
    assert set(contest.registrations.values_list("position__code", flat=True)) == {"ALEG", "TLEG"}
    history = Registration.history.filter(number="1001").get()
    assert history.history_user == cast["clerk"]
    assert (
        "Só os cargos deste concurso: 78 linhas do cargo “ANSI” ficam de fora"
        in history.history_change_reason
    )


def test_leaving_out_changes_the_fingerprint(contest):
    every = preview(contest, example_table(), None, today=AFTER_CLOSE)
    only = preview(contest, example_table(), None, today=AFTER_CLOSE, only_contest_positions=True)
    assert only.ok and only.new == OTHER_ROWS
    assert only.fingerprint != every.fingerprint


# Through the screens -------------------------------------------------------------------------------------


def url(name, contest):
    return reverse(f"candidates:{name}", args=[contest.slug])


def to_preview(client, contest):
    data = builders.EXAMPLE_CSV.read_bytes()
    response = client.post(
        url("import_upload", contest), {"file": SimpleUploadedFile("inscricoes.csv", data)}
    )
    assert response.status_code == 302
    response = post_form(client, url("import_mapping", contest), {}, containing="col_0")
    assert response.status_code == 302
    return client.get(url("import_preview", contest))


def test_the_preview_groups_the_errors_and_offers_to_leave_the_other_position_out(client_for, contest):
    client = client_for("clerk")
    page = to_preview(client, contest).content.decode()
    assert page.count("não existe neste concurso") == 1
    assert "<strong>78 linhas</strong> (" in page
    assert "O único problema do arquivo são 78 linhas do cargo “ANSI”" in page
    assert "essas 78 linhas ficam de fora e as outras 54 são conferidas de novo" in page
    assert "Importar só os cargos deste concurso" in page
    assert not any(form.action == url("import_commit", contest) for form in forms_on(page))


def test_importing_only_the_contests_positions_through_the_page(client_for, cast, contest, settings):
    settings.IMPORT_TASK_ROWS = 1000  # committed in the request
    client = client_for("clerk")
    page = to_preview(client, contest).content.decode()
    [offer] = [f for f in forms_on(page) if f.action == url("import_only_positions", contest)]
    response = client.post(offer.action, offer.values, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == url("import_preview", contest)
    result = response.context["result"]
    assert result.ok and result.left_out_rows == ANSI_ROWS and result.new == OTHER_ROWS
    assert "78 linhas do cargo “ANSI” ficam de fora (não são importadas)" in page
    assert "As outras 54 linhas são importadas, tudo ou nada" in page
    assert "Deixadas de fora (outros cargos)" in page
    assert not Registration.objects.exists()  # nothing written before the commit

    # The phases the file creates are confirmed as shown, then the import.
    response = post_form(client, url("import_preview", contest), {}, containing="max_0")
    assert response.status_code == 302
    page = client.get(url("import_preview", contest)).content.decode()
    [import_form] = [f for f in forms_on(page) if f.action == url("import_commit", contest)]
    response = client.post(import_form.action, import_form.values, follow=True)
    assert "54 inscrições criadas" in response.content.decode()
    assert "78 linhas de outros cargos ficaram de fora" in response.content.decode()
    assert Registration.objects.filter(contest=contest).count() == OTHER_ROWS
    assert not Registration.objects.filter(position__code="ANSI").exists()
    history = Registration.history.filter(number="1001").get()
    assert (
        history.history_user == cast["clerk"] and "78 linhas do cargo “ANSI”" in history.history_change_reason
    )


def test_taking_every_row_back(client_for, contest):
    client = client_for("clerk")
    to_preview(client, contest)
    client.post(url("import_only_positions", contest), {"deixar_de_fora": "sim"})
    page = client.get(url("import_preview", contest)).content.decode()
    [back] = [f for f in forms_on(page) if f.values.get("deixar_de_fora") == "nao"]
    response = client.post(back.action, back.values, follow=True)
    assert not response.context["result"].ok
    assert "Todas as linhas do arquivo voltaram a ser consideradas" in response.content.decode()


# The command -----------------------------------------------------------------------------------------------


def test_the_command_groups_the_problems_and_leaves_the_other_positions_out_when_asked(contest, cast):
    from io import StringIO

    from django.core.management import CommandError, call_command

    out = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_registrations",
            contest.slug,
            str(builders.EXAMPLE_CSV),
            "--today",
            "2026-06-01",
            stdout=out,
        )
    text = out.getvalue()
    assert text.count("não existe neste concurso") == 1
    assert "78 linhas: cargo “ANSI” não existe neste concurso" in text
    assert "--only-contest-positions as deixa de fora e importa as outras 54" in text
    out = StringIO()
    call_command(
        "import_registrations", contest.slug, str(builders.EXAMPLE_CSV), "--today", "2026-06-01",
        "--only-contest-positions", "--commit", "--user", cast["clerk"].username, stdout=out,
    )  # fmt: skip
    assert (
        "54 inscrições criadas" in out.getvalue()
        and "78 linhas de outros cargos ficaram de fora" in out.getvalue()
    )
    assert Registration.objects.filter(contest=contest).count() == OTHER_ROWS
