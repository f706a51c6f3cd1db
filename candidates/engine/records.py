"""Plain records of the allocation engine: the roster, nomination statuses, ``Nomination``, events.

PURE module: standard library only. Split out of ``candidates.engine.allocation`` (which re-exports every
name here) so that the engine's modules stay short; the Django app imports from ``allocation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import itemgetter
from typing import Any, ClassVar, NamedTuple, NoReturn

from candidates.engine.ranking import Candidate
from candidates.engine.schedule import RESERVES, AllocationError

_RESERVE_SET = frozenset(RESERVES)
# After this many lookups of candidates the engine has not met yet, index them all (see ``Roster``).
_SCANS_BEFORE_INDEX = 8

# Nomination statuses (RULES §8; ``no_show`` and ``took_office`` for the app's records).
ACTIVE = "active"
TOOK_OFFICE = "took_office"
WITHDRAWN = "withdrawn"
NO_SHOW = "no_show"
ANNULLED = "annulled"
END_OF_LIST = "end_of_list"
ON_HOLD = "on_hold"  # kept for a candidate under a court hold (RULES §4 item 8): filled, not refilled
STATUSES = (ACTIVE, TOOK_OFFICE, WITHDRAWN, NO_SHOW, ANNULLED, END_OF_LIST, ON_HOLD)
HOLDING = (ACTIVE, TOOK_OFFICE, ON_HOLD)  # the nominee holds the seat
ELIMINATED = "eliminated"  # a candidate off every list (with WITHDRAWN and NO_SHOW)


class Reason(NamedTuple):
    """Why a nomination was made, as data (RULES §4): what ``Nomination.why`` is written from, so a
    screen formats what it needs instead of slicing the Portuguese text.

    ``via``: ``open`` (an open seat), ``reserved`` (the best of the seat's list who qualifies),
    ``reverted`` (nobody qualified: filled from the general list, SM art. 4 §5) or ``held`` (a dual
    candidate held for the list they prefer, SM art. 4 §7). ``citation``: the policy's article for that
    decision (``""`` when it names none). ``percent``, ``base``, ``exact``, ``reserved``: the §2
    figures the seat's kind comes from (p of ``base`` = ``exact`` → ``reserved``; empty for an open
    seat).
    ``list_position``: the nominee's place on the seat's list (under ``projected``, among those beyond
    open competition; 0 on an open seat); ``open_seats``: the open seats of the schedule that place is
    counted beyond (``projected`` only). ``collided_with``/``moved_to``: reserves that also wanted
    this new seat and the seat each got instead (0: it waits for more vacancies). ``freed_by``: what
    freed the seat (``"desistência de N2"``), for a seat filled again. ``landed_seat``/``landed_kind``:
    for a held candidate, the other list's seat they had landed on. ``seat_text`` and ``choice_text``
    are the two halves of ``why`` (the seat's kind; who takes it and why).
    """

    seat: int
    kind: str
    list: str
    via: str
    citation: str = ""
    percent: str = ""
    base: int = 0
    exact: str = ""
    reserved: int = 0
    general_position: int = 0
    list_position: int = 0
    open_seats: int = 0
    collided_with: tuple[str, ...] = ()
    moved_to: tuple[int, ...] = ()
    freed_by: str = ""
    landed_seat: int = 0
    landed_kind: str = ""
    seat_text: str = ""
    choice_text: str = ""

    def text(self) -> str:
        """The whole ``why``: ``"3ª vaga: reservada a negros; 20% de 3 = 0,6 → 1; N2 é o 1º …"``."""
        freed = f" (liberada: {self.freed_by})" if self.freed_by else ""
        if self.via == "owed":  # RULES §4 item 7: who the seat is owed to comes first
            return f"{ordinal(self.seat, True)} vaga{freed}: {self.choice_text} ({self.seat_text})"
        return f"{ordinal(self.seat, True)} vaga{freed}: {self.seat_text}; {self.choice_text}"

    def detail(self) -> str:
        """The ``why`` without the seat's number, for a screen that shows the seat apart: on an open seat
        only who takes it and why; otherwise also why the seat is reserved (or reverted)."""
        if self.kind == "open" and self.via != "reverted" and not self.freed_by:
            text = self.choice_text
        else:
            freed = f"liberada: {self.freed_by}; " if self.freed_by else ""
            text = f"{freed}{self.seat_text}; {self.choice_text}"
        return text[:1].upper() + text[1:]

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = dict(self._asdict())
        data["collided_with"] = list(self.collided_with)
        data["moved_to"] = list(self.moved_to)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reason:
        return cls(
            seat=int(data["seat"]),
            kind=str(data["kind"]),
            list=str(data["list"]),
            via=str(data["via"]),
            citation=str(data.get("citation", "")),
            percent=str(data.get("percent", "")),
            base=int(data.get("base", 0)),
            exact=str(data.get("exact", "")),
            reserved=int(data.get("reserved", 0)),
            general_position=int(data.get("general_position", 0)),
            list_position=int(data.get("list_position", 0)),
            open_seats=int(data.get("open_seats", 0)),
            collided_with=tuple(str(x) for x in data.get("collided_with", ())),
            moved_to=tuple(int(x) for x in data.get("moved_to", ())),
            freed_by=str(data.get("freed_by", "")),
            landed_seat=int(data.get("landed_seat", 0)),
            landed_kind=str(data.get("landed_kind", "")),
            seat_text=str(data.get("seat_text", "")),
            choice_text=str(data.get("choice_text", "")),
        )


class Nomination(NamedTuple):
    """One nomination: ``order`` (1st, 2nd, … kept on the record), the ``seat`` and its ``kind`` now,
    the ``list`` the nominee came from (``open`` also for a reverted or compensated seat), ``status``,
    ``why`` in Portuguese and the same ``reason`` as data (``None`` in snapshots saved before it
    existed); ``reinstated`` (a seat paid to a reinstated or displaced candidate, or a lost nomination
    restored) and ``displaced`` (annulled because a restored one took its seat back), RULES §4 item 7.
    Immutable (a named tuple: tens of thousands are made per call)."""

    order: int
    seat: int
    kind: str
    candidate: str
    list: str
    status: str = ACTIVE
    why: str = ""
    reverted: bool = False
    compensated: bool = False
    reason: Reason | None = None
    reinstated: bool = False
    displaced: bool = False

    @property
    def holds_seat(self) -> bool:
        return self.status in HOLDING

    def to_dict(self, *, with_reason: bool = False) -> dict[str, object]:
        """RULES §8 shape; ``reverted``/``compensated`` only where true; ``reason`` on request (the
        state's snapshot keeps it, ``simulate`` prints the keys of §8 and ``why``)."""
        data: dict[str, object] = {
            "order": self.order,
            "seat": self.seat,
            "kind": self.kind,
            "candidate": self.candidate,
            "list": self.list,
            "status": self.status,
            "why": self.why,
        }
        if self.reverted:
            data["reverted"] = True
        if self.compensated:
            data["compensated"] = True
        if self.reinstated:
            data["reinstated"] = True
        if self.displaced:
            data["displaced"] = True
        if with_reason and self.reason is not None:
            data["reason"] = self.reason.to_dict()
        return data


def ordinal(n: int, feminine: bool = False) -> str:
    return f"{n}{'ª' if feminine else 'º'}"


# Events ---------------------------------------------------------------------------------------------


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AllocationError(f"O número de vagas {what} deve ser um inteiro.")
    if value < 0:
        raise AllocationError(f"O número de vagas {what} não pode ser negativo.")
    return value


@dataclass(frozen=True)
class Call:
    """Fill ``count`` seats: freed seats first, then new ones, never more than the vacancies open."""

    count: int
    key: ClassVar[str] = "call"

    def __post_init__(self) -> None:
        _count(self.count, "a convocar")


@dataclass(frozen=True)
class OpenVacancies:
    """Open ``count`` more vacancies during validity (SM art. 1 §1): the reserve is recounted on the
    cumulative total, fraction carried (§4)."""

    count: int
    key: ClassVar[str] = "open"

    def __post_init__(self) -> None:
        _count(self.count, "a abrir")


@dataclass(frozen=True)
class _CandidateEvent:
    candidate: str
    key: ClassVar[str] = ""

    def __post_init__(self) -> None:
        if not isinstance(self.candidate, str) or not self.candidate:
            raise AllocationError(f"Identificador de candidato inválido: {self.candidate!r}.")


@dataclass(frozen=True)
class Withdraw(_CandidateEvent):
    """Withdrawal before taking office: off every list; an active nomination becomes ``withdrawn`` and
    its seat is refilled by the same rule (SM art. 4 §4; AR art. 3 §2)."""

    key: ClassVar[str] = "withdraw"


@dataclass(frozen=True)
class NoShow(_CandidateEvent):
    """A nominee who did not take office: as a withdrawal, status ``no_show``."""

    key: ClassVar[str] = "no_show"


@dataclass(frozen=True)
class Eliminate(_CandidateEvent):
    """Falsity confirmed (SM art. 3 §3; AR art. 2): off every list; a nomination is annulled."""

    key: ClassVar[str] = "eliminate"


@dataclass(frozen=True)
class ExcludeFromReserve(_CandidateEvent):
    """Not confirmed without bad faith (Lei 15.142 model): off the reserved lists only; a nomination
    that came from a reserved list is annulled, one from the general list stays."""

    key: ClassVar[str] = "exclude_from_reserve"


@dataclass(frozen=True)
class EndOfList(_CandidateEvent):
    """A called candidate's request to go to the end of the lists (RULES §4 item 4)."""

    key: ClassVar[str] = "end_of_list"


@dataclass(frozen=True)
class TookOffice(_CandidateEvent):
    """The nominee took office: the status is recorded, nothing else changes."""

    key: ClassVar[str] = "took_office"


@dataclass(frozen=True)
class Reinstate(_CandidateEvent):
    """A removal reversed (RULES §4 item 7): undoes the candidate's latest ``Eliminate`` or
    ``ExcludeFromReserve``; a nomination it annulled is owed back by the policy's ``reinstatement`` rule.
    ``ground`` (optional, not part of the event's dict) names the decision in the explanations, e.g.
    ``"por decisão em grau de recurso no PA nº 3/2026"``."""

    ground: str = field(default="", compare=False)
    key: ClassVar[str] = "reinstate"


@dataclass(frozen=True)
class CourtHold(_CandidateEvent):
    """A court order that keeps a seat (RULES §4 item 8): the candidate's nomination, now or when a
    seat reaches them, is ``on_hold`` until ``CourtRelease``."""

    key: ClassVar[str] = "court_hold"


@dataclass(frozen=True)
class CourtRelease(_CandidateEvent):
    """The court hold ends (RULES §4 item 8): a nomination on hold becomes active."""

    key: ClassVar[str] = "court_release"


Event = (
    Call
    | OpenVacancies
    | Withdraw
    | NoShow
    | Eliminate
    | ExcludeFromReserve
    | EndOfList
    | TookOffice
    | Reinstate
    | CourtHold
    | CourtRelease
)
EVENT_TYPES: dict[str, type] = {
    cls.key: cls
    for cls in (
        Call,
        OpenVacancies,
        Withdraw,
        NoShow,
        Eliminate,
        ExcludeFromReserve,
        EndOfList,
        TookOffice,
        Reinstate,
        CourtHold,
        CourtRelease,
    )
}


def event_from_dict(data: object) -> Event:
    """``{"call": 5}``, ``{"withdraw": "N2"}``, …: one key, the event's name."""
    if not isinstance(data, Mapping) or len(data) != 1:
        raise AllocationError(f'Evento inválido: {data!r} (use um objeto com uma chave, ex.: {{"call": 5}}).')
    ((name, value),) = data.items()
    cls = EVENT_TYPES.get(name)
    if cls is None:
        raise AllocationError(f"Evento desconhecido: {name!r} (use {', '.join(EVENT_TYPES)}).")
    event: Event = cls(value)
    return event


def event_to_dict(event: Event) -> dict[str, object]:
    value = event.count if isinstance(event, Call | OpenVacancies) else event.candidate
    return {event.key: value}


# The roster ----------------------------------------------------------------------------------------


def _first_bad_id(ids: tuple[object, ...]) -> NoReturn:
    """The first fault among the ids, in roster order, as a Portuguese error: an id that is not a string
    or is empty (checked first, over all), then the first id repeated."""
    if set(map(type, ids)) - {str} or "" in ids:
        bad = next(i for i, cid in enumerate(ids) if type(cid) is not str or not cid)
        raise AllocationError(f"Identificador de candidato inválido na posição {bad + 1}: {ids[bad]!r}.")
    seen: set[object] = set()
    for cid in ids:
        if cid in seen:
            raise AllocationError(f"Candidato repetido: {cid}.")
        seen.add(cid)
    raise AssertionError("the set of ids said there was a fault")  # pragma: no cover


@dataclass(frozen=True, eq=False)
class Roster:
    """The approved candidates in general classification order (shared by every state of a position).

    Checked at C speed (``map``, ``set``, ``compress``): a national contest has a million candidates.
    The id → position dict is built only if needed (``index``): the engine finds the candidates it has
    nominated through its own index, a handful of others by a scan, and a set of ids in one pass.
    """

    candidates: tuple[Candidate, ...]
    cotistas: tuple[int, ...] = field(init=False, repr=False)  # positions of those on a reserved list
    _found: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        people = tuple(self.candidates)
        if set(map(type, people)) - {Candidate}:
            bad = next(i for i, c in enumerate(people) if type(c) is not Candidate)
            raise AllocationError(f"Candidato inválido na posição {bad + 1}.")
        # Every id a string, as many distinct ids as candidates, and the empty one not among them (a
        # look-up in the set, not a scan). Only when that fails are they read one by one, in order, for
        # the first fault. The tuple of ids is dropped before a collection can walk it (it would be
        # young): built again only if a look-up needs it (``ids``).
        ids = tuple(map(itemgetter(0), people))
        if set(map(type, ids)) - {str}:
            _first_bad_id(ids)
        distinct_ids = set(ids)
        if len(distinct_ids) != len(ids) or "" in distinct_ids:
            _first_bad_id(ids)
        del ids, distinct_ids
        # The distinct values of ``lists`` and ``prefers`` are a handful: check those, not each row. An
        # unhashable ``lists`` (a list, a set) fails the set; a hashable one not a frozenset shows in it.
        # Each column is read once (``itemgetter`` over a million) and used by every check on it.
        lists_col = list(map(itemgetter(1), people))
        try:
            distinct = set(lists_col)
        except TypeError:
            distinct = {()}
        if set(map(type, distinct)) - {frozenset}:
            people = tuple(
                c if type(c.lists) is frozenset else c._replace(lists=frozenset(c.lists)) for c in people
            )
            lists_col = list(map(itemgetter(1), people))
            distinct = set(lists_col)
        for lists in distinct:
            if not lists <= _RESERVE_SET:
                who = next(c.id for c in people if c.lists == lists)
                raise AllocationError(
                    f"Reserva desconhecida para {who}: {', '.join(sorted(lists - _RESERVE_SET))}."
                )
        prefers_col = list(map(itemgetter(2), people))
        wrong = set(prefers_col) - {None, *RESERVES}
        if wrong:
            who = next(c.id for c in people if c.prefers in wrong)
            raise AllocationError(f"{who} prefere uma reserva desconhecida: {next(iter(wrong))!r}.")
        for c in compress(people, prefers_col):
            if c.prefers not in c.lists:
                raise AllocationError(f"{c.id} prefere uma reserva ({c.prefers!r}) a que não concorre.")
        object.__setattr__(self, "candidates", people)
        object.__setattr__(self, "cotistas", tuple(compress(range(len(people)), lists_col)))
        object.__setattr__(self, "_found", {})

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """Every candidate's id, in order (built on first use: a look-up of a candidate the engine has not
        met). A tuple: of strings only, the garbage collector stops tracking it at its first look."""
        return tuple(map(itemgetter(0), self.candidates))

    @cached_property
    def index(self) -> dict[str, int]:
        """Every id → its position (built on first use: about a second for a million candidates)."""
        return dict(zip(self.ids, range(len(self.ids)), strict=True))

    def locate(self, cid: object) -> int:
        """The position of candidate ``cid``, or a Portuguese error."""
        if not isinstance(cid, str):
            raise AllocationError(f"Candidato desconhecido: {cid!r}.")
        if "index" in self.__dict__:
            found = self.index.get(cid)
        elif cid in self._found:
            found = self._found[cid]
        elif len(self._found) >= _SCANS_BEFORE_INDEX:
            found = self.index.get(cid)
        else:
            try:
                found = self.ids.index(cid)  # a scan in C: cheaper than indexing everyone for a few
            except ValueError:
                found = None
            if found is not None:
                self._found[cid] = found
        if found is None:
            raise AllocationError(f"Candidato desconhecido: {cid!r}.")
        return found

    def locate_many(self, cids: Iterable[str]) -> dict[str, int]:
        """Positions of several candidates in one pass (at C speed); unknown ids are an error."""
        wanted = set(cids)
        if not wanted:
            return {}
        if "index" in self.__dict__:
            index = self.index
            found = {cid: index[cid] for cid in wanted if cid in index}
        else:
            ids = self.ids
            found = {ids[i]: i for i in compress(range(len(ids)), map(wanted.__contains__, ids))}
        if len(found) != len(wanted):
            raise AllocationError(f"Candidato desconhecido: {sorted(wanted - set(found))[0]!r}.")
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Roster) and (self is other or self.candidates == other.candidates)

    def __hash__(self) -> int:
        return hash(len(self.candidates))

    def __len__(self) -> int:
        return len(self.candidates)
