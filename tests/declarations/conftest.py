"""Fixtures of the procedure's tests: its files go to the test's own directory."""

import pytest


@pytest.fixture(autouse=True)
def _private_procedure_files(settings, tmp_path):
    store = settings.STORAGES["procedures"]
    settings.STORAGES = {
        **settings.STORAGES,
        "procedures": {**store, "OPTIONS": {**store["OPTIONS"], "location": tmp_path / "procedures"}},
    }
