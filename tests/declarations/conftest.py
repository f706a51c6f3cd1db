"""Fixtures of the procedure's tests: its files go to the test's own directory; tasks run inline (the
e-mail of a notice is sent when the notice's transaction commits, no worker needed)."""

import pytest


@pytest.fixture(autouse=True)
def _private_procedure_files(settings, tmp_path):
    store = settings.STORAGES["procedures"]
    settings.STORAGES = {
        **settings.STORAGES,
        "procedures": {**store, "OPTIONS": {**store["OPTIONS"], "location": tmp_path / "procedures"}},
    }


@pytest.fixture(autouse=True)
def _tasks_inline(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
