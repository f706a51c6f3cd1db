"""``manage.py simulate`` with RULES §4 items 7–8 (RULES §8): the events ``reinstate``, ``court_hold``,
``court_release``, the policy key ``reinstatement``, the status ``on_hold``, the flags ``reinstated`` and
``displaced``, and their bad scenarios (exit 2), with the PcD reserve without a cap."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.command_line import manage_in_process

from .test_simulate import OBJECT_POLICY, WORKED_EXAMPLE, bad, simulate

REFILLED = [{"call": 5}, {"eliminate": "N2"}, {"call": 1}]


def scenario(events: list[dict], *, rule: str | None = None, vacancies: int = 5) -> dict:
    policy = dict(OBJECT_POLICY)
    if rule is not None:
        policy["reinstatement"] = rule
    return {**WORKED_EXAMPLE, "policy": policy, "vacancies": vacancies, "events": events}


def test_rules_par4_item7_next_seat_through_simulate(tmp_path):
    output = simulate(tmp_path, scenario([*REFILLED, {"reinstate": "N2"}, {"open": 1}, {"call": 1}]))
    last = output["nominations"][-1]
    assert {k: v for k, v in last.items() if k != "why"} == {
        "order": 7,
        "seat": 6,
        "kind": "open",
        "candidate": "N2",
        "list": "open",
        "status": "active",
        "reinstated": True,
    }
    assert last["why"].startswith("6ª vaga: devida a N2, reintegrado(a)")
    assert output["nominations"][5]["candidate"] == "N3" and output["nominations"][5]["status"] == "active"
    assert all("displaced" not in n and "reinstated" not in n for n in output["nominations"][:6])


def test_rules_par4_item7_own_seat_through_simulate(tmp_path):
    output = simulate(tmp_path, scenario([*REFILLED, {"reinstate": "N2"}], rule="own_seat"))
    third, sixth = output["nominations"][2], output["nominations"][5]
    assert (third["status"], third.get("reinstated"), third["list"]) == ("active", True, "racial")
    assert (sixth["status"], sixth.get("displaced")) == ("annulled", True)


def test_rules_par4_item8_on_hold_through_simulate(tmp_path):
    output = simulate(tmp_path, scenario([{"court_hold": "N2"}, {"call": 5}]))
    assert output["nominations"][2]["status"] == "on_hold"
    output = simulate(tmp_path, scenario([{"court_hold": "N2"}, {"call": 5}, {"court_release": "N2"}]))
    assert output["nominations"][2]["status"] == "active"


BAD = [
    ("reinstate_withdrawn", bad(events=[{"withdraw": "N2"}, {"reinstate": "N2"}]), "desistiu"),
    ("reinstate_never_removed", bad(events=[{"reinstate": "N2"}]), "nada a reintegrar"),
    ("reinstate_twice", bad(events=[{"eliminate": "N2"}, {"reinstate": "N2"}, {"reinstate": "N2"}]), "nada a reintegrar"),
    ("reinstate_after_exclusion_undone", bad(events=[{"exclude_from_reserve": "N2"}, {"reinstate": "N2"}, {"reinstate": "N2"}]), "nada a reintegrar"),
    ("court_hold_withdrawn", bad(events=[{"withdraw": "N2"}, {"court_hold": "N2"}]), "fora de todas as listas"),
    ("court_hold_eliminated", bad(events=[{"eliminate": "N2"}, {"court_hold": "N2"}]), "fora de todas as listas"),
    ("court_hold_twice", bad(events=[{"court_hold": "N2"}, {"court_hold": "N2"}]), "já está sob ordem judicial"),
    ("court_release_not_held", bad(events=[{"court_release": "N2"}]), "não está sob ordem judicial"),
    ("court_release_twice", bad(events=[{"court_hold": "A"}, {"court_release": "A"}, {"court_release": "A"}]), "não está sob ordem judicial"),
    ("reinstate_unknown", bad(events=[{"reinstate": "Z"}]), "candidato desconhecido: 'Z'"),
    ("unknown_reinstatement_rule", bad(policy={**OBJECT_POLICY, "reinstatement": "old_seat"}), "policy.reinstatement"),
    ("pcd_without_a_cap", bad(pcd={"percent": 5, "cap_percent": None}), "pcd.cap_percent não pode ser nulo"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_rules_par8_bad_scenarios_of_items_7_8_exit_2(tmp_path, data, message):
    path = tmp_path / "cenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("simulate", str(path), stdout=io.StringIO())
    assert caught.value.returncode == 2
    assert message in str(caught.value)


def test_rules_par8_command_line_refuses_a_reinstatement_of_a_withdrawn_candidate_with_status_2():
    result = manage_in_process(
        "simulate", "-", stdin=json.dumps(bad(events=[{"withdraw": "N2"}, {"reinstate": "N2"}]))
    )
    assert result.returncode == 2 and "desistiu" in result.stderr and not result.stdout
