"""T4 exposure and T10 conformance (issue 23), for a report's scope. Counts of positions, vacancies and
contests (not of people: nothing to suppress).

T4: the positions with vacancies but no racial reserve (below the law's threshold), and the vacancies that
escaped any reserve there; the same position (same title) offered by several contests of the policy while an
earlier one was still valid, the splitting ADC 41 warns against, when together they would reserve more than
apart; and the contests whose positions, each counted apart, reserve less than their total would.

T10, per contest: the reserve stated in an edital published through the system, separate lists published (a
published classification with a reserved list), the order rule applied (every nomination recorded for the
contest is the one the allocation engine decided, in its order: the same call order, seat, seat kind, list and
person as the engine's ledger of the position; a nomination written or edited outside the engine, or a
position whose nominations have no ledger, makes it "não") and, for the policy, each report due by the period's end filed on time.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

from candidates.models import AllocationLedger, Nomination, ResultEntry
from candidates.models.results import ListName
from candidates.services.nominations.loading import engine_id
from contests import law_term, quotas
from contests.documents.models import Document
from contests.models import Contest, Position
from monitoring.indicators import Scope, contests_in, seats
from monitoring.models import FiledReport


@dataclass(frozen=True)
class Split:
    title: str
    positions: tuple[Position, ...]
    reserved_apart: int
    reserved_together: int


@dataclass(frozen=True)
class ShortContest:
    contest: Contest
    vacancies: int
    reserved_apart: int
    reserved_together: int


@dataclass
class Exposure:
    below_threshold: list[Position]
    escaped: int  # the vacancies of those positions
    splits: list[Split]
    short_contests: list[ShortContest]


def _together(contest: Contest, vacancies: int) -> int:
    """The racial reserve the policy gives ``vacancies`` counted as one position."""
    return quotas.reservation(vacancies, contest.policy.racial_rule()).racial if vacancies else 0


def _normal(title: str) -> str:
    return " ".join(title.split()).casefold()


def exposure(scope: Scope) -> Exposure:
    rows = seats(scope)
    below = [r for r in rows if r.edital + r.later > 0 and r.reserved == 0]
    by_contest: dict[int, list] = defaultdict(list)
    by_title: dict[str, list] = defaultdict(list)
    for row in rows:
        by_contest[row.position.contest_id].append(row)
        by_title[_normal(row.position.title)].append(row)
    short = []
    for group in by_contest.values():
        contest = group[0].position.contest
        vacancies = sum(r.edital + r.later for r in group)
        apart = sum(r.reserved for r in group)
        together = _together(contest, vacancies)
        if apart < together:
            short.append(ShortContest(contest, vacancies, apart, together))
    splits = []
    for group in by_title.values():
        contests = {r.position.contest_id: r.position.contest for r in group}
        if len(contests) < 2:
            continue
        ordered = sorted(contests.values(), key=lambda c: c.edital_date)
        overlaps = any(
            (end := earlier.validity_end) is not None
            and earlier.homologation_date is not None
            and earlier.homologation_date <= later.edital_date <= end
            for earlier, later in itertools.pairwise(ordered)
        )
        vacancies = sum(r.edital + r.later for r in group)
        apart = sum(r.reserved for r in group)
        together = _together(ordered[0], vacancies)
        if overlaps and apart < together:
            splits.append(Split(group[0].position.title, tuple(r.position for r in group), apart, together))
    return Exposure([r.position for r in below], sum(r.edital + r.later for r in below), splits, short)


# T10 -----------------------------------------------------------------------------------------------------

YES, NO, NOT_YET = "sim", "não", "ainda não"


@dataclass(frozen=True)
class Conformance:
    contest: Contest
    reserve_in_edital: str
    separate_lists: str
    order_rule: str


def conformance(scope: Scope) -> list[Conformance]:
    found = []
    for contest in contests_in(scope):
        edital = Document.objects.filter(contest=contest, kind=Document.Kind.EDITAL).exists()
        if not edital:
            stated = NOT_YET
        elif contest.policy.percent and contest.policy.percent > 0:
            stated = YES
        else:
            stated = NO
        published = ResultEntry.objects.filter(run__contest=contest, run__published_at__isnull=False)
        if not published.exists():
            lists = NOT_YET
        elif (
            published.filter(list=ListName.RACIAL).exists()
            or not contest.registrations.filter(racial_reserve=True).exists()
        ):
            lists = YES
        else:
            lists = NO
        nominations = Nomination.objects.filter(position__contest=contest, act_date__lte=scope.end)
        order = NO if _out_of_order(nominations) else YES if nominations.exists() else NOT_YET
        found.append(Conformance(contest, stated, lists, order))
    return found


def _out_of_order(nominations) -> list[Nomination]:
    """The nominations that are not the engine's: compared with the ledger of their position (the engine's
    snapshot after each call, ``candidates.models.AllocationLedger``) by call order, seat, seat kind, list
    and person. A nomination the ledger does not hold (written by hand) or holds otherwise is returned."""
    ledgers = {
        ledger.position_id: {
            int(n["order"]): (int(n["seat"]), str(n["kind"]), str(n["list"]), str(n["candidate"]))
            for n in ledger.state.get("nominations", ())
        }
        for ledger in AllocationLedger.objects.filter(position__in=nominations.values("position"))
    }
    return [
        nomination
        for nomination in nominations.select_related("registration")
        if ledgers.get(nomination.position_id, {}).get(nomination.order)
        != (
            nomination.seat,
            nomination.seat_kind,
            nomination.source_list,
            engine_id(nomination.registration.number),
        )
    ]


@dataclass(frozen=True)
class ReportOnTime:
    report: law_term.Report
    filed_on: str  # dd/mm/aaaa or ""
    on_time: str  # YES, NO or NOT_YET (not filed, not yet due)


def reports_on_time(scope: Scope) -> list[ReportOnTime]:
    """The policy's reports due by the period's end: filed, and on time."""
    filed = {(f.kind, f.number): f.filed_on for f in FiledReport.objects.filter(policy=scope.policy)}
    found = []
    for report in law_term.reports(scope.policy.term()):
        if report.opens_on > scope.end:
            continue
        day = filed.get(report.key)
        if day is None:
            state = NO if report.due_on < scope.end else NOT_YET
        else:
            state = YES if day <= report.due_on else NO
        found.append(ReportOnTime(report, f"{day:%d/%m/%Y}" if day else "", state))
    return found
