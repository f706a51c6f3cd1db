"""The throttle of the public 'Minha inscrição' page (issue 25, N4), where a candidate types their
inscription number and access code. Inscription numbers are public, so no count kept per inscription alone
may lock anyone out: the locks are per (inscription, address) and per address, and the tries on one
inscription from every address only space out the tries of the addresses that already failed on it.

- ``MAX_PER_PAIR`` wrong codes for one inscription from one address in ``PAIR_WINDOW``: that address may
  not try that inscription again until the oldest of them leaves the window;
- ``MAX_PER_ADDRESS`` wrong codes from one address, whatever the inscriptions, in ``ADDRESS_WINDOW``: that
  address may not try any until the oldest leaves;
- past ``SLOW_AFTER`` wrong codes for one inscription from every address in ``PAIR_WINDOW`` (the global
  slowdown), an address that got a code wrong on it waits ``SLOW_STEP`` seconds more per wrong code from
  everywhere, up to ``SLOW_MAX``, after its own last wrong code before its next try on it. An address that
  has not failed on it is answered at once: the candidate at home gets in however many addresses guess.

Nobody waits inside a request: a try that must wait is refused at once, unchecked and uncounted, with HTTP
429 and ``Retry-After`` (the seconds until it may try again), so a flood of tries holds no worker.

The counts are rows of ``AccessCodeFailure`` in the database: the same for every worker process, kept
when a worker is recycled. With 30¹⁰ codes, guessing one is out of reach either way.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import math
from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.db.models import Count, Max, Q, QuerySet

from candidates.models import AccessCodeFailure

MAX_PER_PAIR = 10
PAIR_WINDOW = datetime.timedelta(hours=1)
MAX_PER_ADDRESS = 20
ADDRESS_WINDOW = datetime.timedelta(minutes=15)
SLOW_AFTER = 10
SLOW_STEP = 2.0
SLOW_MAX = 60.0

Reason = Literal["", "pair", "address", "slow"]


@dataclass(frozen=True)
class Keys:
    registration: str
    address: str


@dataclass(frozen=True)
class Verdict:
    retry_after: int  # > 0: refused without checking the code; the seconds until this address may try again
    reason: Reason  # "pair", "address" (a lock) or "slow" (the global slowdown); "" when it may try now

    @property
    def locked(self) -> bool:
        return self.reason in ("pair", "address")


def keys(*, contest_id: int, number: str, address: str) -> Keys:
    """Keyed hashes of the inscription and the address (the table holds no personal data in clear)."""

    def digest(value: str) -> str:
        return hmac.new(settings.SECRET_KEY.encode(), value.encode(), hashlib.sha256).hexdigest()[:32]

    return Keys(digest(f"inscription:{contest_id}:{number.strip().upper()}"), digest(f"address:{address}"))


def _seconds(until: datetime.datetime, now: datetime.datetime) -> int:
    """Whole seconds from now until then, at least one."""
    return max(1, math.ceil((until - now).total_seconds()))


def _lock_ends(
    failures: QuerySet[AccessCodeFailure], *, count: int, limit: int, window: datetime.timedelta
) -> datetime.datetime:
    """When the count in the window falls below the limit: the failure that must leave it, plus the window."""
    leaving = failures.order_by("at").values_list("at", flat=True)[count - limit]
    return leaving + window


def verdict(key: Keys, *, now: datetime.datetime) -> Verdict:
    """Whether this address may try this inscription now, and if not, for how many seconds more."""
    since = now - max(PAIR_WINDOW, ADDRESS_WINDOW)
    pair = Q(registration_key=key.registration, address_key=key.address, at__gte=now - PAIR_WINDOW)
    by_address = Q(address_key=key.address, at__gte=now - ADDRESS_WINDOW)
    counts = AccessCodeFailure.objects.filter(at__gte=since).aggregate(
        pair=Count("pk", filter=pair),
        pair_last=Max("at", filter=pair),
        address=Count("pk", filter=by_address),
        registration=Count("pk", filter=Q(registration_key=key.registration, at__gte=now - PAIR_WINDOW)),
    )
    if counts["pair"] >= MAX_PER_PAIR:
        failures = AccessCodeFailure.objects.filter(pair)
        ends = _lock_ends(failures, count=counts["pair"], limit=MAX_PER_PAIR, window=PAIR_WINDOW)
        return Verdict(retry_after=_seconds(ends, now), reason="pair")
    if counts["address"] >= MAX_PER_ADDRESS:
        failures = AccessCodeFailure.objects.filter(by_address)
        ends = _lock_ends(failures, count=counts["address"], limit=MAX_PER_ADDRESS, window=ADDRESS_WINDOW)
        return Verdict(retry_after=_seconds(ends, now), reason="address")
    excess = counts["registration"] - SLOW_AFTER + 1
    if excess > 0 and counts["pair_last"] is not None:
        spacing = datetime.timedelta(seconds=min(SLOW_MAX, SLOW_STEP * excess))
        if counts["pair_last"] + spacing > now:
            return Verdict(retry_after=_seconds(counts["pair_last"] + spacing, now), reason="slow")
    return Verdict(retry_after=0, reason="")


def failure_record(key: Keys, *, now: datetime.datetime) -> None:
    """Count a wrong code, and forget the rows no window reads any more."""
    AccessCodeFailure.objects.filter(at__lt=now - max(PAIR_WINDOW, ADDRESS_WINDOW)).delete()
    AccessCodeFailure.objects.create(at=now, registration_key=key.registration, address_key=key.address)
