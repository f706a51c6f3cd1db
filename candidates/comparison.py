"""Two published runs compared, position by position: who moved, entered or left each list (the screen
that answers "what changed since the preliminary list")."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from decimal import Decimal

from candidates.engine import schedule
from candidates.engine.results import format_score
from candidates.models import ListName, ResultEntry, ResultRun
from contests.models import Position
from contests.wording import plural

OUT = ResultEntry.List.OUT


@dataclass
class _Line:
    number: str
    name: str
    score: Decimal | None = None
    general: int | None = None
    lists: dict[str, int] = field(default_factory=dict)
    out: str = ""


def _lines(run: ResultRun, position: Position) -> dict[int, _Line]:
    lines: dict[int, _Line] = {}
    rows = ResultEntry.objects.filter(run=run, position=position).values_list(
        "registration_id", "number", "name", "list", "rank", "score", "why"
    )
    for reg, number, name, list_name, rank, score, why in rows.iterator(chunk_size=5000):
        line = lines.get(reg)
        if line is None:
            line = lines[reg] = _Line(number, name, score)
        if list_name == OUT:
            line.out = why
        elif list_name == ResultEntry.List.OPEN:
            line.general = rank
        else:
            assert rank is not None  # a listed entry has a rank (candidates_resultentry_rank_iff_listed)
            line.lists[list_name] = rank
    return lines


@dataclass(frozen=True)
class Move:
    """One registration whose place changed between two runs, and why."""

    number: str
    name: str
    before: int | None
    after: int | None
    before_lists: dict[str, int]
    after_lists: dict[str, int]
    why: str

    @property
    def delta(self) -> int | None:
        """Places gained (positive) or lost (negative) on the general list."""
        if self.before is None or self.after is None:
            return None
        return self.before - self.after

    @property
    def direction(self) -> str:
        if self.before is None and self.after is None:
            return "fora das listas"
        if self.before is None:
            return "entrou"
        if self.after is None:
            return "saiu"
        delta = self.delta or 0
        return "subiu" if delta > 0 else "desceu" if delta < 0 else "mesma posição"


def compare_runs(run: ResultRun, previous: ResultRun, position: Position) -> list[Move]:
    """Who moved on ``position``'s lists from ``previous`` to ``run``, and why (score, status, others)."""
    old, new = _lines(previous, position), _lines(run, position)
    group_label = run.contest.policy.group_label
    entered = sorted(
        line.general for reg, line in new.items() if line.general and not old.get(reg, _Line("", "")).general
    )
    left = sorted(
        line.general for reg, line in old.items() if line.general and not new.get(reg, _Line("", "")).general
    )
    rescored = sorted(
        line.general
        for reg, line in new.items()
        if line.general and reg in old and old[reg].general and old[reg].score != line.score
    )
    moves: list[Move] = []
    for reg in sorted(old.keys() | new.keys(), key=lambda r: (new.get(r) or old[r]).number):
        before, after = old.get(reg), new.get(reg)
        either = after or before
        assert either is not None  # reg is in old or in new
        b = before.general if before else None
        a = after.general if after else None
        b_lists = before.lists if before else {}
        a_lists = after.lists if after else {}
        reasons: list[str] = []
        if b is None and a is None:
            if before and after and before.out != after.out:
                reasons.append(f"continua fora das listas: {after.out}")
            else:
                continue
        elif b is None:
            reasons.append(
                "entrou na classificação" + (f" (antes: {before.out})" if before and before.out else "")
            )
        elif a is None:
            reasons.append(f"saiu da classificação: {after.out if after else 'inscrição fora desta lista'}")
        elif before and after and before.score != after.score:
            reasons.append(f"nota final {format_score(before.score)} → {format_score(after.score)}")
        elif a != b:
            ahead = []
            gained = bisect_left(entered, a)
            lost = bisect_left(left, b)
            changed = bisect_left(rescored, a)
            if gained:
                ahead.append(plural(gained, "entrou", "entraram") + " à frente")
            if lost:
                ahead.append(plural(lost, "que estava à frente saiu", "que estavam à frente saíram"))
            if changed:
                ahead.append(
                    plural(changed, "mudou de nota e está à frente", "mudaram de nota e estão à frente")
                )
            reasons.append("nota inalterada" + ("; " + ", ".join(ahead) if ahead else ""))
        for name in (ListName.RACIAL, ListName.PCD):
            listed = schedule.list_label(name, group_label).lower()  # "lista reservada a negros"
            if name in b_lists and name not in a_lists and a is not None:
                reasons.append(f"saiu da {listed}")
            elif name in a_lists and name not in b_lists and b is not None:
                reasons.append(f"entrou na {listed}")
        if not reasons and a == b and b_lists == a_lists:
            continue
        if not reasons:
            reasons.append("mudou de posição numa lista reservada")
        moves.append(
            Move(
                either.number,
                either.name,
                b,
                a,
                b_lists,
                a_lists,
                "; ".join(reasons),
            )
        )
    return moves
