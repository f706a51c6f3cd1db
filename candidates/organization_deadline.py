"""The last day of a deadline counted by the deadline engine (Lei 9.784 art. 66) with the organisation's
calendar (national, state and municipal holidays and closures), for this app's screens and letters: the
appeal against a preliminary result (``candidates.documents``) and the new deadline of a phase a reinstated
candidate missed (``candidates.seat_notices``). The engine and the calendar live in ``declarations``, above
this app: it hands the count in when the apps load (``declarations.apps``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

# (start, amount, in business days) → the deadline's last day.
DeadlineFor = Callable[[datetime.date, int, bool], datetime.date]
_deadline_for: DeadlineFor | None = None


def use(deadline_for: DeadlineFor) -> None:
    global _deadline_for
    _deadline_for = deadline_for


def last_day(start: datetime.date, amount: int, *, business_days: bool) -> datetime.date:
    """The last day of ``amount`` days (business days when ``business_days``) counted from ``start``."""
    if _deadline_for is None:
        raise ImproperlyConfigured("Os prazos são contados pelo motor de prazos: instale o app declarations.")
    return _deadline_for(start, amount, business_days)
