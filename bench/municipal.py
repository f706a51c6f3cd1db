"""A municipal contest at scale: 50,000 registrations over 10 positions, from the organiser's file
to the final list and the first 100 nominations.

Builds, deterministically, a CSV shaped like the organisers' (Windows-1252, ``;``, decimal comma,
dd/mm/aaaa, formatted CPFs, S/N, AUSENTE), imports it through ``candidates.services.imports`` (the importer's own
rules, bulk writes with history), computes the lists and publishes them as the final run through
``candidates.services.results``, homologates the contest, then calls 100 nominations through
``candidates.services.nominations`` (10 acts of 10, one per position) and 20 single calls on one position. Prints
the figures; exits 1 when a limit is exceeded. Limits (PostgreSQL): compute and publish the final run in
30 s; 100 nominations in 2 s.

    createdb -h 127.0.0.1 -U postgres cotas_bench_municipal
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cotas_bench_municipal DEBUG=1 SECRET_KEY=x \\
        .venv/bin/python bench/municipal.py [--rows 50000]

The database should be fresh (the script migrates it); the contest it creates is ``bench-municipal``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from synthetic import build_csv as build_synthetic_csv  # noqa: E402
from synthetic import create_contest  # noqa: E402  (bench/ is the script's directory)

SLUG = "bench-municipal"
COMPUTE_PUBLISH_LIMIT = 30.0
CALL_LIMIT = 2.0
POSITIONS = [(f"M{i:02d}", f"Cargo municipal {i}", 20 + 2 * i) for i in range(1, 11)]


def setup():
    return create_contest(
        SLUG, "901", "Concurso municipal de referência (benchmark)", POSITIONS, ["Secretaria", "Gestão"]
    )


def timed(label: str, fn):
    started = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - started
    print(f"{label}: {seconds:.2f} s")
    return result, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("Aviso: DATABASE_URL não é PostgreSQL; os limites valem para PostgreSQL.", file=sys.stderr)
    contest, users = setup()
    clerk, manager = users["Secretaria"], users["Gestão"]

    from candidates.models import Nomination, Registration, ResultEntry
    from candidates.services.imports import PhaseSpec, commit, parse_upload, suggest_mapping
    from candidates.services.nominations import nominations_call
    from candidates.services.results import result_run_compute, result_run_publish
    from contests.services import contest_homologate, contest_set_status

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "inscricoes-municipais.csv"
        _, _ = timed(
            f"Arquivo gerado ({args.rows:,} linhas)",
            lambda: build_synthetic_csv(
                path, args.rows, POSITIONS, seed=4, first_number=200001, cpf_offset=4242
            ),
        )
        table = parse_upload(path)
        mapping = suggest_mapping(contest, table.headers)
        specs = {
            "Nota Objetiva": PhaseSpec("Nota Objetiva", Decimal(100), Decimal(50)),
            "Nota Discursiva": PhaseSpec("Nota Discursiva", Decimal(10)),
        }
        _, import_seconds = timed(
            "Importação (candidates.services.imports.commit)",
            lambda: commit(
                contest, table, mapping, clerk, today=datetime.date(2026, 5, 4), phase_specs=specs
            ),
        )
    registrations = Registration.objects.filter(contest=contest).count()
    print(f"  {registrations:,} inscrições em {len(POSITIONS)} cargos")

    run, compute_seconds = timed("Cálculo das listas", lambda: result_run_compute(contest=contest, by=clerk))
    run, publish_seconds = timed(
        "Publicação da lista final", lambda: result_run_publish(run=run, kind="final", by=manager)
    )
    entries = ResultEntry.objects.filter(run=run)
    print(
        f"  {entries.exclude(list='out').count():,} linhas de classificação "
        f"({entries.filter(list='open').count():,} na geral, {entries.filter(list='racial').count():,} na reservada "
        f"a negros, {entries.filter(list='pcd').count():,} PcD) e {entries.filter(list='out').count():,} fora das listas"
    )
    compute_publish = compute_seconds + publish_seconds
    print(
        f"Calcular e publicar a lista final: {compute_publish:.2f} s (limite {COMPUTE_PUBLISH_LIMIT:.0f} s)"
    )
    print(f"Importar, calcular e publicar: {import_seconds + compute_publish:.2f} s")

    # A homologation needs the edital published (contests/lifecycle.py).
    contest_set_status(contest=contest, status="in_progress", by=clerk, on=datetime.date(2026, 3, 2))
    contest_homologate(contest=contest, by=manager, date=datetime.date(2026, 6, 1), act="Decreto 901/2026")
    positions = list(contest.positions.order_by("code"))
    act_date = datetime.date(2026, 6, 10)

    def hundred():
        for i, position in enumerate(positions, start=1):
            nominations_call(
                position=position, count=10, act_number=f"Portaria {i}/2026", act_date=act_date, by=clerk
            )

    _, call_seconds = timed("100 nomeações (10 atos de 10, um por cargo)", hundred)

    def singles():
        for k in range(20):
            nominations_call(
                position=positions[-1],
                count=1,
                act_number=f"Portaria 1{k:02d}/2026",
                act_date=act_date,
                by=clerk,
            )

    _, single_seconds = timed("20 chamadas de uma vaga no mesmo cargo", singles)
    print(f"  {single_seconds / 20 * 1000:.0f} ms por chamada")
    print(f"  {Nomination.objects.filter(position__contest=contest).count()} nomeações gravadas")
    print(f"100 nomeações: {call_seconds:.2f} s (limite {CALL_LIMIT:.0f} s)")
    if compute_publish > COMPUTE_PUBLISH_LIMIT or call_seconds > CALL_LIMIT:
        sys.exit(1)


if __name__ == "__main__":
    main()
