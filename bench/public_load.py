"""Result day on the public portal: one position with 100,000 registrations and its published
final run on PostgreSQL, served by gunicorn (2 workers), under 50 concurrent clients asking for list pages,
name and number searches, the contest page, the run page and the nomination order.

Seeds through the services (the importer's bulk path, the result engine, publication, homologation, the
first nominations), collects the static files, starts gunicorn, warms it up, then runs the load with an
asyncio client (no dependency: one connection per request, as gunicorn's sync workers close it) and prints
p50, p95, p99 and requests per second, overall and per kind of page, and the load average of the machine
(it is shared: the figures depend on what else runs). Exits 1 when p95 passes the floor (100 ms). Both
workers share one Redis (Debian package ``redis-server``) for the default and the public cache, as
docs/operations.md sets production up (``--redis ''`` for the per-process cache of ``make run``).

Then the result day as production serves it (issue 24): ``manage.py portal_snapshot`` writes the static
snapshot (timed), nginx from the Debian packages runs docs/operations.md's configuration in front of the same
gunicorn (bench/nginx_front.py; its files checked byte for byte against gunicorn's answers), and wrk (Debian
package ``wrk``) loads it for the same time from two processes at once: 200 connections on the snapshot's
pages (list pages, the contest page, the nomination order) and 50 on the dynamic search (through nginx and
its 1 s micro-cache, to gunicorn). Before that, the search alone for a third of the time: through nginx,
then straight to gunicorn (no micro-cache: what the application itself answers). Then both again with
the snapshot's connections paced (wrk's ``delay``) to the floor's 10,000 requests/s: a result day's
visitors come at a rate, while the closed loop (no pause) takes both cores at five or six times the floor
and starves whatever runs beside it. Prints requests/s, p50/p95/p99 and errors of each, the load average
before and after, and the floors: snapshot ≥ 10,000 requests/s with p95 ≤ 20 ms (closed loop), search
p95 ≤ 100 ms (straight to gunicorn, and beside the snapshot at the floor's rate), 0 errors (exit 1 when
one is missed); the search beside the closed loop is printed, not checked.

    make bench-public            # a fresh database, created and dropped around the run
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cotas_bench DEBUG=1 SECRET_KEY=x \\
        .venv/bin/python bench/public_load.py [--rows 100000] [--seconds 30] [--clients 50] \\
        [--snapshot-clients 200] [--search-clients 50] [--skip-app-only] [--redis URL]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import cpu_share  # noqa: E402
import nginx_front  # noqa: E402
from synthetic import (  # noqa: E402  (bench/ is the script's directory)
    FIRST,
    LAST,
    create_contest,
)
from synthetic import build_csv as build_synthetic_csv  # noqa: E402

SLUG = "bench-public"
POSITION = ("PUB", "Cargo do dia do resultado", 100)
P95_FLOOR_MS = 100.0
# Issue 24's floors for the result day behind nginx.
SNAPSHOT_RATE_FLOOR = 10_000
SNAPSHOT_P95_FLOOR_MS = 20.0
SEARCH_P95_FLOOR_MS = 100.0
PORT = int(os.environ.get("BENCH_PORT", "8765"))
# The bench's own Redis databases, emptied before gunicorn starts (never 0-2, which development may use).
REDIS_DEFAULT_DB, REDIS_PUBLIC_DB = 11, 12


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
    from django.utils import timezone

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
    # Homologated on the day the final list was published (the law: not before it), the nominations then.
    today = timezone.localdate()
    contest_homologate(contest=contest, by=manager, date=today, act="Decreto 950/2026")
    position = contest.positions.get()
    nominations_call(
        position=position,
        count=20,
        act_number="Portaria 950/2026",
        act_date=today,
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


def cache_env(redis_url: str) -> dict[str, str]:
    """The caches as production sets them (docs/operations.md): one Redis shared by both workers, two databases
    (the default cache with throttles and sessions, and the public pages); empty for the per-process cache."""
    if not redis_url:
        return {}
    base = redis_url.rstrip("/")
    return {"CACHE_URL": f"{base}/{REDIS_DEFAULT_DB}", "PUBLIC_CACHE_URL": f"{base}/{REDIS_PUBLIC_DB}"}


def gunicorn_env(static_root: str, redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        **cache_env(redis_url),
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


def start_gunicorn(static_root: str, redis_url: str) -> subprocess.Popen:
    env = gunicorn_env(static_root, redis_url)
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
    parser.add_argument("--snapshot-clients", type=int, default=200)
    parser.add_argument("--search-clients", type=int, default=50)
    parser.add_argument("--skip-app-only", action="store_true", help="só o dia do resultado com o nginx")
    parser.add_argument(
        "--redis",
        default="redis://127.0.0.1:6379",
        help="o Redis compartilhado pelos workers (CACHE_URL, PUBLIC_CACHE_URL); '' para o cache de cada processo",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("Aviso: DATABASE_URL não é PostgreSQL; o piso vale para PostgreSQL.", file=sys.stderr)
    missing = [tool for tool in (nginx_front.NGINX, nginx_front.WRK) if not os.access(tool, os.X_OK)]
    if missing:
        sys.exit(f"Faltam {', '.join(missing)}: apt-get install -y nginx-light wrk (pacotes do Debian).")
    if args.redis:
        flush_redis(args.redis)
    work = Path(tempfile.mkdtemp(prefix="cotas-bench-public-"))
    # The snapshot of this run, never the checkout's; written by the command below, not at each publication.
    os.environ["SNAPSHOT_ROOT"] = str(work / "snapshots")
    os.environ["PORTAL_SNAPSHOTS"] = "0"
    urls = seed(args.rows)
    from django.db import connections

    connections.close_all()
    mix = address_mix(urls, random.Random(12))
    failed = False
    with tempfile.TemporaryDirectory() as static_root:
        server = start_gunicorn(static_root, args.redis)
        try:
            if not args.skip_app_only:
                failed |= app_only(mix, args)
            failed |= result_day(urls, mix, args, gunicorn_env(static_root, args.redis), work)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        sys.exit(1)


def flush_redis(redis_url: str) -> None:
    """Empty the bench's Redis databases, or stop with how to install Redis (Debian's redis-server)."""
    for db in (REDIS_DEFAULT_DB, REDIS_PUBLIC_DB):
        try:
            redis.Redis.from_url(f"{redis_url.rstrip('/')}/{db}", socket_connect_timeout=1).flushdb()
        except redis.exceptions.RedisError as error:
            sys.exit(
                f"O Redis em {redis_url} não respondeu ({error}): apt-get install -y redis-server "
                "(pacote do Debian), ou --redis '' para o cache de cada processo."
            )


def cache_text(redis_url: str) -> str:
    return f"cache no Redis ({redis_url})" if redis_url else "cache de cada processo"


def load_text(values: tuple[float, float, float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def app_only(mix: list[tuple[str, str]], args: argparse.Namespace) -> bool:
    """The application alone (no proxy), as before issue 24; whether its floor was missed."""
    # Warm-up: every distinct address once per worker, so the run measures a published site whose pages
    # are rendered (the first visitor of each page pays its rendering).
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
    alone_ms = [ms for _, status, ms in alone if status == 200]
    print(
        f"Um cliente sozinho: {len(alone):,} pedidos em {alone_elapsed:.1f} s, p50 {percentile(alone_ms, 50):.1f} ms, "
        f"p95 {percentile(alone_ms, 95):.1f} ms"
    )
    print(
        f"\n{args.clients} clientes simultâneos, gunicorn com 2 workers (sem proxy), {cache_text(args.redis)}, "
        f"{os.cpu_count()} CPUs"
    )
    p95 = report(results, elapsed)
    print(f"Carga da máquina (1, 5, 15 min): antes {load_text(load_before)}; depois {load_text(load_after)}")
    print(f"p95 {p95:.1f} ms (piso {P95_FLOOR_MS:.0f} ms)")
    return p95 > P95_FLOOR_MS


def result_day(
    urls: dict, mix: list[tuple[str, str]], args: argparse.Namespace, env: dict[str, str], work: Path
) -> bool:
    """nginx with the snapshot in front of gunicorn, under wrk; whether a floor was missed."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "portal_snapshot"], env=env, check=True, cwd=ROOT
    )
    snapshot = Path(os.environ["SNAPSHOT_ROOT"])
    files = [path for path in snapshot.rglob("*") if path.is_file()]
    size = sum(path.stat().st_size for path in files)
    print(
        f"Snapshot do portal: {len(files):,} arquivos, {size / 1e6:.0f} MB, em {time.perf_counter() - started:.1f} s"
    )

    # The snapshot's pages the load asks for: the first 20 pages of each list, the contest page and the
    # nomination order (each of these two as often as a list page).
    pages: list[str] = []
    for base, count in urls["lists"].values():
        pages += [base + (f"?pagina={n}" if n > 1 else "") for n in range(1, min(count, 20) + 1)]
    pages += [urls["contest"], urls["nominations"]] * 5
    random.Random(24).shuffle(pages)
    searches = [path for kind, path in mix if kind == "busca"]

    port = nginx_front.free_port()
    conf = nginx_front.configuration(port=port, snapshots=snapshot, upstream=f"127.0.0.1:{PORT}", work=work)
    nginx = nginx_front.start(conf, work, port)
    try:
        # The files are the application's bytes (its answer straight from gunicorn).
        for path in [*sorted(set(pages)), urls["run"], urls["contest"].rstrip("/") + "/publicacoes.atom"]:
            status, headers, body = nginx_front.get(port, path)
            app_status, _, app_body = nginx_front.get(PORT, path, {"X-Forwarded-Proto": "https"})
            if status != 200 or body != app_body or "x-cache" in headers:
                print(
                    f"ERRO: {path}: nginx {status} ({headers.get('x-cache', 'arquivo')}), aplicação {app_status}"
                )
                return True
        print(
            f"Conferido: {len(set(pages)) + 2} páginas do nginx (arquivos) iguais, byte a byte, às da aplicação"
        )
        seconds = int(args.seconds)
        # The search alone first (a third of the time): what the application gives with no static flood.
        ticks = cpu_share.sample()
        alone = nginx_front.wrk(
            port, searches, connections=args.search_clients, seconds=max(5, seconds // 3), threads=1,
            work=work, name="busca-sozinha", count_cache=True,
        )  # fmt: skip
        figures = {"busca sozinha": {**nginx_front.result(alone), "steal": cpu_share.since(ticks)}}
        # The same searches straight to gunicorn: no micro-cache, every one answered by the application
        # (the app's own store of searches still keeps up to PUBLIC_SEARCHES_PER_PAGE per page).
        ticks = cpu_share.sample()
        direct = nginx_front.wrk(
            PORT, searches, connections=args.search_clients, seconds=max(5, seconds // 3), threads=1,
            work=work, name="busca-gunicorn",
        )  # fmt: skip
        figures["busca gunicorn"] = {**nginx_front.result(direct), "steal": cpu_share.since(ticks)}
        load_before = os.getloadavg()
        figures |= _snapshot_and_search(port, pages, searches, args, work, "snapshot", "busca")
        # Again at the floor's rate: the same 200 connections, each pausing after an answer so that all of
        # them ask for a quarter more than SNAPSHOT_RATE_FLOOR pages a second (less the time each answer
        # takes), and the search beside them. A result day brings its visitors at a rate; the closed loop
        # above (no pause) brings as many as the two cores can answer, five or six times the floor, and
        # leaves nothing to anything else on them.
        pause_ms = max(1, args.snapshot_clients * 1000 * 4 // (SNAPSHOT_RATE_FLOOR * 5))
        figures |= _snapshot_and_search(
            port, pages, searches, args, work, "snapshot ritmo", "busca ritmo", pause_ms=pause_ms
        )
        load_after = os.getloadavg()
    finally:
        nginx_front.stop(nginx)
    workers = os.environ.get("NGINX_WORKERS", "auto")
    print(
        f"\nDia do resultado: nginx (worker_processes {workers}) com o snapshot na frente do gunicorn "
        f"(2 workers, {cache_text(args.redis)}), wrk por {seconds} s (a busca sozinha antes, {max(5, seconds // 3)} s, "
        "pelo nginx e direto no gunicorn), "
        f"{os.cpu_count()} CPUs"
    )
    header = ("página", "conexões", "pedidos", "pedidos/s", "p50", "p95", "p99", "erros", "steal")
    print("{:<13} {:>8} {:>9} {:>10} {:>8} {:>8} {:>8} {:>6} {:>6}".format(*header))
    for kind, f in figures.items():
        connections = args.snapshot_clients if kind.startswith("snapshot") else args.search_clients
        print(
            f"{kind:<13} {connections:>8} {f['requests']:>9,} {f['rate']:>10,.0f} {f['p50']:>6.1f}ms "
            f"{f['p95']:>6.1f}ms {f['p99']:>6.1f}ms {f['errors']:>6} {_steal(f.get('steal')):>6}"
        )
    print(
        "snapshot ritmo: as mesmas conexões, cada uma com uma pausa depois de cada resposta, para uns "
        f"{SNAPSHOT_RATE_FLOOR:,} pedidos/s ao todo (o piso); busca ritmo: a busca ao lado delas"
    )
    search = figures["busca ritmo"]
    for kind in ("busca sozinha", "busca", "busca ritmo"):
        print(
            f"{kind}: {figures[kind]['hits']:,} respostas do micro-cache do nginx (1 s), "
            f"{figures[kind]['misses']:,} do gunicorn"
        )
    print(f"{len(set(searches)):,} buscas distintas (por nome, com e sem acento, e por número de inscrição)")
    print(f"Carga da máquina (1, 5, 15 min): antes {load_text(load_before)}; depois {load_text(load_after)}")
    print(
        "steal: a parte da CPU da máquina que o hospedeiro deu a outros durante a medição (bench/cpu_share.py); "
        "acima de uns poucos %, a medição foi atrasada pelo hospedeiro, não pelo código"
    )
    snap, gunicorn = figures["snapshot"], figures["busca gunicorn"]
    checks = [
        (f"snapshot ≥ {SNAPSHOT_RATE_FLOOR:,} pedidos/s", snap["rate"] >= SNAPSHOT_RATE_FLOOR),
        (f"snapshot p95 ≤ {SNAPSHOT_P95_FLOOR_MS:.0f} ms", snap["p95"] <= SNAPSHOT_P95_FLOOR_MS),
        (
            f"busca p95 ≤ {SEARCH_P95_FLOOR_MS:.0f} ms (direto no gunicorn)",
            gunicorn["p95"] <= SEARCH_P95_FLOOR_MS,
        ),
        (
            f"busca p95 ≤ {SEARCH_P95_FLOOR_MS:.0f} ms (ao lado do snapshot no ritmo do piso)",
            search["p95"] <= SEARCH_P95_FLOOR_MS,
        ),
        ("0 erros", all(f["errors"] == 0 for f in figures.values())),
    ]
    closed = figures["busca"]
    print(
        f"Ao lado do snapshot sem pausa (os 2 núcleos tomados por ele): busca p95 {closed['p95']:.1f} ms "
        "(medida, não é piso)"
    )
    print("Pisos (issue 24): " + "; ".join(f"{label}: {'ok' if ok else 'NÃO'}" for label, ok in checks))
    return not all(ok for _, ok in checks)


def _snapshot_and_search(
    port: int,
    pages: list[str],
    searches: list[str],
    args: argparse.Namespace,
    work: Path,
    snapshot: str,
    search: str,
    *,
    pause_ms: int = 0,
) -> dict[str, dict]:
    """The snapshot's pages (``args.snapshot_clients`` connections, each pausing ``pause_ms`` after an
    answer) and the search through nginx (``args.search_clients``) loaded at once for ``args.seconds``:
    their figures under the names ``snapshot`` and ``search``."""
    seconds = int(args.seconds)
    ticks = cpu_share.sample()
    static = nginx_front.wrk(
        port, pages, connections=args.snapshot_clients, seconds=seconds, threads=2, work=work,
        name=snapshot.replace(" ", "-"), pause_ms=pause_ms,
    )  # fmt: skip
    dynamic = nginx_front.wrk(
        port, searches, connections=args.search_clients, seconds=seconds, threads=1, work=work,
        name=search.replace(" ", "-"), count_cache=True,
    )  # fmt: skip
    figures = {snapshot: nginx_front.result(static), search: nginx_front.result(dynamic)}
    share = cpu_share.since(ticks)  # both ran at once: the same share of the machine for both
    return {name: {**f, "steal": share} for name, f in figures.items()}


def _steal(share: cpu_share.Share | None) -> str:
    return "–" if share is None else f"{share.steal:.0%}"


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
