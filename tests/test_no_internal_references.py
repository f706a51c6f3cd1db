"""No screen, message, help text or act prints a reference to our design notes ("RULES §5", "RULES.md §8"):
a person reads the law, the edital or the case law, or plain words. Code comments and docstrings may cite
RULES (they speak to engineers).

Two scans, no database: every string literal of the apps' Python that is not a docstring (help_text,
verbose_name, messages, ValidationError, a command's help, an act's text: comments are not in the syntax
tree), and every template's text outside ``{# #}`` and ``{% comment %}``. Migrations are left out: they keep
the help texts as they were when written, and the newest one of each field holds today's text.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("candidates", "contests", "declarations", "portal", "workspace", "config")
INTERNAL = re.compile(r"RULES(?:\.md)?\s*§")
TEMPLATE_COMMENT = re.compile(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}", re.S)


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.add(id(first.value))
    return found


def python_hits(source: str, name: str = "<test>") -> list[str]:
    tree = ast.parse(source, name)
    skip = docstrings(tree)
    return [
        f"{name}:{node.lineno}: {node.value.strip()[:90]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and INTERNAL.search(node.value)
    ]


def template_hits(source: str, name: str = "<test>") -> list[str]:
    # Comments blanked line for line, so the numbers still point at the file.
    text = TEMPLATE_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    return [
        f"{name}:{i}: {line.strip()[:90]!r}"
        for i, line in enumerate(text.splitlines(), 1)
        if INTERNAL.search(line)
    ]


def test_the_scanners_see_user_text_and_skip_comments_and_docstrings():
    python = '''"""Module docstring (RULES §5)."""
# A comment (RULES §4)
class Policy:
    """Class docstring (RULES §4)."""
    field = Field(help_text="Quando a vaga (RULES §4).")
def view():
    """Function docstring (RULES §5)."""
    messages.error(request, f"Recusado ({n}, RULES.md §6).")
'''
    hits = python_hits(python)
    assert sorted(hit.split(":")[1] for hit in hits) == ["5", "8"]
    template = (
        "{# RULES §5 #}\n{% comment %}\nRULES §5\n{% endcomment %}\n<p>Comissão (RULES §5; ADC 41).</p>\n"
    )
    assert [hit.split(":")[1] for hit in template_hits(template)] == ["5"]


def test_no_user_visible_string_of_the_apps_cites_rules():
    hits = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                hits += python_hits(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert hits == [], "Cite the law, the edital or the case law, not RULES:\n" + "\n".join(hits)


def test_no_template_text_cites_rules():
    hits = []
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.is_file() and path.suffix in {".html", ".txt", ".xml"}:
            hits += template_hits(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert hits == [], "Cite the law, the edital or the case law, not RULES:\n" + "\n".join(hits)
