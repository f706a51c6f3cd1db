"""Access helpers of the staff workspace: every view needs a login and a permission.

Anonymous users go to the login page; users without the permission get 403. The ``get_*_for_user``
helpers are what views (of this app and the others) use to fetch a record: 404 when the user may not
see it, 403 when they may see but not change it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar, cast

from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404

from contests.audit import User
from contests.models import Contest, Position, VacancyOpening

PAGE_SIZE = 50
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


class AuthenticatedHttpRequest(HttpRequest):
    """The request a ``staff_view`` receives: the login is required, so the user is a ``User``."""

    user: User


def staff_view(*perms: str) -> Callable[[View], View]:
    """``login_required`` then ``permission_required(..., raise_exception=True)``: 302 to login, or 403.

    A write (any method but GET, HEAD and OPTIONS) runs in one transaction with the view: when anything
    fails after a service wrote (a message, a redirect, a page), nothing stays half done. Not
    ``ATOMIC_REQUESTS``: that would wrap every read too (on SQLite in IMMEDIATE mode, a write lock per
    page) and the login and password views, which are not the workspace's. The services' own
    ``@transaction.atomic`` become savepoints inside it; no staff view streams a response from a write.
    """

    def decorator(view: View) -> View:
        @functools.wraps(view)
        def atomic_writes(request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
            if request.method in SAFE_METHODS:
                return view(request, *args, **kwargs)
            with transaction.atomic():
                return view(request, *args, **kwargs)

        return cast(View, login_required(permission_required(perms, raise_exception=True)(atomic_writes)))

    return decorator


# Access helpers ------------------------------------------------------------------------------------------


def get_contest_for_user(user: User | AnonymousUser, slug: str, *, change: bool = False) -> Contest:
    """The contest ``slug``: 404 when the user may not see contests, 403 when they may see but not change."""
    if not user.has_perm("contests.view_contest"):
        raise Http404
    contest = get_object_or_404(Contest.objects.select_related("policy"), slug=slug)
    if change and not user.has_perm("contests.change_contest"):
        raise PermissionDenied
    return contest


def get_position_for_user(
    user: User | AnonymousUser, slug: str, pk: int, *, change: bool = False
) -> Position:
    contest = get_contest_for_user(user, slug)
    if not user.has_perm("contests.view_position"):
        raise Http404
    position = get_object_or_404(Position, contest=contest, pk=pk)
    position.contest = contest
    if change and not user.has_perm("contests.change_position"):
        raise PermissionDenied
    return position


def get_opening_for_user(user: User | AnonymousUser, position: Position, pk: int) -> VacancyOpening:
    if not user.has_perm("contests.view_vacancyopening"):
        raise Http404
    opening = get_object_or_404(VacancyOpening, position=position, pk=pk)
    opening.position = position
    return opening


def form_data(request: HttpRequest) -> QueryDict | None:
    return request.POST if request.method == "POST" else None
