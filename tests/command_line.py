"""``manage.py COMMAND …`` as the command line runs it, in the test's own process.

A subprocess pays Django's start (some 1.5 s of CPU) for each call; here ``ManagementUtility`` parses the
arguments and runs the command as ``manage.py`` does (``run_from_argv``: the parser's errors, the command's
own handling of a refusal, ``sys.exit`` with its status), with stdin, stdout and stderr swapped for text.
What a user sees (the status, the two streams) comes back as a ``subprocess.CompletedProcess``, the same
checks apply to it; an exception the command let out fails the test where a user would see a traceback.

Each command's module keeps at least one test through a real ``manage.py`` subprocess (the start-up, the
settings read from the environment, a pipe closed early).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from unittest import mock

from django.core.management import ManagementUtility
from django.db import connections


def manage_in_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    argv = ["manage.py", *args]
    status: int | str | None = 0
    with (
        mock.patch.object(sys, "stdin", io.StringIO(stdin)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        # run_from_argv closes every connection when the command ends, as a process about to exit may; here
        # that would end the test's own transaction.
        mock.patch.object(connections, "close_all"),
    ):
        try:
            ManagementUtility(argv).execute()
        except SystemExit as exit_:
            status = exit_.code
    if isinstance(status, str):
        err.write(status + "\n")  # sys.exit("…"): the interpreter prints it and exits with 1
    returncode = status if isinstance(status, int) else (0 if status is None else 1)
    return subprocess.CompletedProcess(argv, returncode, out.getvalue(), err.getvalue())
