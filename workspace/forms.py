"""The sign-in and password-change forms: Django's, in Portuguese, with django-axes counting the old password
of a password change as a login attempt."""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.forms import PasswordChangeForm as DjangoPasswordChangeForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.http import HttpRequest

INVALID_LOGIN = "Usuário ou senha incorretos. Atenção: maiúsculas e minúsculas fazem diferença."
LOCKED = (
    "Muitas tentativas sem sucesso: por segurança, esta conta está bloqueada neste computador por alguns "
    "minutos."
)


class LoginForm(AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "invalid_login": INVALID_LOGIN}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The interface is Portuguese only, whatever language the browser asks for.
        self.fields["username"].label = "Usuário"
        self.fields["password"].label = "Senha"


class PasswordChangeForm(DjangoPasswordChangeForm):
    """Django's form, with the old password counted by django-axes as a login attempt would be: a wrong
    one is a failure for this user name at this address, and a locked pair is refused before checking."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        credentials = {get_user_model().USERNAME_FIELD: self.user.get_username()}
        if not AxesProxyHandler.is_allowed(self.request, credentials):
            # The middleware answers with the lockout page.
            self.request.axes_locked_out = True  # type: ignore[attr-defined]
            self.request.axes_credentials = credentials  # type: ignore[attr-defined]
            raise ValidationError(LOCKED, code="locked")
        old_password = self.cleaned_data["old_password"]
        if not self.user.check_password(old_password):
            user_login_failed.send(sender=__name__, credentials=credentials, request=self.request)
            raise ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password
