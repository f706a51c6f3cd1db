"""The builders' numbers (tests/builders.py): each test starts from the same one, whichever worker runs it
and after whatever ran there, so it prints the same acts (tests/rendered_pdfs.py); a fixture wider than a
test draws from a counter of its own, so its rows never share a slug, CPF or number with a test's."""

from __future__ import annotations

import pytest

from tests import builders


@pytest.fixture(scope="module")
def module_number() -> int:
    return next(builders._counter)


@pytest.mark.parametrize("run", [1, 2, 3])
def test_every_test_starts_at_the_first_number(run):
    assert builders.make_cpf() == builders.make_cpf(builders.TEST_NUMBERS)
    for _ in range(5):  # the next test starts again all the same
        builders.make_cpf()


def test_restart_goes_back_to_the_first_number():
    builders.make_cpf()
    builders.restart_numbers()
    assert builders.make_cpf() == builders.make_cpf(builders.TEST_NUMBERS)


def test_a_module_fixture_draws_from_its_own_counter_not_the_test_s(module_number):
    assert module_number >= builders.SHARED_NUMBERS
    assert builders.make_cpf() == builders.make_cpf(builders.TEST_NUMBERS)
