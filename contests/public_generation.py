"""Where the public pages' generation lives (``contests.publication.generation``; issue 25, N11).

Every stored public page is keyed by the generation, so it must be the same number in every worker
process the moment it moves on. In the public cache it is, when that cache is shared (Redis, a database
cache) or there is a single worker: a hit then costs one cache read and no query. With several workers
(``WEB_CONCURRENCY`` > 1) each holding a cache of its own (the default, per process), a generation kept
there moved on only in the worker that published: the others served their stored pages until they
expired (a new PDF missing from a list page for a day). There it lives in the database instead: one
row, read once per public answer (a primary-key read), moved on by an ``UPDATE`` every worker sees at once.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db.models import F

from contests.models import PublicGeneration

PER_PROCESS_BACKENDS = ("LocMemCache", "DummyCache")
ROW = 1


def per_process(alias: str) -> bool:
    """Whether the cache ``alias`` is each process's own (nothing in it is seen by another worker)."""
    backend = settings.CACHES.get(alias, {}).get("BACKEND", "")
    return backend.rsplit(".", 1)[-1] in PER_PROCESS_BACKENDS


def in_database(alias: str) -> bool:
    """Whether the generation must live in the database: several workers, each with its own ``alias``."""
    return getattr(settings, "WEB_CONCURRENCY", 1) > 1 and per_process(alias)


def database_generation() -> int:
    """The row's value; with no row yet (a new database), one starting from the clock in milliseconds, a
    value no page stored under an earlier generation has."""
    value = PublicGeneration.objects.filter(pk=ROW).values_list("value", flat=True).first()
    if value is None:
        row, _ = PublicGeneration.objects.get_or_create(
            pk=ROW, defaults={"value": time.time_ns() // 1_000_000}
        )
        value = row.value
    return value


def database_bump() -> None:
    if not PublicGeneration.objects.filter(pk=ROW).update(value=F("value") + 1):
        database_generation()
