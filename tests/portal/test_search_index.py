"""The public search by inscription number: a query with a digit looks up the number's start only (no name
has a digit), and on PostgreSQL that lookup is a range of candidates migration 0024's index, whatever the
size of the list (a scan of 100,000 lines took 116 ms; the index, 0.03 ms)."""

from __future__ import annotations

import pytest
from django.db import connection

from candidates.models import ResultEntry
from candidates.published import search_filter

pytestmark = pytest.mark.django_db


def test_a_query_with_a_digit_searches_the_number_only():
    condition = search_filter("20260017")
    assert [child[0] for child in condition.children] == ["number__istartswith"]


def test_a_query_without_a_digit_searches_every_word_of_the_name():
    condition = search_filter("Conceição  Silva")
    assert sorted(child for child in condition.children) == [
        ("search_name__contains", "conceicao"),
        ("search_name__contains", "silva"),
    ]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="o índice existe só no PostgreSQL")
def test_the_number_search_is_a_range_of_the_index():
    query = ResultEntry.objects.filter(search_filter("2026001"))
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a small table: ask whether the index *can* answer
        plan = query.explain()
    assert "candidates_entry_number_prefix" in plan, plan
