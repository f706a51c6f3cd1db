"""The public search of a published list (``candidates.published``): each process keeps, per generation of
the public pages, the searchable text of a list (``contests.text_search.TextIndex``) and its lines' public
columns (``Lines``), so a search reads nothing from the database once they are built, never a scan of the
list (PostgreSQL's ``LIKE '%…%'`` on every line cost ~40 ms for 100,000, twice per page). Whatever changes
what a list shows moves the generation on, and the next search sees it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from candidates.models import ResultEntry
from candidates.published import ENTRY_FIELDS, Lines, list_search, run_search
from contests.models import Contest
from contests.publication import GenerationMemo, bump, from_database
from tests.builders import make_candidate, make_contest, make_position, make_registration, publish_final

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_position(contest, vacancies=5)
    for i in range(1, 121):
        name = "Maria Silva" if i % 3 == 0 else f"Pessoa Número {i}"
        make_registration(
            position,
            candidate=make_candidate(full_name=name),
            number=f"N{i:03d}",
            final_score=Decimal(300 - i),
        )
    run = publish_final(contest, cast["manager"])
    return {"contest": contest, "position": position, "run": run}


def numbers(rows) -> list[str]:
    return [row["number"] for row in rows]


def test_a_search_answers_in_the_list_s_order_from_memory_once_the_list_is_read(published):
    run, position = published["run"], published["position"]
    found = list_search(run, position, ResultEntry.List.OPEN, "silva maria")
    assert len(found) == 40
    assert numbers(found[0:3]) == ["N003", "N006", "N009"]
    with CaptureQueriesContext(connection) as queries:
        again = list_search(run, position, ResultEntry.List.OPEN, "n11")  # another search, same list
        assert len(again) == 10  # N110 to N119, counted from the index
        page = again[0:50]
    assert numbers(page) == [f"N{i}" for i in range(110, 120)]
    assert not queries, [q["sql"] for q in queries]  # neither the count nor the page's lines


def test_the_lines_kept_are_the_database_s_for_every_line_and_column(published):
    run = published["run"]
    database = list(
        ResultEntry.objects.filter(run=run)
        .exclude(list=ResultEntry.List.OUT)
        .order_by("position_id", "list", "rank")
        .values("pk", *ENTRY_FIELDS)
    )
    assert len(database) > 100
    for row in database:  # each number is found alone (N001 … N120), on each list that has it
        found = run_search(run, row["number"])
        kept = [line for line in found[0 : len(found)] if line["list"] == row["list"]]
        assert kept == [row]
        assert str(kept[0]["score"]) == str(row["score"])  # the same places


def test_lines_keep_empty_places_and_scores_and_every_kind():
    rows = [
        (7, 3, "open", 1, 1, "A-1", "Ana", Decimal("87.50"), "ana"),
        (8, 3, "racial", 2, None, "B-2", "Bento Conceição", None, "bento conceicao"),
        (9, 4, "pcd", None, 12, "", "", Decimal("0.00"), ""),
    ]
    lines = Lines(rows)
    assert len(lines) == 3
    fields = ("pk", *ENTRY_FIELDS)
    assert [lines.row(i) for i in range(3)] == [dict(zip(fields, row[:-1], strict=True)) for row in rows]
    assert str(lines.row(0)["score"]) == "87.50" and str(lines.row(2)["score"]) == "0.00"


def test_a_run_s_search_crosses_its_positions_and_lists_by_position_list_rank(published):
    found = run_search(published["run"], "N003")
    assert [(row["number"], row["list"]) for row in found[0:10]] == [
        (row.number, row.list)
        for row in ResultEntry.objects.filter(run=published["run"], number="N003")
        .exclude(list=ResultEntry.List.OUT)
        .order_by("position_id", "list", "rank")
    ]
    assert len(found) >= 1


def test_the_index_is_read_once_per_generation_and_again_after_it_moves_on(published):
    run, position = published["run"], published["position"]
    list_search(run, position, ResultEntry.List.OPEN, "maria")  # built
    ResultEntry.objects.filter(run=run, number="N001").update(search_name="zuleica prado")
    assert len(list_search(run, position, ResultEntry.List.OPEN, "zuleica")) == 0  # the kept index
    bump()  # what a publication or a change of a name in effect does when it commits
    assert numbers(list_search(run, position, ResultEntry.List.OPEN, "zuleica")[0:1]) == ["N001"]


def test_the_list_page_s_search_goes_through_the_index(client, published):
    contest, run, position = published["contest"], published["run"], published["position"]
    url = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    client.get(url, {"q": "silva"})
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url, {"q": "MARIA"}).content.decode()
    assert "40 pessoas encontradas" in page
    assert not any("LIKE" in q["sql"].upper() for q in queries), [q["sql"] for q in queries]


def test_the_memo_keeps_at_most_its_size_and_nothing_from_a_failed_build():
    memo: GenerationMemo[int] = GenerationMemo(size=2)
    built = []

    def build(n):
        built.append(n)
        return n

    for n in (1, 2, 1, 3, 1, 2):
        memo.get(n, lambda n=n: build(n))
    assert built == [1, 2, 3, 2]  # 1 kept (used last), 2 dropped when 3 came
    with pytest.raises(LookupError):
        memo.get("missing", lambda: (_ for _ in ()).throw(LookupError()))
    assert memo.get("missing", lambda: 7) == 7


def test_a_list_page_kept_around_its_lines_never_shows_another_search_s_lines(client, published):
    contest, run, position = published["contest"], published["run"], published["position"]
    url = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    first = client.get(url, {"q": "maria"}).content.decode()
    second = client.get(url, {"q": "N007"}).content.decode()
    whole = client.get(url).content.decode()
    assert "40 pessoas encontradas para “maria”" in first and 'value="maria"' in first
    assert "1 pessoa encontrada para “n007”" in second and 'value="n007"' in second
    assert "maria" not in second.lower().split("<h2>dados abertos</h2>")[0].split("<main")[1]
    assert "120 pessoas nesta lista." in whole and "encontrad" not in whole and 'value=""' in whole
    for page in (first, second, whole):
        assert "\x00" not in page and page.count("<h2>Dados abertos</h2>") == 1


def test_nothing_kept_is_used_while_the_snapshot_renders():
    """The snapshot may render in the task worker, whose per-process generation nobody moved on."""
    memo: GenerationMemo[int] = GenerationMemo(size=2)
    memo.get("scope", lambda: 1)
    with from_database():
        assert memo.get("scope", lambda: 2) == 2
    assert memo.get("scope", lambda: 3) == 1


def test_one_public_answer_reads_the_generation_once_and_a_bump_within_is_seen():
    from django.core.cache import caches

    from contests.publication import GENERATION_KEY, generation, one_generation

    cache = caches["public"]
    with one_generation():
        first = generation()
        cache.set(GENERATION_KEY, first + 10)  # another process published meanwhile
        assert generation() == first  # the answer stays of one generation
        bump()  # this one publishes: what it reads next is the new generation
        assert generation() == first + 11
    assert generation() == first + 11
