"""``manage.py``: what it does around Django's own entry point."""

from __future__ import annotations

import gc

import django.core.management
import pytest

import manage


def test_manage_freezes_what_is_left_once_the_command_is_done(monkeypatch):
    """The interpreter's exit then frees the rest without its collections walking every object again."""
    calls: list[str] = []
    monkeypatch.setattr(django.core.management, "execute_from_command_line", lambda argv: calls.append("run"))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    manage.main()
    assert calls == ["run", "freeze"]


def test_a_command_that_exits_with_an_error_is_not_followed_by_the_freeze(monkeypatch):
    calls: list[str] = []

    def fails(argv):
        raise SystemExit(1)

    monkeypatch.setattr(django.core.management, "execute_from_command_line", fails)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    with pytest.raises(SystemExit):
        manage.main()
    assert calls == []
