"""Static snapshots of the published portal (issue 24): the public pages a publication changes, written as
files to the ``snapshots`` storage (``STORAGES``; a folder under ``SNAPSHOT_ROOT`` by default) so that a
web server or a CDN sends them without Python, and falls back to the application for what is not a file
(a search, a page number the list does not have, the candidate's page, ``/verificar/``): docs/operations.md.

What is written: the home page and the fixed pages, and for each contest whose edital is published its page
and Atom feed, each published run's page, every page of each of its lists and the list's CSV and JSON, and
the nomination order (page, CSV, JSON) of each position with nominations. Nothing else: never the
candidate's page, a search, a staff page. Each file holds the bytes the view sends to an anonymous
visitor (rendered by the view itself, with the public cache bypassed: ``pages.uncached``), and only an
answer the view marks as a public page (200, stored, the address's own query string).

An address becomes a file name as the web server looks it up (the nginx ``map`` in docs/operations.md):
``/a/b/`` → ``a/b/index.html``; ``/a/b/?pagina=3`` → ``a/b/index.pagina-3.html``; ``/a/b.csv`` → ``a/b.csv``.
A file is replaced atomically (a temporary file renamed over it, on a file system; one PUT on an object
store) and only when its bytes change, so the server's own validators (nginx: modification time and size)
stay the same while the page does.

When a publication commits (``contests.publication.public_changed``), the pages that change with anything
(home, the contest's page, feed, runs' pages and nomination order) lose their files at once, so the server
asks the application, which is current, and a task of the queue writes them again, and each list whose
first page or JSON changed (``ListFiles``). ``manage.py portal_snapshot`` renders every page.
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db import transaction
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import resolve, reverse
from django_tasks import TaskResultStatus, task
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from candidates import published
from contests import selectors as contest_selectors
from contests.models import Contest
from portal import pages

logger = logging.getLogger(__name__)

STORAGE_ALIAS = "snapshots"
CONTESTS_DIR = "publico/concursos"


def storage() -> Storage:
    return storages[STORAGE_ALIAS]


# Addresses and file names -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Address:
    path: str
    page: int = 1  # a list's page number: ?pagina=N past the first

    @property
    def query(self) -> dict[str, str]:
        return {"pagina": str(self.page)} if self.page > 1 else {}

    @property
    def file_name(self) -> str:
        name = self.path.lstrip("/")
        if not name.endswith("/") and name:
            return name
        return name + (f"index.pagina-{self.page}.html" if self.page > 1 else "index.html")


def site_addresses() -> list[Address]:
    """The pages outside any contest (the home page lists the contests)."""
    names = ("public:home", "public:accessibility", "public:privacy", "public:data_dictionary")
    return [Address(reverse(name)) for name in names]


def contest_head(contest: Contest) -> list[Address]:
    """A contest's pages that change with what is published in it (small, cheap to render)."""
    slug = contest.slug
    found = [
        Address(reverse("public:contest", args=[slug])),
        Address(reverse("public:contest_feed", args=[slug])),
    ]
    found += [
        Address(reverse("public:run", args=[slug, run.pk])) for run in published.published_runs(contest)
    ]
    for pk in sorted(published.positions_with_nominations(contest)):
        found.append(Address(reverse("public:nominations", args=[slug, pk])))
        found += [
            Address(reverse("public:nominations_data", args=[slug, pk, fmt])) for fmt in ("csv", "json")
        ]
    return found


@dataclass(frozen=True)
class ListFiles:
    """One list of a published run: its pages and its CSV and JSON. The first page (the frame, the contest,
    the run, the position, the list's name) and the JSON (the titles of the contest and the position, and
    every row: a name in effect that changes on page 7 changes it, ``candidates.services.names``) witness
    every other file of the list: when both are unchanged and every file is there, the others are not
    rendered again."""

    witnesses: tuple[Address, Address]  # the JSON, the first page
    others: tuple[Address, ...]  # the CSV, the pages from the last to the second


def contest_lists(contest: Contest) -> Iterator[ListFiles]:
    """Every list of the contest's published runs."""
    lists = published.contest_lists(contest)
    for run in published.published_runs(contest):
        run.contest = contest
        counts = published.list_counts(run)
        for position in published.run_positions(run):
            for item in lists:
                args = [contest.slug, run.pk, position.pk, item.slug]
                base = reverse("public:list", args=args)
                count = max(1, math.ceil(counts.get((position.pk, item.value), 0) / published.PAGE_SIZE))
                yield ListFiles(
                    witnesses=(Address(reverse("public:list_data", args=[*args, "json"])), Address(base)),
                    others=(
                        Address(reverse("public:list_data", args=[*args, "csv"])),
                        *(Address(base, number) for number in range(count, 1, -1)),
                    ),
                )


def contest_dir(slug: str) -> str:
    return f"{CONTESTS_DIR}/{slug}"


# Rendering and writing ---------------------------------------------------------------------------------


def render(address: Address) -> bytes | None:
    """The body the view sends an anonymous visitor at ``address``, or None when it is not a stored public
    page (a 404, a list page that is not kept, an answer with a cookie)."""
    # As the public asks for it: the host and scheme of PUBLIC_BASE_URL (the feed's links are built on it).
    base = urlsplit(settings.PUBLIC_BASE_URL)
    request = RequestFactory().get(
        address.path, address.query, headers={"host": base.netloc}, secure=base.scheme == "https"
    )
    match = resolve(address.path)
    if match.namespace != "public":
        return None
    with pages.uncached():
        response = match.func(request, *match.args, **match.kwargs)
    if (
        not isinstance(response, HttpResponse)
        or response.status_code != 200
        or response.cookies
        or getattr(response, "public_page", None) is None
    ):
        return None
    return response.content


def write(store: Storage, name: str, body: bytes) -> bool:
    """``body`` at ``name``, atomically, unless the file already holds it; whether it was written."""
    if isinstance(store, FileSystemStorage):
        target = store.path(name)
        try:
            with open(target, "rb") as current:
                if current.read() == body:
                    return False
        except FileNotFoundError:
            pass
        folder = os.path.dirname(target)
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".snapshot-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body)
            os.chmod(temporary, 0o644)  # public pages: the web server's user reads them
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        return True
    # An object store: one PUT replaces the object whole (django-storages with file_overwrite=True).
    if store.exists(name):
        with store.open(name, "rb") as current:
            if current.read() == body:
                return False
        store.delete(name)
    store.save(name, ContentFile(body))
    return True


def remove(store: Storage, names: Iterable[str]) -> int:
    removed = 0
    for name in names:
        if store.exists(name):
            store.delete(name)
            removed += 1
    return removed


def files_under(store: Storage, folder: str) -> Iterator[str]:
    try:
        directories, files = store.listdir(folder)
    except FileNotFoundError:
        return
    for name in files:
        if not name.startswith(".snapshot-"):
            yield f"{folder}/{name}"
    for directory in directories:
        yield from files_under(store, f"{folder}/{directory}")


@dataclass
class Outcome:
    written: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: int = 0

    def __str__(self) -> str:
        text = f"{self.written} escritas, {self.unchanged} iguais, {self.removed} removidas"
        return text + (
            f", {self.failed} com erro (sem arquivo: a aplicação as responde)" if self.failed else ""
        )


def _put(store: Storage, addresses: Iterable[Address], outcome: Outcome) -> set[str]:
    """Render and write each address; the file names of the pages that exist (the others are removed)."""
    kept: set[str] = set()
    for address in addresses:
        try:
            body = render(address)
        except Exception:  # a bug in one page: logged, its file removed, the others written
            logger.exception("portal snapshot: %s", address.path)
            outcome.failed += 1
            remove(store, [address.file_name])
            continue
        if body is None:
            outcome.removed += remove(store, [address.file_name])
            continue
        kept.add(address.file_name)
        if write(store, address.file_name, body):
            outcome.written += 1
        else:
            outcome.unchanged += 1
    return kept


def _put_list(store: Storage, files: ListFiles, outcome: Outcome, *, every_page: bool) -> set[str]:
    others = [address.file_name for address in files.others]
    if not every_page and all(store.exists(name) for name in others):
        written = outcome.written
        kept = _put(store, files.witnesses, outcome)
        if outcome.written == written and len(kept) == len(files.witnesses):
            outcome.unchanged += len(others)
            return kept | set(others)
        return kept | _put(store, files.others, outcome)
    # The first page last: a list whose first page is a file has all of them.
    return _put(store, files.others, outcome) | _put(store, files.witnesses, outcome)


def rebuild(contest_slug: str | None = None, *, every_page: bool = True) -> Outcome:
    """Write the snapshot again: the site's pages, and every page of ``contest_slug`` (all the published
    contests when None); files of pages no longer public (a contest's or the site's) are removed.
    Idempotent: a page whose bytes did not change is not rewritten. ``every_page`` False (after a
    publication): a list whose witnesses are unchanged is not rendered again (``ListFiles``)."""
    store, outcome = storage(), Outcome()
    _put(store, site_addresses(), outcome)
    public = {contest.slug: contest for contest in contest_selectors.published_contests()}
    slugs = [contest_slug] if contest_slug else sorted(public)
    for slug in slugs:
        contest = contest_selectors.published_contest(slug) if slug in public else None
        folder = contest_dir(slug)
        if contest is None:
            outcome.removed += remove(store, list(files_under(store, folder)))
            continue
        kept = _put(store, contest_head(contest), outcome)
        for files in contest_lists(contest):
            kept |= _put_list(store, files, outcome, every_page=every_page)
        outcome.removed += remove(store, [name for name in files_under(store, folder) if name not in kept])
    if contest_slug is None:  # contests no longer public, whole
        try:
            folders, _ = store.listdir(CONTESTS_DIR)
        except FileNotFoundError:
            folders = []
        for slug in folders:
            if slug not in public:
                outcome.removed += remove(store, list(files_under(store, contest_dir(slug))))
    return outcome


# After a publication -----------------------------------------------------------------------------------


def forget_head(contest_slug: str | None, *, lists: bool = False) -> None:
    """Remove the files of the pages that change with any publication (home; the contest's page, feed, runs'
    pages and nomination order), and with ``lists`` every list's too (a name in effect changed: no file may
    keep the former one while the task is waiting): until the task writes them again, the server asks the
    application."""
    store = storage()
    names = [address.file_name for address in site_addresses()]
    if contest_slug:
        folder = contest_dir(contest_slug)
        names += [
            name
            for name in files_under(store, folder)
            if lists or "/cargos/" not in name.removeprefix(folder) or "/nomeacoes" in name
        ]
    remove(store, names)


# Below the default: a notice's e-mail or a list's PDF waiting in the queue goes first.
SNAPSHOT_PRIORITY = -10


@task(priority=SNAPSHOT_PRIORITY)
def snapshot_publish(contest_slug: str | None) -> str:
    """The task a publication enqueues: the snapshot of the contest (the whole portal when None)."""
    return str(rebuild(contest_slug, every_page=False))


def _waiting(contest_slug: str | None) -> bool:
    """Whether the same snapshot already waits in the database queue, not started: it will read what this
    publication committed, so a second one would only repeat it (the demo's seed publishes hundreds of
    times). Other backends are not asked."""
    if not isinstance(snapshot_publish.get_backend(), DatabaseBackend):
        return False
    return DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        task_path=snapshot_publish.module_path,
        args_kwargs={"args": [contest_slug], "kwargs": {}},
    ).exists()


def on_publication(sender: object, contest_slug: str | None, names: bool = False, **kwargs: object) -> None:
    """Receiver of ``public_changed`` (portal/apps.py), called after the publication's commit; ``names``: a
    name in effect changed on the contest's lists."""
    if not settings.PORTAL_SNAPSHOTS:
        return
    try:
        forget_head(contest_slug, lists=names)
        with transaction.atomic():
            if not _waiting(contest_slug):
                snapshot_publish.enqueue(contest_slug)
    except Exception:
        # The publication is committed; a snapshot that failed leaves the server asking the application.
        logger.exception("portal snapshot after a publication failed")
