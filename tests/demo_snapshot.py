"""The demo (``manage.py seed_demo``) built once per test session and database state, then copied.

A dozen modules and browser tests start from the demo, and building it costs some 20 s of CPU on SQLite and
a minute on PostgreSQL (its acts rendered, signed and stored, its procedures carried out through the
services): in CI the demo alone took several minutes. In the tests, ``seed_demo``'s ``handle`` looks for a
snapshot of the rows the demo produced from the same starting rows, with the same code, settings and day;
when it finds one, it writes those rows back (every table's rows replaced by the snapshot's, in one
transaction, the foreign keys checked at its end), the files its rows name (the emblem) and the output
the command printed, instead of building it again. When it finds none, the command runs as written and its
result becomes the snapshot. Nothing of the command is skipped in spirit: the rows are the ones it made.

The key of a snapshot holds everything the result depends on: the organisation, the day (the demo's dates
follow today's), the settings the demo reads, whether it ran inside a transaction (the effects of
``on_commit`` callbacks), the source of the project (any change builds again), and a fingerprint of the
starting rows (per table: how many rows and the greatest key; the user names), so that a module that builds
rows of its own before the demo gets its own snapshot, or none. The snapshots are kept in memory and in
``.pytest_cache/demo-snapshots/`` (one process builds, the others wait and read; ``COTAS_TEST_SEED=1``
always builds). ``tests/workspace/test_seed_demo*.py`` still check what the command does; the rows they read
are the command's either way.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.core.files.base import ContentFile
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils import timezone

from tests import kept_files

# The project's own source: any change to it may change the demo.
SOURCES = (
    "config",
    "contests",
    "candidates",
    "declarations",
    "monitoring",
    "portal",
    "workspace",
    "templates",
)
# Tables whose rows the database refuses to delete (the published documents' triggers): a start that
# already holds some (the demo run a second time) cannot be replaced by a snapshot, so the command runs.
UNDELETABLE = ("contests.document",)
# Tables the migrations fill and the demo never writes (checked by the fingerprint).
UNTOUCHED = frozenset({"contenttypes.contenttype", "auth.permission", "sessions.session"})
MEMORY: dict[str, bytes] = {}
_source_digest: str | None = None


def _source() -> str:
    global _source_digest
    if _source_digest is None:
        base = Path(settings.BASE_DIR)
        digest = hashlib.sha256()
        for name in SOURCES:
            for path in sorted((base / name).rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    digest.update(str(path.relative_to(base)).encode())
                    digest.update(path.read_bytes())
        _source_digest = digest.hexdigest()
    return _source_digest


def _models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy and model._meta.label_lower not in UNTOUCHED
    ]


def _fingerprint() -> str:
    """The starting rows, cheaply: per table, the count and the greatest key; the user names."""
    digest = hashlib.sha256()
    for model in sorted(apps.get_models(include_auto_created=True), key=lambda m: m._meta.label_lower):
        if not model._meta.managed or model._meta.proxy:
            continue
        numbered = isinstance(model._meta.pk, models.AutoField | models.BigAutoField | models.IntegerField)
        found = model._base_manager.aggregate(
            n=models.Count("pk"), **({"top": models.Max("pk")} if numbered else {})
        )
        digest.update(f"{model._meta.label_lower}:{found['n']}:{found.get('top')};".encode())
    user = apps.get_model(settings.AUTH_USER_MODEL)
    digest.update(repr(sorted(user._base_manager.values_list("username", flat=True))).encode())
    return digest.hexdigest()


def _key(options: dict[str, Any]) -> str:
    parts = (
        options.get("organization"),
        connection.vendor,
        timezone.localdate().isoformat(),
        settings.DEBUG,
        getattr(settings, "PUBLIC_BASE_URL", ""),
        settings.PASSWORD_HASHERS[0],
        settings.TIME_ZONE,
        connection.in_atomic_block,
        _source(),
        _fingerprint(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview) else value


def _take(output: str) -> bytes:
    """Every table's rows, the files they name, and what the command printed."""
    tables: list[tuple[str, list[str], list[tuple[Any, ...]]]] = []
    files: list[tuple[str, str, str, bytes]] = []
    for model in _models():
        columns = [field.attname for field in model._meta.concrete_fields]
        rows = [
            tuple(_plain(v) for v in row) for row in model._base_manager.order_by("pk").values_list(*columns)
        ]
        tables.append((model._meta.label_lower, columns, rows))
        for field in model._meta.concrete_fields:
            if isinstance(field, models.FileField):
                index = columns.index(field.attname)
                for row in rows:
                    name = row[index]
                    if name and field.storage.exists(name):
                        with field.storage.open(name, "rb") as handle:
                            files.append((model._meta.label_lower, field.name, name, handle.read()))
    return pickle.dumps((tables, files, output), protocol=pickle.HIGHEST_PROTOCOL)


def _put(snapshot: bytes) -> str:
    """The snapshot's rows in place of every table's, in one transaction; returns what the command printed."""
    tables, files, output = pickle.loads(snapshot)
    written = []
    with transaction.atomic():
        with connection.cursor() as cursor:
            for label, columns, rows in tables:
                model = apps.get_model(label)
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
                if rows:
                    model._base_manager.bulk_create(
                        [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=500
                    )
                written.append(model)
        for statement in connection.ops.sequence_reset_sql(no_style(), written):
            with connection.cursor() as cursor:
                cursor.execute(statement)
        connection.check_constraints()
    for label, field_name, name, data in files:
        storage = apps.get_model(label)._meta.get_field(field_name).storage
        if not storage.exists(name):
            saved = storage.save(name, ContentFile(data))
            assert saved == name, f"arquivo da demonstração salvo como {saved}, não {name}"
    for cache in caches.all(initialized_only=True):
        cache.clear()  # pages and counts cached from rows that are no longer there
    return output


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached_handle(handle):
    """``seed_demo``'s ``Command.handle`` for the tests: the snapshot when there is one, else the command
    (and its result kept)."""

    def wrapper(command, *args: Any, **options: Any) -> None:
        if any(apps.get_model(label)._base_manager.exists() for label in UNDELETABLE):
            handle(command, *args, **options)
            return
        key = _key(options)
        path = Path(settings.BASE_DIR) / ".pytest_cache" / "demo-snapshots" / f"{key}.pickle"
        rebuild = bool(os.environ.get("COTAS_TEST_SEED"))
        snapshot = None if rebuild else MEMORY.get(key)
        if snapshot is None:
            # The lock held while building: a worker that needs the same demo meanwhile waits and copies it
            # (taken only to look, it let both workers build the same demo at once, each paying its 7 s of CPU).
            with _locked(path):
                if not rebuild and path.exists():
                    snapshot = MEMORY[key] = path.read_bytes()
                else:
                    MEMORY[key] = _built(handle, command, path, args, options)
                    return
        command.stdout.write(_put(snapshot), ending="")

    return wrapper


def _built(handle, command, path: Path, args: tuple[Any, ...], options: dict[str, Any]) -> bytes:
    """The command run as written; its rows, files and output kept in ``path`` and returned."""
    printed = io.StringIO()
    stdout = command.stdout
    command.stdout = _Tee(stdout, printed)
    try:
        handle(command, *args, **options)
    finally:
        command.stdout = stdout
    snapshot = _take(printed.getvalue())
    kept_files.write_whole(path, snapshot)
    return snapshot


class _Tee:
    """The command's output, also kept for the snapshot."""

    def __init__(self, wrapped: Any, copy: io.StringIO) -> None:
        self.wrapped, self.copy = wrapped, copy

    def write(self, msg: str = "", style_func: Any = None, ending: str | None = None) -> None:
        ending = self.wrapped.ending if ending is None else ending
        self.copy.write(msg + ending if ending and not msg.endswith(ending) else msg)
        self.wrapped.write(msg, style_func=style_func, ending=ending)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def prune() -> None:
    """Snapshots older than two days go (their day is over; a key never comes back)."""
    kept_files.prune(Path(settings.BASE_DIR) / ".pytest_cache" / "demo-snapshots", "*.pickle")
