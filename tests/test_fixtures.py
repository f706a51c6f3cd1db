"""The repository's copy of the organiser's example file is the one in shared/examples."""

from pathlib import Path

import pytest

from tests.builders import EXAMPLE_CSV

SHARED = Path(__file__).resolve().parents[2] / "shared" / "examples" / EXAMPLE_CSV.name


def test_example_file_copy_matches_shared_examples():
    if not SHARED.exists():
        pytest.skip(f"{SHARED} ausente: nada a comparar.")
    assert EXAMPLE_CSV.read_bytes() == SHARED.read_bytes()
