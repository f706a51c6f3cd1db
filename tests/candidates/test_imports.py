"""Importing the organiser's file: the example imports completely, every bad row is named, all or nothing,
re-imports are idempotent, corrections keep history, and the racial option follows RULES §5.

Plain functions with the ``db`` fixture; files are built in the test (``shared/examples`` for the example).
"""

from __future__ import annotations

import datetime
import gc
import sys
import threading
import weakref
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count

from candidates.models import Candidate, ImportMapping, Phase, PhaseResult, Registration, SelfDeclaration
from candidates.services import registrations as services
from candidates.services.imports import (
    ImportRejected,
    PhaseSpec,
    commit,
    parse_upload,
    plan,
    preview,
    suggest_mapping,
    writing,
)
from candidates.services.imports import run as run_module
from tests import builders

EXAMPLE = builders.EXAMPLE_CSV
AFTER_CLOSE = datetime.date(2026, 6, 1)  # make_contest closes registrations on 2026-04-08
WHILE_OPEN = datetime.date(2026, 4, 1)
HEADER = (
    "Inscrição;Nome;Nome Social;CPF;Data de Nascimento;Cargo;Cota Negros;PcD;Nota Objetiva;Nota Discursiva"
)
ROWS = [
    "1001;Carla Rocha Pereira;;036.881.690-77;13/05/2004;ALEG;S;N;81,52;6,26",
    "1002;Wellington Gomes dos Santos;;096.807.849-40;20/08/1958;ALEG;N;N;39,03;",
    "1003;Ana Moreira Ferreira;;659.164.440-79;24/06/1988;TLEG;S;N;91,15;5,98",
    "1004;João Ferreira Pereira;Alex Gomes;462.676.120-82;11/03/1970;ANSI;N;S;72,34;AUSENTE",
]


def csv_file(rows: list[str] = ROWS, header: str = HEADER, encoding: str = "cp1252") -> bytes:
    return ("\r\n".join([header, *rows]) + "\r\n").encode(encoding)


def with_cell(row: int, column: int, value: str) -> bytes:
    """The small file with one cell replaced (row and column from 0, the header excluded)."""
    rows = [r.split(";") for r in ROWS]
    rows[row][column] = value
    return csv_file([";".join(r) for r in rows])


@pytest.fixture
def contest(db):
    contest = builders.make_example_contest()
    builders.make_phase(contest, name="Nota Objetiva", max_score=Decimal(100), pass_mark=Decimal(50))
    builders.make_phase(contest, name="Nota Discursiva", max_score=Decimal(10))
    return contest


@pytest.fixture
def clerk(db):
    return builders.make_user("secretaria", "Secretaria")


def run(contest, data, by=None, today=AFTER_CLOSE, **kwargs):
    table = parse_upload(data, filename="arquivo.csv")
    return commit(contest, table, None, by, today=today, **kwargs)


def problems_of(contest, data, today=AFTER_CLOSE):
    result = preview(contest, parse_upload(data), None, today=today)
    return [(p.line, p.column, p.message) for p in result.problems]


def state() -> dict[str, int]:
    models = (Candidate, Registration, SelfDeclaration, PhaseResult, Phase, ImportMapping)
    counts = {m.__name__: m.objects.count() for m in models}
    counts.update({f"history {m.__name__}": m.history.count() for m in models})
    return counts


# The example file --------------------------------------------------------------------------------------


def test_example_file_imports_every_row(db, clerk):
    contest = builders.make_example_contest()
    result = commit(contest, parse_upload(EXAMPLE), None, clerk, today=AFTER_CLOSE)

    assert (result.created, result.updated, result.unchanged) == (132, 0, 0)
    assert result.preview.per_position == {"ALEG": 12, "ANSI": 78, "TLEG": 42}
    assert dict(contest.registrations.values_list("position__code").annotate(n=Count("id"))) == {
        "ALEG": 12,
        "ANSI": 78,
        "TLEG": 42,
    }
    # The phases the contest lacked, created from the mapping, their maximum deduced from the scores.
    assert list(contest.phases.order_by("order").values_list("name", "max_score", "pass_mark")) == [
        ("Nota Objetiva", Decimal(100), None),
        ("Nota Discursiva", Decimal(10), None),
    ]
    # A cotista: the self-declaration made at registration, "negro" without distinction of category.
    cotista = Registration.objects.get(contest=contest, number="1001")
    assert cotista.racial_reserve
    assert cotista.self_declaration.status == SelfDeclaration.Status.ACTIVE
    assert cotista.self_declaration.category == ""
    assert SelfDeclaration.objects.filter(registration__contest=contest).count() == 25
    # CPF normalised to its 11 digits; the social name shown instead of the civil name.
    assert cotista.candidate.cpf == "03688169077"
    social = Registration.objects.get(contest=contest, number="1006").candidate
    assert (social.full_name, social.social_name, social.display_name) == (
        "João Ferreira Pereira",
        "Alex Gomes",
        "Alex Gomes",
    )
    # Scores: decimal comma, the discursive empty below the pass mark, an absent candidate.
    scores = dict(cotista.phase_results.values_list("phase__name", "score"))
    assert scores == {"Nota Objetiva": Decimal("81.52"), "Nota Discursiva": Decimal("6.26")}
    below = Registration.objects.get(contest=contest, number="1002")
    assert list(below.phase_results.values_list("phase__name", flat=True)) == ["Nota Objetiva"]
    absent = Registration.objects.get(contest=contest, number="1132")
    assert absent.absent
    assert absent.phase_results.get(phase__name="Nota Discursiva").absent
    assert not cotista.absent
    assert Registration.objects.filter(contest=contest, pcd_reserve=True).count() == 5
    assert Candidate.objects.get(cpf="03688169077").birth_date == datetime.date(2004, 5, 13)
    # History names who imported, and from which file.
    history = Registration.history.filter(number="1001").get()
    assert (history.history_user, history.history_type) == (clerk, "+")
    assert history.history_change_reason == "Importação: inscricoes-notas-latin1.csv"
    assert PhaseResult.history.filter(history_user=clerk).count() == PhaseResult.objects.count() == 205


def test_every_imported_row_has_one_history_row_with_its_values_who_and_when(db, clerk):
    """Whatever path wrote them (PostgreSQL's COPY and INSERT … SELECT, or simple-history's
    bulk_create_with_history elsewhere): one "+" row per object, its values as stored, the same date."""
    contest = builders.make_example_contest()
    commit(contest, parse_upload(EXAMPLE), None, clerk, today=AFTER_CLOSE)
    dates = set()
    for model in (Candidate, Registration, SelfDeclaration, PhaseResult):
        fields = [f.attname for f in model._meta.concrete_fields]
        stored = {row["id"]: row for row in model.objects.values(*fields)}
        history = list(model.history.values(*fields, "history_type", "history_user", "history_date"))
        assert len(history) == len(stored) > 0
        for row in history:
            assert (row.pop("history_type"), row.pop("history_user")) == ("+", clerk.pk)
            dates.add(row.pop("history_date"))
            assert row == stored[row["id"]]
    assert len(dates) == 1


def test_example_through_the_command(db, clerk):
    builders.make_example_contest(slug="demo-santa-maria")
    out = StringIO()
    call_command("import_registrations", "demo-santa-maria", str(EXAMPLE), stdout=out)
    assert "132 inscrições novas" in out.getvalue()
    assert "nada foi gravado" in out.getvalue()
    assert Registration.objects.count() == 0

    out = StringIO()
    call_command("import_registrations", "demo-santa-maria", str(EXAMPLE), "--commit", "--user", "secretaria",
                 "--phase", "Nota Objetiva=100:50", stdout=out)  # fmt: skip
    assert "132 inscrições criadas" in out.getvalue()
    assert Registration.objects.count() == 132
    assert Phase.objects.get(name="Nota Objetiva").pass_mark == Decimal(50)
    assert Registration.history.filter(history_user=clerk).count() == 132

    out = StringIO()
    call_command("import_registrations", "demo-santa-maria", str(EXAMPLE), "--commit", stdout=out)
    assert "Nada foi alterado" in out.getvalue()


def test_command_exits_1_naming_the_row_and_imports_nothing(contest, tmp_path):
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(with_cell(2, 3, "659.164.440-70"))
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_registrations", contest.slug, str(path), "--commit", stdout=out)
    assert error.value.returncode == 1
    assert "Linha 4, coluna CPF: CPF 659.164.440-70 inválido" in out.getvalue()
    assert Registration.objects.count() == 0


def test_command_refuses_an_unknown_contest_or_user(contest, tmp_path):
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(csv_file())
    with pytest.raises(CommandError, match="não encontrado"):
        call_command("import_registrations", "nao-existe", str(path), stdout=StringIO())
    with pytest.raises(CommandError, match="Usuário"):
        call_command("import_registrations", contest.slug, str(path), "--user", "ninguem", stdout=StringIO())


def test_command_mapping_option_and_progress_bar_on_a_terminal(contest, tmp_path):
    class Terminal(StringIO):
        def isatty(self) -> bool:
            return True

    path = tmp_path / "inscricoes.csv"
    path.write_bytes(
        csv_file(["1001;Carla Rocha Pereira;036.881.690-77;ALEG"], header="Insc;Quem;Documento;Cargo")
    )
    out = Terminal()
    call_command(
        "import_registrations", contest.slug, str(path), "--commit", "--mapping", "Quem=full_name",
        "--mapping", "Documento=cpf", stdout=out,
    )  # fmt: skip
    assert "Documento → CPF" in out.getvalue()
    assert "█" in out.getvalue()
    assert Registration.objects.get(number="1001").candidate.cpf == "03688169077"
    with pytest.raises(CommandError, match="campo “idade” desconhecido"):
        call_command(
            "import_registrations", contest.slug, str(path), "--mapping", "Quem=idade", stdout=StringIO()
        )


# Every bad row, with its line, column and reason --------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "column", "value", "expected"),
    [
        (0, 3, "036.881.690-78", (2, "CPF", "CPF 036.881.690-78 inválido: os dígitos verificadores não conferem")),
        (1, 0, "1001", (3, "Inscrição", "inscrição 1001 repetida (já está na linha 2)")),
        (2, 5, "XPTO", (4, "Cargo", "cargo “XPTO” não existe neste concurso (cargos: ALEG, TLEG, ANSI)")),
        (0, 8, "105,00", (2, "Nota Objetiva", "nota 105,00 fora do intervalo da fase Nota Objetiva (0 a 100,00)")),
        (3, 9, "10,5", (5, "Nota Discursiva", "nota 10,50 fora do intervalo da fase Nota Discursiva (0 a 10,00)")),
        (1, 1, "", (3, "Nome", "nome ausente")),
        (1, 3, "", (3, "CPF", "CPF ausente")),
        (0, 4, "31/02/2004", (2, "Data de Nascimento", "data de nascimento “31/02/2004” não existe no calendário")),
        (0, 4, "13/05/2104", (2, "Data de Nascimento", "data de nascimento 13/05/2104 impossível")),
        (0, 6, "Talvez", (2, "Cota Negros", "valor “Talvez” não reconhecido: use S ou N (ou a categoria)")),
        (0, 6, "Indígena", (2, "Cota Negros", "a categoria indígena não é beneficiária da política do concurso "
                                              "(preta, parda)")),
        (0, 8, "oitenta", (2, "Nota Objetiva", "nota “oitenta” não é um número")),
    ],
)  # fmt: skip
def test_bad_row_reported_with_line_column_and_reason(contest, row, column, value, expected):
    assert problems_of(contest, with_cell(row, column, value)) == [expected]


def test_racial_option_dated_after_registrations_closed(contest):
    data = csv_file(
        ["1001;Carla Rocha Pereira;036.881.690-77;ALEG;S;09/04/2026", "1002;Ana Moreira;659.164.440-79;ALEG;S;08/04/2026"],
        header="Inscrição;Nome;CPF;Cargo;Cota Negros;Data da autodeclaração",
    )  # fmt: skip
    assert problems_of(contest, data) == [
        (
            2,
            "Data da autodeclaração",
            "a autodeclaração de 09/04/2026 é posterior ao fim das inscrições (08/04/2026): a opção pela "
            "reserva racial é feita no ato da inscrição",
        )
    ]


def test_registration_dated_after_registrations_closed(contest):
    data = csv_file(
        ["1001;Carla;036.881.690-77;ALEG;10/04/2026"], header="Inscrição;Nome;CPF;Cargo;Data da inscrição"
    )
    assert problems_of(contest, data) == [
        (
            2,
            "Data da inscrição",
            "a inscrição de 10/04/2026 não pode ser posterior ao fim das inscrições (08/04/2026)",
        )
    ]


def test_category_the_policy_does_not_cover(db):
    angra = builders.make_example_contest(policy=builders.policy("angra-dos-reis"))
    santa_maria = builders.make_example_contest()
    data = csv_file(
        ["1001;Carla;036.881.690-77;ALEG;S;Indígena"], header="Inscrição;Nome;CPF;Cargo;Cota;Cor/Raça"
    )
    assert problems_of(angra, data) == []
    assert problems_of(santa_maria, data) == [
        (2, "Cor/Raça", "a categoria indígena não é beneficiária da política do concurso (preta, parda)")
    ]


def test_same_cpf_with_another_name(contest):
    rows = [*ROWS, "1005;Outra Pessoa;;036.881.690-77;13/05/2004;TLEG;N;N;50,00;5,00"]
    assert problems_of(contest, csv_file(rows)) == [
        (6, "CPF", "o CPF 036.881.690-77 já está na linha 2 com outro nome (Carla Rocha Pereira)")
    ]


def test_same_person_in_two_positions_is_one_candidate(contest):
    rows = [*ROWS, "1005;Carla Rocha Pereira;;036.881.690-77;13/05/2004;TLEG;N;N;50,00;5,00"]
    run(contest, csv_file(rows))
    assert Candidate.objects.get(cpf="03688169077").registrations.count() == 2


def test_same_person_twice_in_one_position(contest):
    rows = [*ROWS, "1005;Carla Rocha Pereira;;036.881.690-77;13/05/2004;ALEG;N;N;50,00;5,00"]
    assert problems_of(contest, csv_file(rows)) == [
        (2, "CPF", "o candidato tem outra inscrição no mesmo cargo"),
        (6, "CPF", "o candidato tem outra inscrição no mesmo cargo"),
    ]


def test_a_row_with_more_cells_than_the_header(contest):
    rows = [*ROWS[:3], ROWS[3] + ";sobra"]
    assert problems_of(contest, csv_file(rows)) == [
        (5, "", "a linha tem 11 colunas e o cabeçalho 10 (separador dentro de um valor sem aspas?)")
    ]


def test_every_problem_is_reported_in_the_order_of_the_file(contest):
    rows = [r.replace("ALEG", "XPTO") for r in ROWS]  # lines 2 and 3: unknown position
    rows[2] = rows[2].replace("659.164.440-79", "659.164.440-70")  # line 4: a CPF that cannot be read
    rows[3] = rows[3].replace("462.676.120-82", "462.676.120-80")  # line 5: another
    assert [(p[0], p[1]) for p in problems_of(contest, csv_file(rows))] == [
        (2, "Cargo"),
        (3, "Cargo"),
        (4, "CPF"),
        (5, "CPF"),
    ]


def test_problem_text_for_the_clerk(contest):
    result = preview(contest, parse_upload(with_cell(0, 3, "1")), None, today=AFTER_CLOSE)
    assert [str(p) for p in result.problems] == [
        "Linha 2, coluna CPF: CPF “1” inválido: lido como 000.000.000-01 (zeros à esquerda acrescentados), os "
        "dígitos verificadores não conferem."
    ]
    assert result.summary == "1 problema em 1 linha: nada será importado."


# All or nothing, idempotence, corrections ---------------------------------------------------------------


def test_one_bad_row_writes_nothing(contest, clerk):
    before = state()
    data = EXAMPLE.read_bytes().replace(b"1132;", b"1131;")  # the last row repeats the number above it
    with pytest.raises(ImportRejected) as rejected:
        commit(contest, parse_upload(data), None, clerk, today=AFTER_CLOSE)
    assert [(p.line, p.column) for p in rejected.value.preview.problems] == [(133, "Inscrição")]
    assert state() == before


def test_reimporting_the_same_file_changes_nothing_and_says_so(contest, clerk):
    run(contest, EXAMPLE.read_bytes(), by=clerk)
    before = state()
    again = preview(contest, parse_upload(EXAMPLE), None, today=AFTER_CLOSE)
    assert (again.new, again.updated, again.unchanged) == (0, 0, 132)
    assert (
        again.summary == "Nenhuma alteração: as 132 linhas do arquivo são iguais ao que já está no sistema."
    )
    result = run(contest, EXAMPLE.read_bytes(), by=clerk)
    assert result.summary == "Nada foi alterado: o arquivo é igual ao que já está no sistema."
    assert state() == before


def test_corrected_file_updates_what_changed_with_history_naming_the_user(contest, clerk):
    run(contest, csv_file(), by=clerk)
    manager = builders.make_user("gestao", "Gestão")
    corrected = [
        ROWS[0].replace(";6,26", ";6,30"),
        ROWS[1].replace("Wellington Gomes dos Santos", "Wellington Gomes Santos"),
        ROWS[2].replace(";5,98", ";AUSENTE"),
        ROWS[3],
    ]
    result = commit(contest, parse_upload(csv_file(corrected), filename="corrigido.csv"), None, manager,
                    today=AFTER_CLOSE)  # fmt: skip
    assert (result.created, result.updated, result.unchanged) == (0, 3, 1)
    assert [row.changes for row in result.preview.changed_rows] == [
        ["Nota Discursiva: 6,26 → 6,30"],
        ["nome civil: Wellington Gomes dos Santos → Wellington Gomes Santos"],
        ["Nota Discursiva: 5,98 → ausente", "ausente: não → sim"],
    ]
    score = PhaseResult.objects.get(registration__number="1001", phase__name="Nota Discursiva")
    assert score.score == Decimal("6.30")
    latest = score.history.first()
    assert (latest.history_user, latest.history_type, latest.history_change_reason) == (
        manager,
        "~",
        "Importação: corrigido.csv",
    )
    assert latest.prev_record.score == Decimal("6.26")
    assert latest.prev_record.history_user == clerk
    candidate = Candidate.objects.get(cpf="09680784940")
    assert candidate.full_name == "Wellington Gomes Santos"
    assert candidate.history.first().history_user == manager
    absent = Registration.objects.get(number="1003")
    assert absent.absent
    assert absent.history.first().history_user == manager
    # Unchanged rows get no history row.
    assert Registration.objects.get(number="1004").history.count() == 1


def test_a_scores_file_updates_the_registrations_it_names(contest):
    run(contest, csv_file())
    scores = csv_file(["1001;7,00", "1004;8,00"], header="Inscrição;Nota Discursiva")
    result = run(contest, scores)
    assert (result.updated, result.unchanged) == (2, 0)
    assert result.preview.missing_from_file == 2
    assert PhaseResult.objects.get(
        registration__number="1004", phase__name="Nota Discursiva"
    ).score == Decimal(7 + 1)
    assert not Registration.objects.get(number="1004").absent
    # The objective scores, absent from this file, are kept.
    assert PhaseResult.objects.filter(phase__name="Nota Objetiva").count() == 4


def test_a_new_number_in_a_scores_file_needs_the_candidate(contest):
    run(contest, csv_file())
    scores = csv_file(["1999;7,00"], header="Inscrição;Nota Discursiva")
    assert problems_of(contest, scores) == [
        (2, "", "inscrição nova sem Nome civil: o arquivo não tem essa coluna"),
        (2, "", "inscrição nova sem CPF: o arquivo não tem essa coluna"),
        (2, "", "inscrição nova sem Cargo: o arquivo não tem essa coluna"),
    ]


def test_cpf_already_known_from_another_contest_is_the_same_candidate(contest):
    person = builders.make_candidate(full_name="Carla Rocha Pereira", cpf="03688169077")
    run(contest, csv_file())
    assert Registration.objects.get(number="1001").candidate == person
    assert Candidate.objects.count() == 4


def test_mapping_saved_per_contest_and_reused(contest, clerk):
    data = csv_file(["1001;Carla Rocha Pereira;036.881.690-77;ALEG"], header="Insc;Quem;Documento;Cargo")
    table = parse_upload(data)
    mapping = suggest_mapping(contest, table.headers)
    assert mapping == {"Insc": "number", "Quem": "", "Documento": "", "Cargo": "position"}
    mapping.update({"Quem": "full_name", "Documento": "cpf"})
    commit(contest, table, mapping, clerk, today=AFTER_CLOSE)
    assert ImportMapping.objects.get(contest=contest).columns == mapping
    assert suggest_mapping(contest, table.headers) == mapping
    assert suggest_mapping(builders.make_example_contest(), table.headers)["Documento"] == ""


def test_phases_created_with_the_maximum_and_pass_mark_given(db):
    contest = builders.make_example_contest()
    specs = {"Nota Objetiva": PhaseSpec("Nota Objetiva", Decimal(100), Decimal(50))}
    result = run(contest, csv_file(), phase_specs=specs)
    assert result.phases_created == ["Nota Objetiva", "Nota Discursiva"]
    assert [spec.describe() for spec in result.preview.phases_to_create] == [
        "1ª fase “Nota Objetiva”: nota máxima 100, nota mínima 50",
        "2ª fase “Nota Discursiva”: nota máxima 10 (deduzida das notas do arquivo: confira), sem nota mínima",
    ]
    assert Phase.history.filter(history_change_reason="Importação: arquivo.csv").count() == 2


def test_a_phase_the_file_creates_refuses_the_scores_above_the_maximum_given(db):
    contest = builders.make_example_contest()
    specs = {"Nota Objetiva": PhaseSpec("Nota Objetiva", Decimal(50), None)}
    assert problems_of_specs(contest, csv_file(), specs) == [
        (line, "Nota Objetiva", f"nota {score} fora do intervalo da fase Nota Objetiva (0 a 50)")
        for line, score in [(2, "81,52"), (4, "91,15"), (5, "72,34")]
    ]
    # Inferred from the file, the maximum is the first step above the highest score: none is above it.
    assert problems_of_specs(contest, csv_file(), {}) == []
    huge = with_cell(2, 8, "10000,01")
    assert problems_of_specs(contest, huge, {}) == [
        (None, "Nota Objetiva", "notas grandes demais na fase Nota Objetiva")
    ]


def problems_of_specs(contest, data, specs):
    result = preview(contest, parse_upload(data), None, today=AFTER_CLOSE, phase_specs=specs)
    return [(p.line, p.column, p.message) for p in result.problems]


def test_preview_shows_the_first_rows_as_understood(contest):
    result = preview(contest, parse_upload(csv_file()), None, today=AFTER_CLOSE)
    first, *_, last = result.rows
    assert (first.line, first.number, first.name, first.cpf, first.position, first.racial, first.pcd) == (
        2,
        "1001",
        "Carla Rocha Pereira",
        "036.881.690-77",
        "ALEG",
        "sim",
        "não",
    )
    assert first.scores == {"Nota Objetiva": "81,52", "Nota Discursiva": "6,26"}
    assert (last.name, last.pcd, last.scores["Nota Discursiva"], last.status) == (
        "Alex Gomes",
        "sim",
        "ausente",
        "nova",
    )
    assert Registration.objects.count() == 0


# The racial option after registrations close (RULES §5) -------------------------------------------------


def test_option_added_to_an_imported_registration_after_the_close_is_refused(contest):
    run(contest, csv_file())
    assert problems_of(contest, with_cell(1, 6, "S")) == [
        (
            3,
            "Cota Negros",
            "a opção pela reserva racial é feita no ato da inscrição: não pode ser acrescentada depois do fim "
            "das inscrições (08/04/2026); um erro de digitação se corrige na inscrição, com justificativa",
        )
    ]


def test_option_removed_after_the_close_is_refused(contest):
    run(contest, csv_file())
    assert problems_of(contest, with_cell(0, 6, "N")) == [
        (
            2,
            "Cota Negros",
            "a opção pela reserva racial não pode ser retirada depois do fim das inscrições (08/04/2026): "
            "registre a renúncia do candidato (ou a correção, com justificativa) na inscrição",
        )
    ]


def test_while_registrations_are_open_the_option_follows_the_file(contest):
    run(contest, csv_file(), today=WHILE_OPEN)
    run(contest, with_cell(0, 6, "N"), today=WHILE_OPEN)
    first = Registration.objects.get(number="1001")
    assert not first.racial_reserve
    assert first.self_declaration.status == SelfDeclaration.Status.GIVEN_UP
    run(contest, csv_file(), today=WHILE_OPEN)
    first.refresh_from_db()
    assert first.racial_reserve
    assert first.self_declaration.status == SelfDeclaration.Status.ACTIVE


def test_a_renunciation_recorded_in_the_system_prevails_over_the_file(contest, clerk):
    run(contest, csv_file())
    registration = Registration.objects.get(number="1001")
    services.self_declaration_give_up(registration=registration, by=clerk, on=AFTER_CLOSE)
    result = preview(contest, parse_upload(csv_file()), None, today=AFTER_CLOSE)
    assert result.ok
    assert result.notices == [
        "Linha 2: a autodeclaração da inscrição 1001 está “renunciada (o candidato permanece na ampla "
        "concorrência)”, o que prevalece sobre a opção do arquivo."
    ]
    assert result.updated == 0


def test_category_changed_after_the_close_is_refused_but_added_precision_is_not(contest):
    header = "Inscrição;Nome;CPF;Cargo;Cota;Cor/Raça"
    run(contest, csv_file(["1001;Carla;036.881.690-77;ALEG;S;"], header=header))
    result = run(
        contest, csv_file(["1001;Carla;036.881.690-77;ALEG;S;Parda"], header=header), today=WHILE_OPEN
    )
    assert result.updated == 1
    assert SelfDeclaration.objects.get().category == "parda"
    assert problems_of(contest, csv_file(["1001;Carla;036.881.690-77;ALEG;S;Preta"], header=header)) == [
        (
            2,
            "Cor/Raça",
            "a categoria declarada não pode ser alterada depois do fim das inscrições (08/04/2026): a correção "
            "se faz na inscrição, com justificativa (no arquivo: Parda → Preta)",
        )
    ]
    # "Negro" without distinction adds nothing to a stored "parda": unchanged.
    assert run(contest, csv_file(["1001;Carla;036.881.690-77;ALEG;S;Negra"], header=header)).unchanged == 1


def test_a_problem_found_once_the_writing_began_leaves_the_data_as_it_was(contest, clerk, monkeypatch):
    """On PostgreSQL the new objects are written while the rows are still being checked (``writing.Stream``,
    every ``STREAM_ROWS`` rows): a problem in a later row still leaves nothing, history included."""
    monkeypatch.setattr(plan, "STREAM_ROWS", 2)
    written: list[type] = []
    copy = writing._copy
    monkeypatch.setattr(
        writing,
        "_copy",
        lambda cursor, model, items, **k: (written.append(model), copy(cursor, model, items, **k)),
    )
    models = (Candidate, Registration, SelfDeclaration, PhaseResult, Phase)
    before = {model: (model.objects.count(), model.history.count()) for model in models}

    # The fifth row repeats the first one's number: only the check of every row finds it.
    with pytest.raises(ImportRejected) as rejected:
        run(contest, csv_file([*ROWS, ROWS[0]]), by=clerk)
    assert [(p.line, p.message) for p in rejected.value.preview.problems] == [
        (6, "inscrição 1001 repetida (já está na linha 2)")
    ]
    assert {model: (model.objects.count(), model.history.count()) for model in models} == before
    if connection.vendor == "postgresql":  # the first four rows were written before the problem was found
        assert written[:4] == [Candidate, Registration, SelfDeclaration, PhaseResult]


def test_the_collector_stays_paused_from_planning_to_commit_and_resumes_after(contest, clerk, monkeypatch):
    """Resumed between the planning and the writing, the cyclic collector walks every planned object (half
    a million for 100,000 rows) to free nothing; it resumes once the import is over, written or refused."""
    seen: list[bool] = []
    # On PostgreSQL the new objects are written by ``_copy`` (in the writing thread, while the rows are
    # checked); elsewhere by ``create``.
    for name in ("create", "_copy"):
        write = getattr(writing, name)
        monkeypatch.setattr(
            writing, name, lambda *a, write=write, **k: (seen.append(gc.isenabled()), write(*a, **k))
        )
    assert gc.isenabled()

    run(contest, csv_file(), by=clerk)
    assert seen and not any(seen)
    assert gc.isenabled()

    with pytest.raises(ImportRejected):
        run(contest, with_cell(0, 3, "111.111.111-12"), by=clerk)
    assert gc.isenabled()


def test_the_writing_switches_threads_more_often_and_puts_the_setting_back(contest, clerk, monkeypatch):
    """On PostgreSQL the writing thread, back from the database, gets the GIL within 0.5 ms rather than 5; the
    process's setting is back once the import is over, written or refused."""
    seen: list[float] = []
    copy = writing._copy
    monkeypatch.setattr(
        writing, "_copy", lambda *a, **k: (seen.append(sys.getswitchinterval()), copy(*a, **k))
    )
    before = sys.getswitchinterval()
    run(contest, csv_file(), by=clerk)
    with pytest.raises(ImportRejected):
        run(contest, csv_file([*ROWS, ROWS[0]]), by=clerk)
    assert sys.getswitchinterval() == before
    if connection.vendor == "postgresql":
        assert seen and set(seen) == {writing.SWITCH_INTERVAL} != {before}


@pytest.mark.parametrize("entry", ["preview", "commit"])
def test_the_planner_is_freed_when_the_import_returns_without_the_collector(
    contest, clerk, monkeypatch, entry
):
    planners: list[weakref.ref] = []
    init = plan._Planner.__init__

    def remember(self, *args, **kwargs):
        planners.append(weakref.ref(self))
        init(self, *args, **kwargs)

    monkeypatch.setattr(plan._Planner, "__init__", remember)
    gc.disable()
    try:
        if entry == "preview":
            preview(contest, parse_upload(csv_file()), None, today=AFTER_CLOSE)
        else:
            run(contest, csv_file(), by=clerk)
            # ``commit`` frees it on a thread of its own once the transaction is over.
            for thread in threading.enumerate():
                if thread.name == run_module.FREEING:
                    thread.join()
        assert planners and planners[0]() is None
    finally:
        gc.enable()
