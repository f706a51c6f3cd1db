"""Shared fixtures: the fixed cast of users (built per test, cheap with the MD5 hasher)."""

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
