"""What the public sees changes only through ``publication_record`` (DESIGN.md): every service that publishes
or changes something the public site shows (an edital, a rectification, a result, a nomination act and what
happens to it, vacancies opened, the contest's status, the organisation's data) calls it once, in its own
transaction. It writes the ``Publication`` row (the contest's audit trail and its Atom feed read it) and,
when that transaction commits, moves the public pages' *generation* on.

The public site stores each rendered page under the generation (``portal/pages.py``), so a new
generation makes every stored page stale at once: in the process that published and, with a shared cache
(``PUBLIC_CACHE_URL``: Redis, docs/operations.md), in every process. Moving it on after the commit, never
before, keeps a page rendered by another process between the two from being stored as fresh. No model
signal is involved: a bulk write (a nomination call) sends none, and a cache that depends on one goes stale
silently. After the generation, ``public_changed`` is sent (the contest's slug, or None for the whole
portal): the portal's static snapshot listens (``portal/snapshots.py``; the domain never imports the portal).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

from django.core.cache import caches
from django.db import transaction
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone

from contests.audit import User
from contests.models import Contest, Publication
from contests.public_generation import database_bump, database_generation, in_database

CACHE_ALIAS = "public"
GENERATION_KEY = "public:generation"

# Sent after a publication's transaction commits, with ``contest_slug`` (None: the whole portal).
public_changed = Signal()


def _cache():
    return caches[CACHE_ALIAS]


# Within ``one_generation`` (a public answer): the generation once read, so that the page, its stored copy
# and what each process keeps for it (``GenerationMemo``) are of one generation, read with one cache access.
_READ: ContextVar[list[int] | None] = ContextVar("public_generation_read", default=None)


@contextmanager
def one_generation() -> Iterator[None]:
    """Read the generation at most once within (an anonymous GET of the public site, which publishes
    nothing; ``bump`` forgets the value read all the same)."""
    token = _READ.set([])
    try:
        yield
    finally:
        _READ.reset(token)


def generation() -> int:
    """The public pages' current generation. With none in the cache (the first request, or the key was
    evicted) a new one starts from the clock in milliseconds: a value no earlier generation had, so no page
    stored before is served again. With several workers each with a cache of its own, the database's
    (``contests.public_generation``)."""
    read = _READ.get()
    if read is None:
        return _generation()
    if not read:
        read.append(_generation())
    return read[0]


def _generation() -> int:
    if in_database(CACHE_ALIAS):
        return database_generation()
    cache = _cache()
    value = cache.get(GENERATION_KEY)
    if value is None:
        cache.add(GENERATION_KEY, time.time_ns() // 1_000_000, timeout=None)  # another process may win
        value = cache.get(GENERATION_KEY, 0)
    return value


def bump() -> None:
    """Every stored public page is stale from now on, in every worker."""
    read = _READ.get()
    if read:
        read.clear()
    if in_database(CACHE_ALIAS):
        database_bump()
        return
    try:
        _cache().incr(GENERATION_KEY)
    except ValueError:  # no generation in the cache: a new one is already one no stored page has
        generation()


@transaction.atomic
def publication_record(
    *, contest: Contest | None, kind: str, title: str, by: User | None, url: str = ""
) -> Publication:
    """Record that the public sees something new (``contest`` None: the whole portal, e.g. the
    organisation's data) and, on commit, make the public site's stored pages stale. ``title``: a short
    Portuguese sentence the public may read ("Nomeação de 3 candidatos para Analista Legislativo"), never a
    CPF nor the name of a procedure's party; ``url``: the public address where the change is seen."""
    publication = Publication(
        contest=contest,
        kind=kind,
        title=" ".join(title.split())[:300],
        url=url,
        at=timezone.now(),
        by=by if by is not None and by.is_authenticated else None,
    )
    publication.full_clean()
    publication.save()
    slug = contest.slug if contest is not None else None
    transaction.on_commit(lambda: _committed(slug))
    return publication


def public_pages_changed(contest: Contest | None) -> None:
    """What the public sees of ``contest`` changed with no publication of its own (a person's name in
    effect on its lists, ``candidates.services.names``): on commit, what follows ``publication_record``."""
    slug = contest.slug if contest is not None else None
    transaction.on_commit(lambda: _committed(slug, names=True))


def _committed(contest_slug: str | None, *, names: bool = False) -> None:
    """``names``: a person's name in effect changed, so every list of the contest changed too (a file kept
    until it is written again would show the former name: LGPD art. 18 III, Decreto 8.727/2016)."""
    bump()
    public_changed.send_robust(sender=Publication, contest_slug=contest_slug, names=names)


T = TypeVar("T")

# Set while a public page is rendered for the portal's static snapshot (``portal.snapshots``), possibly in
# another process than the one that published (the task worker, whose per-process cache holds a generation
# nobody moved on): read from the database, whatever this process keeps.
_FROM_DATABASE: ContextVar[bool] = ContextVar("published_from_database", default=False)


@contextmanager
def from_database() -> Iterator[None]:
    """Within it, ``GenerationMemo`` keeps nothing and the public cache is neither read nor written
    (``portal.pages.serve``): everything is built from the database."""
    token = _FROM_DATABASE.set(True)
    try:
        yield
    finally:
        _FROM_DATABASE.reset(token)


def reading_from_database() -> bool:
    return _FROM_DATABASE.get()


class GenerationMemo(Generic[T]):
    """Values built from what is published, kept in this process while the generation is the same: a
    published page's scope (its contest, run, position) and a list's search index, which every search of
    that page would otherwise read again. Any publication moves the generation on, so a value is never
    older than the pages stored with it (``portal/pages.py``). At most ``size`` values, the least recently
    used dropped first; safe across threads (a value may be built twice, never half seen)."""

    _every: list[GenerationMemo] = []

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[tuple[int, Hashable], T] = OrderedDict()
        self._lock = threading.Lock()
        GenerationMemo._every.append(self)

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value for ``key`` in the current generation, built on a miss (an exception it raises, such
        as ``Http404``, keeps nothing); always built within ``from_database``."""
        if _FROM_DATABASE.get():
            return build()
        full_key = (generation(), key)
        with self._lock:
            if full_key in self._values:
                self._values.move_to_end(full_key)
                return self._values[full_key]
        value = build()
        with self._lock:
            self._values[full_key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    @classmethod
    def forget_all(cls) -> None:
        """Drop every memo's values (tests: rows rolled back can come back under the same ids)."""
        for memo in cls._every:
            with memo._lock:
                memo._values.clear()


def contest_url(contest: Contest) -> str:
    """The contest's page on the public site, where most changes to it are seen."""
    return reverse("public:contest", args=[contest.slug])
