"""Query discipline of the candidates app's list pages: registrations, result runs and their lists, the
seat strip of nominations, and the history on a registration's page. The queries a page makes do not grow
with its rows (as Zulip guards against N+1)."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates.models import Registration
from candidates.services.nominations import nominations_call
from candidates.services.registrations import candidate_update, registration_update
from candidates.services.results import result_run_compute, result_run_publish
from tests.builders import (
    homologate,
    make_classified_position,
    make_contest,
    make_example_contest,
    make_registration,
    publish_final,
)
from tests.queries import assert_queries_do_not_grow, count_queries

CATEGORIES = (None, "parda", None, "preta", None)


def add_registrations(position, count: int, start: int) -> None:
    for n in range(count):
        make_registration(
            position,
            racial_category=CATEGORIES[n % len(CATEGORIES)],
            number=str(start + n),
            final_score=Decimal(80) - n,
        )


@pytest.fixture
def clerk(client_for):
    return client_for("clerk")


def test_registration_list_does_not_grow_with_registrations(clerk):
    contest = make_example_contest()
    positions = list(contest.positions.order_by("code"))
    add_registrations(positions[0], 2, 1000)

    starts = iter(range(2000, 10000, 100))

    def add_rows():
        for position in positions:
            add_registrations(position, 12, next(starts))

    url = reverse("candidates:registration_list", args=[contest.slug])
    assert_queries_do_not_grow(clerk, url, add_rows)
    # Searching and filtering a reserve (a logged query) keep the count flat too.
    assert_queries_do_not_grow(clerk, url + "?busca=candidata&reserva=racial", add_rows)


def test_registration_history_does_not_grow_with_changes(clerk, cast):
    registration = make_registration(
        make_example_contest().positions.get(code="TLEG"), racial_category="parda"
    )

    def add_rows():
        for n in range(8):
            candidate_update(
                candidate=registration.candidate, by=cast["clerk"], data={"email": f"c{n}@exemplo.org"}
            )
            registration_update(registration=registration, by=cast["clerk"], data={"number": str(50000 + n)})

    url = reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    assert_queries_do_not_grow(clerk, url, add_rows)
    assert_queries_do_not_grow(clerk, url + "?dados_sensiveis=1", add_rows)


def test_result_run_list_does_not_grow_with_runs(clerk, cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, code="ALEG")
    make_classified_position(
        contest, code="TLEG", people=[(f"T{n}", category) for n, category in enumerate(CATEGORIES)]
    )
    result_run_compute(contest=contest, by=cast["clerk"])

    def add_rows():
        for _ in range(6):
            run = result_run_compute(contest=contest, by=cast["clerk"])
            result_run_publish(run=run, kind="preliminary", by=cast["manager"])
        for position in contest.positions.all():
            result_run_compute(contest=contest, by=cast["clerk"], position=position)

    assert_queries_do_not_grow(clerk, reverse("candidates:result_list", args=[contest.slug]), add_rows)


@pytest.mark.parametrize("list_slug", ["geral", "racial"])
def test_result_lists_and_comparison_do_not_grow_with_entries(clerk, cast, list_slug):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, code="ALEG")
    small = result_run_publish(
        run=result_run_compute(contest=contest, by=cast["clerk"]), kind="preliminary", by=cast["manager"]
    )
    small_compare = result_run_compute(contest=contest, by=cast["clerk"])

    def pages(run):
        query = f"?cargo={position.pk}&lista={list_slug}"
        return [
            reverse("candidates:result_detail", args=[contest.slug, run.pk]) + query,
            reverse("candidates:result_compare", args=[contest.slug, run.pk]) + f"?cargo={position.pk}",
        ]

    for url in pages(small_compare):
        clerk.get(url)  # warm the per-process caches out of the count
    few = [count_queries(clerk, url) for url in pages(small_compare)]
    add_registrations(position, 40, 3000)
    result_run_publish(
        run=result_run_compute(contest=contest, by=cast["clerk"]), kind="preliminary", by=cast["manager"]
    )
    large = result_run_compute(contest=contest, by=cast["clerk"])
    assert small.pk != large.pk
    many = [count_queries(clerk, url) for url in pages(large)]
    assert all(m <= f for m, f in zip(many, few, strict=True)), (few, many)


def test_seat_strip_does_not_grow_with_nominations(client_for, cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, vacancies=12, code="ALEG")
    add_registrations(position, 20, 4000)
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    publish_final(contest, cast["manager"])

    def call(count: int, act: str):
        nominations_call(
            position=position, count=count, act_number=act, act_date=timezone.localdate(), by=cast["clerk"]
        )

    call(1, "Portaria 1")

    def add_rows():
        for n in range(2, 6):
            call(2, f"Portaria {n}")

    url = reverse("candidates:nomination_list", args=[contest.slug, position.pk])
    assert_queries_do_not_grow(client_for("auditor"), url, add_rows)
    assert Registration.objects.filter(position=position).count() == 28
