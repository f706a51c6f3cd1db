"""The law's indicators (issue 23), computed by selectors from what the app holds, per contest × position ×
group, for a period. Plain data out (ints, dates); what may be shown is decided by ``monitoring.privacy``.

The period selects the contests: those of the policy whose edital is dated within it (or the contests named);
within them, every registration counts, and the nominations made up to the period's last day.
Groups (a registration may be in two): ``open`` (no reserve chosen), ``racial`` (the racial reserve, by
self-declaration at registration) and ``pcd``.
"""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import QuerySet

from candidates.models import Nomination, PhaseResult, Registration, ResultEntry
from candidates.models.results import ListName
from candidates.services.results import final_run_for
from contests.models import Contest, Policy, Position, VacancyOpening
from contests.wording import format_fraction_plain

OPEN, RACIAL, PCD = "open", "racial", "pcd"
GROUPS = (OPEN, RACIAL, PCD)
GROUP_LABELS = {
    OPEN: "Ampla concorrência (sem reserva)",
    RACIAL: "Reserva racial",
    PCD: "Pessoas com deficiência",
}
LIST_LABELS = dict(ListName.choices)
HOLDING = tuple(Nomination.HOLDING)


@dataclass(frozen=True)
class Scope:
    """What a report covers: a policy, a period (both days included) and, optionally, some contests."""

    policy: Policy
    start: datetime.date
    end: datetime.date
    contest_slugs: tuple[str, ...] = ()


def contests_in(scope: Scope) -> QuerySet[Contest]:
    contests = Contest.objects.filter(
        policy=scope.policy, edital_date__range=(scope.start, scope.end)
    ).exclude(status=Contest.Status.CANCELLED)
    if scope.contest_slugs:
        contests = contests.filter(slug__in=scope.contest_slugs)
    return contests.order_by("edital_date", "year", "number")


def positions_in(scope: Scope) -> list[Position]:
    return list(
        Position.objects.filter(contest__in=contests_in(scope))
        .select_related("contest__policy")
        .order_by("contest__edital_date", "contest__year", "contest__number", "code", "pk")
    )


def groups_of(racial_reserve: bool, pcd_reserve: bool) -> tuple[str, ...]:
    found = tuple(g for g, on in ((RACIAL, racial_reserve), (PCD, pcd_reserve)) if on)
    return found or (OPEN,)


def _registrations(positions: Sequence[Position]) -> dict[int, tuple[int, tuple[str, ...]]]:
    """registration pk -> (position pk, groups), every registration not cancelled."""
    rows = (
        Registration.objects.filter(position__in=[p.pk for p in positions])
        .exclude(status=Registration.Status.CANCELLED)
        .values_list("pk", "position_id", "racial_reserve", "pcd_reserve")
    )
    return {pk: (position, groups_of(racial, pcd)) for pk, position, racial, pcd in rows}


def _nominations(positions: Sequence[Position], end: datetime.date) -> QuerySet[Nomination]:
    return Nomination.objects.filter(position__in=[p.pk for p in positions], act_date__lte=end)


# T1: the funnel ---------------------------------------------------------------------------------------------


@dataclass
class FunnelRow:
    """One position × group: how many reached each stage (``stages`` in order: registered, each phase,
    approved, nominated, took office)."""

    position: Position
    group: str
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Funnel:
    stages: list[str]
    rows: list[FunnelRow]

    def total(self, position: Position, stage: str) -> int:
        """Every registration of the position at ``stage`` (a registration in two groups counted once)."""
        return self._totals.get((position.pk, stage), 0)

    _totals: dict[tuple[int, str], int] = field(default_factory=dict)


REGISTERED, APPROVED, NOMINATED, TOOK_OFFICE = (
    "inscritos",
    "aprovados (lista final)",
    "nomeados",
    "empossados",
)


def funnel(scope: Scope) -> Funnel:
    """T1: registered → each phase (took part, not absent) → approved (on a list of the latest published
    final run) → nominated (up to the period's end) → took office, per position × group."""
    positions = positions_in(scope)
    registrations = _registrations(positions)
    reached: dict[str, set[int]] = {REGISTERED: set(registrations)}
    phase_names: list[str] = []
    phase_rows = (
        PhaseResult.objects.filter(registration__in=list(registrations), absent=False)
        .select_related("phase")
        .order_by("phase__contest_id", "phase__order")
        .values_list("registration_id", "phase__order", "phase__name")
    )
    for registration, order, name in phase_rows:
        stage = f"fase {order}: {name}"
        if stage not in reached:
            reached[stage] = set()
            phase_names.append(stage)
        reached[stage].add(registration)
    phase_names.sort()
    approved: set[int] = set()
    for position in positions:
        run = final_run_for(position)
        if run is not None:
            approved.update(
                ResultEntry.objects.filter(run=run, position=position)
                .exclude(list=ResultEntry.List.OUT)
                .values_list("registration_id", flat=True)
            )
    reached[APPROVED] = approved & set(registrations)
    nominated = _nominations(positions, scope.end)
    reached[NOMINATED] = set(nominated.values_list("registration_id", flat=True))
    reached[TOOK_OFFICE] = set(
        nominated.filter(status=Nomination.Status.TOOK_OFFICE).values_list("registration_id", flat=True)
    )
    stages = [REGISTERED, *phase_names, APPROVED, NOMINATED, TOOK_OFFICE]
    result = Funnel(stages, [])
    rows = {(p.pk, g): FunnelRow(p, g, dict.fromkeys(stages, 0)) for p in positions for g in GROUPS}
    for stage in stages:
        for registration in reached[stage]:
            if registration not in registrations:
                continue
            position_pk, groups = registrations[registration]
            result._totals[(position_pk, stage)] = result._totals.get((position_pk, stage), 0) + 1
            for group in groups:
                rows[(position_pk, group)].counts[stage] += 1
    result.rows = [rows[(p.pk, g)] for p in positions for g in GROUPS]
    return result


# T2: seats per position ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatsRow:
    position: Position
    edital: int  # the edital's vacancies
    later: int  # opened during validity up to the period's end
    reserved: int  # reserved by law for the racial reserve (on the vacancies counted so far)
    reserved_pcd: int
    filled_by_cotistas: int  # reserved seats held by someone from the racial list
    reverted: int  # reserved seats filled by open competition for want of cotistas
    still_open: int  # reserved seats neither filled nor reverted
    carried_fraction: str  # the fraction carried to later vacancies (SM art. 1º §4º), "1/5" or "0"


def seats(scope: Scope) -> list[SeatsRow]:
    """T2, per position."""
    positions = positions_in(scope)
    pks = [p.pk for p in positions]
    opened: dict[tuple[int, str], int] = defaultdict(int)
    for position_pk, kind, count, day in VacancyOpening.objects.filter(position__in=pks).values_list(
        "position_id", "kind", "count", "date"
    ):
        if kind == VacancyOpening.Kind.EDITAL or day <= scope.end:
            opened[(position_pk, kind)] += count
    holding = _nominations(positions, scope.end).filter(status__in=HOLDING, seat_kind=ListName.RACIAL)
    filled: dict[int, int] = defaultdict(int)
    reverted: dict[int, int] = defaultdict(int)
    for position_pk, source, was_reverted in holding.values_list("position_id", "source_list", "reverted"):
        if was_reverted:
            reverted[position_pk] += 1
        elif source == ListName.RACIAL:
            filled[position_pk] += 1
    rows = []
    for position in positions:
        edital = opened[(position.pk, VacancyOpening.Kind.EDITAL)]
        later = opened[(position.pk, VacancyOpening.Kind.LATER)]
        reservation = position.reservation(vacancies=edital + later)
        rows.append(
            SeatsRow(
                position,
                edital,
                later,
                reservation.racial,
                reservation.pcd,
                filled[position.pk],
                reverted[position.pk],
                max(0, reservation.racial - filled[position.pk] - reverted[position.pk]),
                format_fraction_plain(reservation.carried_fraction),
            )
        )
    return rows


# T3: cotistas within open competition, and the share of negros among nominees ----------------------------------


@dataclass(frozen=True)
class NomineesRow:
    position: Position
    nominees: int  # nominations held (active or took office) up to the period's end
    racial_nominees: int  # of them, registered in the racial reserve (in reserved or open seats)
    racial_in_open: int  # of them, seated in open competition (SM art. 4º §3º: "piso, não teto")


def nominees(scope: Scope) -> list[NomineesRow]:
    """T3, per position."""
    positions = positions_in(scope)
    counts: dict[int, list[int]] = {p.pk: [0, 0, 0] for p in positions}
    rows = (
        _nominations(positions, scope.end)
        .filter(status__in=HOLDING)
        .values_list("position_id", "seat_kind", "registration__racial_reserve")
    )
    for position_pk, seat_kind, racial in rows:
        counts[position_pk][0] += 1
        if racial:
            counts[position_pk][1] += 1
            if seat_kind == ListName.OPEN:
                counts[position_pk][2] += 1
    return [NomineesRow(p, *counts[p.pk]) for p in positions]


# T8: days from homologation to nomination, by list ------------------------------------------------------------


@dataclass(frozen=True)
class DelayRow:
    position: Position
    source_list: str
    nominations: int
    median_days: float | None
    max_days: int | None


def delays(scope: Scope) -> list[DelayRow]:
    """T8: every nomination act up to the period's end (whatever became of it), days after the contest's
    homologation, per position × list of origin."""
    positions = positions_in(scope)
    days: dict[tuple[int, str], list[int]] = defaultdict(list)
    rows = (
        _nominations(positions, scope.end)
        .filter(position__contest__homologation_date__isnull=False)
        .values_list("position_id", "source_list", "act_date", "position__contest__homologation_date")
    )
    for position_pk, source, act_date, homologated in rows:
        if homologated is not None:
            days[(position_pk, source)].append((act_date - homologated).days)
    found = []
    for position in positions:
        for source in (ListName.OPEN, ListName.RACIAL, ListName.PCD):
            values = days.get((position.pk, source), [])
            found.append(
                DelayRow(
                    position,
                    source,
                    len(values),
                    statistics.median(values) if values else None,
                    max(values) if values else None,
                )
            )
    return found


# The law's lifetime: the share of negros among nominees per year ---------------------------------------------


@dataclass(frozen=True)
class YearRow:
    year: int
    nominees: int  # nominations made that year (acts dated in it) and still held
    racial_nominees: int  # of them, registered in the racial reserve (reserved or open seats)


def lifetime(policy: Policy, until: datetime.date) -> list[YearRow]:
    """Every year of the law's life (from its start to its end, or ``until`` if sooner), for every contest
    of the policy: the nominees of the year and the negros among them."""
    start = policy.start_date
    last = policy.end_date
    if start is None:
        return []
    stop = min(until, last) if last else until
    counts: dict[int, list[int]] = {year: [0, 0] for year in range(start.year, stop.year + 1)}
    rows = (
        Nomination.objects.filter(
            position__contest__policy=policy, act_date__range=(start, stop), status__in=HOLDING
        )
        .exclude(position__contest__status=Contest.Status.CANCELLED)
        .values_list("act_date", "registration__racial_reserve")
    )
    for act_date, racial in rows:
        counts[act_date.year][0] += 1
        if racial:
            counts[act_date.year][1] += 1
    return [YearRow(year, *values) for year, values in sorted(counts.items())]
