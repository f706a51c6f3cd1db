"""Nomination acts as Gestão publishes them: each act of a contest (its number names it), the document it
was published as, if any. Read by the position's nominations page and the home's queue."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import quote

from django.db.models import Min
from django.urls import reverse

from candidates.models import Nomination
from contests.documents.models import Document
from contests.models import Contest, Position


def nomination_act_subject(act_number: str) -> str:
    """The published document's ``subject`` for a nomination act (``candidates.documents``)."""
    return f"act-{act_number}"[:80]


@dataclass(frozen=True)
class ActState:
    """A nomination act of a contest: its number, a position it names (for the link) and, once
    published, its current document."""

    contest: Contest
    act_number: str
    position_id: int
    act_date: datetime.date | None
    document: Document | None

    @property
    def url(self) -> str:
        base = reverse("candidates:nomination_list", args=[self.contest.slug, self.position_id])
        return f"{base}?ato={quote(self.act_number)}#atos"


def nomination_acts(*, contest: Contest | None = None, position: Position | None = None) -> list[ActState]:
    """Every nomination act (of ``contest``, of the acts naming ``position``, or of every contest), with
    its published document if any; two queries whatever the number of acts."""
    nominations = Nomination.objects.exclude(act_number="")
    if contest is not None:
        nominations = nominations.filter(position__contest=contest)
    if position is not None:
        numbers = Nomination.objects.filter(position=position).values("act_number")
        nominations = nominations.filter(position__contest=position.contest_id, act_number__in=numbers)
    rows = list(
        nominations.values("position__contest", "act_number")
        .annotate(position=Min("position"), act_date=Min("act_date"))
        .order_by("position__contest", "act_date", "act_number")
    )
    contests = Contest.objects.in_bulk({row["position__contest"] for row in rows})
    documents: dict[tuple[int, str], Document] = {}
    published = Document.objects.filter(
        kind=Document.Kind.NOMINATION_ACT, contest__in=list(contests)
    ).order_by("version")
    for document in published.only("pk", "contest_id", "subject", "code", "version", "published_at"):
        documents[(document.contest_id, document.subject)] = document  # the latest version last
    return [
        ActState(
            contests[row["position__contest"]],
            row["act_number"],
            row["position"],
            row["act_date"],
            documents.get((row["position__contest"], nomination_act_subject(row["act_number"]))),
        )
        for row in rows
    ]
