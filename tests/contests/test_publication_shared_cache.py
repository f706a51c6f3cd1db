"""A publication is seen at once by every process that shares the public cache (Redis, as in production
with several workers: docs/operations.md): two cache instances on the same Redis database stand for two
processes, each with its own connections. Skipped, saying why, when no Redis answers on 127.0.0.1:6379.

Per process (the default cache), the process that did not publish keeps its stored page until it expires:
the control that shows the two instances are really apart.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from contests.models import PublicGeneration
from contests.publication import GENERATION_KEY
from tests.builders import make_world
from tests.contests.test_publication import assert_changed, call, nomination_urls, open_vacancies, withdraw
from tests.portal.test_views_contests import publish_document

pytestmark = pytest.mark.django_db

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.exceptions.RedisError:
        return False


@pytest.fixture
def two_processes(settings):
    """Two cache instances on the same Redis database, as two application processes would have (each
    with its own connections), under a key prefix of this test's own."""
    if not redis_answers():
        pytest.skip(
            "Nenhum Redis responde em 127.0.0.1:6379 (apt-get install redis-server; redis-server "
            "--daemonize yes): testes do cache compartilhado ignorados."
        )
    prefix = f"cotas-test-{uuid.uuid4().hex}"
    shared = {
        "BACKEND": "config.redis_cache.RedisCache",  # what config/settings.py makes of a redis:// URL
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": prefix,
        "TIMEOUT": 300,
    }
    settings.CACHES = {**settings.CACHES, "public": shared}
    first, second = caches.create_connection("public"), caches.create_connection("public")
    assert first is not second
    yield first, second
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


@contextlib.contextmanager
def process(cache) -> Iterator[None]:
    """Requests and commits in this block are served by ``cache``, one process's instance."""
    kept = caches["public"]
    caches["public"] = cache
    try:
        yield
    finally:
        caches["public"] = kept


def test_shared_cache_a_call_in_one_process_is_seen_by_the_other_at_once(
    client, world, cast, two_processes, django_capture_on_commit_callbacks
):
    first, second = two_processes
    with process(second):
        before = {url: client.get(url) for url in nomination_urls(world)}
        assert all(client.get(url)["ETag"] == page["ETag"] for url, page in before.items())  # stored
    with process(first), django_capture_on_commit_callbacks(execute=True):
        call(world, cast)
    assert redis.Redis.from_url(REDIS_URL).exists(first.make_key(GENERATION_KEY))  # in Redis, not in memory
    with process(second):
        assert_changed(client, before, shows="Portaria 77/2026", showed="Portaria 10/2026")


def test_per_process_caches_the_other_process_keeps_its_page_until_it_expires(
    client, world, cast, django_capture_on_commit_callbacks
):
    """Why a shared cache: with one cache per process (the default), the process that did not publish
    serves its stored page until it expires (``STORE_FRESH_SECONDS``)."""
    first, second = LocMemCache("process-1", {}), LocMemCache("process-2", {})
    with process(second):
        before = {url: client.get(url) for url in nomination_urls(world)}
    with process(first), django_capture_on_commit_callbacks(execute=True):
        call(world, cast)
    with process(second):
        assert all(client.get(url)["ETag"] == page["ETag"] for url, page in before.items())
    with process(first):
        assert "Portaria 77/2026" in client.get(nomination_urls(world)[0]).content.decode()


def test_shared_cache_a_withdrawal_and_an_opening_are_seen_by_the_other_process(
    client, world, cast, two_processes, django_capture_on_commit_callbacks
):
    first, second = two_processes
    urls = nomination_urls(world)
    with process(second):
        before = {url: client.get(url) for url in urls}
    with process(first), django_capture_on_commit_callbacks(execute=True):
        withdraw(world, cast)
    with process(second):
        assert all(client.get(url)["ETag"] != page["ETag"] for url, page in before.items())
        assert client.get(urls[0]).content.decode().count("Desistente") == 2
        contest_url = reverse("public:contest", args=[world["contest"].slug])
        contest_before = client.get(contest_url)
    with process(first), django_capture_on_commit_callbacks(execute=True):
        open_vacancies(world, cast)
    with process(second):
        assert client.get(contest_url)["ETag"] != contest_before["ETag"]
        with CaptureQueriesContext(connection) as queries:
            client.get(urls[0])
        assert len(queries) > 0  # the stored nomination page is stale in this process too


def test_per_process_caches_with_several_workers_a_new_pdf_is_seen_by_the_other_at_once(
    client, world, settings, django_capture_on_commit_callbacks
):
    """Issue 25 N11: with several workers (WEB_CONCURRENCY) each with its own cache, a new PDF was missing
    from the other worker's stored pages for up to a day. The generation lives in the database then
    (contests.public_generation): a publication in one process makes every process's stored pages stale,
    for the price of one primary-key read per answer."""
    settings.WEB_CONCURRENCY = 2
    first, second = LocMemCache("process-1", {}), LocMemCache("process-2", {})
    contest_url = reverse("public:contest", args=[world["contest"].slug])
    with process(second):
        before = client.get(contest_url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(contest_url)["ETag"] == before["ETag"]  # stored in this process
        assert [q["sql"] for q in queries if "publicgeneration" in q["sql"].lower()] == [
            q["sql"] for q in queries
        ] and len(queries) == 1  # the generation, and nothing else
    with process(first), django_capture_on_commit_callbacks(execute=True):
        document = publish_document(world["contest"], title="Edital de convocação nº 7")
    assert PublicGeneration.objects.exists()
    with process(second):
        after = client.get(contest_url)
    assert after["ETag"] != before["ETag"]
    assert "Edital de convocação nº 7" in after.content.decode()
    assert document.get_absolute_url() in after.content.decode()


def test_a_redis_cache_keeps_one_client_and_every_process_sees_the_other_s_writes(two_processes):
    """config/redis_cache.py: one ``redis.Redis`` per pool (Django made one per operation, 70 µs each)."""
    first, second = two_processes
    assert first._cache.get_client() is first._cache.get_client()
    assert first._cache.get_client() is not second._cache.get_client()  # each process its own
    first.set("k", 1)
    assert second.get("k") == 1
    second.incr("k")
    assert first.get("k") == 2
