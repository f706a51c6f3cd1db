"""Query discipline of the list pages: the number of queries a page makes does not grow with its rows."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def assert_queries_do_not_grow(client: Client, url: str, add_rows: Callable[[], object]) -> int:
    """Count the queries of ``url`` with the few rows there are, add many with ``add_rows``, and check the
    page makes no more queries than before. Returns the count (for a test that wants to pin it)."""
    client.get(url)  # warm the per-process caches (content types, the organisation) out of the count
    few = count_queries(client, url)
    add_rows()
    many = count_queries(client, url)
    assert many <= few, f"{url}: {few} consultas com poucas linhas, {many} com muitas"
    return few
