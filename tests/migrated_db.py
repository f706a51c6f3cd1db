"""The migrated test database, kept between runs (SQLite only).

Running the 130-odd migrations takes some 35 s of CPU per process (Django renders the project's state again
for almost every operation), paid by each pytest-xdist worker on each run. The first run that migrates
copies the migrated database (schema, triggers, the data migrations' rows, the post-migrate content types
and permissions) to ``.pytest_cache/migrated-db/<key>.sqlite3``; later runs copy it back into their
in-memory database instead of migrating. The key is a hash of everything the result depends on: the
migration files, the models (the post-migrate permissions), the project modules the migrations import and
the versions of the installed packages (Django's and the third-party apps' own migrations). Any change to
them migrates again. ``COTAS_TEST_MIGRATE=1`` always migrates (and refreshes the copy).

PostgreSQL (CI) always migrates: each worker creates its own database as before.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

from django.conf import settings

APPS = ("contests", "candidates", "declarations", "portal", "workspace", "monitoring")
# Project modules the migrations import (besides the models): their code runs while migrating.
IMPORTED_BY_MIGRATIONS = ("candidates/validators.py",)


def _key() -> str:
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    files: list[Path] = [base / "config" / "settings.py"]
    for app in APPS:
        root = base / app
        files += root.glob("**/migrations/*.py")
        files += root.glob("**/models.py")
        files += root.glob("**/models/*.py")
    files += [base / path for path in IMPORTED_BY_MIGRATIONS]
    for path in sorted(set(files)):
        digest.update(str(path.relative_to(base)).encode())
        digest.update(path.read_bytes())
    for dist in sorted(metadata.distributions(), key=lambda d: d.metadata["Name"].lower()):
        digest.update(f"{dist.metadata['Name']}=={dist.version}".encode())
    return digest.hexdigest()[:24]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one process migrates; the others wait and copy its result
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached_migrate(call_command):
    """``call_command`` for ``create_test_db``: "migrate" on an SQLite test database copies the cached
    migrated database when there is one, and caches the result when there is not."""

    def wrapper(name, *args, **options):
        from django.db import connections

        connection = connections[options.get("database", "default")]
        if name != "migrate" or connection.vendor != "sqlite":
            return call_command(name, *args, **options)
        return cached_database(connection, "", lambda: call_command(name, *args, **options))

    return wrapper


def cached_database(connection, name: str, build: Callable[[], object]) -> object:
    """``connection``'s SQLite database as ``build`` leaves it (a scratch database migrated part of the way):
    copied from ``.pytest_cache/migrated-db/<name>-<key>.sqlite3`` when the migrations and models are
    those it was kept for (the same key as the migrated test database's), else built and kept; what
    ``build`` returned, None when copied. ``name`` "": the migrated test database itself."""
    file = f"{name}-{_key()}" if name else _key()
    cache = Path(settings.BASE_DIR) / ".pytest_cache" / "migrated-db" / f"{file}.sqlite3"
    with _locked(cache):
        connection.ensure_connection()
        if cache.exists() and not os.environ.get("COTAS_TEST_MIGRATE"):
            source = sqlite3.connect(cache)
            try:
                source.backup(connection.connection)
            finally:
                source.close()
            return None
        result = build()
        partial = cache.with_suffix(f".{os.getpid()}.part")
        target = sqlite3.connect(partial)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
        os.replace(partial, cache)
        return result
