"""A model's check constraints asked in one query (``contests.models.checks.ChecksInOneQuery``): the same
errors as Django's one query each, in fewer queries."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.test.utils import CaptureQueriesContext

from contests.models import Contest
from contests.models.checks import ChecksInOneQuery
from tests.builders import make_contest

OUR_APPS = {"contests", "candidates", "declarations", "monitoring", "portal", "workspace"}
START = datetime.date(2026, 3, 2)
# One change for each of the contest's six check constraints, and two at once.
VIOLATIONS = [
    {"pcd_percent": Decimal("150")},
    {"pcd_cap_percent": Decimal("-1")},
    {"minimum_final_score": Decimal("-0.01")},
    {"validity_months": 30},
    {"registration_start": START, "registration_end": START - datetime.timedelta(days=1)},
    {"homologation_date": START, "edital_published_on": None},
    {"pcd_percent": Decimal("101"), "validity_months": 0},
]


def errors(validate, instance, exclude=None) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """What ``validate`` raises for ``instance``: each field's messages and codes, in order."""
    try:
        validate(instance, exclude=exclude)
    except ValidationError as error:
        return [
            (field, [(e.message % (e.params or {}), e.code) for e in found])
            for field, found in error.error_dict.items()
        ]
    return []


def test_every_model_of_ours_with_two_check_constraints_asks_in_one_query():
    several = [
        model._meta.label
        for model in apps.get_models()
        if model._meta.app_label in OUR_APPS
        and sum(isinstance(c, models.CheckConstraint) for c in model._meta.constraints) > 1
    ]
    assert "contests.Contest" in several
    assert [label for label in several if not issubclass(apps.get_model(label), ChecksInOneQuery)] == []


@pytest.mark.django_db
@pytest.mark.parametrize("change", VIOLATIONS, ids=lambda change: "+".join(change))
def test_a_violated_check_gives_djangos_error(change):
    contest = make_contest()
    for field, value in change.items():
        setattr(contest, field, value)
    django = errors(models.Model.validate_constraints, contest)
    assert django, "the change must violate a check constraint"
    assert errors(Contest.validate_constraints, contest) == django
    assert "_checks_passed" not in vars(contest)  # every constraint is Django's again for the next call


@pytest.mark.django_db
def test_a_check_on_a_field_left_out_is_skipped_as_django_skips_it():
    contest = make_contest()
    contest.pcd_percent = Decimal("150")
    contest.validity_months = 30
    exclude = {"pcd_percent"}
    django = errors(models.Model.validate_constraints, contest, exclude)
    assert [field for field, _ in django] == ["__all__"] and len(django[0][1]) == 1  # validity only
    assert errors(Contest.validate_constraints, contest, exclude) == django


@pytest.mark.django_db
def test_a_valid_contest_asks_its_six_checks_in_one_query_instead_of_six():
    contest = make_contest(registration_start=START, registration_end=START)
    checks = sum(isinstance(c, models.CheckConstraint) for c in Contest._meta.constraints)
    assert checks == 6
    with CaptureQueriesContext(connection) as django:
        models.Model.validate_constraints(contest)
    with CaptureQueriesContext(connection) as ours:
        contest.validate_constraints()
    # Each check: a savepoint, its query and the savepoint's release; the unique constraint as before.
    assert len(ours) == len(django) - 3 * (checks - 1)
