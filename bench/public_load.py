"""Result day on the public portal: one position with 100,000 registrations and its published
final run on PostgreSQL, served by gunicorn (2 workers), under 50 concurrent clients asking for list pages,
name and number searches, the contest page, the run page and the nomination order.

Seeds through the services (the importer's bulk path, the result engine, publication, homologation, the
first nominations), collects the static files, starts gunicorn, warms it up, then runs the load with an
asyncio client (no dependency: one connection per request, as gunicorn's sync workers close it) and prints
p50, p95, p99 and requests per second, overall and per kind of page, and the load average of the machine
(it is shared: the figures depend on what else runs). Exits 1 when p95 passes the floor (100 ms).

    make bench-public            # a fresh database, created and dropped around the run
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cotas_bench DEBUG=1 SECRET_KEY=x \\
        .venv/bin/python bench/public_load.py [--rows 100000] [--seconds 30] [--clients 50]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from synthetic import (  # noqa: E402  (bench/ is the script's directory)
    FIRST,
    LAST,
    create_contest,
)
from synthetic import build_csv as build_synthetic_csv  # noqa: E402

SLUG = "bench-public"
POSITION = ("PUB", "Cargo do dia do resultado", 100)
P95_FLOOR_MS = 100.0
PORT = int(os.environ.get("BENCH_PORT", "8765"))


def timed(label: str, fn):
    started = time.perf_counter()
    result = fn()
    print(f"{label}: {time.perf_counter() - started:.1f} s", flush=True)
    return result


def seed(rows: int):
    """The contest, its 100,000 registrations (the importer's bulk path), the published final run, the
    homologation and 20 nominations; returns the addresses to load."""
    contest, users = create_contest(
        SLUG, "950", "Concurso do dia do resultado (benchmark)", [POSITION], ["Secretaria", "Gestão"]
    )
    clerk, manager = users["Secretaria"], users["Gestão"]
    from django.urls import reverse

    from candidates.models import ResultEntry
    from candidates.services.imports import PhaseSpec, commit, parse_upload, suggest_mapping
    from candidates.services.nominations import nominations_call
    from candidates.services.results import result_run_compute, result_run_publish
    from contests.services import contest_homologate, contest_set_status

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "inscricoes.csv"
        timed(
            f"Arquivo gerado ({rows:,} linhas)",
            lambda: build_synthetic_csv(
                path, rows, [POSITION], seed=12, first_number=500001, cpf_offset=9090
            ),
        )
        table = parse_upload(path)
        specs = {
            "Nota Objetiva": PhaseSpec("Nota Objetiva", Decimal(100), Decimal(50)),
            "Nota Discursiva": PhaseSpec("Nota Discursiva", Decimal(10)),
        }
        timed(
            "Importação",
            lambda: commit(
                contest,
                table,
                suggest_mapping(contest, table.headers),
                clerk,
                today=datetime.date(2026, 5, 4),
                phase_specs=specs,
            ),
        )
    run = timed("Cálculo das listas", lambda: result_run_compute(contest=contest, by=clerk))
    run = timed("Publicação da lista final", lambda: result_run_publish(run=run, kind="final", by=manager))
    contest_set_status(contest=contest, status="in_progress", by=clerk, on=datetime.date(2026, 3, 2))
    contest_homologate(contest=contest, by=manager, date=datetime.date(2026, 6, 1), act="Decreto 950/2026")
    position = contest.positions.get()
    nominations_call(
        position=position,
        count=20,
        act_number="Portaria 950/2026",
        act_date=datetime.date(2026, 6, 10),
        by=clerk,
    )
    counts = {
        kind: ResultEntry.objects.filter(run=run, list=kind).count()
        for kind in (ResultEntry.List.OPEN, ResultEntry.List.RACIAL, ResultEntry.List.PCD)
    }
    print(
        f"  {counts['open']:,} na lista geral, {counts['racial']:,} na reservada a negros, {counts['pcd']:,} PcD",
        flush=True,
    )
    lists = {
        slug: (reverse("public:list", args=[SLUG, run.pk, position.pk, slug]), -(-counts[value] // 50))
        for slug, value in (("geral", "open"), ("racial", "racial"), ("pcd", "pcd"))
    }
    numbers = list(
        ResultEntry.objects.filter(run=run, list="open")
        .order_by("rank")
        .values_list("number", flat=True)[:: max(1, rows // 100)]
    )
    return {
        "contest": reverse("public:contest", args=[SLUG]),
        "run": reverse("public:run", args=[SLUG, run.pk]),
        "nominations": reverse("public:nominations", args=[SLUG, position.pk]),
        "lists": lists,
        "numbers": numbers,
    }


def address_mix(urls: dict, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, path) requests in the proportions of a result day: mostly list pages (the first pages most),
    then searches by name (accents or not) and by inscription number, the contest and run pages."""
    names = [f"{first} {last}" for first in FIRST for last in LAST]
    plain = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ô": "o", "ã": "a", "ç": "c", "ê": "e"}
    mix: list[tuple[str, str]] = []
    for _ in range(4000):
        roll = rng.random()
        if roll < 0.45:
            slug = rng.choice(["geral", "geral", "racial", "pcd"])
            base, pages = urls["lists"][slug]
            page = rng.randint(1, min(pages, 20)) if rng.random() < 0.7 else rng.randint(1, max(pages, 1))
            mix.append(("lista", base + (f"?pagina={page}" if page > 1 else "")))
        elif roll < 0.70:
            base, _ = urls["lists"][rng.choice(["geral", "racial"])]
            if rng.random() < 0.5:
                query = rng.choice(names)
                if rng.random() < 0.5:
                    query = "".join(plain.get(c, c) for c in query.lower())
            else:
                query = rng.choice(urls["numbers"])
            mix.append(("busca", base + "?" + urlencode({"q": query})))
        elif roll < 0.85:
            mix.append(("concurso", urls["contest"]))
        elif roll < 0.95:
            mix.append(("resultado", urls["run"]))
        else:
            mix.append(("nomeacoes", urls["nominations"]))
    return mix


async def fetch(path: str) -> tuple[int, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n"
    )
    writer.write(request.encode("utf-8"))
    await writer.drain()
    data = await reader.read()
    writer.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, (time.perf_counter() - started) * 1000


async def load(
    mix: list[tuple[str, str]], clients: int, seconds: float
) -> tuple[list[tuple[str, int, float]], float]:
    results: list[tuple[str, int, float]] = []
    deadline = time.perf_counter() + seconds
    cursor = iter(range(10**9))

    async def client() -> None:
        while time.perf_counter() < deadline:
            kind, path = mix[next(cursor) % len(mix)]
            try:
                status, ms = await fetch(path)
            except OSError:
                status, ms = 0, 0.0
            results.append((kind, status, ms))

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return results, time.perf_counter() - started


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]  # nearest rank


def report(results: list[tuple[str, int, float]], elapsed: float) -> float:
    ok = [ms for _, status, ms in results if status == 200]
    errors = sum(1 for _, status, _ in results if status != 200)
    print(
        f"\n{len(results):,} pedidos em {elapsed:.1f} s: {len(results) / elapsed:,.0f} pedidos/s; {errors} erros"
    )
    print(f"{'página':<11} {'pedidos':>8} {'p50':>8} {'p95':>8} {'p99':>8}")
    kinds = sorted({kind for kind, _, _ in results})
    for kind in [*kinds, "todas"]:
        values = ok if kind == "todas" else [ms for k, s, ms in results if k == kind and s == 200]
        print(
            f"{kind:<11} {len(values):>8,} {percentile(values, 50):>6.1f}ms {percentile(values, 95):>6.1f}ms "
            f"{percentile(values, 99):>6.1f}ms"
        )
    if ok:
        print(f"média {statistics.mean(ok):.1f} ms")
    return percentile(ok, 95)


def start_gunicorn(static_root: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-public-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "PUBLIC_BASE_URL": f"http://127.0.0.1:{PORT}",
        "ACCESS_CODE_KEY": os.environ.get("ACCESS_CODE_KEY") or "bench-public-not-secret",
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": static_root,
        "ENV_FILE": "/nonexistent",
        "LOG_LEVEL": "ERROR",
    }
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v0"], env=env, check=True
    )
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{PORT}",
        "--backlog", "2048", "--log-level", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    for _ in range(100):
        time.sleep(0.2)
        try:
            if asyncio.run(fetch("/saude/"))[0] == 200:
                return process
        except OSError:
            continue
    process.terminate()
    sys.exit("gunicorn não respondeu em 20 s.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("Aviso: DATABASE_URL não é PostgreSQL; o piso vale para PostgreSQL.", file=sys.stderr)
    urls = seed(args.rows)
    from django.db import connections

    connections.close_all()
    mix = address_mix(urls, random.Random(12))
    with tempfile.TemporaryDirectory() as static_root:
        server = start_gunicorn(static_root)
        try:
            # Warm-up: every distinct address once per worker, so the run measures a published site whose
            # pages are rendered (the first visitor of each page pays its rendering).
            distinct = sorted({path for _, path in mix})
            started = time.perf_counter()
            cold = asyncio.run(_each(distinct * 2, 10))
            print(
                f"\nAquecimento: {len(distinct):,} endereços distintos, 2 vezes cada, em "
                f"{time.perf_counter() - started:.1f} s (p95 da primeira renderização {percentile(cold, 95):.0f} ms)"
            )
            # One client alone: what a request costs when nobody waits in line.
            alone, alone_elapsed = asyncio.run(load(mix, 1, 5.0))
            load_before = os.getloadavg()
            results, elapsed = asyncio.run(load(mix, args.clients, args.seconds))
            load_after = os.getloadavg()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    alone_ms = [ms for _, status, ms in alone if status == 200]
    print(
        f"Um cliente sozinho: {len(alone):,} pedidos em {alone_elapsed:.1f} s, p50 {percentile(alone_ms, 50):.1f} ms, "
        f"p95 {percentile(alone_ms, 95):.1f} ms"
    )
    print(f"\n{args.clients} clientes simultâneos, gunicorn com 2 workers, {os.cpu_count()} CPUs")
    p95 = report(results, elapsed)
    print(
        "Carga da máquina (1, 5, 15 min): antes "
        + ", ".join(f"{v:.2f}" for v in load_before)
        + "; depois "
        + ", ".join(f"{v:.2f}" for v in load_after)
    )
    print(f"p95 {p95:.1f} ms (piso {P95_FLOOR_MS:.0f} ms)")
    if p95 > P95_FLOOR_MS:
        sys.exit(1)


async def _each(paths: list[str], clients: int) -> list[float]:
    """Fetch every path once, ``clients`` at a time; the latencies."""
    queue = list(paths)
    latencies: list[float] = []

    async def worker() -> None:
        while queue:
            path = queue.pop()
            _, ms = await fetch(path)
            latencies.append(ms)

    await asyncio.gather(*(worker() for _ in range(clients)))
    return latencies


if __name__ == "__main__":
    main()
