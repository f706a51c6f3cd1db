"""Shared fixtures: the fixed cast of users (built per test, cheap with the MD5 hasher)."""

import os
import shutil

import pytest
from django.conf import settings

from tests import builders


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def cast(db):
    return builders.make_cast()


@pytest.fixture
def client_for(client, cast):
    """``client_for("clerk")`` returns the test client logged in as that member of the cast."""

    def login(key: str):
        if key != "anonymous":
            client.force_login(cast[key])
        return client

    return login


def pytest_report_header(config):
    return f"database: {settings.DATABASES['default']['ENGINE']}"


# Browser tests ---------------------------------------------------------------------------------------
# Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a thread with a
# running loop unless told it is safe (the test server runs in its own thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium do Debian ausente (apt-get install chromium): testes de navegador ignorados.")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        pytest.skip("Playwright não instalado: testes de navegador ignorados.")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(
        locale="pt-BR", timezone_id="America/Sao_Paulo", viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
