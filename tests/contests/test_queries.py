"""Query discipline of the contests app's list pages: the queries a page makes do not grow with its rows
(as Zulip guards against N+1). Each test counts a page with few rows, adds many, and counts again."""

import datetime

import pytest
from django.urls import reverse

from contests import audit, services
from contests.models import Contest, Policy
from tests.builders import final_result, make_contest, make_position, policy
from tests.queries import assert_queries_do_not_grow


def contest_policy() -> Policy:
    """A policy that counts its threshold on the contest (SM art. 1 §2 read literally): every position's
    reservation needs the contest's total."""
    law = policy()
    law.pk, law.slug, law.threshold_basis = None, "limiar-no-concurso", Policy.ThresholdBasis.CONTEST
    law.save()
    return law


def contest_with_positions(positions: int = 3, **overrides) -> Contest:
    contest = make_contest(**overrides)
    for vacancies in range(1, positions + 1):
        make_position(contest, vacancies=vacancies * 2)
    return contest


@pytest.fixture
def clerk(client_for):
    return client_for("clerk")


@pytest.mark.parametrize("basis", ["position", "contest"])
def test_contest_list_does_not_grow_with_contests_and_positions(clerk, basis):
    law = contest_policy() if basis == "contest" else policy()
    contest_with_positions(1, policy=law)

    def add_rows():
        for _ in range(8):
            contest_with_positions(4, policy=law)

    assert_queries_do_not_grow(clerk, reverse("contests:list"), add_rows)


@pytest.mark.parametrize("basis", ["position", "contest"])
def test_contest_detail_does_not_grow_with_positions(clerk, basis):
    contest = make_contest(policy=contest_policy() if basis == "contest" else policy())
    make_position(contest, vacancies=3)

    def add_rows():
        for vacancies in range(4, 16):
            make_position(contest, vacancies=vacancies)

    assert_queries_do_not_grow(clerk, contest.get_absolute_url(), add_rows)


def test_contest_and_position_history_do_not_grow_with_changes(clerk, cast):
    clerk_user, manager = cast["clerk"], cast["manager"]
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = services.position_create(
        contest=contest, by=clerk_user, data={"code": "TL", "title": "Técnico"}, edital_vacancies=2
    )
    final_result(contest)
    services.contest_homologate(contest=contest, by=manager, date=datetime.date(2026, 7, 1), act="Portaria 1")

    def add_rows():
        for n in range(1, 9):
            services.contest_update(contest=contest, by=clerk_user, data={"title": f"Concurso {n}"})
            services.position_update(position=position, by=clerk_user, data={"title": f"Técnico {n}"})
            services.vacancy_opening_create(
                position=position,
                by=clerk_user,
                data={"kind": "later", "count": n, "date": datetime.date(2026, 9, n), "act": f"Lei {n}"},
            )

    urls = [
        reverse("contests:history", args=[contest.slug]),
        reverse("contests:position_history", args=[contest.slug, position.pk]),
    ]
    assert_queries_do_not_grow(clerk, urls[0], add_rows)
    assert_queries_do_not_grow(clerk, urls[1], add_rows)


def test_access_log_does_not_grow_with_entries(client_for, cast):
    contest = make_contest()
    audit.log_access(user=cast["clerk"], obj=contest, detail="Inscrições")

    def add_rows():
        for user in ("clerk", "legal", "manager", "auditor"):
            for _ in range(3):
                audit.log_access(user=cast[user], obj=make_contest(), detail="Inscrições")

    assert_queries_do_not_grow(client_for("auditor"), reverse("contests:accesslog_list"), add_rows)


def test_policy_and_holiday_lists_do_not_grow(client_for, cast):
    manager = client_for("manager")

    def add_policies():
        for n in range(6):
            law = policy()
            law.pk, law.slug = None, f"lei-{n}"
            law.save()

    def add_holidays():
        for day in range(1, 13):
            services.holiday_save(
                by=cast["manager"], data={"date": datetime.date(2026, 8, day), "name": f"F{day}"}
            )

    services.holiday_save(by=cast["manager"], data={"date": datetime.date(2026, 5, 17), "name": "Município"})
    assert_queries_do_not_grow(manager, reverse("contests:policy_list"), add_policies)
    assert_queries_do_not_grow(manager, reverse("contests:holiday_list"), add_holidays)
