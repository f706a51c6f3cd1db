"""The files the test caches keep under ``.pytest_cache`` between runs (the rendered PDFs, the demo's
snapshots, axe's answers): written whole, and gone after two days."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

EXPIRY_DAYS = 2  # a key of an older checkout, or of another day, rarely comes back


def write_whole(path: Path, data: bytes) -> None:
    """``data`` in ``path``, written under a temporary name and renamed: a reader (the other worker, a later
    run) never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    os.replace(partial, path)


def prune(folder: Path, pattern: str) -> None:
    """The files of ``folder`` matching ``pattern`` older than ``EXPIRY_DAYS`` go."""
    if not folder.exists():
        return
    limit = time.time() - EXPIRY_DAYS * 86400
    for path in folder.glob(pattern):
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < limit:
                path.unlink()
