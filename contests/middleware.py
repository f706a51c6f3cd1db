"""Middleware of the staff workspace."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers


class NoStoreForStaffMiddleware:
    """Every answer to a logged-in user says ``Cache-Control: no-store, private`` (with ``no-cache``,
    ``must-revalidate`` and ``max-age=0``): the workspace shows CPFs, self-declarations and signed
    statements, which no browser history, shared computer or proxy may keep. Anonymous pages (the public
    site) keep their own caching."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
        return response
