"""Portuguese wording shared by the screens: real plurals instead of "vaga(s)" (issue 13)."""

from __future__ import annotations


def plural(n: int, one: str, many: str) -> str:
    """``n`` followed by the singular or the plural words: ``plural(2, "vaga aberta", "vagas abertas")``."""
    return f"{n} {one if n == 1 else many}"
