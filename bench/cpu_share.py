"""How much of this machine's CPU the host took while a bench ran: the ``steal`` time of /proc/stat.

The benches print the load average beside their figures, but on a virtual machine it says little about
what slowed a run. On the 2-core machines of December 2026 (Firecracker guests) the load average read
1.4 to 2.8 with both cores 98% idle and nothing of ours running. In its first hour (six runs of the
suite and some benches) its kernel counted 397 s of CPU given by the hypervisor to others (steal)
against 4,844 s of user time, and the same bench's CPU seconds moved by a quarter to a half from one run
to the next (the engine 1.47 to 1.87 s, the sort beside it 1.03 to 1.50 s). In five runs without steal, ``bench/allocation.py --rule compensation`` gave the engine 1.30 to
1.35 s of CPU.

So each bench also prints the share of the machine's CPU time stolen during its timed part, and the
share left idle. A run with steal above a few percent was slowed by the host, not by the code: compare
it with a run without. No steal is not a quiet host, though: the other guests still share the caches
and the memory, and with 0% steal the same machine's ``make bench-import`` took 5.3 to 6.4 s of the
command's CPU. The snapshot's p95 at 200 connections followed the steal (nginx alone on static files,
six runs: 14.7 ms at 4%, 21.7 ms at 5%, 27.7 and 36.5 ms at 7%, 43.0 ms at 8%, 49.8 ms at 9%).

    before = cpu_share.sample()
    ...  # the timed part
    share = cpu_share.since(before)  # None where /proc/stat cannot be read (not Linux)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STAT = Path("/proc/stat")


@dataclass(frozen=True)
class Ticks:
    """The machine's CPU time so far, in clock ticks, summed over every core."""

    total: int
    idle: int
    steal: int


@dataclass(frozen=True)
class Share:
    """Fractions of the machine's CPU time over an interval (0 to 1)."""

    steal: float
    idle: float

    def text(self) -> str:
        return f"CPU tomada pelo hospedeiro (steal) {self.steal:.0%}, ociosa {self.idle:.0%}"

    def text_en(self) -> str:
        return f"CPU taken by the host (steal) {self.steal:.0%}, idle {self.idle:.0%}"


def parse(text: str) -> Ticks:
    """The first line of /proc/stat: ``cpu user nice system idle iowait irq softirq steal guest
    guest_nice``. Guest time is already counted in user and nice, so it is left out of the total. A
    kernel that reports fewer fields has no steal to report (zero)."""
    line = text.splitlines()[0]
    name, *fields = line.split()
    if name != "cpu" or len(fields) < 4:
        raise ValueError(f"/proc/stat não começa pela linha 'cpu' com as contagens: {line!r}")
    values = [int(field) for field in fields[:8]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle and iowait
    steal = values[7] if len(values) > 7 else 0
    return Ticks(total=sum(values), idle=idle, steal=steal)


def sample() -> Ticks | None:
    try:
        return parse(STAT.read_text())
    except (OSError, ValueError, IndexError):
        return None


def between(before: Ticks, after: Ticks) -> Share | None:
    total = after.total - before.total
    if total <= 0:
        return None
    return Share(steal=(after.steal - before.steal) / total, idle=(after.idle - before.idle) / total)


def since(before: Ticks | None) -> Share | None:
    after = sample()
    if before is None or after is None:
        return None
    return between(before, after)
