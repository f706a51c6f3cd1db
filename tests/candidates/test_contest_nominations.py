"""Nominations at the contest level: every position of a contest on one page, with free seats,
deadlines and the next call; a blocked call says who unblocks it and where."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates import selectors
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute, result_run_publish
from tests.access import ROLES, assert_access
from tests.builders import homologate, make_classified_position, make_contest, make_position, publish_final
from tests.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db

READERS = {"clerk", "manager", "auditor", "legal"}


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def page_url(contest) -> str:
    return reverse("candidates:contest_nominations", args=[contest.slug])


@pytest.fixture
def contest(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, code="ALEG")
    make_position(contest, code="BLEG", vacancies=2)
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=2,
        act_number="Portaria 1/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=40),
        by=cast["clerk"],
    )
    return contest


@pytest.mark.parametrize("who", ROLES)
def test_contest_nominations_access(client_for, contest, who):
    assert_access(client_for, who, page_url(contest), READERS)


def test_rows_count_free_seats_and_overdue_deadlines(contest):
    rows = {r.position.code: r for r in selectors.contest_nominations(contest, today=timezone.localdate())}
    assert (rows["ALEG"].vacancies, rows["ALEG"].holding, rows["ALEG"].free) == (5, 2, 3)
    assert rows["ALEG"].active == 2 and rows["ALEG"].overdue == 2  # 40 days ago, 30 days to take office
    assert (rows["BLEG"].free, rows["BLEG"].active, rows["BLEG"].next_deadline) == (2, 0, None)


def test_clerk_sees_the_next_call_per_position(client_for, contest):
    html = client_for("clerk").get(page_url(contest)).content.decode()
    position = contest.positions.get(code="ALEG")
    assert reverse("candidates:nomination_call", args=[contest.slug, position.pk]) in html
    assert "Convocar as 3 vagas livres" in html and "Convocar as 2 vagas livres" in html
    assert "2 vencidos" in html


def test_blocked_before_homologation_says_who_and_where(client_for, cast):
    contest = make_contest(status="in_progress")
    make_classified_position(contest)
    run = result_run_compute(contest=contest, by=cast["manager"], position=None)
    result_run_publish(run=run, kind="final", by=cast["manager"])
    html = client_for("manager").get(page_url(contest)).content.decode()
    assert "A Gestão homologa o resultado em Concurso → Homologar." in html
    assert reverse("contests:homologate", args=[contest.slug]) in html


def test_blocked_without_final_list_says_who_and_where(client_for):
    contest = make_contest(status="in_progress")
    make_position(contest)
    html = client_for("clerk").get(page_url(contest)).content.decode()
    assert "A Gestão publica a lista final em Concurso → Listas de classificação." in html


def test_position_page_blocked_before_homologation_says_who_and_where(client_for, cast):
    contest = make_contest(status="in_progress")
    position = make_classified_position(contest)
    run = result_run_compute(contest=contest, by=cast["manager"], position=None)
    result_run_publish(run=run, kind="final", by=cast["manager"])
    url = reverse("candidates:nomination_list", args=[contest.slug, position.pk])
    html = client_for("clerk").get(url).content.decode()
    assert "A Gestão homologa o resultado em Concurso → Homologar." in html


def test_queries_do_not_grow_with_positions(client_for, contest):
    def add_rows():
        for i in range(4):
            make_position(contest, code=f"X{i}")

    assert_queries_do_not_grow(client_for("clerk"), page_url(contest), add_rows)
