"""Rows built once for a whole test module instead of once per test, as Django's ``setUpTestData`` does for
a class.

A module-scoped fixture builds them inside a transaction opened before the module's first test and rolled
back after its last; each test runs inside it in a savepoint of its own (pytest-django's ``db``), rolled
back at the test's end, so every test still starts from the same rows. Settings the build changes (a
``MEDIA_ROOT`` for the files of those rows) stay for the module and are restored after it.

Only for modules whose tests all use ``db`` (a transactional test's flush would end the outer
transaction). Under ``make test`` a module's tests may be shared by the workers, each building the rows
once. The tests must not keep changes to the Python objects the build returns (reload them instead):
only the database is rolled back.

    @pytest.fixture(scope="module")
    def world(django_db_setup, django_db_blocker, tmp_path_factory):
        yield from built_once(django_db_blocker, lambda settings: build_world(...))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.db import transaction
from django.test import override_settings

T = TypeVar("T")


class ModuleSettings:
    """The ``settings`` fixture's interface for a module: each attribute written is an override, undone
    after the module's last test."""

    def __init__(self) -> None:
        object.__setattr__(self, "_overrides", [])

    def __getattr__(self, name: str) -> Any:
        from django.conf import settings

        return getattr(settings, name)

    def __setattr__(self, name: str, value: Any) -> None:
        override = override_settings(**{name: value})
        override.enable()
        self._overrides.append(override)

    def restore(self) -> None:
        for override in reversed(self._overrides):
            override.disable()
        self._overrides.clear()


def built_once(django_db_blocker, build: Callable[[ModuleSettings], T]) -> Iterator[T]:
    """Yield what ``build`` returns, its rows kept for the module's tests and rolled back after them."""
    settings = ModuleSettings()
    atomic = transaction.atomic()
    with django_db_blocker.unblock():
        atomic.__enter__()
        try:
            value = build(settings)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            settings.restore()
            raise
    try:
        yield value
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
        settings.restore()
