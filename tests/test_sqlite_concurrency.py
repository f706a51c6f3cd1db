"""Two writers at once on the default install (a SQLite file) must both succeed.

With SQLite's default deferred transactions, a transaction that reads and then writes while another one
writes fails at once with "database is locked" (SQLite cannot wait for the upgrade of a read lock without
risking a deadlock), whatever the busy timeout: a 500 for the clerk. The settings open every transaction
with ``BEGIN IMMEDIATE`` and wait for the lock instead. This test runs the settings' own options against a
scratch database file, outside the test database (which is in memory).
"""

import threading
import time

import pytest
from django.conf import settings
from django.db import connections, transaction

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="Só a instalação padrão (SQLite) tem o bloqueio do banco inteiro.",
)

ALIAS = "sqlite_concurrency"


@pytest.fixture
def scratch(tmp_path, django_db_blocker):
    options = dict(connections["default"].settings_dict)
    options["NAME"] = str(tmp_path / "cotas.sqlite3")
    options["OPTIONS"] = dict(settings.DATABASES["default"].get("OPTIONS", {}))
    connections.settings[ALIAS] = options
    with django_db_blocker.unblock():
        with connections[ALIAS].cursor() as cursor:
            cursor.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER)")
            cursor.execute("INSERT INTO counter VALUES (1, 0)")
        connections[ALIAS].close()
        yield
        connections[ALIAS].close()
    del connections.settings[ALIAS]


def test_two_read_then_write_transactions_at_once_both_commit(scratch):
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def clerk() -> None:
        try:
            barrier.wait(timeout=10)
            with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
                cursor.execute("SELECT value FROM counter WHERE id = 1")
                (value,) = cursor.fetchone()
                time.sleep(0.2)  # the other clerk reads meanwhile
                cursor.execute("UPDATE counter SET value = %s WHERE id = 1", [value + 1])
        except Exception as error:  # the failure this test exists to catch
            errors.append(error)
        finally:
            connections[ALIAS].close()

    threads = [threading.Thread(target=clerk) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    with connections[ALIAS].cursor() as cursor:
        cursor.execute("SELECT value FROM counter WHERE id = 1")
        assert cursor.fetchone() == (2,)  # serialised: no lost update either
