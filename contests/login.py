"""Login with throttling, on top of Django's auth views.

After ``settings.LOGIN_MAX_FAILURES`` wrong passwords for one user name, or from one IP address, within
``settings.LOGIN_LOCKOUT_SECONDS``, every login for that name (or from that address) is refused for
``LOGIN_LOCKOUT_SECONDS``, even with the right password, so guessing gains nothing. Counters live in the
cache (one per installation in production: configure ``CACHE_URL`` with a shared cache when running more
than one app server). The address is ``REMOTE_ADDR``: behind a proxy, the proxy must set it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError

logger = logging.getLogger(__name__)

_PREFIX = "cotas:login"


def _now() -> float:
    return time.time()


def _keys(username: str, ip: str) -> list[tuple[str, str]]:
    """(failure counter key, lock key) for the user name and for the address."""
    keys = []
    name = username.strip().lower()
    if name:
        digest = hashlib.sha256(name.encode()).hexdigest()[:32]
        keys.append((f"{_PREFIX}:fail:user:{digest}", f"{_PREFIX}:lock:user:{digest}"))
    if ip:
        keys.append((f"{_PREFIX}:fail:ip:{ip}", f"{_PREFIX}:lock:ip:{ip}"))
    return keys


def client_ip(request) -> str:
    return (request.META.get("REMOTE_ADDR") or "") if request is not None else ""


def locked_until(username: str, ip: str) -> float | None:
    """When the lock on this user name or address ends (epoch seconds), or None if not locked."""
    now = _now()
    ends = [until for _, lock in _keys(username, ip) if (until := cache.get(lock)) and until > now]
    return max(ends) if ends else None


def record_failure(username: str, ip: str) -> None:
    window = settings.LOGIN_LOCKOUT_SECONDS
    for counter, lock in _keys(username, ip):
        cache.add(counter, 0, timeout=window)
        try:
            failures = cache.incr(counter)
        except ValueError:  # expired between add and incr
            cache.set(counter, 1, timeout=window)
            failures = 1
        # One address may be a whole office behind NAT: it gets a larger allowance than one user name.
        is_ip = ":ip:" in counter
        limit = settings.LOGIN_MAX_FAILURES_PER_IP if is_ip else settings.LOGIN_MAX_FAILURES
        if failures >= limit:
            cache.set(lock, _now() + window, timeout=window)
            cache.delete(counter)
            kind = counter.rsplit(":", 2)[1]
            logger.warning("Login bloqueado por %s s após %s falhas (%s).", window, failures, kind)


def clear_failures(username: str) -> None:
    """A successful login forgets the user name's failures (not the address's)."""
    for counter, _ in _keys(username, ""):
        cache.delete(counter)


# The mixin is mixed into authentication forms: for the type checker it is one.
if TYPE_CHECKING:
    _AuthenticationFormBase = AuthenticationForm
else:
    _AuthenticationFormBase = object


class ThrottleMixin(_AuthenticationFormBase):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "Usuário ou senha incorretos. Atenção: maiúsculas e minúsculas fazem diferença.",
        "locked": "Muitas tentativas de entrada sem sucesso. Por segurança, a entrada está bloqueada; "
        "tente de novo daqui a %(minutes)s minuto(s) ou procure o administrador do sistema.",
    }

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        ip = client_ip(self.request)
        until = locked_until(username, ip)
        if until:
            minutes = max(1, math.ceil((until - _now()) / 60))
            raise ValidationError(self.error_messages["locked"], code="locked", params={"minutes": minutes})
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                record_failure(username, ip)
            raise
        clear_failures(username)
        return cleaned


class ThrottledAuthenticationForm(ThrottleMixin, AuthenticationForm):
    error_messages = ThrottleMixin.error_messages

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The interface is Portuguese only, whatever language the browser asks for.
        self.fields["username"].label = "Usuário"
        self.fields["password"].label = "Senha"


class ThrottledAdminAuthenticationForm(ThrottleMixin, AdminAuthenticationForm):
    """The admin's login: throttled too, and for superusers only (everyone else uses the workspace)."""

    error_messages = {
        **ThrottleMixin.error_messages,
        "invalid_login": "Usuário ou senha incorretos, ou a conta não é de administrador do sistema.",
    }

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if not user.is_superuser:
            raise ValidationError(self.error_messages["invalid_login"], code="invalid_login")


login_view = auth_views.LoginView.as_view(
    authentication_form=ThrottledAuthenticationForm,
    template_name="registration/login.html",
    redirect_authenticated_user=True,
)


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, "Você saiu do sistema.")
        return response


logout_view = LogoutView.as_view()
