"""Reads for the result and nomination screens: a run's lists, two runs compared, a position's seats."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q, QuerySet

from candidates.engine import allocation, schedule
from candidates.engine.schedule import project
from candidates.engine_params import params_following_contest, params_for_position
from candidates.models import AllocationLedger, ListName, Nomination, ResultEntry, ResultRun
from contests.models import Position

OUT = ResultEntry.List.OUT


# Runs ------------------------------------------------------------------------------------------------


def run_positions(run: ResultRun) -> list[Position]:
    if run.position is not None:
        return [run.position]
    return list(run.contest.positions.order_by("code", "pk"))


def run_entries(run: ResultRun, position: Position, list_name: str) -> QuerySet[ResultEntry]:
    entries = ResultEntry.objects.filter(run=run, position=position, list=list_name)
    return entries.order_by("number") if list_name == OUT else entries.order_by("rank")


def previous_run(run: ResultRun) -> ResultRun | None:
    """The published run to compare ``run`` with: its recorded ``previous``, else the latest published
    run of the same contest that covers the same scope and came before it."""
    if run.previous_id:
        return run.previous
    runs = ResultRun.objects.filter(contest=run.contest, status=ResultRun.Status.PUBLISHED).exclude(pk=run.pk)
    if run.position_id:
        runs = runs.filter(Q(position=run.position) | Q(position__isnull=True))
    else:
        runs = runs.filter(position__isnull=True)
    if run.published_at:
        runs = runs.filter(published_at__lt=run.published_at)
    return runs.order_by("-published_at", "-pk").first()


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


def _num(value: Decimal | None) -> str:
    return "—" if value is None else f"{value:f}".replace(".", ",")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


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
            reasons.append(f"nota final {_num(before.score)} → {_num(after.score)}")
        elif a != b:
            ahead = []
            gained = bisect_left(entered, a)
            lost = bisect_left(left, b)
            changed = bisect_left(rescored, a)
            if gained:
                ahead.append(_plural(gained, "entrou", "entraram") + " à frente")
            if lost:
                ahead.append(_plural(lost, "que estava à frente saiu", "que estavam à frente saíram"))
            if changed:
                ahead.append(
                    _plural(changed, "mudou de nota e está à frente", "mudaram de nota e estão à frente")
                )
            reasons.append("nota inalterada" + ("; " + ", ".join(ahead) if ahead else ""))
        for name in (ListName.RACIAL, ListName.PCD):
            listed = f"lista {schedule.kind_label(name, group_label).lower()}"  # "lista reservada a negros"
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


# Seats -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One seat of a position: its number, kind and whether it is filled, free (to be refilled) or
    projected (not created yet)."""

    number: int
    kind: str
    label: str
    state: str
    nomination: Nomination | None = None

    STATES = {"filled": "ocupada", "took_office": "ocupada (posse)", "free": "livre", "projected": "prevista"}

    @property
    def state_label(self) -> str:
        return self.STATES[self.state]

    @property
    def text(self) -> str:
        """What a screen reader says (and the tooltip): never the colour alone."""
        text = f"Vaga {self.number}, {self.label.lower()}: {self.state_label}"
        if self.nomination is not None:
            text += f" por {self.nomination.registration.candidate} (inscrição {self.nomination.registration.number})"
        return text


@dataclass(frozen=True)
class SeatStrip:
    seats: tuple[Seat, ...]
    vacancies: int
    started: bool
    version: int
    collisions: tuple[str, ...] = ()  # seats two reserves wanted, in words (RULES §4)

    def count(self, *states: str) -> int:
        return sum(1 for seat in self.seats if seat.state in states)

    @property
    def count_filled(self) -> int:
        return self.count("filled", "took_office")

    @property
    def count_free(self) -> int:
        return self.count("free")

    @property
    def count_projected(self) -> int:
        return self.count("projected")


def kind_label(kind: str, params: allocation.Params) -> str:
    return schedule.kind_label(kind, params.group_label)


def seat_strip(position: Position) -> SeatStrip:
    """The seats of ``position`` for the ``n`` vacancies open now: created seats keep their kind; the
    others are projected with today's ``n`` (RULES §4)."""
    ledger = AllocationLedger.objects.filter(position=position).first()
    vacancies = position.vacancies
    if ledger is not None:
        params = params_following_contest(allocation.params_from_dict(ledger.state["params"]), position)
        created = tuple(ledger.state["seats"])
        vacancies = max(vacancies, ledger.state["vacancies"])
    else:
        params = params_for_position(position)
        created = ()
    kinds = project(params, created, vacancies)
    holders = {
        n.seat: n
        for n in Nomination.objects.filter(position=position, status__in=Nomination.HOLDING).select_related(
            "registration__candidate", "position__contest"
        )
    }
    # A compensated seat's kind changes with its nomination (RULES §4, compensation).
    seats = []
    for number, kind in enumerate(kinds, start=1):
        holder = holders.get(number)
        if holder is not None:
            state = "took_office" if holder.status == Nomination.Status.TOOK_OFFICE else "filled"
        elif number <= len(created):
            state = "free"
        else:
            state = "projected"
        seats.append(Seat(number, kind, kind_label(kind, params), state, holder))
    # Collisions of the schedule as it was made: from scratch when the created seats followed it (the
    # usual case), else among the seats still to create.
    kept = () if tuple(project(params, (), vacancies)[: len(created)]) == created else created
    collisions = tuple(schedule.collisions_explained(params, kept, vacancies))
    return SeatStrip(tuple(seats), vacancies, ledger is not None, ledger.version if ledger else 0, collisions)
