"""Query discipline of the public site: every page with a list makes as many queries with many rows as
with few (as Zulip guards against N+1), so one query per row fails here.

Each test renders a page of a small published contest and the same page of a larger one, built the same
way, and asserts the same count. The public page cache is emptied before each count: a stored page costs
no query at all, which would hide a query per row.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from candidates import access
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute, result_run_publish
from contests.documents.models import Document
from contests.models import Contest
from tests.builders import homologate, make_candidate, make_contest, make_position, make_registration
from tests.portal.test_views_contests import make_document

pytestmark = pytest.mark.django_db

FEW, MANY = 1, 3
CATEGORIES = (None, "parda", None, "preta")
_numbers = itertools.count(1)


def build(cast, size: int) -> dict:
    """A published contest whose every list grows with ``size``: ``size`` positions of ``4 × size``
    people (half of them on the racial list), the edital in ``size`` versions and ``size − 1`` other public
    acts, ``size`` published runs (preliminary ones, then the final), ``size`` nomination acts per position
    (each with its published document)."""
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    positions = []
    for p in range(size):
        position = make_position(contest, vacancies=2 * size, code=f"P{p}", title=f"Cargo {p}")
        for k in range(4 * size):
            make_registration(
                position,
                candidate=make_candidate(full_name=f"Candidata {p}-{k}"),
                racial_category=CATEGORIES[k % len(CATEGORIES)],
                number=f"{size}-{p}-{k}",
                final_score=Decimal(90 - k),
            )
        positions.append(position)
    edital = None
    for _ in range(size):
        edital = make_document(contest, previous=edital)
    for n in range(size - 1):
        make_document(contest, kind=Document.Kind.RESULT_LIST, subject=f"outro-{n}", title=f"Lista {n}")
    manager, clerk = cast["manager"], cast["clerk"]
    for _ in range(size - 1):
        result_run_publish(run=result_run_compute(contest=contest, by=clerk), kind="preliminary", by=manager)
    run = result_run_publish(run=result_run_compute(contest=contest, by=clerk), kind="final", by=manager)
    homologate(contest)
    for position in positions:
        for _ in range(size):
            act = f"Portaria {next(_numbers)}/2026"
            nominations_call(
                position=position, count=1, act_number=act, act_date=datetime.date(2026, 6, 10), by=clerk
            )
            make_document(contest, kind=Document.Kind.NOMINATION_ACT, subject=f"act-{act}"[:80], title=act)
    registration = positions[0].registrations.get(number=f"{size}-0-1")  # racial list: two places a run
    return {
        "contest": contest,
        "run": run,
        "position": positions[0],
        "edital": edital,
        "registration": registration,
    }


def fresh_count(request: Callable[[], Any]) -> int:
    """The queries of one answer rendered afresh (the public page cache emptied first)."""
    caches["public"].clear()
    with CaptureQueriesContext(connection) as queries:
        response = request()
    assert response.status_code == 200, response.status_code
    return len(queries)


def assert_same_count(client: Client, urls: Callable[[dict], str], few: dict, many: dict) -> None:
    client.get(urls(few))  # warm the per-process caches (content types) out of the count
    counts = [fresh_count(partial(client.get, url)) for url in (urls(few), urls(many))]
    assert counts[0] == counts[1], (
        f"{urls(many)}: {counts[0]} consultas com poucas linhas, {counts[1]} com muitas"
    )


@pytest.fixture
def worlds(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return build(cast, FEW), build(cast, MANY)


def run_args(world: dict) -> list:
    return [world["contest"].slug, world["run"].pk]


def list_args(world: dict, kind: str) -> list:
    return [*run_args(world), world["position"].pk, kind]


# Each page of the small contest and of the large one (the home lists every contest: its own test below).
PAGES: dict[str, Callable[[dict], str]] = {
    "contest": lambda w: reverse("public:contest", args=[w["contest"].slug]),
    "run": lambda w: reverse("public:run", args=run_args(w)),
    "run_search": lambda w: reverse("public:run", args=run_args(w)) + "?q=candidata",
    "list_general": lambda w: reverse("public:list", args=list_args(w, "geral")),
    "list_racial": lambda w: reverse("public:list", args=list_args(w, "racial")),
    "list_search": lambda w: reverse("public:list", args=list_args(w, "geral")) + "?q=candidata",
    "list_csv": lambda w: reverse("public:list_data", args=[*list_args(w, "geral"), "csv"]),
    "list_json": lambda w: reverse("public:list_data", args=[*list_args(w, "racial"), "json"]),
    "nominations": lambda w: reverse("public:nominations", args=[w["contest"].slug, w["position"].pk]),
    "nominations_csv": lambda w: reverse(
        "public:nominations_data", args=[w["contest"].slug, w["position"].pk, "csv"]
    ),
    "nominations_json": lambda w: reverse(
        "public:nominations_data", args=[w["contest"].slug, w["position"].pk, "json"]
    ),
    "verify": lambda w: reverse("public:verify", args=[w["edital"].code]),
}


@pytest.mark.parametrize("page", PAGES)
def test_public_page_does_not_grow_with_its_rows(client, worlds, page):
    few, many = worlds
    assert_same_count(client, PAGES[page], few, many)


def test_home_does_not_grow_with_the_contests(client, cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    build(cast, FEW)
    url = reverse("public:home")
    client.get(url)
    few = fresh_count(lambda: client.get(url))
    for status in (Contest.Status.PUBLISHED, Contest.Status.REGISTRATION, Contest.Status.IN_PROGRESS):
        make_contest(status=status)
    homologate(make_contest(status=Contest.Status.IN_PROGRESS))
    assert fresh_count(lambda: client.get(url)) == few
    searched = url + "?q=concurso"
    assert fresh_count(lambda: client.get(searched)) == few


def test_candidates_own_page_does_not_grow_with_runs_and_places(client, worlds):
    """The page answers a POST (never stored); its rows are the published runs the registration is on,
    its places on each list, its nominations."""

    def ask(world: dict) -> Callable[[], Any]:
        registration = world["registration"]
        data = {
            "contest": registration.contest_id,
            "number": registration.number,
            "code": access.code_for(registration),
        }
        return partial(client.post, reverse("public:candidate"), data)

    few, many = worlds
    ask(few)()
    counts = [fresh_count(ask(world)) for world in worlds]
    assert counts[0] == counts[1], counts
    assert "Portaria" in ask(many)().content.decode()  # the nomination is on the page
