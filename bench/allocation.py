"""Benchmark of the allocation engine (``candidates.engine.allocation``): a position the size of a national contest.

    .venv/bin/python bench/allocation.py [--rule projected|compensation|actual] [--candidates N]
        [--no-reference]

Builds, deterministically, 1,000,000 approved candidates (20% on the racial list, 5% on the PcD list,
1% on both, half of those preferring PcD: a shuffled block of 100 repeated), opens 20,000 vacancies in 4 batches of 5,000, calls 1,000
at a time and withdraws 1% of each call's nominees along the way (their seats are refilled first by
the next call). The workload runs in a fresh interpreter (a subprocess), so the peak memory printed is
that process's own maximum resident set (``ru_maxrss``). No Django needed. Limits: 10 s and 2 GB.
The machine is shared, so the figures to compare are ratios to references measured in the same run:
the worker also times a Python sort of as many tuples, and a rule other than ``projected`` is run
again under ``projected`` (CPU time against CPU time).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import cpu_share  # bench/ is the script's directory

ROOT = Path(__file__).resolve().parent.parent
LIMIT_SECONDS = 10.0
LIMIT_BYTES = 2 * 1024**3


def build_candidates(size: int) -> list:
    """Deterministic roster: a block of 100 lists, shuffled once with a fixed seed, repeated.

    Per block: 1 on both reserves, 19 racial only, 4 PcD only, 76 neither (20% racial, 5% PcD, 1%
    both); the dual candidates of odd blocks prefer PcD, the others keep the policy's default. Built
    with list repetition and ``map``, so the bench times the engine, not the making of its input.
    """
    import random

    from candidates.engine.allocation import Candidate

    both, racial, pcd, none = (
        frozenset({"racial", "pcd"}),
        frozenset({"racial"}),
        frozenset({"pcd"}),
        frozenset(),
    )
    block = [both] + [racial] * 19 + [pcd] * 4 + [none] * 76
    random.Random(2026).shuffle(block)
    lists = (block * (size // 100 + 1))[:size]
    prefers: list[str | None] = [None] * size
    dual = block.index(both)
    prefers[dual + 100 : size : 200] = ["pcd"] * len(range(dual + 100, size, 200))
    ids = list(map(str, range(1, size + 1)))  # inscription-like numbers
    return list(map(Candidate._make, zip(ids, lists, prefers, strict=True)))


def workload(size: int, rule: str) -> dict[str, object]:
    from candidates.engine.allocation import Call, OpenVacancies, Params, Withdraw, apply, initial_state
    from contests.quotas import ReserveRule

    started = time.perf_counter()
    # A million long-lived objects: build them with the cyclic collector paused, then freeze them out of
    # its sight, as a worker that keeps a roster in memory should (otherwise every full collection walks
    # them all, for nothing: tuples of strings hold no cycles).
    gc.disable()
    people = build_candidates(size)
    gc.freeze()
    gc.enable()
    built = time.perf_counter()
    cpu_started = time.process_time()
    params = Params(
        racial=ReserveRule(20, 3, "half_up"),
        pcd=ReserveRule(5, 1, "up", 20),
        open_competition_rule=rule,
    )
    state = initial_state(people, params, vacancies=5_000)
    calls = withdrawals = 0
    longest_call = 0.0
    for batch in range(4):
        if batch:
            state, _ = apply(state, OpenVacancies(5_000))
        for _ in range(5):
            t0 = time.perf_counter()
            state, change = apply(state, Call(1_000))
            longest_call = max(longest_call, time.perf_counter() - t0)
            calls += 1
            for nom in change.nominated[::100]:  # 1% of the call's nominees withdraw
                state, _ = apply(state, Withdraw(nom.candidate))
                withdrawals += 1
    # The last withdrawals' seats: one more call refills them.
    state, change = apply(state, Call(1_000))
    calls += 1
    finished = time.perf_counter()
    engine_cpu = time.process_time() - cpu_started
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # before the sort's own list
    # The limit the issue compares with, measured here: a Python sort of a million tuples.
    shuffled = [(hash((i, 2026)) & 0xFFFFFF, i) for i in range(size)]
    sort_started = time.perf_counter()
    sort_cpu_started = time.process_time()
    shuffled.sort()
    sort_seconds = time.perf_counter() - sort_started
    sort_cpu = time.process_time() - sort_cpu_started
    del shuffled
    active = [n for n in state.nominations if n.status == "active"]
    kinds = {k: sum(1 for n in active if n.kind == k) for k in ("open", "racial", "pcd")}
    return {
        "candidates": size,
        "rule": rule,
        "vacancies": state.vacancies,
        "calls": calls,
        "withdrawals": withdrawals,
        "nominations": len(state.nominations),
        "active": len(active),
        "seats_by_kind": kinds,
        "reverted": sum(1 for n in active if n.reverted),
        "compensated": sum(1 for n in active if n.compensated),
        "dual_holds": sum(1 for n in active if "mesma chamada" in n.why),
        "build_seconds": round(built - started, 3),
        "engine_seconds": round(finished - built, 3),
        "longest_call_seconds": round(longest_call, 3),
        "engine_cpu_seconds": round(engine_cpu, 3),
        "sort_seconds": round(sort_seconds, 3),
        "sort_cpu_seconds": round(sort_cpu, 3),
        "wall_seconds": round(finished - started, 3),
        "cpu_seconds": round(time.process_time(), 3),
        "peak_rss_bytes": peak_rss,
    }


def run_worker(rule: str, candidates: int) -> dict | None:
    """The workload in a fresh interpreter (its own peak memory); its figures, or None if it failed."""
    result = subprocess.run(
        [sys.executable, __file__, "--worker", "--rule", rule, "--candidates", str(candidates)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])


def _ratio(value: float, reference: float) -> str:
    return f"{value / reference:.2f}×" if reference else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule", default="projected", choices=("projected", "compensation", "actual"))
    parser.add_argument("--candidates", type=int, default=1_000_000)
    parser.add_argument(
        "--no-reference", action="store_true", help="without the projected run to compare with"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(workload(args.candidates, args.rule)))
        return 0
    started, ticks = time.perf_counter(), cpu_share.sample()
    figures = run_worker(args.rule, args.candidates)
    elapsed, share = time.perf_counter() - started, cpu_share.since(ticks)
    if figures is None:
        return 1
    rss = figures["peak_rss_bytes"]
    print(
        f"allocation bench ({figures['rule']}): {figures['candidates']:,} candidates, "
        f"{figures['vacancies']:,} vacancies, {figures['calls']} calls, {figures['withdrawals']} withdrawals"
    )
    print(
        f"  nominations {figures['nominations']:,} (active {figures['active']:,}: {figures['seats_by_kind']}; "
        f"reverted {figures['reverted']}, compensated {figures['compensated']}, "
        f"dual holds {figures['dual_holds']})"
    )
    print(
        f"  build roster {figures['build_seconds']:.2f} s, engine {figures['engine_seconds']:.2f} s "
        f"(longest call {figures['longest_call_seconds']:.2f} s)"
    )
    print(
        f"  wall time {figures['wall_seconds']:.2f} s in the worker, {elapsed:.2f} s with interpreter start"
    )
    print(
        f"  CPU time of the worker {figures['cpu_seconds']:.2f} s (load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores: other processes share them)"
        + (f"; while it ran: {share.text_en()} of the machine" if share is not None else "")
    )
    print(f"  peak memory (RSS of the worker) {rss / 1024**2:,.0f} MiB")
    # The machine is shared: compare with references measured in the same run, CPU time against CPU time.
    print(
        f"  reference in the same worker: a Python sort of {figures['candidates']:,} tuples "
        f"{figures['sort_seconds']:.2f} s (CPU {figures['sort_cpu_seconds']:.2f} s); engine CPU "
        f"{figures['engine_cpu_seconds']:.2f} s = {_ratio(figures['engine_cpu_seconds'], figures['sort_cpu_seconds'])} the sort"
    )
    if args.rule != "projected" and not args.no_reference:
        other = run_worker("projected", args.candidates)
        if other is None:
            return 1
        print(
            f"  reference in the same run: projected, engine {other['engine_seconds']:.2f} s (CPU "
            f"{other['engine_cpu_seconds']:.2f} s = "
            f"{_ratio(other['engine_cpu_seconds'], other['sort_cpu_seconds'])} the sort in its worker); "
            f"{args.rule} CPU = {_ratio(figures['engine_cpu_seconds'], other['engine_cpu_seconds'])} projected's"
        )
    ok = elapsed <= LIMIT_SECONDS and rss <= LIMIT_BYTES
    print(f"  limits {LIMIT_SECONDS:.0f} s / {LIMIT_BYTES / 1024**3:.0f} GiB: {'OK' if ok else 'EXCEEDED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
