"""The shape of ``declarations/`` (DESIGN.md, STYLE.md "One shape per sub-domain"): each sub-domain is a
package with the same files; no project import hides inside a function to dodge an import circle (the
function moves instead; ``AppConfig.ready()`` aside); no module passes 700 lines. No database."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = frozenset({"config", "contests", "candidates", "declarations"})
SUB_DOMAINS = ("procedure", "hetero")
SHAPE = ("rules.py", "services.py", "selectors.py", "documents.py", "forms.py", "urls.py")
MODULES = sorted(
    [path for path in (ROOT / "declarations").rglob("*.py") if "migrations" not in path.parts]
    + [ROOT / "candidates" / "management" / "commands" / "_demo_hetero.py"]
)


def imports_inside_functions(source: str) -> list[str]:
    """Every project module (or relative import) imported in a function body, but ``ready()``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name == "ready":
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                names = ["." * inner.level + (inner.module or "")]
            else:
                continue
            found += [
                f"{name} (linha {inner.lineno})"
                for name in names
                if name.startswith(".") or name.split(".")[0] in PROJECT
            ]
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_project_import_inside_a_function(path):
    assert imports_inside_functions(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_passes_700_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 700


@pytest.mark.parametrize("package", SUB_DOMAINS)
def test_each_sub_domain_has_the_same_files(package):
    folder = ROOT / "declarations" / package
    assert [name for name in SHAPE if not (folder / name).exists()] == []
    assert (folder / "views.py").exists() or (folder / "views" / "__init__.py").exists()


def test_the_checker_finds_an_import_inside_a_function_and_spares_ready():
    source = (
        "import datetime\n"
        "from contests.models import Contest\n"
        "def f():\n"
        "    from declarations.procedure import services\n"
        "    import json\n"
        "    from . import rules\n"
        "class Config:\n"
        "    def ready(self):\n"
        "        from declarations import links\n"
    )
    assert imports_inside_functions(source) == [
        "declarations.procedure (linha 4)",
        ". (linha 6)",
    ]
