"""Classification list of 10,000 candidates as PDF: time, pages, rows per second, peak memory (issue 9:
at most 30 s and 1 GB). Renders through the pipeline of contests/documents (chunks in parallel worker
processes, merged with pypdf, page numbers stamped); no database needed.

    make bench-pdf         (or: python bench/pdf.py [ROWS])
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "bench-pdf")
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")

import django

django.setup()

from unittest import mock  # noqa: E402

from contests.documents import render  # noqa: E402

FIRST = ["Ana", "João", "Maria", "José", "Luíza", "Carlos", "Francisca", "Antônio", "Beatriz", "Raimundo"]
LAST = ["da Silva", "dos Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima"]


def rows(n: int) -> list[tuple[int, str, str, str]]:
    out = []
    for i in range(n):
        name = f"{FIRST[i % len(FIRST)]} {FIRST[(i // 7) % len(FIRST)]} {LAST[(i // 3) % len(LAST)]}"
        score = 9000 - (i * 7919) % 5000
        out.append((i + 1, f"2026{i + 1:06d}", name, f"{score // 100},{score % 100:02d}"))
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    general = rows(n)
    racial = [(k + 1, *r[1:]) for k, r in enumerate(general[::5])]
    blocks = [
        render.Block("Lista geral (ampla concorrência)", general),
        render.Block("Lista reservada a negros", racial),
    ]
    start = time.perf_counter()
    with mock.patch.object(render.Organization, "current", return_value=None):
        pdf = render.render_blocks(
            "pdf/result_list.html",
            {"heading": "Cargo BENCH – Resultado final", "intro": "", "closing": ""},
            blocks,
            render.Stamp(code="BENC-H000", draft=False),
            title="Lista de classificação (bench)",
        )
    elapsed = time.perf_counter() - start
    total_rows = len(general) + len(racial)
    pages = render.page_count(pdf)
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"candidatos: {n} ({total_rows} linhas com a lista reservada)")
    print(f"tempo: {elapsed:.1f} s (limite 30 s)")
    print(f"páginas: {pages}; {len(pdf) / 1e6:.1f} MB")
    print(f"linhas por segundo: {total_rows / elapsed:.0f}")
    print(
        f"memória de pico: processo principal {me:.0f} MB; maior processo de renderização {children:.0f} MB (limite 1 GB)"
    )


if __name__ == "__main__":
    main()
