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
from workspace.login_throttle import account_delay

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


# Issue 25 N3: a spray of names from one address, and guesses on one account spread over addresses -----------


def test_a_spray_of_names_from_one_address_locks_the_address(client, cast, settings):
    settings.LOGIN_MAX_FAILURES_PER_ADDRESS = 20
    for number in range(20):  # each name once: the pair's limit is never reached
        assert attempt(client, f"nome{number}", "errada", ip="10.0.0.9").status_code in (200, 429)
    response = attempt(client, "clerk", PASSWORD, ip="10.0.0.9")
    assert response.status_code == 429 and LOCKED in response.content.decode()
    assert not logged_in(client)
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.10").status_code == 302  # elsewhere, as before


def test_guesses_on_one_account_from_many_addresses_make_its_owner_wait_a_growing_delay(
    client, cast, settings
):
    settings.AXES_FAILURE_LIMIT = 5
    settings.LOGIN_ACCOUNT_DELAY_AFTER = 10
    settings.LOGIN_ACCOUNT_DELAY_SECONDS = 30
    for address in range(8):  # 32 guesses, 4 from each of 8 addresses: no pair reaches 5
        for _ in range(4):
            attempt(client, "clerk", "errada", ip=f"10.2.0.{address + 1}")
    response = attempt(client, "clerk", PASSWORD, ip="10.2.0.9")  # the right password from a 9th address
    assert response.status_code == 429
    assert not logged_in(client)
    assert attempt(client, "manager", PASSWORD, ip="10.2.0.9").status_code == 302  # another account: no wait
    client.logout()
    # A delay, not a lock: the owner gets in once it has passed (the longest, the cool-off, 10 minutes here).
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(minutes=10, seconds=1))
    assert attempt(client, "clerk", PASSWORD, ip="10.2.0.9").status_code == 302


def test_the_account_delay_doubles_with_each_guess_and_a_refused_try_does_not_count(client, cast, settings):
    settings.LOGIN_ACCOUNT_DELAY_AFTER = 10
    settings.LOGIN_ACCOUNT_DELAY_SECONDS = 30
    assert [account_delay(n).total_seconds() for n in (9, 10, 11, 12, 13, 30)] == [0, 30, 60, 120, 240, 600]
    for address in range(5):
        for _ in range(2):
            attempt(client, "clerk", "errada", ip=f"10.3.0.{address + 1}")
    assert attempt(client, "clerk", PASSWORD, ip="10.3.0.9").status_code == 429  # 10 failures: 30 s
    assert attempt(client, "clerk", "errada", ip="10.3.0.9").status_code == 429  # refused, not counted
    failures = sum(AccessAttempt.objects.values_list("failures_since_start", flat=True))
    assert failures == 10
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(seconds=31))
    assert attempt(client, "clerk", "errada", ip="10.3.0.9").status_code == 429  # the 11th: now 60 s
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(seconds=31))
    assert attempt(client, "clerk", PASSWORD, ip="10.3.0.9").status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - datetime.timedelta(seconds=30))
    assert attempt(client, "clerk", PASSWORD, ip="10.3.0.9").status_code == 302
