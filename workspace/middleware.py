"""Middleware of the project: query values without NUL bytes, no-store for the staff workspace, a clear 503
page when the database is down."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers

logger = logging.getLogger("cotas.database")

RETRY_AFTER_SECONDS = 60


class QueryWithoutNulMiddleware:
    """The one place where a NUL byte leaves the query string (``?concurso=%00``, ``?ato=a%00b``): dropped
    from every key and value before any view, form or cache key reads them. PostgreSQL refuses a NUL in a
    text parameter, so a view that filtered by such a value answered 500; forms already refuse NUL in what
    they parse (Django's ``ProhibitNullCharactersValidator``), but a view reads ``request.GET`` directly too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "%00" in request.META.get("QUERY_STRING", ""):
            clean = QueryDict(mutable=True)
            for key, values in request.GET.lists():
                clean.setlist(key.replace("\x00", ""), [value.replace("\x00", "") for value in values])
            clean._mutable = False
            request.GET = clean  # type: ignore[assignment]  # made immutable just above
            request.META["QUERY_STRING"] = clean.urlencode()
        return self.get_response(request)


class RequestBodyLimitMiddleware:
    """A request whose declared body passes ``REQUEST_BODY_MAX_MB`` is answered 413 before anything reads
    it: the same limit as the proxy's ``client_max_body_size`` (docs/operations.md), so the application
    holds it also without the proxy. The page is plain text: nothing is rendered for a flood."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.REQUEST_BODY_MAX_MB
        if length > limit * 1024 * 1024:
            return HttpResponse(
                f"Pedido grande demais: o limite é {limit} MB.\n",
                status=413,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A view that fails because the database cannot be reached (``OperationalError``: connection refused,
    server gone, too many connections; ``InterfaceError``: connection closed) answers a Portuguese 503 page
    with ``Retry-After`` instead of a 500. The page is rendered without a request, so no context processor
    (which could query) runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        return database_unavailable(request, exception)


def database_unavailable(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The Portuguese 503 page with ``Retry-After``, rendered without the request (no context processor,
    which could query, runs); logged."""
    logger.error("Banco de dados indisponível em %s %s", request.method, request.path, exc_info=exception)
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class NoStoreForStaffMiddleware:
    """Every answer to a logged-in user says ``Cache-Control: no-store, private`` (with ``no-cache``,
    ``must-revalidate`` and ``max-age=0``): the workspace shows CPFs, self-declarations and signed
    statements, which no browser history, shared computer or proxy may keep. Anonymous pages (the public
    site) keep their own caching."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            # No session, so nobody is signed in: the session is not even loaded (loading it would add
            # ``Vary: Cookie``, which keeps a CDN from sharing the public pages).
            return response
        try:
            user = getattr(request, "user", None)
            staff = user is not None and user.is_authenticated
        except (OperationalError, InterfaceError):  # the database is down: who asked is unknown, keep nothing
            staff = True
        if staff:
            add_never_cache_headers(response)
        return response
