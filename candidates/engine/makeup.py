"""The phases a reinstated candidate missed while out of the lists, and how long they are given again
(issue 22, "People are told"; RULES §4 item 7 and our reading in docs/readings.md, "Fases perdidas").

PURE module: no Django, no clock; the caller passes the phases' dates and the interval out.

A candidate removed on day ``out_from`` (elimination, cancellation, exclusion from the reserve) and
reinstated on day ``back_on`` was out of the contest on every day from ``out_from`` to ``back_on``, both
included: on the day of the removal they were already off the lists, and on the day of the reinstatement
they have not yet been told (the notice's day is excluded from every count: Lei 9.784 art. 66).

- A phase is **missed** when some day of it (``starts_on`` to ``ends_on``, both included; a one-day phase
  has ``ends_on`` equal to ``starts_on`` or empty) falls in that interval: a phase that ended before the
  removal was taken part in, one that starts after the reinstatement will be. A phase partly missed is
  missed whole: its time is given again in full (restitution of the term, not what was left of it).
- A phase the candidate sat (a score on record for them) was not missed, whatever its dates: an exclusion
  from the reserve leaves the candidate in the contest, and a removal may come after the phase's score.
- A phase with no date on record is never counted as missed: nobody can say it happened while the
  candidate was out (the clerk records the dates on the phase's screen).
- The **new deadline** runs from the notice, in calendar days: as many as the phase lasted (its original
  length), and never fewer than ``MIN_MAKE_UP_DAYS`` (a one-day exam cannot be retaken the day after the
  letter arrives; ten days is the shortest period Lei 9.784 gives a person to act, arts. 44 and 59).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date

MIN_MAKE_UP_DAYS = 10


@dataclass(frozen=True)
class PhaseDates:
    """A phase as the edital's schedule dates it (``key``: the caller's id for it)."""

    key: int
    order: int
    starts_on: date | None
    ends_on: date | None = None

    @property
    def last_day(self) -> date | None:
        return self.ends_on or self.starts_on

    @property
    def length_days(self) -> int:
        """The phase's original length in days, both ends included (1 for a one-day phase)."""
        if self.starts_on is None or self.last_day is None:
            return 1
        return max(1, (self.last_day - self.starts_on).days + 1)


def missed_phases(
    phases: Iterable[PhaseDates], out_from: date, back_on: date, *, sat: Collection[int] = ()
) -> tuple[PhaseDates, ...]:
    """The phases, in their order, with a day between ``out_from`` and ``back_on`` (both included), but
    those whose key is in ``sat`` (the candidate has a score in them).

    ``ValueError`` when the interval is reversed (a reinstatement before the removal it undoes)."""
    if back_on < out_from:
        raise ValueError("A reintegração não pode ser anterior à eliminação ou exclusão que ela desfaz.")
    missed = [
        phase
        for phase in phases
        if phase.key not in sat
        and phase.starts_on is not None
        and phase.last_day is not None
        and phase.starts_on <= back_on
        and phase.last_day >= out_from
    ]
    return tuple(sorted(missed, key=lambda phase: phase.order))


def make_up_days(phase: PhaseDates, minimum: int = MIN_MAKE_UP_DAYS) -> int:
    """The calendar days given again for ``phase``: its original length, at least ``minimum``."""
    return max(phase.length_days, minimum)
