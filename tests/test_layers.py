"""The direction of imports between apps (DESIGN.md, Apps and their borders), checked like purity.

The domain apps import only downward: ``contests`` ← ``candidates`` ← ``declarations``. The ``portal`` (the
public site) and the ``workspace`` (the staff shell) sit on top: they import the domain, the domain never
imports them, and neither imports the other. And no project module is imported inside a function, the
habit that hid two import circles: a function that needs another layer's code moves to where it belongs.
The one exception is ``AppConfig.ready()``, where Django wants late imports, plus the named places in
``LATE_IMPORTS``, each with its reason. No database.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# An app's layer: it may import its own layer's app and those below. Apps on the same layer other than
# itself are out of reach (portal and workspace do not know each other).
LAYERS = {"contests": 0, "candidates": 1, "declarations": 2, "monitoring": 3, "portal": 4, "workspace": 4}
# Project packages that are not apps: the settings and URLs sit above everything and are not checked;
# tests and bench scripts may import anything.
OUTSIDE = {"config", "tests", "bench"}
# "module:function" -> why a project import inside it cannot be at the top.
LATE_IMPORTS: dict[str, str] = {
    "portal.apps:on_publication": "portal.snapshots brings in the lists' documents and the PDF pipeline, half a "
    "second of start-up for every manage.py command: imported when a publication first needs it",
}


@dataclass(frozen=True)
class Import:
    module: str  # what is imported, relative imports resolved
    line: int
    function: str  # the enclosing function's qualified name, "" at module level


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> dict[str, Path]:
    found = {}
    for app in LAYERS:
        base = ROOT / app
        if base.is_dir():
            found.update({module_name(path): path for path in sorted(base.rglob("*.py"))})
    return found


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*parts, node.module] if node.module else parts)


def imports(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Every import of ``source``, with the function it sits in (methods named ``Class.method``)."""
    found: list[Import] = []

    def visit(node: ast.AST, scope: list[str], in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, [*scope, child.name], True)
            elif isinstance(child, ast.ClassDef):
                visit(child, [*scope, child.name], in_function)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(alias.name, child.lineno, ".".join(scope) if in_function else ""))
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(child, module, is_package)
                where = ".".join(scope) if in_function else ""
                found.append(Import(base, child.lineno, where))
                for alias in child.names:
                    # ``from candidates import engine`` imports the package candidates.engine
                    candidate = f"{base}.{alias.name}"
                    path = ROOT.joinpath(*candidate.split("."))
                    if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
                        found.append(Import(candidate, child.lineno, where))
            else:
                visit(child, scope, in_function)

    visit(ast.parse(source), [], False)
    # ``from declarations import tasks`` names the package and the module: keep the most specific name of
    # each statement, so one statement is one finding.
    by_line: dict[int, Import] = {}
    for item in found:
        if item.line not in by_line or len(item.module) > len(by_line[item.line].module):
            by_line[item.line] = item
    return [by_line[line] for line in sorted(by_line)]


def upward(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that reach an app above its own (or a sibling on its layer)."""
    app = module.split(".")[0]
    problems = []
    for item in imports(source, module, is_package=is_package):
        target = item.module.split(".")[0]
        if target in LAYERS and target != app and LAYERS[target] >= LAYERS[app]:
            problems.append(
                f"{module} (linha {item.line}) importa {item.module}: {target} não está abaixo de {app}"
            )
    return problems


def late(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The project imports of ``module`` made inside a function, other than in ``AppConfig.ready()`` and the
    named ``LATE_IMPORTS``."""
    problems = []
    for item in imports(source, module, is_package=is_package):
        if not item.function or item.module.split(".")[0] not in set(LAYERS) | OUTSIDE:
            continue
        if module.endswith(".apps") and item.function.endswith(".ready"):
            continue
        if f"{module}:{item.function}" in LATE_IMPORTS:
            continue
        problems.append(f"{module} (linha {item.line}) importa {item.module} dentro de {item.function}()")
    return problems


MODULES = app_modules()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_apps_import_only_the_layers_below(name):
    path = MODULES[name]
    assert upward(path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py") == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_project_import_hides_inside_a_function(name):
    path = MODULES[name]
    assert late(path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py") == []


# STYLE.md, Layout: split a module before it passes ~700 lines (migrations, written by makemigrations, aside).
MAX_LINES = 700


@pytest.mark.parametrize(
    "name", sorted(name for name, path in MODULES.items() if "migrations" not in path.parts)
)
def test_no_module_passes_700_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name}: {lines} linhas"


def test_every_app_has_a_layer_and_every_late_import_exists():
    apps = {path.parent.name for path in ROOT.glob("*/apps.py") if (path.parent / "__init__.py").exists()}
    assert apps <= set(LAYERS), f"apps sem camada em LAYERS: {sorted(apps - set(LAYERS))}"
    for place in LATE_IMPORTS:
        module, function = place.split(":")
        assert module in MODULES, place
        assert any(item.function == function for item in imports(MODULES[module].read_text(), module)), place


# The checker itself: it must catch what it is there to catch. ----------------------------------------------


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from candidates.models import Nomination", "contests.pendencies", 1),
        ("import declarations.services", "candidates.views", 1),
        ("from portal import pages", "declarations.links", 1),
        ("from workspace.pendencies import items", "portal.views", 1),  # siblings do not know each other
        ("from ...candidates.engine import allocation", "contests.documents.edital", 1),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from candidates.models import X",
            "contests.x",
            1,
        ),
        ("from contests.models import Contest", "candidates.services", 0),
        ("from candidates import selectors\nfrom declarations.models import Procedure", "portal.views", 0),
        ("from . import services", "declarations.procedure.views", 0),
        ("import django.db\nimport json", "contests.models", 0),
    ],
)
def test_checker_catches_an_upward_import(source, module, expected):
    assert len(upward(source, module)) == expected


def test_checker_catches_an_import_inside_a_function():
    source = (
        "from contests.models import Contest\n"
        "def publish():\n"
        "    from declarations import links\n"
        "    import json\n"
        "class Form:\n"
        "    def clean(self):\n"
        "        from .selectors import visible\n"
    )
    assert late(source, "declarations.procedure.services") == [
        "declarations.procedure.services (linha 3) importa declarations.links dentro de publish()",
        "declarations.procedure.services (linha 7) importa declarations.procedure.selectors dentro de Form.clean()",
    ]


def test_checker_allows_app_config_ready_only():
    source = "from django.apps import AppConfig\nclass C(AppConfig):\n    def ready(self):\n        from contests import audit\n"
    assert late(source, "contests.apps") == []
    assert late(source, "contests.audit") == [
        "contests.audit (linha 4) importa contests.audit dentro de C.ready()"
    ]
