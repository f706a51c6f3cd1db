"""The table an upload was read into, kept between the web wizard's steps (and until the task queue commits
it) in the private ``imports`` storage (``settings.STORAGES``; outside MEDIA_ROOT by default), as JSON
lines (``save_table``) under a name the server makes: a random UUID, never a path or a name from the
browser. Deleted after the commit or the cancellation; left-overs older than a day are swept at the next
upload (personal data: not kept longer than needed)."""

from __future__ import annotations

import datetime
import re
import tempfile
import uuid

from django.core.files import File
from django.core.files.storage import Storage, storages
from django.utils import timezone

from candidates.services.imports.files import Table, load_table, save_table

UPLOAD_STORAGE = "imports"  # settings.STORAGES
TOKEN_RE = re.compile(r"^[0-9a-f]{32}$")
STALE_AFTER = datetime.timedelta(days=1)


def uploads() -> Storage:
    return storages[UPLOAD_STORAGE]


def stored_name(token: object) -> str | None:
    """The stored file's name for ``token``; None unless the token is one of ours and its file still
    exists."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    return token if uploads().exists(token) else None


def store_table(table: Table) -> str:
    """Keep the table read under a new random name (a UUID: the storage never needs to rename it)."""
    with tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024) as spool:
        save_table(table, spool)
        spool.seek(0)
        return uploads().save(uuid.uuid4().hex, File(spool))


def load_stored(name: str) -> Table:
    """The table kept under ``name`` (from ``stored_name``); ``ImportFileError`` if it cannot be read."""
    with uploads().open(name, "rb") as handle:
        return load_table(handle)


def delete_stored(token: object) -> None:
    name = stored_name(token)
    if name is not None:
        uploads().delete(name)


def purge_stale() -> None:
    """Files of imports abandoned more than a day ago."""
    storage = uploads()
    limit = timezone.now() - STALE_AFTER
    try:
        _, names = storage.listdir("")
    except FileNotFoundError:
        return
    for name in names:
        try:
            if TOKEN_RE.match(name) and storage.get_modified_time(name) < limit:
                storage.delete(name)
        except FileNotFoundError:  # deleted meanwhile by another request
            continue
