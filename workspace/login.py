"""Login, logout and password change on top of Django's auth views, throttled by django-axes.

django-axes counts wrong passwords per user name at an address, per address and per account
(``workspace.login_throttle``: a lock, a lock, a growing delay): its backend,
first in ``AUTHENTICATION_BACKENDS``, refuses a locked pair before any password is checked, at the
workspace's login and the admin's (its form, for superusers only, is in ``contests/admin.py``), and its middleware answers with the lockout page. The password change
form checks the old password with ``check_password``, not ``authenticate``, so it asks axes itself
(``PasswordChangeForm`` below): the same counter, the same lockout. Every lockout goes to the access log
(``record_lockout``), which Gestão and Auditoria read.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_client_username
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.contenttypes.models import ContentType
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from contests.models import AccessLog
from workspace.forms import LoginForm, PasswordChangeForm


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


@receiver(user_locked_out)
def record_lockout(sender: Any, request: HttpRequest, username: str | None, ip_address: str, **kwargs: Any):
    """A lockout (and every refused attempt during one) is a line of the access log: who, from where."""
    UserModel = get_user_model()
    user = UserModel.objects.filter(**{UserModel.USERNAME_FIELD: username or ""}).first()
    AccessLog.objects.create(
        user=user,
        action="login_locked",
        content_type=ContentType.objects.get_for_model(UserModel),
        object_id=str(user.pk) if user else "",
        object_repr=(username or "(sem usuário)")[:200],
        detail=f"Entrada bloqueada após tentativas de senha erradas ({request.path})"[:200],
        ip_address=ip_address or None,
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """The lockout page (``AXES_LOCKOUT_CALLABLE``): in Portuguese, with the cool-off in minutes, 429."""
    seconds = getattr(request, "login_lock_seconds", 0) or settings.AXES_COOLOFF_TIME.total_seconds()
    minutes = max(1, math.ceil(seconds / 60))
    context = {
        "username": get_client_username(request, credentials) or "",
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes,
    }
    return render(request, "registration/lockout.html", context, status=429)


login_view = auth_views.LoginView.as_view(
    authentication_form=LoginForm,
    template_name="registration/login.html",
    redirect_authenticated_user=True,
)


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, "Você saiu do sistema.")
        return response


logout_view = LogoutView.as_view()
password_change_view = PasswordChangeView.as_view()
