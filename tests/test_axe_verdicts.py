"""axe's answers kept between runs (``tests.axe.Verdicts``): the same document gets the same key, any other
document another, and what is kept comes back as it was."""

from __future__ import annotations

import os
import time

import pytest

from tests import axe
from tests.axe import Verdicts

PAGE = (
    '<html lang="pt-BR"><head><title>Histórico</title></head><body><main><h1>Histórico</h1>'
    '<form><input type="hidden" name="csrfmiddlewaretoken" value="{token}"><button>Salvar</button></form>'
    '<a href="/tarefas/{task}/">tarefa</a><p>06/12/2026 {time} por manager</p><p>{text}</p></main></body></html>'
)
DESKTOP = {"width": 1280, "height": 900}


def page(**changes: str) -> str:
    values = {
        "token": "kq2X9",
        "task": "6fcb8833-4838-4c05-b87d-36f00e1f3651",
        "time": "12:08",
        "text": "Inscrição homologada",
    }
    return PAGE.format(**{**values, **changes})


@pytest.fixture
def verdicts(tmp_path, monkeypatch):
    monkeypatch.delenv("COTAS_TEST_AXE", raising=False)
    return Verdicts(tmp_path / "axe-results")


def test_a_new_token_task_or_time_is_the_same_document(verdicts):
    key = verdicts.key(page(), DESKTOP, "156.0")
    assert verdicts.key(page(token="Zz81b"), DESKTOP, "156.0") == key
    assert verdicts.key(page(task="63337ab5-9e1c-45cc-b099-8a1468019b46"), DESKTOP, "156.0") == key
    assert verdicts.key(page(time="13:09"), DESKTOP, "156.0") == key
    # Seconds printed are three characters more: another layout, another document.
    seconds = verdicts.key(page(time="12:08:00"), DESKTOP, "156.0")
    assert seconds != key
    assert verdicts.key(page(time="13:09:17"), DESKTOP, "156.0") == seconds


def test_another_text_viewport_or_browser_is_another_document(verdicts):
    key = verdicts.key(page(), DESKTOP, "156.0")
    assert verdicts.key(page(text="Inscrição indeferida"), DESKTOP, "156.0") != key
    assert verdicts.key(page().replace('lang="pt-BR"', 'lang="en"'), DESKTOP, "156.0") != key
    assert verdicts.key(page(), {"width": 390, "height": 844}, "156.0") != key
    assert verdicts.key(page(), DESKTOP, "157.0") != key


def test_a_changed_static_file_is_another_document(verdicts, tmp_path, monkeypatch):
    static = tmp_path / "checkout" / "static" / "css"
    static.mkdir(parents=True)
    (static / "app.css").write_text("main { color: #222; }")
    monkeypatch.setattr(axe, "ROOT", tmp_path / "checkout")
    before = Verdicts(tmp_path / "a").key(page(), DESKTOP, "156.0")
    (static / "app.css").write_text("main { color: #999; }")
    assert Verdicts(tmp_path / "b").key(page(), DESKTOP, "156.0") != before


def test_an_answer_comes_back_as_it_was_kept(verdicts):
    found = [{"id": "image-alt", "impact": "critical", "help": "Imagens têm texto alternativo", "nodes": []}]
    key = verdicts.key(page(), DESKTOP, "156.0")
    assert verdicts.get(key) is None
    verdicts.put(key, found)
    assert verdicts.get(key) == found
    assert (verdicts.ran, verdicts.reused) == (1, 1)
    verdicts.put(verdicts.key(page(text="outra"), DESKTOP, "156.0"), [])
    assert verdicts.get(verdicts.key(page(text="outra"), DESKTOP, "156.0")) == []


def test_cotas_test_axe_runs_axe_again(verdicts, monkeypatch):
    key = verdicts.key(page(), DESKTOP, "156.0")
    verdicts.put(key, [])
    monkeypatch.setenv("COTAS_TEST_AXE", "1")
    assert Verdicts(verdicts.folder).get(key) is None


def test_answers_older_than_two_days_go(verdicts):
    old, new = (verdicts.key(page(text=t), DESKTOP, "156.0") for t in ("velha", "nova"))
    verdicts.put(old, [])
    verdicts.put(new, [])
    three_days_ago = time.time() - 3 * 86400
    os.utime(verdicts.folder / f"{old}.json", (three_days_ago, three_days_ago))
    verdicts.prune()
    assert sorted(p.stem for p in verdicts.folder.glob("*.json")) == [new]
