"""Issue 25: ``check --deploy`` warns when several workers would run with caches of their own (each would
keep its own public pages and counters); one worker, or shared caches, are clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from workspace.checks import workers_share_their_caches

ROOT = Path(__file__).resolve().parent.parent.parent
REDIS = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/1"}
LOCMEM = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}


def ids(settings) -> list[str | None]:
    return [message.id for message in workers_share_their_caches()]


def test_several_workers_with_caches_of_each_process_are_warned(settings):
    settings.WEB_CONCURRENCY = 3
    settings.CACHES = {"default": LOCMEM, "public": LOCMEM, "rosters": LOCMEM}
    assert ids(settings) == ["cotas.W001", "cotas.W001"]
    settings.CACHES = {"default": REDIS, "public": LOCMEM, "rosters": LOCMEM}
    messages = workers_share_their_caches()
    assert [m.id for m in messages] == ["cotas.W001"] and "PUBLIC_CACHE_URL" in messages[0].hint


def test_a_cache_based_login_throttle_on_a_cache_of_each_process_is_warned(settings):
    settings.WEB_CONCURRENCY = 2
    settings.CACHES = {"default": LOCMEM, "public": REDIS}
    settings.AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
    assert ids(settings) == ["cotas.W001", "cotas.W002"]


def test_one_worker_or_shared_caches_are_clean(settings):
    settings.WEB_CONCURRENCY = 1
    settings.CACHES = {"default": LOCMEM, "public": LOCMEM}
    assert ids(settings) == []
    settings.WEB_CONCURRENCY = 4
    settings.CACHES = {"default": REDIS, "public": REDIS, "rosters": LOCMEM}
    assert ids(settings) == []


def _check_deploy(**extra: str) -> subprocess.CompletedProcess:
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in ("CACHE_URL", "PUBLIC_CACHE_URL", "WEB_CONCURRENCY", "DJANGO_ALLOW_ASYNC_UNSAFE")
        },
        "ENV_FILE": "/dev/null",
        "DEBUG": "0",
        "SECRET_KEY": "k" * 64 + "-deploy-check-only-Zq9",
        "ALLOWED_HOSTS": "cotas.example.gov.br",
        "PUBLIC_BASE_URL": "https://cotas.example.gov.br",
        "ACCESS_CODE_KEY": "a" * 64 + "-deploy-check-only-Zq9",
        **extra,
    }
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_check_deploy_fails_with_three_workers_on_per_process_caches_and_passes_as_ci_runs_it():
    warned = _check_deploy(WEB_CONCURRENCY="3")
    assert warned.returncode != 0 and "cotas.W001" in warned.stderr + warned.stdout
    shared = _check_deploy(
        WEB_CONCURRENCY="3", CACHE_URL="redis://127.0.0.1:6379/1", PUBLIC_CACHE_URL="redis://127.0.0.1:6379/2"
    )
    assert shared.returncode == 0, shared.stderr
    assert _check_deploy().returncode == 0  # .ci/run's environment: one worker
