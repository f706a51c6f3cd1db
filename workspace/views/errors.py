"""The error pages (400, 403, CSRF, 404): Django's own, rendered with the workspace's context (the
organisation's name, the menu), except when the database is down: then the page that would have read it
answers the 503 page, rendered without the request, instead of failing into a 500."""

from __future__ import annotations

from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.views import csrf, defaults

from workspace.middleware import database_unavailable


def _or_unavailable(request: HttpRequest, render: Callable[[], HttpResponse]) -> HttpResponse:
    try:
        response = render()
        # A lazy template response renders here, where its database errors can still be answered.
        if hasattr(response, "render") and callable(response.render):
            response.render()
        return response
    except (OperationalError, InterfaceError) as exception:
        return database_unavailable(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _or_unavailable(request, lambda: defaults.bad_request(request, exception))


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _or_unavailable(request, lambda: defaults.permission_denied(request, exception))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _or_unavailable(request, lambda: defaults.page_not_found(request, exception))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return _or_unavailable(request, lambda: csrf.csrf_failure(request, reason))
