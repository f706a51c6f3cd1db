"""The public site's middleware: a public page already answered is replayed whole from the cache."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from contests.publication import one_generation
from portal import pages


class PublicPageMiddleware:
    """Result day: an anonymous visitor's GET of a public page already answered is replayed
    from the cache whole (body, validators and the security headers the stack added), without running the
    rest of the stack or the view; a conditional GET that matches gets its 304. Placed right after
    ``SecurityMiddleware`` (its https redirect and headers still apply). Staff (a session cookie) always go
    through the stack, and get ``no-store``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.static_url = "/" + settings.STATIC_URL.lstrip("/")

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        cacheable = (
            request.method in ("GET", "HEAD")
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and not request.path.startswith(self.static_url)
        )
        if not cacheable:
            return self.get_response(request)
        request.get_host()  # a host outside ALLOWED_HOSTS is refused (400) here too
        with one_generation():  # one read of the generation for the whole answer
            # A search is never kept whole (``pages.serve``): not looked for either.
            if "q" not in request.GET:
                stored = pages.stored_response(request)
                if stored is not None:
                    return stored
            response = self.get_response(request)
            if isinstance(response, HttpResponse):
                pages.store_response(request, response)
        return response
