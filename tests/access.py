"""The access matrix of the staff screens, asserted in one way for every view test.

Each view test parametrizes over ``ROLES`` (the fixed cast of ``tests.builders.make_cast`` plus anonymous)
and says which roles the screen lets in; ``assert_access`` checks the rest: anonymous goes to the login
page, a member of the cast without the permission gets 403, the allowed ones get ``ok``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from django.test import Client
from django.urls import reverse

if TYPE_CHECKING:  # the test client's response type exists only in django-stubs
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

ROLES = ("anonymous", "outsider", "clerk", "legal", "commission", "manager", "auditor")
STAFF = frozenset({"clerk", "legal", "commission", "manager", "auditor"})


def expected_status(who: str, allowed: Collection[str], ok: int = 200) -> int:
    """The status a screen answers ``who`` with: 302 to the login page, ``ok`` or 403."""
    if who == "anonymous":
        return 302
    return ok if who in allowed else 403


def assert_access(
    client_for: Callable[[str], Client],
    who: str,
    url: str,
    allowed: Collection[str],
    *,
    method: str = "get",
    data: dict[str, Any] | None = None,
    ok: int = 200,
) -> TestResponse:
    """Request ``url`` as ``who`` and check the answer against ``allowed``; returns the response."""
    client = client_for(who)
    response = client.post(url, data or {}) if method == "post" else client.get(url, data or {})
    assert response.status_code == expected_status(who, allowed, ok), (who, response.status_code)
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    return response
