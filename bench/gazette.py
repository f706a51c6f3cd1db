"""The gazette text of a long act: a classification list of 10,000 rows (a general list and the reserved
ones, some names long enough to go on in a second line) rendered as the list pipeline renders it
(``render_blocks``), then read back as plain text, .docx and .odt (``contests.documents.gazette``). Prints
the PDF's pages and the time of each export, read cold (the first download of the act) and from the cache
(every later one: the text is cached by the PDF's SHA-256). Checks that every row came out, one per line.

    .venv/bin/python bench/gazette.py [--rows 10000]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIRST = ["Maria", "José", "Ana", "João", "Francisca", "Antônio", "Adriana", "Carlos", "Juliana", "Paulo"]
LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes"]
LONG = " de Albuquerque Cavalcanti e Souza Ferreira Lima Neto Sobrinho Júnior"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-gazette-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        ENV_FILE="/nonexistent",
        DEBUG="1",  # development defaults: nothing here is served
        SECRET_KEY="bench-gazette-not-secret",
        STATIC_ROOT=str(tmp / "static"),
        MEDIA_ROOT=str(tmp / "media"),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp / 'bench.sqlite3'}",
    )
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    from contests.documents import gazette, render

    call_command("migrate", verbosity=0)
    general = [
        (i, f"2026{i:06d}", f"{FIRST[i % 10]} {LAST[i * 7 % 10]} {LAST[i * 3 % 10]}" + (LONG if i % 97 == 0 else ""),
         f"{90 - i / 1000:.2f}".replace(".", ","))
        for i in range(1, int(args.rows * 0.7) + 1)
    ]  # fmt: skip
    racial = general[::3][: int(args.rows * 0.2)]
    pcd = general[::7][: args.rows - len(general) - len(racial)]
    blocks = [
        render.Block("ANSI – Analista: Lista geral (ampla concorrência, cotistas incluídos)", general),
        render.Block("ANSI – Analista: Lista reservada a negros", racial),
        render.Block("ANSI – Analista: Lista reservada a pessoas com deficiência", pcd),
    ]
    rows = sum(len(block.rows) for block in blocks)
    started = time.perf_counter()
    pdf = render.render_blocks(
        "pdf/result_list.html",
        {"heading": "Concurso 1/2026", "intro": "Candidatos aprovados.", "closing": "LGPD."},
        blocks,
        render.Stamp(code="ABCD-2345", draft=False),
        title="Edital nº 3/2026 – Resultado final",
    )
    print(f"PDF: {rows} linhas, {render.page_count(pdf)} páginas, {time.perf_counter() - started:.1f} s")
    sha = hashlib.sha256(pdf).hexdigest()
    cache.clear()
    for fmt in ("txt", "docx", "odt"):
        cache.clear()
        started = time.perf_counter()
        data = gazette.export(pdf, fmt, title="Resultado final", sha256=sha)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        gazette.export(pdf, fmt, title="Resultado final", sha256=sha)
        warm = time.perf_counter() - started
        print(f"{fmt}: {len(data) / 1024:.0f} KiB, lido do PDF {cold:.1f} s, do cache {warm:.2f} s")
        if fmt == "txt":
            table = [line for line in data.decode().splitlines() if "\t" in line]
            assert len(table) == rows + len(blocks), (len(table), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
