"""Issue 25, acceptance: the throttles hold across worker processes. A real gunicorn with two workers serves
the test's database (its SQLite copied to a file, or the PostgreSQL test database itself); the access log
names the worker (its pid) that answered each request, so the test shows both answered.

- the access code (N4): ten wrong codes for one inscription from one address, spread over both workers,
  and the eleventh try from that address is refused, wherever it lands (per-process counters allowed ten
  per worker);
- the login (N3): twenty names sprayed from one address lock that address on both workers;
- the publication's freshness (N11): a published list stored by both workers, a clerk gives a listed
  candidate a social name through one of them, and every answer of either shows it at once (with the
  default per-process caches the stored page stayed, a day for a list).
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from candidates import access
from candidates.models import ResultEntry
from tests.builders import PASSWORD, make_world
from tests.pages import forms_on

pytestmark = pytest.mark.django_db(transaction=True)  # the roles come back after a flush (tests/conftest.py)

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

    def workers(self, path: str = "") -> set[str]:
        """The pids of the workers that answered (the access log's first field), ``path`` only if given."""
        lines = [line.split() for line in self.log.read_text().splitlines() if line.strip()]
        return {fields[0] for fields in lines if not path or fields[-1] == path}


class Session:
    """A person with cookies (a clerk's session) on the server; each request on a new connection."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
        client = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        headers = {"Host": "127.0.0.1", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://127.0.0.1:{self.server.port}{path}"
        client.request(method, path, body=data, headers=headers)
        response = client.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        client.close()
        return response.status, text

    def submit(self, path: str, fill: dict[str, str], containing: str) -> tuple[int, str]:
        """GET ``path``, fill its POST form that shows ``containing``, submit it: the status and the body."""
        status, page = self.request("GET", path)
        assert status == 200, (path, status)
        form = next(f for f in forms_on(page) if f.method == "post" and containing in f.visible)
        return self.request("POST", form.action or path, {**form.values, **fill})


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
        "DJANGO_SETTINGS_MODULE": "tests.server_settings",  # the tests' password hasher
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


def two_at_a_time(call, count: int) -> list:
    """``call(i)`` for i in range(count), two at once: while one worker answers one, the other takes the
    next. One after another, the worker that just answered often took the next connection too, and a single
    worker could answer them all (seen in CI), which would not show the count is shared."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(call, range(count)))


def _lookup(server: Server, registration, code: str) -> tuple[int, str]:
    return server.form_post(
        "/publico/minha-inscricao/",
        {"contest": str(registration.contest.pk), "number": registration.number, "code": code},
    )


def test_the_access_code_throttle_holds_across_two_workers(world, two_workers):
    registration = world["registration"]
    name = registration.candidate.display_name
    for status, page in two_at_a_time(lambda _: _lookup(two_workers, registration, "ZZZZ-ZZZZ-ZZ"), 10):
        assert status == 200 and "Não encontramos" in page
    status, page = _lookup(two_workers, registration, access.code_for(registration))
    assert status == 429 and name not in page
    assert len(two_workers.workers()) == 2  # both workers answered: the count is the database's, not theirs


def test_the_login_throttle_holds_across_two_workers(world, cast, two_workers):
    def guess(number: int) -> int:  # twenty names from one address, one guess each
        return two_workers.form_post("/entrar/", {"username": f"nome{number}", "password": "errada"})[0]

    assert set(two_at_a_time(guess, 20)) <= {200, 429}
    status, page = two_workers.form_post("/entrar/", {"username": "clerk", "password": PASSWORD})
    assert status == 429 and "Entrada bloqueada" in page
    assert len(two_workers.workers()) == 2


def _refused(body: str) -> str:
    """What a form page that came back instead of a redirect says went wrong (its error summary and messages),
    else its end."""
    said = re.findall(r'<div class="error-summary".*?</div>|<p class="message[^"]*".*?</p>', body, re.S)
    return "\n".join(said) or body[-3000:]


def _answers(server: Server, path: str, *, until_both: bool = True) -> list[str]:
    """The bodies of GETs of ``path`` (anonymous, each on its own connection) until both workers answered
    it since the log was emptied (at most 60, two at a time)."""
    server.log.write_text("")
    bodies = []
    for _ in range(30):  # two at a time (``two_at_a_time``): one after another, one worker may take them all
        for status, body, _ in two_at_a_time(lambda _: server.request("GET", path), 2):
            assert status == 200, (path, status)
            bodies.append(body)
        if len(server.workers(path)) >= 2:
            break
    assert len(server.workers(path)) == 2, "só um worker respondeu"
    return bodies


def test_a_name_changed_through_one_worker_shows_on_both_at_once(world, two_workers):
    """Issue 25 N11: the list page stored by both workers; a clerk gives a listed candidate a social name
    through the staff form; every answer of either worker shows it at once, never the civil name."""
    contest, run, position = world["contest"], world["run"], world["position"]
    entry = (
        ResultEntry.objects.filter(run=run, list=ResultEntry.List.OPEN)
        .exclude(registration__nominations__isnull=False)
        .select_related("registration__candidate")
        .first()
    )
    civil, social = entry.registration.candidate.full_name, "Ariel Nogueira Prates"
    page = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    assert all(f">{civil}<" in body for body in _answers(two_workers, page))  # stored by both

    clerk = Session(two_workers)
    status, body = clerk.submit("/entrar/", {"username": "clerk", "password": PASSWORD}, "username")
    assert status == 302, body[-3000:]
    edit = reverse("candidates:registration_edit", args=[contest.slug, entry.registration_id])
    status, body = clerk.submit(edit, {"social_name": social}, "social_name")
    assert status == 302, _refused(body)

    bodies = _answers(two_workers, page)
    assert all(f">{social}<" in body and f">{civil}<" not in body for body in bodies)
