"""Issue 25, acceptance: the throttles hold across worker processes. A real gunicorn with two workers serves
the test's database (its SQLite copied to a file, or the PostgreSQL test database itself); the access log
names the worker (its pid) that answered each request, so the test shows both answered.

- the access code (N4): ten wrong codes for one inscription from one address, spread over both workers,
  and the eleventh try from that address is refused, wherever it lands (per-process counters allowed ten
  per worker);
- the login (N3): twenty names sprayed from one address lock that address on both workers.
"""

from __future__ import annotations

import http.client
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from candidates import access
from tests.builders import PASSWORD, make_world

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ROOT = Path(__file__).resolve().parent.parent
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(tmp_path: Path) -> str:
    """The test database as another process reaches it (an in-memory SQLite copied to a file)."""
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        path = tmp_path / "two-workers.sqlite3"
        copy = sqlite3.connect(path)
        connection.connection.backup(copy)
        copy.close()
        return f"sqlite:///{path}"
    db = connection.settings_dict
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def csrf_token(page: str) -> str:
    found = CSRF.search(page)
    assert found, "a página não tem formulário com token CSRF"
    return found.group(1)


class Server:
    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log = port, log

    def request(
        self, method: str, path: str, body: dict | None = None, cookie: str = ""
    ) -> tuple[int, str, str]:
        """One request on a new connection (so the two workers share them): status, body, csrftoken."""
        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": "127.0.0.1"}
        if cookie:
            headers["Cookie"] = f"csrftoken={cookie}"
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        client.request(method, path, body=data, headers=headers)
        response = client.getresponse()
        text = response.read().decode()
        token = ""
        for name, value in response.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                token = value.split(";", 1)[0].split("=", 1)[1]
        client.close()
        return response.status, text, token

    def form_post(self, path: str, fields: dict) -> tuple[int, str]:
        _, page, cookie = self.request("GET", path)
        status, text, _ = self.request(
            "POST", path, {**fields, "csrfmiddlewaretoken": csrf_token(page)}, cookie
        )
        return status, text

    def workers(self) -> set[str]:
        """The pids of the workers that answered (the access log's first field)."""
        return {line.split()[0] for line in self.log.read_text().splitlines() if line.strip()}


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


@pytest.fixture
def two_workers(world, tmp_path) -> Iterator[Server]:
    """gunicorn with two workers on the test's database, its rows built first (``world``)."""
    port, log = free_port(), tmp_path / "access.log"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL")},
        "ENV_FILE": "/dev/null",
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,
        "ACCESS_CODE_KEY": settings.ACCESS_CODE_KEY,
        "DATABASE_URL": database_url(tmp_path),
        "WEB_CONCURRENCY": "2",
        "LOG_LEVEL": "ERROR",
    }
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}",
        "--access-logfile", str(log), "--access-logformat", "%(p)s %(s)s %(m)s %(U)s",
    ]  # fmt: skip
    errors = tmp_path / "gunicorn.err"
    with errors.open("wb") as stderr:  # a file, never a pipe nobody reads (a full pipe would stall it)
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    server = Server(port, log)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if server.request("GET", "/saude/")[0] in (200, 503):
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"gunicorn não subiu: {errors.read_text()[-2000:]}")
            time.sleep(0.5)
        # Both workers up: keep asking until the log shows two pids (a few dozen cheap requests at most).
        for _ in range(200):
            if len(server.workers()) >= 2:
                break
            server.request("GET", "/saude/")
        log.write_text("")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _lookup(server: Server, registration, code: str) -> tuple[int, str]:
    return server.form_post(
        "/publico/minha-inscricao/",
        {"contest": str(registration.contest.pk), "number": registration.number, "code": code},
    )


def test_the_access_code_throttle_holds_across_two_workers(world, two_workers):
    registration = world["registration"]
    name = registration.candidate.display_name
    for _ in range(10):
        status, page = _lookup(two_workers, registration, "ZZZZ-ZZZZ-ZZ")
        assert status == 200 and "Não encontramos" in page
    status, page = _lookup(two_workers, registration, access.code_for(registration))
    assert status == 429 and name not in page
    assert len(two_workers.workers()) == 2  # both workers answered: the count is the database's, not theirs


def test_the_login_throttle_holds_across_two_workers(world, cast, two_workers):
    for number in range(20):  # twenty names from one address, one guess each
        status, _ = two_workers.form_post("/entrar/", {"username": f"nome{number}", "password": "errada"})
        assert status in (200, 429)
    status, page = two_workers.form_post("/entrar/", {"username": "clerk", "password": PASSWORD})
    assert status == 429 and "Entrada bloqueada" in page
    assert len(two_workers.workers()) == 2
