"""``manage.py simulate`` (RULES.md §8): the output contract, and exit 2 with a Portuguese message for
every bad scenario. Through ``call_command`` (with the database, for the seeded policies) and from the
command line (the exit status and stderr a user sees): in this process (tests/command_line.py), and through
a real ``manage.py`` subprocess for a good scenario and wherever the database must be another."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from contests.models import Policy
from tests.command_line import manage_in_process

ROOT = Path(__file__).resolve().parents[2]

WORKED_EXAMPLE = {
    "policy": "santa-maria",
    "pcd": None,
    "vacancies": 5,
    "candidates": [
        {"id": "A"},
        {"id": "N1", "lists": ["racial"]},
        {"id": "B"},
        {"id": "C"},
        {"id": "D"},
        {"id": "E"},
        {"id": "N2", "lists": ["racial"]},
        {"id": "N3", "lists": ["racial"]},
    ],
    "events": [{"call": 5}, {"withdraw": "N2"}, {"call": 1}],
}

# RULES §8, verbatim (``why`` and ``log`` are extra keys, checked apart).
WORKED_EXAMPLE_OUTPUT = {
    "vacancies": 5,
    "reserved": {"racial": 1, "pcd": 0, "open": 4, "carried_fraction": "0"},
    "schedule": ["open", "open", "racial", "open", "open"],
    "nominations": [
        {"order": 1, "seat": 1, "kind": "open", "candidate": "A", "list": "open", "status": "active"},
        {"order": 2, "seat": 2, "kind": "open", "candidate": "N1", "list": "open", "status": "active"},
        {"order": 3, "seat": 3, "kind": "racial", "candidate": "N2", "list": "racial", "status": "withdrawn"},
        {"order": 4, "seat": 4, "kind": "open", "candidate": "B", "list": "open", "status": "active"},
        {"order": 5, "seat": 5, "kind": "open", "candidate": "C", "list": "open", "status": "active"},
        {"order": 6, "seat": 3, "kind": "racial", "candidate": "N3", "list": "racial", "status": "active"},
    ],
    "lists": {"open": ["A", "N1", "B", "C", "D", "E", "N3"], "racial": ["N1", "N3"]},
}

OBJECT_POLICY = {"percent": 20, "threshold": 3, "rounding": "half_up", "order": "proportional"}

SEEDED = {
    "santa-maria": {
        "threshold": 3,
        "nomination_order": "proportional",
        "group_label": "negros",
        "priority": "pcd_first",
    },
    "angra-dos-reis": {
        "threshold": 0,
        "nomination_order": "every_nth",
        "group_label": "negros e índios",
        "priority": "racial_first",
        "citation_order": "art. 3º §1º",
    },
}


@pytest.fixture
def policies(db):
    """The two founding laws (seeded by a data migration; created here if that has not run)."""
    for slug, values in SEEDED.items():
        Policy.objects.get_or_create(
            slug=slug,
            defaults={
                "name": slug,
                "jurisdiction": slug,
                "percent": 20,
                "rounding": "half_up",
                "nth": 5,
                "open_competition_rule": "projected",
                "dual_rule": "choose",
                "dual_default": "racial",
                "beneficiary_groups": ["preta", "parda"],
                **values,
            },
        )


def simulate(tmp_path: Path, scenario: object) -> dict:
    path = tmp_path / "cenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    out = io.StringIO()
    call_command("simulate", str(path), stdout=out)
    return json.loads(out.getvalue())


def without_extras(output: dict) -> dict:
    data = {k: v for k, v in output.items() if k != "log"}
    data["nominations"] = [{k: v for k, v in n.items() if k != "why"} for n in data["nominations"]]
    return data


def test_rules_par8_worked_example_output_exactly(policies, tmp_path):
    output = simulate(tmp_path, WORKED_EXAMPLE)
    assert without_extras(output) == WORKED_EXAMPLE_OUTPUT
    assert list(output) == ["vacancies", "reserved", "schedule", "nominations", "lists", "log"]
    assert output["nominations"][2]["why"].startswith(
        "3ª vaga: reservada a negros; 20% de 3 = 0,6 → 1; N2 é o 1º da lista de negros fora da ampla concorrência"
    )
    assert all(n["why"] for n in output["nominations"])


def test_rules_par8_reads_the_scenario_from_stdin(policies, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(WORKED_EXAMPLE)))
    out = io.StringIO()
    call_command("simulate", "-", stdout=out)
    assert without_extras(json.loads(out.getvalue())) == WORKED_EXAMPLE_OUTPUT


def test_rules_par8_an_object_policy_gives_the_same_result(tmp_path):
    scenario = {**WORKED_EXAMPLE, "policy": OBJECT_POLICY}
    assert without_extras(simulate(tmp_path, scenario)) == WORKED_EXAMPLE_OUTPUT


def test_angra_dos_reis_three_vacancies_seat_3_is_racial(policies, tmp_path):
    scenario = {**WORKED_EXAMPLE, "policy": "angra-dos-reis", "vacancies": 3, "events": [{"call": 3}]}
    output = simulate(tmp_path, scenario)
    assert output["schedule"] == ["open", "open", "racial"]
    assert output["nominations"][2]["candidate"] == "N2"
    assert "negros e índios" in output["nominations"][2]["why"]


def test_rules_par8_eliminate_of_someone_already_off_every_list_changes_nothing(tmp_path):
    base = {**WORKED_EXAMPLE, "policy": OBJECT_POLICY, "events": [{"call": 5}, {"withdraw": "N2"}]}
    again = {**base, "events": [*base["events"], {"eliminate": "N2"}, {"eliminate": "N2"}]}
    assert without_extras(simulate(tmp_path, again)) == without_extras(simulate(tmp_path, base))


AR_PCD_CANDIDATES = [{"id": f"G{i}"} for i in range(6)] + [
    {"id": "N1", "lists": ["racial"]},
    {"id": "P1", "lists": ["pcd"]},
]


def test_ar_art3_par1_with_pcd_5_at_five_vacancies_the_racial_reserve_is_nominated(policies, tmp_path):
    scenario = {"policy": "angra-dos-reis", "pcd": {"percent": 5}, "vacancies": 5,
                "candidates": AR_PCD_CANDIDATES, "events": [{"call": 5}]}  # fmt: skip
    output = simulate(tmp_path, scenario)
    assert output["reserved"] == {"racial": 1, "pcd": 1, "open": 3, "carried_fraction": "0"}
    assert output["schedule"] == ["open", "open", "open", "pcd", "racial"]
    assert [(n["seat"], n["candidate"], n["list"]) for n in output["nominations"][3:]] == [
        (4, "P1", "pcd"),
        (5, "N1", "racial"),
    ]


def test_rules_par8_priority_defaults_per_order_and_may_be_given(tmp_path):
    every_fifth = {"percent": 20, "threshold": 0, "order": "every_nth", "nth": 5}
    scenario = {"policy": every_fifth, "pcd": {"percent": 5}, "vacancies": 10,
                "candidates": AR_PCD_CANDIDATES, "events": []}  # fmt: skip
    assert simulate(tmp_path, scenario)["schedule"][4:6] == ["racial", "pcd"]
    scenario["policy"] = {**every_fifth, "priority": ["pcd", "racial"]}
    assert simulate(tmp_path, scenario)["schedule"][4:6] == ["pcd", "racial"]
    thirty = {"percent": 30, "threshold": 3, "order": "proportional"}
    scenario = {**scenario, "policy": thirty, "vacancies": 5}
    assert simulate(tmp_path, scenario)["schedule"] == ["open", "racial", "open", "racial", "pcd"]


def test_reverted_and_compensated_flags_appear_only_where_true(tmp_path):
    reverted = {**WORKED_EXAMPLE, "policy": OBJECT_POLICY, "events": [{"call": 5}]}
    reverted["candidates"] = [{"id": c} for c in ("A", "B", "C", "D", "E")]
    noms = simulate(tmp_path, reverted)["nominations"]
    assert [n.get("reverted") for n in noms] == [None, None, True, None, None]
    compensation = {
        **WORKED_EXAMPLE,
        "policy": {**OBJECT_POLICY, "open_competition_rule": "compensation"},
        "candidates": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "N1", "lists": ["racial"]}, {"id": "D"},
                       {"id": "N2", "lists": ["racial"]}],
        "events": [{"call": 5}],
    }  # fmt: skip
    noms = simulate(tmp_path, compensation)["nominations"]
    assert noms[2]["candidate"] == "N1" and noms[2]["compensated"] is True and noms[2]["list"] == "open"
    assert (noms[4]["candidate"], noms[4]["kind"]) == ("N2", "racial")
    assert "compensated" not in noms[0]


def test_pcd_reserve_and_its_list(tmp_path):
    scenario = {
        "policy": OBJECT_POLICY,
        "pcd": {"percent": "5"},
        "vacancies": 5,
        "candidates": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "X", "lists": ["racial", "pcd"], "prefers": "pcd"},
                       {"id": "P2", "lists": ["pcd"]}, {"id": "R2", "lists": ["racial"]}],
        "events": [{"call": 5}],
    }  # fmt: skip
    output = simulate(tmp_path, scenario)
    assert output["reserved"] == {"racial": 1, "pcd": 1, "open": 3, "carried_fraction": "0"}
    assert output["schedule"] == ["open", "open", "racial", "open", "pcd"]
    assert [(n["seat"], n["candidate"]) for n in output["nominations"]] == [
        (1, "A"), (2, "B"), (3, "R2"), (4, "C"), (5, "X")
    ]  # fmt: skip
    assert output["lists"]["pcd"] == ["X", "P2"]


def test_carried_fraction_is_shown_as_a_decimal_string(tmp_path):
    scenario = {**WORKED_EXAMPLE, "policy": OBJECT_POLICY, "vacancies": 7, "events": [{"open": 1}]}
    assert simulate(tmp_path, scenario)["reserved"]["carried_fraction"] == "-0.4"


def test_a_call_beyond_the_open_vacancies_is_not_an_error(tmp_path):
    scenario = {**WORKED_EXAMPLE, "policy": OBJECT_POLICY, "vacancies": 2, "events": [{"call": 9}]}
    assert len(simulate(tmp_path, scenario)["nominations"]) == 2


def bad(**changes) -> dict:
    scenario = json.loads(json.dumps(WORKED_EXAMPLE))
    scenario["policy"] = dict(OBJECT_POLICY)
    for key, value in changes.items():
        scenario[key] = value
    return scenario


BAD_SCENARIOS = [
    ("unknown_policy", bad(policy="porto-alegre"), "Política desconhecida: 'porto-alegre'"),
    ("unknown_candidate_in_event", bad(events=[{"withdraw": "Z"}]), "candidato desconhecido: 'Z'"),
    ("duplicate_ids", bad(candidates=[{"id": "A"}, {"id": "A"}]), "candidato repetido: 'A'"),
    ("negative_vacancies", bad(vacancies=-1), "vacancies não pode ser negativo"),
    ("negative_call", bad(events=[{"call": -2}]), "não pode ser negativo"),
    ("negative_open", bad(events=[{"open": -1}]), "não pode ser negativo"),
    ("percent_above_100", bad(policy={**OBJECT_POLICY, "percent": 120}), "entre 0 e 100"),
    ("percent_below_0", bad(policy={**OBJECT_POLICY, "percent": "-5"}), "entre 0 e 100"),
    ("pcd_percent_above_100", bad(pcd={"percent": 101}), "entre 0 e 100"),
    ("reserves_above_100", bad(policy={**OBJECT_POLICY, "percent": 90}, pcd={"percent": 5}), "100%"),
    ("percent_not_a_number", bad(policy={**OBJECT_POLICY, "percent": "vinte"}), "não é um percentual"),
    ("unknown_top_key", bad(extra=1), "chave desconhecida em cenário: 'extra'"),
    ("unknown_policy_key", bad(policy={**OBJECT_POLICY, "quota": 1}), "chave desconhecida em policy"),
    ("unknown_pcd_key", bad(pcd={"percent": 5, "min": 1}), "chave desconhecida em pcd"),
    (
        "unknown_candidate_key",
        bad(candidates=[{"id": "A", "score": 9}]),
        "chave desconhecida em candidates[0]",
    ),
    ("unknown_event", bad(events=[{"jump": 1}]), "Evento desconhecido"),
    ("unknown_order", bad(policy={**OBJECT_POLICY, "order": "random"}), "policy.order desconhecido"),
    ("unknown_rounding", bad(policy={**OBJECT_POLICY, "rounding": "banker"}), "policy.rounding desconhecido"),
    ("unknown_rule", bad(policy={**OBJECT_POLICY, "open_competition_rule": "x"}), "open_competition_rule"),
    ("unknown_dual_default", bad(policy={**OBJECT_POLICY, "dual_default": "open"}), "dual_default"),
    (
        "bad_priority",
        bad(policy={**OBJECT_POLICY, "priority": ["pcd"]}),
        "priority deve listar as duas reservas",
    ),
    (
        "unknown_list",
        bad(candidates=[{"id": "A", "lists": ["indigena"]}]),
        "reserva desconhecido: 'indigena'",
    ),
    (
        "prefers_outside_lists",
        bad(candidates=[{"id": "A", "lists": ["racial"], "prefers": "pcd"}]),
        "não concorre",
    ),
    ("vacancies_as_text", bad(vacancies="5"), "vacancies deve ser um número inteiro"),
    ("vacancies_as_bool", bad(vacancies=True), "vacancies deve ser um número inteiro"),
    ("candidates_not_a_list", bad(candidates={"id": "A"}), "candidates deve ser uma lista"),
    ("events_not_a_list", bad(events={"call": 1}), "events deve ser uma lista"),
    ("call_as_text", bad(events=[{"call": "5"}]), "deve ser um número inteiro"),
    ("event_with_two_keys", bad(events=[{"call": 1, "open": 1}]), "uma só chave"),
    ("candidate_id_not_text", bad(candidates=[{"id": 7}]), "candidates[0].id deve ser um texto"),
    ("nth_zero", bad(policy={**OBJECT_POLICY, "order": "every_nth", "nth": 0}), "policy.nth"),
    ("policy_not_an_object", bad(policy=20), "policy deve ser um objeto"),
    ("missing_vacancies", {k: v for k, v in bad().items() if k != "vacancies"}, "falta a chave 'vacancies'"),
    ("not_an_object", [1, 2], "cenário deve ser um objeto"),
    ("event_after_withdrawal", bad(events=[{"withdraw": "A"}, {"withdraw": "A"}]), "fora de todas as listas"),
    # RULES §8: an event on a candidate who is not on the lists it needs.
    ("withdraw_after_elimination", bad(events=[{"eliminate": "A"}, {"withdraw": "A"}]), "por eliminação"),
    ("end_of_list_after_withdrawal", bad(events=[{"withdraw": "N1"}, {"end_of_list": "N1"}]), "já desistiu"),
    ("end_of_list_after_elimination", bad(events=[{"eliminate": "B"}, {"end_of_list": "B"}]), "por eliminação"),
    ("exclude_after_withdrawal", bad(events=[{"withdraw": "N1"}, {"exclude_from_reserve": "N1"}]), "já desistiu"),
    ("exclude_after_elimination", bad(events=[{"eliminate": "N2"}, {"exclude_from_reserve": "N2"}]), "por eliminação"),
    ("exclude_without_a_reserve", bad(events=[{"exclude_from_reserve": "A"}]), "A não optou por nenhuma reserva"),
    (
        "exclude_pcd_only_without_pcd_reserve",
        bad(candidates=[{"id": "P", "lists": ["pcd"]}], events=[{"exclude_from_reserve": "P"}]),
        "optou só pela reserva para pessoas com deficiência",
    ),
    (
        "exclude_twice",
        bad(events=[{"exclude_from_reserve": "N1"}, {"exclude_from_reserve": "N1"}]),
        "já foi excluído das listas reservadas",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("scenario", "message"), [c[1:] for c in BAD_SCENARIOS], ids=[c[0] for c in BAD_SCENARIOS]
)
def test_bad_scenario_raises_command_error_with_status_2(policies, tmp_path, scenario, message):
    path = tmp_path / "cenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("simulate", str(path), stdout=io.StringIO())
    assert caught.value.returncode == 2
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "não é um JSON válido"), ('{"policy": NaN}', "NaN não é um número"), ("", "esperava um valor")],
)
def test_invalid_json_raises_command_error_with_status_2(tmp_path, text, message):
    path = tmp_path / "cenario.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match=message) as caught:
        call_command("simulate", str(path))
    assert caught.value.returncode == 2


# From the command line: status 2, the message alone on stderr, no traceback ----------------------------


def manage(*args: str, stdin: str = "", database: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": "simulate-tests"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if database is not None:
        env["DATABASE_URL"] = f"sqlite:///{database}"
    return subprocess.run(
        [sys.executable, "manage.py", "simulate", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_line_prints_json_for_a_good_scenario():
    """Through a real ``manage.py`` process: the start-up and the settings read from the environment."""
    result = manage("-", stdin=json.dumps({**WORKED_EXAMPLE, "policy": OBJECT_POLICY}))
    assert result.returncode == 0, result.stderr
    assert without_extras(json.loads(result.stdout)) == WORKED_EXAMPLE_OUTPUT


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("não é json", "O cenário não é um JSON válido: esperava um valor (linha 1, coluna 1)."),
        (json.dumps(bad(vacancies=-3)), "Cenário inválido: vacancies não pode ser negativo."),
        (
            json.dumps(bad(candidates=[{"id": "A"}, {"id": "A"}])),
            "Cenário inválido: candidato repetido: 'A'.",
        ),
        (json.dumps(bad(events=[{"eliminate": "Q"}])), "candidato desconhecido: 'Q'."),
        (
            json.dumps(bad(events=[{"withdraw": "A"}, {"end_of_list": "A"}])),
            "Evento 2 (end_of_list A): A já desistiu (ou não tomou posse) e está fora de todas as listas.",
        ),
    ],
)
def test_command_line_bad_scenario_exits_2_with_the_portuguese_message_only(stdin, message):
    result = manage_in_process("simulate", "-", stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "CommandError" not in result.stderr


def test_command_line_missing_file_exits_2_and_an_unmigrated_database_still_knows_the_founding_laws(tmp_path):
    missing = manage(str(tmp_path / "nao-existe.json"))
    assert missing.returncode == 2 and "Arquivo não encontrado" in missing.stderr
    result = manage("-", stdin=json.dumps(WORKED_EXAMPLE), database=tmp_path / "vazio.sqlite3")
    assert result.returncode == 0, result.stderr
    assert without_extras(json.loads(result.stdout)) == WORKED_EXAMPLE_OUTPUT


# Without a database that can be read (a fresh checkout before `migrate`) --------------------------------


@pytest.mark.parametrize("slug", ["santa-maria", "angra-dos-reis"])
def test_founding_laws_are_known_without_a_migrated_database(db, tmp_path, slug):
    """The founding laws' parameters are the seeded rows': the same answer with or without the database."""
    from candidates.engine_params import params_from_policy
    from candidates.management.commands.simulate import founding_policy

    seeded = Policy.objects.get(slug=slug)  # as the data migrations left it
    assert params_from_policy(founding_policy(slug)) == params_from_policy(seeded)
    scenario = {**WORKED_EXAMPLE, "policy": slug, "pcd": {"percent": 5}, "vacancies": 10}
    scenario["events"] = [{"call": 10}]
    with_database = simulate(tmp_path, scenario)
    empty = tmp_path / "vazio.sqlite3"  # no tables at all
    result = manage("-", stdin=json.dumps(scenario), database=empty)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == with_database


def test_an_unknown_slug_without_a_database_says_which_laws_are_known(tmp_path):
    result = manage(
        "-", stdin=json.dumps({**WORKED_EXAMPLE, "policy": "porto-alegre"}), database=tmp_path / "x"
    )
    assert result.returncode == 2
    assert "só as leis fundadoras são conhecidas (angra-dos-reis, santa-maria)" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_replacement_is_named_by_its_place_in_the_published_list_and_in_todays(policies, tmp_path):
    """Issue 19: after a withdrawal ahead, "o 3º da lista geral" where the published list says 4º. The
    why gives the published place, and today's place (RULES §4 counts those still on the list) beside it."""
    scenario = {
        "policy": "santa-maria",
        "pcd": None,
        "vacancies": 5,
        "candidates": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}, {"id": "F"}],
        "events": [{"call": 2}, {"withdraw": "B"}, {"call": 2}],
    }
    whys = {n["candidate"]: n["why"] for n in simulate(tmp_path, scenario)["nominations"]}
    assert "A é o 1º da lista geral e o primeiro ainda não nomeado" in whys["A"]
    assert "C é o 3º da lista geral publicada (2º na lista de hoje)" in whys["C"]
    assert "D é o 4º da lista geral publicada (3º na lista de hoje)" in whys["D"]
