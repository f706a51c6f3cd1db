"""Login, logout and password change, throttled by django-axes (workspace.login).

The lock is on a user name *at* an address: wrong passwords from one computer lock that user there, not
elsewhere (nobody can lock a colleague out from another machine), and not the other users of that
computer. The old password of the password change counts as a login attempt, so it cannot be guessed
without limit either. Every lockout is a line of the access log.
"""

import datetime

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.db.models import F
from django.urls import reverse

from contests.models import AccessLog
from tests.builders import PASSWORD

LOCKED = "Entrada bloqueada"
NEW_PASSWORD = "Outra-senha-forte-9"


@pytest.fixture(autouse=True)
def _throttle_settings(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=10)


def attempt(client, username, password, ip="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def change_password(client, old, ip="10.0.0.1"):
    data = {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    return client.post(reverse("password_change"), data, REMOTE_ADDR=ip)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_login_page_is_portuguese(client, db):
    page = client.get(reverse("login")).content.decode()
    assert "Entrar" in page and "Usuário" in page and "Senha" in page


def test_login_succeeds_and_goes_to_workspace(client, cast):
    response = attempt(client, "clerk", PASSWORD)
    assert response.status_code == 302
    assert response.url == reverse("home")  # the home page of Pendências
    assert logged_in(client)


def test_login_honours_next(client, cast):
    response = client.post(
        reverse("login") + "?next=/politicas/",
        {"username": "clerk", "password": PASSWORD, "next": "/politicas/"},
    )
    assert response.url == "/politicas/"


def test_wrong_password_says_so_in_portuguese(client, cast):
    response = attempt(client, "clerk", "errada")
    assert response.status_code == 200
    assert "Usuário ou senha incorretos" in response.content.decode()
    assert not logged_in(client)


def test_wrong_passwords_lock_that_user_at_that_address_even_with_the_right_password(client, cast):
    for _ in range(2):
        assert attempt(client, "clerk", "errada").status_code == 200
    response = attempt(client, "clerk", "errada")
    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED in page and "10 minutos" in page and "clerk" in page
    response = attempt(client, "clerk", PASSWORD)
    assert response.status_code == 429
    assert not logged_in(client)


def test_the_same_user_still_logs_in_from_another_address(client, cast):
    for _ in range(3):
        attempt(client, "clerk", "errada", ip="10.0.0.1")
    response = attempt(client, "clerk", PASSWORD, ip="10.0.0.2")
    assert response.status_code == 302
    assert logged_in(client)


def test_another_user_still_logs_in_from_the_locked_address(client, cast):
    for _ in range(3):
        attempt(client, "clerk", "errada", ip="10.0.0.1")
    assert attempt(client, "manager", PASSWORD, ip="10.0.0.1").status_code == 302


def test_fewer_failures_do_not_lock_and_success_forgets_them(client, cast):
    for _ in range(2):
        attempt(client, "clerk", "errada")
    assert attempt(client, "clerk", PASSWORD).status_code == 302
    client.logout()
    for _ in range(2):
        attempt(client, "clerk", "errada")
    assert attempt(client, "clerk", PASSWORD).status_code == 302


def test_lock_ends_after_the_cool_off(client, cast):
    for _ in range(3):
        attempt(client, "clerk", "errada")
    assert attempt(client, "clerk", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(minutes=9))
    assert attempt(client, "clerk", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(minutes=2))
    assert attempt(client, "clerk", PASSWORD).status_code == 302


def test_lockout_is_in_the_access_log(client, cast):
    for _ in range(3):
        attempt(client, "clerk", "errada", ip="10.0.0.7")
    log = AccessLog.objects.get(action="login_locked")
    assert (log.user, log.object_repr, log.ip_address) == (cast["clerk"], "clerk", "10.0.0.7")
    # The auditor sees it on the access log's page.
    client.force_login(cast["auditor"])
    assert "Bloqueio de entrada" in client.get(reverse("contests:accesslog_list")).content.decode()


def test_admin_login_is_throttled_and_for_superusers(client, cast):
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    url = reverse("admin:login")
    response = client.post(url, {"username": "clerk", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 200
    assert not logged_in(client)
    for _ in range(3):
        client.post(url, {"username": "root", "password": "errada"}, REMOTE_ADDR="10.1.1.2")
    response = client.post(url, {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.1.1.2")
    assert response.status_code == 429
    assert not logged_in(client)
    response = client.post(url, {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.1.1.3")
    assert response.status_code == 302


def test_logout_needs_post_and_says_goodbye(client_for):
    client = client_for("clerk")
    response = client.post(reverse("logout"), follow=True)
    assert not logged_in(client)
    assert "Você saiu do sistema." in response.content.decode()


def test_password_change(client_for, cast):
    client = client_for("clerk")
    page = client.get(reverse("password_change")).content.decode()
    assert "Alterar senha" in page
    response = change_password(client, PASSWORD)
    assert response.status_code == 302
    assert "Senha alterada" in client.get(response.url).content.decode()
    cast["clerk"].refresh_from_db()
    assert cast["clerk"].check_password(NEW_PASSWORD)


def test_password_change_locks_after_wrong_old_passwords(client_for, cast):
    client = client_for("clerk")
    for _ in range(2):
        response = change_password(client, "errada")
        assert response.status_code == 200
        assert "senha antiga" in response.content.decode().lower()
    assert change_password(client, "errada").status_code == 429
    # Locked: the right old password is refused too, and nothing changed.
    response = change_password(client, PASSWORD)
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    cast["clerk"].refresh_from_db()
    assert cast["clerk"].check_password(PASSWORD)
    # The same counter as the login's: this user cannot log in again from here, but can from elsewhere.
    client.logout()
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.1").status_code == 429
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.2").status_code == 302
    assert AccessLog.objects.filter(action="login_locked", user=cast["clerk"]).exists()


def test_passwords_are_not_stored_with_the_attempts(client_for):
    change_password(client_for("clerk"), "errada-secreta")
    attempt(client_for("anonymous"), "legal", "outra-secreta")
    stored = " ".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "secreta" not in stored and NEW_PASSWORD not in stored


def test_password_change_needs_login(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_login_labels_are_portuguese_whatever_the_browser_language(client, db):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert ">Usuário" in page and ">Senha" in page
    assert "Username" not in page
