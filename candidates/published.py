"""Reads for the public site: published runs, their frozen lists, and the nomination order of a position.

Nothing here reads live registration data for a list: the rows are the published run's entries
(``ResultEntry``: number copied when the run was computed; the name in effect, the social name where
given, kept up to date by ``candidates.services.names``). What
leaves this module is what RULES §7 lets the public see: name, inscription number, score, places, and for
a nomination its seat, list, status and act; never the CPF, the birth date, contacts, a declaration or
the reasons (``why``) the staff screens show.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import accumulate
from typing import Any, overload

from django.db.models import QuerySet
from django.http import Http404

from candidates import court_cases
from candidates.documents import score_text as score_text  # one home, shared with the PDFs
from candidates.engine.schedule import kind_label, list_label
from candidates.models import SCORE_DECIMAL_PLACES, Nomination, ResultEntry, ResultRun
from candidates.selectors import run_positions as run_positions  # one home, shared with the staff screens
from contests.documents.models import Document
from contests.models import Contest, Position
from contests.publication import GenerationMemo
from contests.text_search import TextIndex
from contests.wording import thousands

PAGE_SIZE = 50
ENTRY_FIELDS = ("position_id", "list", "rank", "general_rank", "number", "name", "score")


@dataclass(frozen=True)
class PublicList:
    """One list as the public addresses it: a stable identifier in the URL and open data."""

    slug: str  # "geral", "racial", "pcd"
    value: str  # ResultEntry.List
    label: str


SLUG_OF: dict[str, str] = {
    ResultEntry.List.OPEN: "geral",
    ResultEntry.List.RACIAL: "racial",
    ResultEntry.List.PCD: "pcd",
}


def contest_lists(contest: Contest) -> list[PublicList]:
    """The general list, the racial list and, where the contest reserves for PcD, the PcD list."""
    values = [ResultEntry.List.OPEN, ResultEntry.List.RACIAL]
    if contest.pcd_percent:
        values.append(ResultEntry.List.PCD)
    group = contest.policy.group_label
    return [PublicList(SLUG_OF[value], value, list_label(value, group)) for value in values]


def public_list(contest: Contest, slug: str) -> PublicList:
    for item in contest_lists(contest):
        if item.slug == slug:
            return item
    raise Http404("Esta lista não existe neste concurso.")


def published_runs(contest: Contest) -> list[ResultRun]:
    return list(
        ResultRun.objects.filter(contest=contest, status=ResultRun.Status.PUBLISHED)
        .select_related("position", "after_phase")
        .order_by("-published_at", "-pk")
    )


def published_run(contest: Contest, pk: int) -> ResultRun:
    """A published run of ``contest``; a draft run (or another contest's) is a 404, never a preview."""
    run = (
        ResultRun.objects.filter(contest=contest, pk=pk, status=ResultRun.Status.PUBLISHED)
        .select_related("position", "after_phase")
        .first()
    )
    if run is None:
        raise Http404("Nenhuma lista publicada tem este endereço.")
    run.contest = contest
    return run


def run_position(run: ResultRun, pk: int) -> Position:
    position = Position.objects.filter(contest=run.contest, pk=pk).first()
    if position is None or not run.covers(position):
        raise Http404("Este cargo não está nesta lista.")
    position.contest = run.contest
    return position


# The public search -----------------------------------------------------------------------------------
#
# A published run's lines never change but for the name in effect, and a change of name moves the public
# pages' generation on (``candidates.services.names``). Each process keeps, per generation, the searchable
# text of the lists searched lately (``TextIndex``: 4.9 MB for 58,000 lines) and the columns the public sees
# of each of their lines, packed (``Lines``: 3.5 MB more), read once from the database (0.1 s for 58,000
# lines read for the index alone, 0.3 s with the columns); a search is then answered from memory, its
# page's lines included. Reading those by id was a fifth of a search's cost on result day (the query and the
# connection's health check before it): 50 clients searching straight on gunicorn got 761 to 813 answers/s
# with p95 78 to 86 ms while they were read, 1,225 to 1,373 with p95 40 to 52 ms once kept (alternated runs).

_search_indexes: GenerationMemo[tuple[TextIndex, Lines]] = GenerationMemo(size=8)


class Lines:
    """The lines of a list (or of a run's lists) as the public pages read them (``ENTRY_FIELDS`` and the
    ``pk``), packed in arrays and joined texts: a dict per line (``values()``) would have cost 38 MB for 58,000
    lines. ``row(i)`` is the ``i``-th line as ``values("pk", *ENTRY_FIELDS)`` reads it."""

    __slots__ = ("_general", "_kinds", "_names", "_numbers", "_pks", "_positions", "_ranks", "_scores")

    NONE = -1  # an empty place or score (they are never negative)
    KINDS = tuple(ResultEntry.List.values)

    def __init__(self, rows: Sequence[tuple[Any, ...]]):
        """``rows``: ``values_list("pk", *ENTRY_FIELDS, …)`` in the list's order (what follows is not kept)."""
        none, scale = self.NONE, 10**SCORE_DECIMAL_PLACES
        names = ("pk", *ENTRY_FIELDS)
        transposed = zip(*rows, strict=True) if rows else [()] * len(names)
        column = dict(zip(names, transposed, strict=False))  # by name: what follows ENTRY_FIELDS is left
        self._pks, self._positions = array("q", column["pk"]), array("q", column["position_id"])
        self._kinds = array("b", map(self.KINDS.index, column["list"]))
        self._ranks = array("i", [none if rank is None else rank for rank in column["rank"]])
        self._general = array("i", [none if rank is None else rank for rank in column["general_rank"]])
        self._scores = array("q", [none if v is None else int(v * scale) for v in column["score"]])
        self._numbers, self._names = _Texts(column["number"]), _Texts(column["name"])

    def __len__(self) -> int:
        return len(self._pks)

    def row(self, line: int) -> dict[str, Any]:
        none, rank, general, score = self.NONE, self._ranks[line], self._general[line], self._scores[line]
        return {
            "pk": self._pks[line],
            "position_id": self._positions[line],
            "list": self.KINDS[self._kinds[line]],
            "rank": None if rank == none else rank,
            "general_rank": None if general == none else general,
            "number": self._numbers[line],
            "name": self._names[line],
            "score": None if score == none else Decimal(score).scaleb(-SCORE_DECIMAL_PLACES),
        }


class _Texts:
    """Texts kept as one UTF-8 string of bytes and where each starts: a Python string per line costs 49
    bytes more, and one accented name makes a joined ``str`` two bytes a character."""

    __slots__ = ("_starts", "_text")

    def __init__(self, texts: Sequence[str]):
        encoded = [text.encode() for text in texts]
        self._text = b"".join(encoded)
        self._starts = array("i", accumulate(map(len, encoded), initial=0))

    def __getitem__(self, index: int) -> str:
        return self._text[self._starts[index] : self._starts[index + 1]].decode()


class SearchResults(Sequence[dict[str, Any]]):
    """The lines a search found, in the list's order, for ``Paginator``: counted and read from the lines
    each process keeps (``Lines``), no query."""

    def __init__(self, lines: Lines, found: list[int]):
        self.lines = lines
        self.found = found

    def __len__(self) -> int:
        return len(self.found)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, int):
            return self.lines.row(self.found[index])
        return [self.lines.row(line) for line in self.found[index]]


def _search(lines: Callable[[], QuerySet[ResultEntry]], scope: tuple[Any, ...], query: str) -> SearchResults:
    """``lines``: the queryset of the lines searched, made only when the index is built (a queryset's
    filters cost a search a quarter of a millisecond)."""

    def build() -> tuple[TextIndex, Lines]:
        rows = list(lines().values_list("pk", *ENTRY_FIELDS, "search_name"))
        number = 1 + ENTRY_FIELDS.index("number")
        return TextIndex([row[-1] for row in rows], [row[number] for row in rows]), Lines(rows)

    index, packed = _search_indexes.get(scope, build)
    return SearchResults(packed, index.search(query))


def list_rows(run: ResultRun, position: Position, kind: str) -> QuerySet[Any, dict[str, Any]]:
    """The list ``kind`` of ``position`` in ``run``, in order."""
    return (
        ResultEntry.objects.filter(run=run, position=position, list=kind)
        .order_by("rank")
        .values(*ENTRY_FIELDS)
    )


def list_search(run: ResultRun, position: Position, kind: str, query: str) -> SearchResults:
    """The lines of the list ``kind`` of ``position`` in ``run`` that ``query`` finds
    (``TextIndex.search``), in order."""
    return _search(
        lambda: ResultEntry.objects.filter(run=run, position=position, list=kind).order_by("rank"),
        (run.pk, run.published_at, position.pk, kind),
        query,
    )


def run_search(run: ResultRun, query: str) -> SearchResults:
    """Every list line of ``run`` that ``query`` finds (all positions and lists), by position, list, rank."""
    return _search(
        lambda: (
            ResultEntry.objects.filter(run=run)
            .exclude(list=ResultEntry.List.OUT)
            .order_by("position_id", "list", "rank")
        ),
        (run.pk, run.published_at, None, None),
        query,
    )


def row_text(row: dict[str, Any]) -> dict[str, Any]:
    """A list line as the public pages print it: its places with the thousands dot (``thousands``, what the
    template's localisation printed, at a fraction of its cost) and its score (``score_text``)."""
    general = row["general_rank"]
    return {
        **row,
        "rank": thousands(row["rank"]),
        "general_rank": "" if general is None else thousands(general),
        "score": score_text(row["score"]),
    }


def list_counts(run: ResultRun) -> dict[tuple[int, str], int]:
    from django.db.models import Count

    counts = (
        ResultEntry.objects.filter(run=run)
        .exclude(list=ResultEntry.List.OUT)
        .values_list("position_id", "list")
        .annotate(n=Count("pk"))
    )
    return {(position_id, kind): n for position_id, kind, n in counts}


def run_document(run: ResultRun) -> Document | None:
    """The published PDF of the run's lists, if Gestão published one (its latest version)."""
    return (
        Document.objects.filter(
            contest=run.contest,
            kind=Document.Kind.RESULT_LIST,
            subject=f"run-{run.pk}",
            rectification__isnull=True,
        )
        .defer("pdf")
        .order_by("-version")
        .first()
    )


# Nominations -------------------------------------------------------------------------------------------


def nomination_rows(position: Position) -> list[dict[str, Any]]:
    """The position's nomination order: each recorded nomination act, in order, named by the social name
    where given, with the published act (its verification code) when there is one."""
    contest = position.contest
    group = contest.policy.group_label
    nominations = (
        Nomination.objects.filter(position=position)
        .select_related("registration__candidate")
        .only(
            "order",
            "seat",
            "seat_kind",
            "source_list",
            "reverted",
            "status",
            "act_number",
            "act_date",
            "gazette_edition",
            "gazette_page",
            "gazette_date",
            "registration__number",
            "registration__candidate__full_name",
            "registration__candidate__social_name",
        )
        .order_by("order")
    )
    subjects = {f"act-{n.act_number}"[:80] for n in nominations}
    acts = {
        d.subject: d
        for d in Document.objects.filter(
            contest=contest,
            kind=Document.Kind.NOMINATION_ACT,
            subject__in=subjects,
            rectification__isnull=True,
        ).defer("pdf")
    }
    # Held under a court order not yet final: "sub judice", and nothing else of the case (issue 22).
    sub_judice = court_cases.cases_of(n.registration_id for n in nominations)
    rows = []
    for nomination in nominations:
        candidate = nomination.registration.candidate
        label = nomination.get_status_display()
        if nomination.registration_id in sub_judice and "sub judice" not in label:
            label = f"{label} (sub judice)"
        rows.append(
            {
                "order": nomination.order,
                "seat": nomination.seat,
                "seat_kind": nomination.seat_kind,
                "seat_kind_label": kind_label(nomination.seat_kind, group),
                "source_list": nomination.source_list,
                "source_list_label": kind_label(nomination.source_list, group),
                "reverted": nomination.reverted,
                "status": nomination.status,
                "status_label": label,
                "number": nomination.registration.number,
                "name": candidate.display_name,
                "act_number": nomination.act_number,
                "act_date": nomination.act_date,
                "publication_date": nomination.publication_date,
                "gazette_edition": nomination.gazette_edition,
                "gazette_page": nomination.gazette_page,
                "act_document": acts.get(f"act-{nomination.act_number}"[:80]),
            }
        )
    return rows


def positions_with_nominations(contest: Contest) -> set[int]:
    """The positions of ``contest`` with at least one nomination recorded (their order is public)."""
    return set(
        Nomination.objects.filter(position__contest=contest).values_list("position_id", flat=True).distinct()
    )
