"""When the appeal period against a non-confirmation starts: on the day the candidate's individual message
leaves (the e-mail handed to the mail server by the task queue, or the letter printed for the office to
hand over), never at the session's close: an e-mail that never left opened no period (issue 25 N7;
docs/readings.md, "Heteroidentification")."""

from __future__ import annotations

import datetime

from declarations.calendars import organization_last_day
from declarations.models import Verification


def appeal_period_open(verification: Verification, *, on: datetime.date) -> bool:
    """Start ``verification``'s appeal period on ``on`` (the policy's ``hetero_appeal_days``, calendar days,
    Lei 9.784 art. 66) unless a message already started it (a second message never moves it). The caller
    saves. Whether it started now."""
    if verification.appeal_deadline is not None:
        return False
    days = verification.registration.contest.policy.procedure_law.hetero_appeal_days
    verification.notified_on = on
    verification.appeal_deadline = organization_last_day(on, days, False)
    return True
