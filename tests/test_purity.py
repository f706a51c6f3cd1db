"""The law lives in pure modules (STYLE.md, Layout): no Django, no project import but the other pure modules.

Checked twice: statically (``ast``: every ``import`` and ``from … import``, relative ones resolved, also
under ``if TYPE_CHECKING``), and by importing the module in a fresh interpreter and looking at
``sys.modules``, which also catches a Django import made by a package ``__init__`` or a third-party
library. The pure set is chosen by path, not by what a module says of itself: every module under
``candidates/engine/``, and the named pure modules of the other apps (those that exist). No database.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Pure by path: each exists (a test checks it); a new pure module is added here when it is written.
NAMED_PURE = (
    "contests.quotas",
    "contests.lifecycle",
    "contests.documents.chapter",
    "contests.documents.checks",
    "contests.documents.heading",
    "contests.wording",
    "contests.calendar",
    "contests.law_term",
    "contests.text_search",
    "declarations.courts.cnj",
    "declarations.courts.rules",
    "declarations.deadlines",
    "declarations.procedure.acts",
    "declarations.procedure.finality",
    "declarations.procedure.appeals",
    "declarations.procedure.notices",
    "declarations.procedure.rules",
    "declarations.procedure.rules_labels",
    "declarations.hetero.draw",
    "declarations.hetero.rules",
    "monitoring.privacy",
)
PURE_PACKAGES = ("candidates/engine",)
# Top-level names that belong to the project (apps, config, tests, scripts).
PROJECT = frozenset(
    path.stem
    for path in ROOT.iterdir()
    if not path.name.startswith(".")
    and ((path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py")
) | {"bench", "config", "contests", "candidates", "declarations", "monitoring", "tests"}
# The clock and settings are passed in by the caller, never read (STYLE.md, Layout).
FORBIDDEN_CALLS = re.compile(r"^(?:datetime\.)?(?:date|datetime)\.(?:today|now|utcnow)$|^time\.time$")


def module_path(name: str) -> Path:
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def pure_modules() -> set[str]:
    """Every module under the pure packages, and the named pure modules that exist."""
    found = {name for name in NAMED_PURE if module_path(name).exists()}
    for package in PURE_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path.name != "__init__.py":
                found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


PURE = frozenset(pure_modules())


def imported_modules(source: str, module: str) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, relative imports resolved."""
    package = module.rsplit(".", 1)[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base_parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            names.add(base)
            # ``from contests import models`` imports the module contests.models.
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if module_path(candidate).exists() or (ROOT.joinpath(*candidate.split("."))).is_dir():
                    names.add(candidate)
    return names


def violations(source: str, module: str, pure: frozenset[str] = PURE) -> list[str]:
    """What ``module`` imports that a pure module may not: Django, or a project module that is not pure."""
    found = []
    for name in sorted(imported_modules(source, module)):
        top = name.split(".")[0]
        if top == "django":
            found.append(f"{module} importa {name} (Django)")
        elif top in PROJECT and name not in pure and name not in _packages_of(pure):
            found.append(f"{module} importa {name}, que não é um módulo puro")
    return found


def _packages_of(modules: frozenset[str]) -> set[str]:
    """The packages of the pure modules (importing ``contests.quotas`` runs ``contests/__init__.py``)."""
    return {".".join(name.split(".")[:i]) for name in modules for i in range(1, name.count(".") + 1)}


def clock_reads(source: str) -> list[str]:
    calls = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            dotted = ast.unparse(node.func)
            if FORBIDDEN_CALLS.match(dotted) or dotted.endswith("timezone.now"):
                calls.append(f"{dotted}() na linha {node.lineno}")
    return calls


def _require(name: str) -> Path:
    return module_path(name)


@pytest.mark.parametrize("name", sorted(PURE))
def test_pure_module_imports_neither_django_nor_the_project(name):
    source = _require(name).read_text(encoding="utf-8")
    assert violations(source, name) == []


@pytest.mark.parametrize("name", sorted(PURE))
def test_pure_module_reads_no_clock(name):
    """They never call now()/today(): the caller passes the date in (STYLE.md, Layout)."""
    source = _require(name).read_text(encoding="utf-8")
    assert clock_reads(source) == []


@pytest.mark.parametrize("name", sorted(PURE))
def test_pure_module_loads_no_django_when_imported(name):
    _require(name)
    allowed = sorted(PURE | _packages_of(PURE))
    script = (
        "import importlib, json, sys\n"
        f"importlib.import_module({name!r})\n"
        f"project, allowed = {sorted(PROJECT)!r}, set({allowed!r})\n"
        "print(json.dumps({\n"
        "    'django': sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')),\n"
        "    'project': sorted(m for m in sys.modules if m.split('.')[0] in project and m not in allowed),\n"
        "}))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded == {"django": [], "project": []}


def test_the_pure_set_is_chosen_by_path_and_lists_only_modules_that_exist():
    engine = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "candidates" / "engine").glob("*.py")
        if path.name != "__init__.py"
    }
    assert {
        "candidates.engine.allocation",
        "candidates.engine.reference",
        "candidates.engine.seating",
    } <= engine
    assert engine | {"contests.quotas"} <= PURE
    assert all(module_path(name).exists() for name in PURE)


# The checker itself: it must catch what it is there to catch. ----------------------------------------------


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("import django", "contests.quotas", ["contests.quotas importa django (Django)"]),
        (
            "from django.db import models",
            "contests.quotas",
            ["contests.quotas importa django.db (Django)"],
        ),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from django.http import HttpRequest",
            "contests.quotas",
            ["contests.quotas importa django.http (Django)"],
        ),
        (
            "from contests import models",
            "candidates.engine.allocation",
            ["candidates.engine.allocation importa contests.models, que não é um módulo puro"],
        ),
        (
            "from . import services",
            "contests.quotas",
            ["contests.quotas importa contests.services, que não é um módulo puro"],
        ),
        (
            "from .models import Contest",
            "contests.quotas",
            ["contests.quotas importa contests.models, que não é um módulo puro"],
        ),
        (
            "from ...contests.models import Contest",
            "candidates.engine.allocation",
            ["candidates.engine.allocation importa contests.models, que não é um módulo puro"],
        ),
        (
            "import config.settings",
            "declarations.deadlines",
            ["declarations.deadlines importa config.settings, que não é um módulo puro"],
        ),
        (
            "from contests.quotas import ReserveRule\nfrom contests import quotas",
            "candidates.engine.allocation",
            [],
        ),
        ("import math\nfrom fractions import Fraction\nimport datetime", "contests.quotas", []),
    ],
)
def test_checker_catches_forbidden_imports(source, module, expected):
    assert violations(source, module) == expected


def test_checker_catches_clock_reads():
    source = "import datetime\nfrom django.utils import timezone\ndatetime.date.today()\ntimezone.now()\n"
    assert clock_reads(source) == ["datetime.date.today() na linha 3", "timezone.now() na linha 4"]
    assert clock_reads("import datetime\ndatetime.date(2026, 1, 1)\n") == []


def strict_mypy_patterns() -> list[str]:
    """The modules pyproject.toml checks with mypy's strict options (the override that disallows untyped
    definitions)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for override in config["tool"]["mypy"]["overrides"]:
        if override.get("disallow_untyped_defs"):
            return list(override["module"])
    return []


def covered(name: str, patterns: list[str]) -> bool:
    return any(name == p or (p.endswith(".*") and name.startswith(p[:-1])) for p in patterns)


def test_every_pure_module_is_checked_by_strict_mypy():
    """The pure set is chosen by path here; the strict mypy list must hold all of it, so a new pure module
    left out of pyproject.toml fails this test instead of going unchecked."""
    patterns = strict_mypy_patterns()
    assert sorted(name for name in PURE if not covered(name, patterns)) == []


def test_the_strict_mypy_check_sees_a_missing_module():
    assert covered("candidates.engine.seating", ["candidates.engine.*"])
    assert not covered("contests.wording", ["contests.quotas", "candidates.engine.*"])
