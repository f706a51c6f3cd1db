"""Shared fixtures: the fixed cast of users (built once per session), the browser, the seeded rows."""

import os
import shutil
import threading
import time
from collections import Counter
from itertools import count, groupby
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.management.color import no_style
from django.core.management.commands import flush
from django.db import connection, connections
from django.test import override_settings
from django.test.testcases import QuietWSGIRequestHandler
from hypothesis import settings as hypothesis_settings
from whitenoise.middleware import WhiteNoiseMiddleware

from tests import acts_reading, axe, builders, demo_snapshot, migrated_db, rendered_pdfs
from tests.passwords import FAST_HASHERS

# ``--hypothesis-profile=thorough`` (CI, .ci/run): Hypothesis's defaults, and the fuzz of every staff form
# (tests/test_fuzz_forms.py) with twice the generated posts and queries of ``make test``.
hypothesis_settings.register_profile("thorough")


@pytest.fixture(scope="session", autouse=True)
def _fast_passwords_for_the_session():
    """MD5 for the whole session, module-scoped builds included (tests/module_data.py: they run before any
    test's own fixtures; with Django's PBKDF2 each user they made cost some 0.4 s of CPU)."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture(scope="session", autouse=True)
def _static_files_listed_once():
    """WhiteNoise lists every static file (a stat and the headers of each) when its middleware is built,
    and Django's test client builds the middleware chain anew for each client: about 11 ms a client (two
    view modules, 158 tests and 113 clients, 8.6 → 7.3 s). The files do not change during the session, so
    the first listing serves every later client (the same lookups, answered from the same dictionary)."""
    original = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict[str, Any] = {}

    def add_files_from_finders(self) -> None:
        if not listed:
            before = dict(self.files)
            original(self)
            listed.update({url: found for url, found in self.files.items() if before.get(url) is not found})
        else:
            self.files.update(listed)

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders
    yield
    WhiteNoiseMiddleware.add_files_from_finders = original


@pytest.fixture(scope="session")
def _uploads_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("uploads")


_UPLOAD_FOLDERS = count()


@pytest.fixture(autouse=True)
def _private_uploads(settings, _uploads_root):
    """Uploads to the import wizard and the portal's snapshot go to the test's own folder, never to the
    checkout's: a new name under the session's temporary folder, made by the storage on its first write.
    (``tmp_path`` made a folder and moved pytest's "current" link for each of the 5,000-odd tests: 1,000
    empty tests took 0.6-2.3 ms less each without it, in three alternated pairs.)"""
    folder = _uploads_root / str(next(_UPLOAD_FOLDERS))
    storages = dict(settings.STORAGES)
    for name in ("imports", "snapshots"):
        storages[name] = {
            **storages[name],
            "OPTIONS": {**storages[name]["OPTIONS"], "location": folder / name},
        }
    settings.STORAGES = storages
    return folder


@pytest.fixture
def uploads_folder(_private_uploads) -> Path:
    """The test's own folder above its "imports" and "snapshots" storages (not made until written)."""
    return _private_uploads


# PDFs: one rendering per distinct HTML in the session, the verification codes drawn the same way in every
# module and every test (tests/rendered_pdfs.py).
CODES = rendered_pdfs.Codes()
PDFS: rendered_pdfs.PdfCache | None = None


@pytest.fixture(scope="session", autouse=True)
def _pdfs_rendered_once():
    global PDFS
    from contests.documents import render, services

    original, new_code = render.pdf_from_html, services.new_code
    PDFS = rendered_pdfs.PdfCache(
        original, folder=Path(settings.BASE_DIR) / ".pytest_cache" / "rendered-pdfs"
    )
    PDFS.prune()
    render.pdf_from_html, services.new_code = PDFS, CODES
    yield
    render.pdf_from_html, services.new_code = original, new_code


@pytest.fixture(scope="session", autouse=True)
def _old_axe_verdicts_pruned():
    """axe's answers kept by earlier runs (tests/axe.py), those older than two days gone."""
    axe.VERDICTS.prune()


@pytest.fixture(scope="session", autouse=True)
def _demo_built_once():
    """``seed_demo`` copies the rows it made from the same start earlier in the session, or in an earlier
    session of the same code and day (tests/demo_snapshot.py)."""
    from workspace.management.commands import seed_demo

    demo_snapshot.prune()
    handle = seed_demo.Command.handle
    seed_demo.Command.handle = demo_snapshot.cached_handle(handle)
    yield
    seed_demo.Command.handle = handle


@pytest.fixture(scope="module", autouse=True)
def _codes_per_module():
    CODES.reset()


@pytest.fixture(autouse=True)
def _codes_per_test():
    CODES.reset()
    builders.restart_numbers()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """A fixture wider than a test builds with numbers of its own (``builders.shared_numbers``)."""
    if fixturedef.scope == "function":
        return (yield)
    with builders.shared_numbers():
        return (yield)


@pytest.fixture(autouse=True)
def _fresh_public_pages():
    """The public site's stored pages (portal/pages.py) and what each process keeps per generation
    (``GenerationMemo``: a page's scope, a list's search index) outlive a test's rolled-back rows: each
    test starts with none."""
    from django.core.cache import caches

    from contests.publication import GenerationMemo

    caches["public"].clear()
    GenerationMemo.forget_all()


# Data migrations (roles, the founding policies) put rows every environment needs. A transactional test
# (browser, concurrency) ends with a flush that deletes them; serialized rollback is meant to restore them
# but loses its snapshot once Playwright's greenlets have touched the connection, so the next
# transactional test re-runs those data migrations when the roles are gone.
SEED_MIGRATIONS = ("roles", "seed")


# The data migrations' functions and the project state they run against, made once per process: loading
# the migrations and rendering the state took 0.12 to 0.22 s of CPU at each of the hundred-odd flushes.
_SEEDING: tuple[Any, list] | None = None


def _seeding() -> tuple[Any, list]:
    global _SEEDING
    if _SEEDING is None:
        from django.db import connection
        from django.db.migrations.loader import MigrationLoader
        from django.db.migrations.operations import RunPython

        loader = MigrationLoader(connection)
        plan: list[tuple[str, str]] = []
        for leaf in sorted(loader.graph.leaf_nodes()):
            plan.extend(key for key in loader.graph.forwards_plan(leaf) if key not in plan)
        functions = [
            operation.code
            for key in plan
            if any(word in key[1] for word in SEED_MIGRATIONS)
            for operation in loader.graph.nodes[key].operations
            if isinstance(operation, RunPython)
        ]
        _SEEDING = (loader.project_state().apps, functions)
    return _SEEDING


# What the data migrations' functions made the first time a process reseeded, kept to be made again without
# them: content types and permissions by their natural keys (a flush's post_migrate may have made them
# already, under new ids), the groups with their permissions' keys, the other models' rows serialized (the
# founding policies, the procedure's laws). Making them again takes 0.01–0.02 s of CPU where the functions
# took 0.17–0.2 s (tests/test_reseed.py: the same groups, policies and laws, and every content type and
# permission the functions make).
_SEEDED: dict[str, Any] | None = None


def _reseed() -> None:
    global _SEEDED
    if _SEEDED is None:
        state_apps, functions = _seeding()
        # Its content types' cache holds the ids of the rows the flush deleted.
        state_apps.get_model("contenttypes", "ContentType").objects.clear_cache()
        before = {model: model._default_manager.count() for model in apps.get_models()}
        with connection.schema_editor() as editor:
            for function in functions:
                function(state_apps, editor)
        seeded = [model for model, count in before.items() if model._default_manager.count() != count]
        others = [model for model in seeded if model not in (ContentType, Permission, Group)]
        _SEEDED = {
            "types": list(ContentType.objects.values_list("app_label", "model")),
            "permissions": list(
                Permission.objects.values_list(
                    "content_type__app_label", "content_type__model", "codename", "name"
                )
            ),
            "groups": {
                group.name: list(
                    group.permissions.values_list(
                        "content_type__app_label", "content_type__model", "codename"
                    )
                )
                for group in Group.objects.order_by("name")
            },
            "rows": serializers.serialize(
                "json", [row for model in others for row in model._default_manager.all()]
            ),
            "models": others,
        }
        return
    ContentType.objects.clear_cache()
    have = set(ContentType.objects.values_list("app_label", "model"))
    ContentType.objects.bulk_create(
        ContentType(app_label=a, model=m) for a, m in _SEEDED["types"] if (a, m) not in have
    )
    types = {(t.app_label, t.model): t.pk for t in ContentType.objects.all()}
    have_permissions = set(
        Permission.objects.values_list("content_type__app_label", "content_type__model", "codename")
    )
    Permission.objects.bulk_create(
        Permission(content_type_id=types[(a, m)], codename=c, name=n)
        for a, m, c, n in _SEEDED["permissions"]
        if (a, m, c) not in have_permissions
    )
    permissions = {
        key[:3]: key[3]
        for key in Permission.objects.values_list(
            "content_type__app_label", "content_type__model", "codename", "pk"
        )
    }
    groups = _SEEDED["groups"]
    made = Group.objects.bulk_create([Group(name=name) for name in groups])
    Group.permissions.through.objects.bulk_create(
        Group.permissions.through(group_id=group.pk, permission_id=permissions[key])
        for group in made
        for key in groups[group.name]
    )
    for model, objects in groupby(
        (row.object for row in serializers.deserialize("json", _SEEDED["rows"])), type
    ):
        model._default_manager.bulk_create(list(objects))  # type: ignore[attr-defined]
    with connection.cursor() as cursor:  # rows saved with their ids: PostgreSQL's sequences follow them
        for statement in connection.ops.sequence_reset_sql(no_style(), _SEEDED["models"]):
            cursor.execute(statement)


@pytest.fixture(scope="session", autouse=True)
def _flush_restarts_the_ids():
    """On SQLite a transactional test's flush also restarts the tables' ids (``reset_sequences``, which
    Django's test case turns off), so that the rows made again after it (the content types and permissions
    of post_migrate, the seeded groups, the cast) get the same ids whatever ran before in the process. The
    demo's snapshots (tests/demo_snapshot.py) are keyed by the starting rows' greatest ids: with ids that
    followed the number of earlier flushes, a demo built after one had a key of its own on almost every run,
    and was built again (its acts laid out again) instead of copied."""
    handle = flush.Command.handle

    def restarting(self, **options):
        if connections[options.get("database", "default")].vendor == "sqlite":
            options["reset_sequences"] = True
        return handle(self, **options)

    flush.Command.handle = restarting
    yield
    flush.Command.handle = handle


@pytest.fixture(autouse=True)
def _seed_rows_after_flush(request):
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        return
    request.getfixturevalue("transactional_db")
    from django.contrib.auth.models import Group

    if not Group.objects.exists():
        _reseed()


@pytest.fixture(scope="session", autouse=True)
def _serialized_rows_over_a_flush():
    """A transactional test without serialized rollback ends with a flush that runs post_migrate, which
    makes the content types and permissions again under new ids (PostgreSQL's flush keeps the sequences).
    The next test with serialized rollback then loaded the rows of the test database's creation over
    them: a duplicate (app_label, model), the test's set-up failed. After a flush (no role left), those
    rows are deleted first, and the serialized rows bring them back under their first ids."""
    from django.contrib.auth.models import Group
    from django.contrib.contenttypes.models import ContentType
    from django.db.backends.base.creation import BaseDatabaseCreation

    original = BaseDatabaseCreation.deserialize_db_from_string

    def deserialize(self, data):
        alias = self.connection.alias
        if not Group.objects.using(alias).exists():
            ContentType.objects.using(alias).all().delete()  # their permissions with them
            ContentType.objects.clear_cache()
        return original(self, data)

    BaseDatabaseCreation.deserialize_db_from_string = deserialize
    yield
    BaseDatabaseCreation.deserialize_db_from_string = original


@pytest.fixture(autouse=True)
def _flush_published_documents(request):
    """A transactional test that published documents (a procedure's acts, an edital) ends with a flush
    that SQLite's immutability triggers refuse (DELETE FROM contests_document; PostgreSQL's flush is a
    TRUNCATE, which row triggers do not see). Before that flush: the triggers are dropped, the tables
    emptied in one go, the triggers put back, so the next test finds them."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    from importlib import import_module

    from django.core.management.color import no_style
    from django.core.management.sql import sql_flush
    from django.db import connection

    from contests.documents.models import Document

    if connection.vendor != "sqlite" or not Document.objects.exists():
        return
    immutable = import_module("contests.migrations.0010_documents_immutable")
    with connection.cursor() as cursor:
        for statement in immutable.SQLITE_BACKWARD:
            cursor.execute(statement)
    connection.ops.execute_sql_flush(sql_flush(no_style(), connection))
    with connection.cursor() as cursor:
        for statement in immutable.SQLITE_FORWARD:
            cursor.execute(statement)


# The cast -------------------------------------------------------------------------------------------
# Built once, right after the test database is created: every test runs inside a transaction rolled back
# at its end, so the users stay for the next one (as ``setUpTestData`` would keep them for a class). A
# transactional test ends with a flush that deletes them; the next test that asks for the cast builds it
# again.


@pytest.fixture(scope="session")
def _migrated_db_cache():
    """The migrated database copied from the previous run's when nothing it depends on changed
    (tests/migrated_db.py); SQLite only."""
    from django.core import management

    call_command = management.call_command
    management.call_command = migrated_db.cached_migrate(call_command)
    yield
    management.call_command = call_command


@pytest.fixture(scope="session")
def django_db_setup(_migrated_db_cache, django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        builders.make_cast()


@pytest.fixture
def cast(db):
    """The fixed cast, read fresh for each test so that no test sees another's changes to a user."""
    return builders.make_cast()


@pytest.fixture
def client_for(client, cast):
    """``client_for("clerk")`` returns the test client logged in as that member of the cast."""

    def login(key: str):
        if key != "anonymous":
            client.force_login(cast[key])
        return client

    return login


# pytest-xdist (``make test``, ``--dist load``) keeps at most three tests queued for each worker, the next
# ones going to whichever worker is free first. Its own scheduler let a worker busy with quick tests queue up
# an eighth of those left: at the end one worker had queued every transactional (browser) test and ran them
# for five to six minutes while the other sat idle. Each worker still runs its tests in pytest-django's
# order; a module's tests may now be shared by both, and its module-scoped rows built by each.
XDIST_QUEUE = 3


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScheduling

    class ShortQueues(LoadScheduling):
        def __init__(self, config, log=None) -> None:
            super().__init__(config, log)
            self.maxschedchunk = XDIST_QUEUE  # the first tests each worker gets

        def check_schedule(self, node, duration: float = 0) -> None:
            if node.shutting_down:
                return
            if not self.pending:
                node.shutdown()
                return
            missing = XDIST_QUEUE - len(self.node2pending[node])
            if missing > 0:
                self._send_tests(node, missing)

    return ShortQueues(config, log)


def pytest_report_header(config):
    return f"database: {settings.DATABASES['default']['ENGINE']}"


# Browser tests ---------------------------------------------------------------------------------------
# Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a thread with a
# running loop unless told it is safe (the test server runs in its own thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's chromium-headless-shell when installed (.ci/run installs it): the same Blink as Debian's chromium
# without the desktop browser around it, as Playwright itself runs headless tests; Debian's chromium otherwise.
# The accessibility sweeps and the journeys (test_browser_staff_accessibility.py, test_browser_journeys.py)
# took 102 s on one worker where chromium took 122 s, and 44 s of CPU against 72 s (/usr/bin/time).
CHROMIUM = next(
    (path for name in ("chromium-headless-shell", "chromium") if (path := shutil.which(name))),
    "/usr/bin/chromium",
)


@pytest.fixture(scope="session", autouse=True)
def _live_server_answers_without_nagle():
    """The live server's answers leave at once (TCP_NODELAY): Django's handler, like the standard library's it
    builds on, writes a response's headers and its body in separate sends, and with Nagle's algorithm the body
    waited for the browser's delayed acknowledgement, some 40 ms a page and a stylesheet. In a navigation
    micro-bench (headless shell, a page and its CSS; not kept) a load took 94 ms and takes 24 ms with it; the
    heteroidentification journey and the clerk's accessibility sweep, serially, ~39 s → ~36 s. Production
    serves through gunicorn behind nginx, which set TCP_NODELAY themselves."""
    before = QuietWSGIRequestHandler.disable_nagle_algorithm
    QuietWSGIRequestHandler.disable_nagle_algorithm = True
    yield
    QuietWSGIRequestHandler.disable_nagle_algorithm = before


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Chromium's RenderDocument makes a new frame in the renderer for every navigation, same-site ones included:
# with it off the frame is kept, as before that feature, and a navigation took 37-43 ms of Chromium's CPU
# where it took 50-67 ms (a page and its CSS loaded 100 times a run, runs alternated); the browser tests on two
# workers, Chromium's CPU 154 → 127 s and 2:32 → 2:16. Pages, scripts and what the tests see are the same.
DISABLED_FEATURES = ("RenderDocument",)


def browser_command_line(browser) -> list[str]:
    """The command line of a running browser's main process (its pid from CDP, its arguments from /proc)."""
    processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
    pid = next(process["id"] for process in processes if process["type"] == "browser")
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def _launcher_disabled_features(playwright) -> list[str]:
    """The features Playwright's launcher disables (its own ``--disable-features``), read off the command line
    of a browser it starts: Chromium keeps only the last ``--disable-features`` of a command line, so ours
    must carry Playwright's too (its list changes with its versions). Empty where it cannot be read (the
    browser then runs with Playwright's list and ours is left out)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        arguments = browser_command_line(browser)
    except (OSError, StopIteration, KeyError):
        return []
    finally:
        browser.close()
    for argument in arguments:
        if argument.startswith("--disable-features="):
            return argument.removeprefix("--disable-features=").split(",")
    return []


@pytest.fixture(scope="session")
def browser(live_server):
    """Chromium, for the session. It asks for the live server so that it closes first: the server's threads
    serving its kept-alive connections then end while the in-memory database is still shared with them (closed
    after the server stopped, each of them failed on that connection, pytest's "Exception in thread" warnings
    at the end of ``make test``)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(
            "Chromium do Debian ausente (apt-get install chromium-headless-shell): testes de navegador ignorados."
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        pytest.skip("Playwright não instalado: testes de navegador ignorados.")
    with sync_playwright() as p:
        features = _launcher_disabled_features(p)
        extra = [f"--disable-features={','.join([*features, *DISABLED_FEATURES])}"] if features else []
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + extra)
        yield browser
        browser.close()
    _join_live_server_requests()


def _join_live_server_requests(timeout: float = 10) -> None:
    """Wait for the live server's request threads, each ending as the closed browser's connection drops."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(max(0.0, deadline - time.monotonic()))


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(
        locale="pt-BR", timezone_id="America/Sao_Paulo", viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
    _read_the_journeys_acts()


# Every act a browser journey published, read as a legal officer reads it (issue 20): the same checks as the
# walk over the demo's documents (tests/contests/test_acts_text.py), and the personal letters of the
# journey's first nomination and first procedure notice. A journey that publishes an act with a variable,
# "(por cento)" or no signer fails at its end, naming the act.
ACTS_READ: list[str] = []


def _read_the_journeys_acts() -> None:
    if shutil.which("pdftotext") is None:
        return
    from contests.documents.models import Document  # the apps are not ready when this module is imported

    found: list[str] = []
    for document in Document.objects.order_by("pk"):
        if (act := acts_reading.rendered_act(document, "jornada")) is None:
            continue  # a fixture's stand-in (no verification code printed): not an act the journey published
        found += acts_reading.problems(act, signed=document.kind not in acts_reading.UNSIGNED_KINDS)
        ACTS_READ.append(document.kind)
    for letter in acts_reading.journey_letters():
        found += acts_reading.problems(letter, signed=False)
        ACTS_READ.append(letter.kind)
    assert not found, "atos publicados na jornada que um jurista devolveria:\n" + "\n".join(found)


def pytest_terminal_summary(terminalreporter):
    """How many acts the journeys published and the walk read, by kind (without xdist: a worker's count
    stays in the worker)."""
    if PDFS is not None and PDFS.hits + PDFS.misses + PDFS.from_disk:
        terminalreporter.write_line(
            f"PDFs: {PDFS.misses} renderizados, {PDFS.from_disk} lidos de execuções anteriores ou do outro "
            f"processo, {PDFS.hits} repetidos"
        )
    if axe.VERDICTS.ran + axe.VERDICTS.reused:
        terminalreporter.write_line(
            f"axe: {axe.VERDICTS.ran} páginas verificadas, {axe.VERDICTS.reused} respostas de execuções anteriores"
            " ou do outro processo"
        )
    if ACTS_READ:
        kinds = Counter(ACTS_READ)
        listed = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))
        terminalreporter.write_line(f"atos das jornadas lidos: {len(ACTS_READ)} ({listed})")
