"""Plain records of the allocation engine: nomination statuses, ``Nomination``, and the events.

PURE module: standard library only. Split out of ``candidates.allocation`` (which re-exports every
name here) so that the engine's modules stay short; the Django app imports from ``allocation``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from candidates.schedule import AllocationError

# Nomination statuses (RULES §8; ``no_show`` and ``took_office`` for the app's records).
ACTIVE = "active"
TOOK_OFFICE = "took_office"
WITHDRAWN = "withdrawn"
NO_SHOW = "no_show"
ANNULLED = "annulled"
END_OF_LIST = "end_of_list"
STATUSES = (ACTIVE, TOOK_OFFICE, WITHDRAWN, NO_SHOW, ANNULLED, END_OF_LIST)
HOLDING = (ACTIVE, TOOK_OFFICE)  # the nominee holds the seat
ELIMINATED = "eliminated"  # a candidate off every list (with WITHDRAWN and NO_SHOW)


class Nomination(NamedTuple):
    """One nomination: ``order`` (1st, 2nd, … kept on the record), the ``seat`` and its ``kind`` now,
    the ``list`` the nominee came from (``open`` also for a reverted or compensated seat), ``status``
    and ``why`` in Portuguese. Immutable (a named tuple: tens of thousands are made per call)."""

    order: int
    seat: int
    kind: str
    candidate: str
    list: str
    status: str = ACTIVE
    why: str = ""
    reverted: bool = False
    compensated: bool = False

    @property
    def holds_seat(self) -> bool:
        return self.status in HOLDING

    def to_dict(self) -> dict[str, object]:
        """RULES §8 shape; ``reverted``/``compensated`` only where true."""
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
class Open:
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


Event = Call | Open | Withdraw | NoShow | Eliminate | ExcludeFromReserve | EndOfList | TookOffice
EVENT_TYPES: dict[str, type] = {
    cls.key: cls
    for cls in (Call, Open, Withdraw, NoShow, Eliminate, ExcludeFromReserve, EndOfList, TookOffice)
}


def event_from_dict(data: object) -> Event:
    """``{"call": 5}``, ``{"withdraw": "N2"}``, …: one key, the event's name."""
    if not isinstance(data, Mapping) or len(data) != 1:
        raise AllocationError(f'Evento inválido: {data!r} (use um objeto com uma chave, ex.: {{"call": 5}}).')
    ((name, value),) = data.items()
    cls = EVENT_TYPES.get(name)
    if cls is None:
        raise AllocationError(f"Evento desconhecido: {name!r} (use {', '.join(EVENT_TYPES)}).")
    return cls(value)  # type: ignore[return-value]


def event_to_dict(event: Event) -> dict[str, object]:
    value = event.count if isinstance(event, Call | Open) else event.candidate
    return {event.key: value}
