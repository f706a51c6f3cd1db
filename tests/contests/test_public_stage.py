"""``contests.lifecycle.public_stage``: the group a contest appears in on the public portal.

Table-driven, no database. The edital's publication is what makes a contest public (a draft never is);
the registration period the edital set decides "registrations open"; the homologation ends the contest's
public course (CF art. 37, III).
"""

from __future__ import annotations

import datetime

import pytest

from contests.lifecycle import Facts, PublicStage, Status, public_stage

D = datetime.date
PUBLISHED = Facts(edital_published_on=D(2026, 2, 2))
HOMOLOGATED = Facts(edital_published_on=D(2026, 2, 2), homologated_on=D(2026, 6, 1))
START, END = D(2026, 2, 9), D(2026, 3, 10)


def stage(status, facts, today, start=START, end=END):
    return public_stage(status, facts, registration_start=start, registration_end=end, today=today)


@pytest.mark.parametrize(
    ("status", "facts"),
    [(Status.DRAFT, Facts()), (Status.CANCELLED, Facts())],
)
def test_edital_not_published_is_not_public(status, facts):
    assert stage(status, facts, D(2026, 2, 20)) is None


@pytest.mark.parametrize(
    ("status", "today", "expected"),
    [
        (Status.PUBLISHED, D(2026, 2, 8), PublicStage.IN_PROGRESS),  # before the period
        (Status.PUBLISHED, START, PublicStage.REGISTRATION_OPEN),  # its first day
        (Status.PUBLISHED, END, PublicStage.REGISTRATION_OPEN),  # its last day
        (Status.PUBLISHED, D(2026, 3, 11), PublicStage.IN_PROGRESS),  # the day after
        (Status.REGISTRATION, D(2026, 2, 1), PublicStage.REGISTRATION_OPEN),  # the status says so
        (Status.REGISTRATION, D(2026, 3, 11), PublicStage.IN_PROGRESS),  # but not past the period's end
        (Status.IN_PROGRESS, D(2026, 2, 20), PublicStage.IN_PROGRESS),  # closed early by the clerk
    ],
)
def test_edital_registration_period_opens_registrations(status, today, expected):
    assert stage(status, PUBLISHED, today) == expected


def test_edital_without_registration_dates_is_in_progress_unless_the_status_opens_them():
    assert stage(Status.PUBLISHED, PUBLISHED, D(2026, 2, 20), start=None, end=None) == PublicStage.IN_PROGRESS
    assert stage(Status.REGISTRATION, PUBLISHED, D(2026, 2, 20), start=None, end=None) == (
        PublicStage.REGISTRATION_OPEN
    )


@pytest.mark.parametrize("status", [Status.HOMOLOGATED, Status.CLOSED, Status.CANCELLED])
def test_cf_art37_iii_homologated_closed_or_cancelled_is_concluded(status):
    assert stage(status, HOMOLOGATED, D(2026, 2, 20)) == PublicStage.CONCLUDED


def test_cf_art37_iii_homologation_outranks_a_status_forced_back():
    assert stage(Status.REGISTRATION, HOMOLOGATED, D(2026, 2, 20)) == PublicStage.CONCLUDED


def test_published_edital_outranks_a_draft_status_forced_back():
    assert stage(Status.DRAFT, PUBLISHED, D(2026, 2, 20)) == PublicStage.REGISTRATION_OPEN


def test_cancelled_after_publication_is_concluded():
    assert stage(Status.CANCELLED, PUBLISHED, D(2026, 2, 20)) == PublicStage.CONCLUDED
