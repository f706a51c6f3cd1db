"""The test builders make data the screens accept, however many a worker process built before."""

from __future__ import annotations

import datetime

import pytest

from candidates.engine.ranking import ELDERLY_AGE
from tests.builders import birth_date_for


@pytest.mark.parametrize("n", [1, 13_518, 20_999, 21_000, 60_001, 10**7])
def test_a_built_candidate_was_born_on_a_day_the_registration_form_accepts_and_is_not_elderly(n):
    born = birth_date_for(n)
    assert datetime.date(1900, 1, 1) <= born <= datetime.date(2026, 12, 31)
    assert born.replace(year=born.year + ELDERLY_AGE) > datetime.date(2026, 12, 31)


def test_each_built_candidate_is_a_day_younger_than_the_one_before():
    assert all(birth_date_for(n + 1) - birth_date_for(n) == datetime.timedelta(days=1) for n in range(20_999))
