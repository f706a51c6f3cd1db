"""The login's three throttles, on django-axes' attempts in the database (so every worker process sees the
same counts, and a recycled worker forgets nothing):

- a user name *at* an address: ``AXES_FAILURE_LIMIT`` wrong passwords lock that pair for the cool-off;
- an address, whatever the names: ``LOGIN_MAX_FAILURES_PER_ADDRESS`` lock the address (a spray of names
  from one computer);
- an account, from every address: after ``LOGIN_ACCOUNT_DELAY_AFTER`` failures each further try waits a
  delay that doubles with every failure (``LOGIN_ACCOUNT_DELAY_SECONDS``, then twice that…, at most the
  cool-off). Not a lock that anyone could hold on a colleague: the owner waits at most the delay, while a
  guesser spread over many addresses gets a handful of tries an hour. A try refused during a delay is not
  counted (axes does not record it), so the delay grows only with real guesses.

``AXES_LOCKOUT_PARAMETERS`` names the three filters in this order: the pair, the address, the account.
"""

from __future__ import annotations

import datetime

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.db.models import Max, Sum
from django.http import HttpRequest
from django.utils import timezone


def account_delay(failures: int) -> datetime.timedelta:
    """How long an account waits after its last failure, with ``failures`` from every address counted."""
    free = settings.LOGIN_ACCOUNT_DELAY_AFTER
    if failures < free:
        return datetime.timedelta(0)
    cap = get_cool_off() or datetime.timedelta(minutes=15)
    seconds = settings.LOGIN_ACCOUNT_DELAY_SECONDS * 2 ** min(failures - free, 20)
    return min(datetime.timedelta(seconds=seconds), cap)


class LoginThrottleHandler(AxesDatabaseHandler):
    """django-axes' database handler with the three throttles above (``get_failures`` answers the limit
    when any of them holds, so axes locks; else the pair's count)."""

    def lock_seconds(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """Seconds until the request's name and address may try again (0: they may now)."""
        pair, address, account = (
            attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            for attempts in self.get_user_attempts(request, credentials)
        )
        cool_off = get_cool_off(request) or datetime.timedelta(minutes=15)
        now = timezone.now()
        waits = [0.0]
        for counts, limit in (
            (pair, get_failure_limit(request, credentials)),
            (address, settings.LOGIN_MAX_FAILURES_PER_ADDRESS),
        ):
            if (counts["failures"] or 0) >= limit and counts["last"] is not None:
                waits.append((counts["last"] + cool_off - now).total_seconds())
        delay = account_delay(account["failures"] or 0)
        if delay and account["last"] is not None:
            waits.append((account["last"] + delay - now).total_seconds())
        return max(0, int(max(waits) + 0.999))

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        limit = get_failure_limit(request, credentials)
        seconds = self.lock_seconds(request, credentials)
        request.login_lock_seconds = seconds  # type: ignore[attr-defined]  # the lockout page says it
        if seconds:
            return limit
        pair = self.get_user_attempts(request, credentials)[0]
        return min(limit - 1, pair.aggregate(failures=Sum("failures_since_start"))["failures"] or 0)

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        seconds = (
            self.lock_seconds(request, credentials)
            if getattr(settings, "AXES_LOCK_OUT_AT_FAILURE", True)
            else 0
        )
        request.login_lock_seconds = seconds  # type: ignore[attr-defined]
        return bool(seconds)
