"""What a candidate's own public page shows (``portal.views``), read from published data only:
their place in each list of each published result run, and their nominations (public acts).

RULES §7: name (the social name where given), inscription number, score and position; never the CPF, the
birth date, contacts, the declaration or any procedure content. The entries' and nominations' ``why``
texts are left out too: they are the staff's explanation, not what was published.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from candidates.engine.schedule import kind_label, list_label
from candidates.models import Nomination, Registration, ResultEntry, ResultRun
from contests.models import Contest

LIST_ORDER: dict[str, int] = {"open": 0, "racial": 1, "pcd": 2}


@dataclass(frozen=True)
class Place:
    list_label: str
    rank: int | None  # None: not on any list of this run
    general_rank: int | None
    score: Decimal | None


@dataclass(frozen=True)
class RunStanding:
    title: str
    position: str
    final: bool
    places: list[Place]


@dataclass(frozen=True)
class NominationLine:
    position: str
    order: int
    seat: int
    seat_kind: str
    source_list: str
    status: str
    act_number: str
    act_date: datetime.date
    publication_date: datetime.date
    gazette: str
    office_deadline: datetime.date
    took_office_on: datetime.date | None
    awaiting_office: bool


@dataclass(frozen=True)
class Standing:
    name: str
    number: str
    contest: str
    position: str
    runs: list[RunStanding]
    nominations: list[NominationLine]


def registration_by_number(contest: Contest, number: str) -> Registration | None:
    """The registration with inscription ``number`` in ``contest``, to check the access code against: the one
    live read of the page, which never reaches it (only the registration's ``candidate_standing`` does)."""
    return (
        Registration.objects.select_related("candidate", "position", "contest__policy")
        .filter(contest=contest, number=number)
        .first()
    )


def candidate_standing(registration: Registration) -> Standing:
    """The registration's places in the published runs (latest first) and its nominations."""
    contest: Contest = registration.contest
    group = contest.policy.group_label
    runs = list(
        ResultRun.objects.filter(contest=contest, status=ResultRun.Status.PUBLISHED)
        .select_related("position")
        .order_by("-published_at", "-number")
    )
    entries: dict[int, list[ResultEntry]] = {}
    for entry in ResultEntry.objects.filter(
        run__in=[run.pk for run in runs], registration=registration
    ).select_related("position"):
        entries.setdefault(entry.run_id, []).append(entry)
    standings = []
    for run in runs:
        found = sorted(entries.get(run.pk, []), key=lambda e: LIST_ORDER.get(e.list, 9))
        if not found:
            continue
        standings.append(
            RunStanding(
                title=run.name,
                position=str(found[0].position),
                final=run.is_final,
                places=[
                    Place(
                        list_label=list_label(e.list, group),
                        rank=e.rank,
                        general_rank=e.general_rank,
                        score=e.score,
                    )
                    for e in found
                ],
            )
        )
    nominations = [
        NominationLine(
            position=str(n.position),
            order=n.order,
            seat=n.seat,
            seat_kind=kind_label(n.seat_kind, group),
            source_list=kind_label(n.source_list, group),
            status=n.get_status_display(),
            act_number=n.act_number,
            act_date=n.act_date,
            publication_date=n.publication_date,
            gazette=", ".join(
                part for part in (n.gazette_edition, f"p. {n.gazette_page}" if n.gazette_page else "") if part
            ),
            office_deadline=n.office_deadline,
            took_office_on=n.took_office_on,
            awaiting_office=n.status == Nomination.Status.ACTIVE,
        )
        for n in Nomination.objects.filter(registration=registration, run__status=ResultRun.Status.PUBLISHED)
        .select_related("position")
        .order_by("act_date", "order")
    ]
    candidate = registration.candidate
    return Standing(
        name=candidate.display_name,
        number=registration.number,
        contest=str(contest),
        position=str(registration.position),
        runs=standings,
        nominations=nominations,
    )
