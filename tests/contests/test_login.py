"""Login, logout and password change, with throttling of wrong passwords (contests.login)."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse

from contests import login as throttle
from tests.builders import PASSWORD

LOCKED = "Muitas tentativas de entrada sem sucesso"


@pytest.fixture(autouse=True)
def _throttle_settings(settings):
    settings.LOGIN_MAX_FAILURES = 3
    settings.LOGIN_MAX_FAILURES_PER_IP = 3
    settings.LOGIN_LOCKOUT_SECONDS = 600
    cache.clear()
    yield
    cache.clear()


def attempt(client, username, password, ip="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_login_page_is_portuguese(client, db):
    page = client.get(reverse("login")).content.decode()
    assert "Entrar" in page and "Usuário" in page and "Senha" in page


def test_login_succeeds_and_goes_to_workspace(client, cast):
    response = attempt(client, "clerk", PASSWORD)
    assert response.status_code == 302
    assert response.url == reverse("contests:list")
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


def test_locked_after_max_failures_for_a_username_even_with_right_password(client, cast):
    for _ in range(3):
        attempt(client, "clerk", "errada", ip="10.0.0.1")
    # From another address too: the lock is on the user name.
    response = attempt(client, "clerk", PASSWORD, ip="10.0.0.2")
    assert response.status_code == 200
    assert LOCKED in response.content.decode()
    assert "10 minuto(s)" in response.content.decode()
    assert not logged_in(client)


def test_username_lock_ignores_case(client, cast):
    for _ in range(3):
        attempt(client, "CLERK", "errada", ip="10.0.0.1")
    assert LOCKED in attempt(client, "clerk", PASSWORD, ip="10.0.0.2").content.decode()


def test_locked_after_max_failures_from_one_address(client, cast):
    for name in ("a", "b", "c"):
        attempt(client, name, "errada", ip="10.0.0.9")
    response = attempt(client, "manager", PASSWORD, ip="10.0.0.9")
    assert LOCKED in response.content.decode()
    assert not logged_in(client)
    # Another user from another address is not affected.
    response = attempt(client, "manager", PASSWORD, ip="10.0.0.10")
    assert response.status_code == 302


def test_fewer_failures_do_not_lock(client, cast):
    for _ in range(2):
        attempt(client, "clerk", "errada")
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.3").status_code == 302


def test_success_forgets_the_username_failures(client, cast):
    for _ in range(2):
        attempt(client, "clerk", "errada", ip="10.0.0.1")
    attempt(client, "clerk", PASSWORD, ip="10.0.0.2")
    client.logout()
    for _ in range(2):
        attempt(client, "clerk", "errada", ip="10.0.0.3")
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.4").status_code == 302


def test_lock_ends_after_lockout_seconds(client, cast, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(throttle, "_now", lambda: now[0])
    for _ in range(3):
        attempt(client, "clerk", "errada")
    assert LOCKED in attempt(client, "clerk", PASSWORD, ip="10.0.0.2").content.decode()
    now[0] += 599
    assert LOCKED in attempt(client, "clerk", PASSWORD, ip="10.0.0.2").content.decode()
    now[0] += 2
    assert attempt(client, "clerk", PASSWORD, ip="10.0.0.2").status_code == 302


def test_admin_login_is_throttled_and_for_superusers(client, cast):
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    url = reverse("admin:login")
    response = client.post(url, {"username": "clerk", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 200
    assert not logged_in(client)
    for _ in range(3):
        client.post(url, {"username": "root", "password": "errada"}, REMOTE_ADDR="10.1.1.2")
    response = client.post(url, {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.1.1.3")
    assert LOCKED in response.content.decode()
    assert not logged_in(client)


def test_logout_needs_post_and_says_goodbye(client_for):
    client = client_for("clerk")
    response = client.post(reverse("logout"), follow=True)
    assert not logged_in(client)
    assert "Você saiu do sistema." in response.content.decode()


def test_password_change(client_for, cast):
    client = client_for("clerk")
    page = client.get(reverse("password_change")).content.decode()
    assert "Alterar senha" in page
    data = {
        "old_password": PASSWORD,
        "new_password1": "Outra-senha-forte-9",
        "new_password2": "Outra-senha-forte-9",
    }
    response = client.post(reverse("password_change"), data, follow=True)
    assert "Senha alterada" in response.content.decode()
    cast["clerk"].refresh_from_db()
    assert cast["clerk"].check_password("Outra-senha-forte-9")


def test_password_change_needs_login(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_login_labels_are_portuguese_whatever_the_browser_language(client, db):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert ">Usuário" in page and ">Senha" in page
    assert "Username" not in page


def test_an_office_address_gets_a_larger_allowance_than_one_user_name(client, cast, settings):
    settings.LOGIN_MAX_FAILURES_PER_IP = 10
    for name in ("a", "b", "c", "d"):
        attempt(client, name, "errada", ip="10.0.0.20")
    response = attempt(client, "manager", PASSWORD, ip="10.0.0.20")
    assert response.status_code == 302
