"""How the public site answers: each page rendered once per publication and served from a cache, with
validators (ETag, Last-Modified) and ``Cache-Control`` so that browsers, a reverse proxy or a CDN keep it.

Published content never changes (DESIGN.md, Scale): a page is a function of its address and of what has
been published. The cache key is the path and the query parameters the page reads, under a *generation*
that any publication moves on (``contests.publication.publication_record``, when its transaction commits),
so a new publication is seen at once by the process that made it and, with a shared cache
(``PUBLIC_CACHE_URL``, docs/operations.md), by every process; with the per-process default, the others see
it when their entry expires (``FRESH_SECONDS`` for pages that change, ``FROZEN_SECONDS`` for a published
run's lists, which do not).

A hit costs one cache read and no query: the body, its ETag and its date are stored together, and a
conditional GET whose ETag (or date) matches gets a 304 with no body.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date, parse_http_date_safe, urlencode

from contests.publication import CACHE_ALIAS, from_database, generation, reading_from_database
from contests.text_search import fold

# The public's searches, stored apart from the pages (config/settings.py: a store bounded in count).
SEARCH_CACHE_ALIAS = "public_searches"

# Pages that change when something is published (home, contest, nominations): browsers and proxies keep
# them a minute; lists of a published run never change: ten minutes (the cache keeps them a day).
FRESH_SECONDS = 60
FROZEN_SECONDS = 600
STORE_FRESH_SECONDS = 300
STORE_FROZEN_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class Page:
    """A rendered public answer, as stored in the cache."""

    body: bytes
    content_type: str = "text/html; charset=utf-8"
    last_modified: datetime.datetime | None = None
    headers: dict[str, str] = field(default_factory=dict)
    etag: str = ""
    # False for an answer to an address the public can vary without limit (a search, a page number past
    # the last): served with its validators but never stored, so nobody can fill the cache with them.
    store: bool = True

    def with_etag(self) -> Page:
        digest = hashlib.sha256(self.body).hexdigest()[:32]
        return Page(self.body, self.content_type, self.last_modified, self.headers, f'"{digest}"', self.store)


def _cache():
    return caches[CACHE_ALIAS]


# While the portal's snapshot (portal/snapshots.py) renders a page: built from the database, whatever a
# cache of this process (the task worker's, with the per-process default) holds, and not stored.
uncached = from_database


def serve(
    request: HttpRequest,
    *,
    key: str,
    build: Callable[[], Page],
    frozen: bool = False,
    noindex: bool = False,
    params: Sequence[str] = (),
    search: str = "",
) -> HttpResponse:
    """The page at ``key`` from the cache (``build`` renders it on a miss; an ``Http404`` it raises is not
    stored, nor a page that says ``store=False``), answered with its validators; 304 when the client already
    has it. ``params`` are the query parameters the page reads (``key`` includes them, see ``query_key``):
    the whole answer is kept for ``PublicPageMiddleware`` only when the address's query string is exactly
    theirs, so ``?utm=1``, ``?utm=2``… are answered from this cache but add no entry.

    ``search`` (``search_text``: folded, sorted, without repeats) marks an answer to a search: it goes to the
    searches' own store, at most ``PUBLIC_SEARCHES_PER_PAGE`` per page and ``PUBLIC_SEARCHES_MAX`` in all per
    generation (``_admitted``), and never to ``PublicPageMiddleware``'s whole answers."""
    if reading_from_database():
        page = build().with_etag()
    else:
        cache = caches[SEARCH_CACHE_ALIAS] if search else _cache()
        current = generation()
        full_key = f"public:{current}:{hashlib.sha256(key.encode()).hexdigest()}"
        page = cache.get(full_key)
        if page is None:
            page = build().with_etag()
            if page.store and (not search or _admitted(cache, key.split("?", 1)[0], current)):
                cache.set(full_key, page, STORE_FROZEN_SECONDS if frozen else STORE_FRESH_SECONDS)
    last_modified = int(page.last_modified.timestamp()) if page.last_modified else None
    response = get_conditional_response(request, etag=page.etag, last_modified=last_modified)
    if response is None:
        response = HttpResponse(page.body, content_type=page.content_type)
        for name, value in page.headers.items():
            response[name] = value
    response["ETag"] = page.etag
    if page.last_modified:
        response["Last-Modified"] = http_date(last_modified)
    max_age = FROZEN_SECONDS if frozen else FRESH_SECONDS
    response["Cache-Control"] = f"public, max-age={max_age}, stale-while-revalidate={max_age}"
    if noindex:
        # Lists of names: never in a search engine (RULES §7); the HTML says it too (meta robots).
        response["X-Robots-Tag"] = "noindex, nofollow"
    if response.status_code == 200 and page.store and not search and _canonical_query(request, params):
        response.public_page = frozen  # type: ignore[attr-defined]  # read by PublicPageMiddleware
    return response


def _admitted(cache, page: str, current: int) -> bool:
    """Whether one more search of ``page`` (its key without the query) may be stored in this generation:
    counters in the searches' store (shared with a shared cache), one per page and one for all."""
    global _full
    if _full[0] != current:
        _full = (current, set())
    full = _full[1]
    page_key = hashlib.sha256(page.encode()).hexdigest()
    counters = (
        (f"searches:{current}:all", settings.PUBLIC_SEARCHES_MAX),
        (f"searches:{current}:page:{page_key}", settings.PUBLIC_SEARCHES_PER_PAGE),
    )
    if any(counter in full for counter, _ in counters):
        return False
    for counter, cap in counters:
        cache.add(counter, 0, STORE_FROZEN_SECONDS)
        try:
            if cache.incr(counter) > cap:
                full.add(counter)
                return False
        except ValueError:  # the counter was evicted between the two: store nothing
            return False
    return True


# The counters this process has seen past their cap, in the generation it has seen last. Within a
# generation a counter only grows, so the searches of a full page (on result day, nearly all of them:
# every candidate looks up a name or a number of their own) are answered without the counters' round trips
# to a shared cache (an ``add`` and an ``incr``, EXISTS then INCRBY, for each of the two: six), an eighth of
# what such a search cost (py-spy, 50 clients on gunicorn).
_full: tuple[int, set[str]] = (0, set())


# The whole answer, stored ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredResponse:
    """A public page's complete answer to an anonymous visitor, as it left the middleware stack (security
    headers included): replayed as it is."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str
    last_modified: int | None

    def replay(self, request: HttpRequest) -> HttpResponse:
        response = get_conditional_response(request, etag=self.etag, last_modified=self.last_modified)
        if response is None:
            response = HttpResponse(self.body)
            headers = self.headers
        else:  # 304: the validators and the policies, no description of a body
            headers = tuple((k, v) for k, v in self.headers if k.lower() not in BODY_HEADERS)
        for name, value in headers:
            response[name] = value
        return response


BODY_HEADERS = frozenset({"content-type", "content-length", "content-disposition"})


def response_key(request: HttpRequest) -> str:
    address = request.path + "?" + request.META.get("QUERY_STRING", "")
    return f"public-response:{generation()}:{hashlib.sha256(address.encode()).hexdigest()}"


def stored_response(request: HttpRequest) -> HttpResponse | None:
    stored = _cache().get(response_key(request))
    return stored.replay(request) if stored is not None else None


def store_response(request: HttpRequest, response: HttpResponse) -> None:
    """Keep a public page's answer whole, when it is one (``serve`` marked it) and carries no cookie."""
    frozen = getattr(response, "public_page", None)
    if frozen is None or response.cookies or response.status_code != 200:
        return
    last_modified = response.get("Last-Modified")
    stored = StoredResponse(
        body=response.content,
        headers=tuple(response.items()),
        etag=response["ETag"],
        last_modified=parse_http_date_safe(last_modified) if last_modified else None,
    )
    _cache().set(response_key(request), stored, STORE_FROZEN_SECONDS if frozen else STORE_FRESH_SECONDS)


QUERY_MAX = 100


def query_text(request: HttpRequest, name: str = "q") -> str:
    """A search typed by the public: at most ``QUERY_MAX`` characters, control characters (a NUL byte,
    which PostgreSQL refuses in a string) dropped, spaces trimmed."""
    raw = request.GET.get(name, "")[: QUERY_MAX * 2]
    return "".join(char for char in raw if char.isprintable()).strip()[:QUERY_MAX]


def search_text(request: HttpRequest, name: str = "q") -> str:
    """A search as it is run and stored: its words folded (no accents, no case), each once, in order. The
    search finds rows holding every word (``contests.text_search.TextIndex``), so "Silva Maria",
    "maria  SILVA silva" and "Maria Silva" are one search, one stored page (issue 25, N1)."""
    return " ".join(sorted(set(fold(query_text(request, name)).split())))


def _canonical_query(request: HttpRequest, names: Sequence[str]) -> bool:
    """Whether the address's query string is the one the page's own links write: only ``names``, in their
    order, each with a value (the middleware keys a whole answer by the raw query string)."""
    values = [(name, request.GET.get(name, "")) for name in names]
    expected = urlencode([(name, value) for name, value in values if value])
    return request.META.get("QUERY_STRING", "") == expected


def query_key(request: HttpRequest, *names: str) -> str:
    """The query parameters a page reads, in a fixed order, for its cache key (others are ignored, so
    ``?utm=…`` does not make a new entry)."""
    return "&".join(
        f"{name}={search_text(request, name) if name == 'q' else query_text(request, name)}" for name in names
    )
