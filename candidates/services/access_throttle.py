"""The throttle of the public 'Minha inscrição' page (issue 25, N4), where a candidate types their
inscription number and access code. Inscription numbers are public, so no count kept per inscription alone
may lock anyone out: the locks are per (inscription, address) and per address, and the tries on one
inscription from every address only slow its answers down.

- ``MAX_PER_PAIR`` wrong codes for one inscription from one address in ``PAIR_WINDOW``: that address may
  not try that inscription again until the window passes;
- ``MAX_PER_ADDRESS`` wrong codes from one address, whatever the inscriptions, in ``ADDRESS_WINDOW``: that
  address may not try any;
- past ``SLOW_AFTER`` wrong codes for one inscription from every address in ``PAIR_WINDOW``, every answer
  about it (right code or wrong) waits ``SLOW_STEP`` seconds more per wrong code, up to ``SLOW_MAX``: a
  guesser spread over many addresses gets a few tries a minute per worker, the candidate still gets in.

The counts are rows of ``AccessCodeFailure`` in the database: the same for every worker process, kept
when a worker is recycled. With 30¹⁰ codes, guessing one is out of reach either way.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import time
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q

from candidates.models import AccessCodeFailure

MAX_PER_PAIR = 10
PAIR_WINDOW = datetime.timedelta(hours=1)
MAX_PER_ADDRESS = 20
ADDRESS_WINDOW = datetime.timedelta(minutes=15)
SLOW_AFTER = 10
SLOW_STEP = 0.5
SLOW_MAX = 5.0

# The function that waits (a test replaces it to read the delay without waiting).
sleep = time.sleep


@dataclass(frozen=True)
class Keys:
    registration: str
    address: str


@dataclass(frozen=True)
class Verdict:
    locked_seconds: int  # > 0: refused without checking the code, for about this long
    delay: float  # seconds to wait before checking it


def keys(*, contest_id: int, number: str, address: str) -> Keys:
    """Keyed hashes of the inscription and the address (the table holds no personal data in clear)."""

    def digest(value: str) -> str:
        return hmac.new(settings.SECRET_KEY.encode(), value.encode(), hashlib.sha256).hexdigest()[:32]

    return Keys(digest(f"inscription:{contest_id}:{number.strip().upper()}"), digest(f"address:{address}"))


def verdict(key: Keys, *, now: datetime.datetime) -> Verdict:
    """Whether this address may try this inscription now, and how long its answer waits."""
    since = now - max(PAIR_WINDOW, ADDRESS_WINDOW)
    counts = AccessCodeFailure.objects.filter(at__gte=since).aggregate(
        pair=Count(
            "pk",
            filter=Q(registration_key=key.registration, address_key=key.address, at__gte=now - PAIR_WINDOW),
        ),
        address=Count("pk", filter=Q(address_key=key.address, at__gte=now - ADDRESS_WINDOW)),
        registration=Count("pk", filter=Q(registration_key=key.registration, at__gte=now - PAIR_WINDOW)),
    )
    locked = 0
    if counts["pair"] >= MAX_PER_PAIR:
        locked = int(PAIR_WINDOW.total_seconds())
    elif counts["address"] >= MAX_PER_ADDRESS:
        locked = int(ADDRESS_WINDOW.total_seconds())
    excess = counts["registration"] - SLOW_AFTER + 1
    return Verdict(locked_seconds=locked, delay=min(SLOW_MAX, SLOW_STEP * excess) if excess > 0 else 0.0)


def wait(delay: float) -> None:
    if delay > 0:
        sleep(delay)


def failure_record(key: Keys, *, now: datetime.datetime) -> None:
    """Count a wrong code, and forget the rows no window reads any more."""
    AccessCodeFailure.objects.filter(at__lt=now - max(PAIR_WINDOW, ADDRESS_WINDOW)).delete()
    AccessCodeFailure.objects.create(at=now, registration_key=key.registration, address_key=key.address)
