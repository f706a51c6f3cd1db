"""Nomination acts as Gestão publishes them: each act of a contest (its number names it), the document it
was published as, if any. Read by the position's nominations page and the home's queue."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from urllib.parse import quote

from django.db.models import Min
from django.urls import reverse

from candidates.models import Nomination
from contests.documents.models import Document
from contests.models import Contest, Position
from contests.wording import act_is_feminine as feminine
from contests.wording import by, of, with_article  # noqa: F401  (the acts' grammar, re-exported)


def nomination_act_subject(act_number: str) -> str:
    """The published document's ``subject`` for a nomination act (``candidates.documents``)."""
    return f"act-{act_number}"[:80]


def published_act(contest: Contest, act_number: str) -> Document | None:
    """The current published version of the nomination act ``act_number`` of ``contest``, if any."""
    return (
        Document.objects.filter(
            contest=contest, kind=Document.Kind.NOMINATION_ACT, subject=nomination_act_subject(act_number)
        )
        .order_by("-version")
        .first()
    )


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
    documents: dict[tuple[int | None, str], Document] = {}
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


# How the acts name themselves and what they cite (the Portaria and the letter that tells of it) ---------


_NUMBER_MARK = re.compile(r"^(?P<kind>[^\d]*?)[\s,]*(?:n\.?\s*[º°o]\.?\s*)?(?P<number>\d.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class ActName:
    """How an act names itself: the kind (``Portaria``) and the heading (``PORTARIA Nº 50/2026``), from
    the number the clerk typed (``"50/2026"``, ``"Portaria 50/2026"``, ``"Portaria nº 50/2026"``)."""

    kind: str
    number: str

    @classmethod
    def parse(cls, act_number: str) -> ActName:
        text = " ".join(act_number.split())
        match = _NUMBER_MARK.match(text)
        if match is None:  # no number at all: the text is the act's name
            return cls("Portaria", text)
        kind = match["kind"].strip(" ,.-–").strip()
        return cls(kind or "Portaria", match["number"].strip())

    @property
    def name(self) -> str:
        """``"Portaria nº 50/2026"``: how a sentence names the act."""
        return f"{self.kind} nº {self.number}" if self.number else self.kind

    @property
    def heading(self) -> str:
        return f"{self.kind} nº {self.number}".upper() if self.number else self.kind.upper()

    @property
    def this(self) -> str:
        """``"Esta Portaria"``, ``"Este Ato da Mesa"``."""
        return f"{'Esta' if feminine(self.kind) else 'Este'} {self.kind}"

    @property
    def of_this(self) -> str:
        """``"desta Portaria"``, ``"deste Ato da Mesa"``."""
        return f"{'desta' if feminine(self.kind) else 'deste'} {self.kind}"


def article_label(n: int) -> str:
    """``Art. 1º`` to ``Art. 9º``, then ``Art. 10.`` (LC 95/1998 art. 10 I: ordinal to the ninth, cardinal
    after it)."""
    return f"Art. {n}º" if n < 10 else f"Art. {n}."


def roman(n: int) -> str:
    """``4`` → ``"IV"``: the incisos of an article."""
    out = ""
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out, n = out + letters, n - value
    return out


def post_phrase(position: Position) -> str:
    """``"cargo de provimento efetivo de Motorista"`` or ``"emprego público de Motorista"``."""
    if position.post_kind == Position.PostKind.EMPREGO_PUBLICO:
        return f"emprego público de {position.title}"
    return f"cargo de provimento efetivo de {position.title}"
