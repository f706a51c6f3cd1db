"""A call in progress (RULES.md §4): how each seat found its nominee, and the undo journal of the call.

PURE module: standard library and the pure ``candidates.engine.records`` only. Internal to
``candidates.engine.seating``: a call mutates the index and writes one journal entry per change (named
tuples, undone in reverse order), so a dual candidate's conflict resumes the fill from the seat they had
landed on and a preview (``allocation.preview_call``) rolls the whole call back.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from candidates.engine.records import Nomination


class Via(Enum):
    """How a seat found its nominee (RULES §4)."""

    OPEN = "open"  # an open seat: the best of the general list not yet nominated
    RESERVED = "reserved"  # a reserved seat: the best of its list who qualifies
    REVERTED = "reverted"  # a reserved seat nobody qualified for: filled as an open seat
    HELD = "held"  # a dual candidate held for the list they prefer (SM art. 4 §7)
    OWED = "owed"  # a seat owed to a reinstated or displaced candidate (RULES §4 item 7)


class Fill(NamedTuple):
    """One seat filled by the call being made: where the journal stood before it, who, which seat."""

    mark: int
    candidate: int
    seat: int
    kind: str
    contenders: tuple[str, ...]  # reserves that also wanted this new seat and lost it
    new: bool  # created by this call (not a freed seat)
    made_up: bool  # given to its list by the make-up that delivers the reserves
    via: Via


class Hold(NamedTuple):
    """A dual candidate held for the list they prefer, and the seat of the other list they had landed on."""

    preferred: str
    landed_seat: int
    landed_kind: str


# The undo journal of a call: one entry per change, undone in reverse order.
class NominationMade(NamedTuple):
    candidate: int
    seat: int
    held: bool  # the candidate was held: undoing it holds them again


class SeatCreated(NamedTuple):
    kind: str


class FreedSeatTaken(NamedTuple):
    seat: int


class HoldPlaced(NamedTuple):
    candidate: int


class CompensationChecked(NamedTuple):
    entry: tuple[int, int, int]  # (general entry, seat, candidate) popped from the compensation heap


class Compensation(NamedTuple):
    nomination: int  # index of the nomination compensated
    before: Nomination
    seat: int
    kind: str  # the seat's kind before
    at: int  # the open seat being filled when the open list reached the nominee
    candidate: int  # the nominee (their note is written once the call is settled)


JournalEntry = NominationMade | SeatCreated | FreedSeatTaken | HoldPlaced | CompensationChecked | Compensation
