"""Writing an import's objects in bulk, each with its history row naming who imported.

New objects are planned as ``New`` records (field values, and references to objects created in the
same import), not model instances: building 400,000 instances for a large file costs more than the
checks. They are written per model, in dependency order:

- on PostgreSQL with ``COPY``, ids taken from the table's sequence beforehand, and the history table
  filled from the rows just written by one ``INSERT … SELECT`` per chunk (``history_type`` "+",
  ``history_user`` = who imported, the reason naming the file): Django's ``bulk_create`` prepares every
  value in Python, far from the speed of ``COPY``;
- elsewhere (SQLite) with simple-history's ``bulk_create_with_history``.

Changed objects are model instances and go through ``bulk_update_with_history`` everywhere.

On PostgreSQL ``commit`` writes the new objects while the rows are still being checked (``Stream``: a
second thread, the same connection and transaction, handed the objects of every 10,000 rows checked), so
that PostgreSQL works on the other core while Python checks. The foreign keys of the tables written are
checked once per key over all the rows written, set-based, where the role may turn the per-row checks off
(``references``: PostgreSQL's CPU 4.7 to 2.9 s for 100,000 registrations); else per row, as each COPY ends
(``SET CONSTRAINTS … IMMEDIATE``) rather than all at the commit. A problem anywhere still leaves nothing:
the transaction rolls back what was written.

Where the time goes for 100,000 new registrations (384,081 rows and as many history rows; ``make
bench-import``, CPU seconds, December 2026, on the shared 2-core machine at load 3 to 5, so inflated).
PostgreSQL's backend, 4.3 to 4.6 s (5.1 to 5.2 s before the changes below), by ``perf`` samples of it:
the foreign-key checks 1.6 s (543,047 of them, one query and one row lock each; 0.37 s of them at the
commit, the scores' keys to the phases the file creates, saved last; immediate or deferred, the same
CPU), the COPYs 1.4 s (0.8 s of it their indexes), the history ``INSERT … SELECT`` 1.1 s (0.6 s of it
its indexes: the id and the history id, and the registration for the scores), the ``ANALYZE`` at the end
0.12 s. The foreign-key checks are now set-based where the role may (``references``: 0.24 s for the
five keys); dropping and re-adding the constraints would take locks that stop the site. The
registration's position and contest share one key (migration 0029: 100,000 checks fewer, 0.35 s), and
the history tables have no index on the date or the user (``ImportedHistory``: 768,000 insertions
fewer, ≈ 0.4 s). The command, 4.5 to 4.8 s (5.0 s before): Django's start and reading the CSV 1.0 s,
parsing and checking 2.2 s, the writing thread 1.0 s (``COPY`` rows encoded by psycopg). The rows are
read and checked 5,000 at a time, so that the writing starts after the first ones (1.0 to 1.1 s after
the command's start at load 3; 2.9 to 3.4 s at load 4 when it waited for the whole file), and threads
switch every 0.5 ms while it runs (``SWITCH_INTERVAL``).
Since the checks are set-based (December 2026, ``make bench-import`` at load 3: 7.8 to 9.2 s against 9.6
to 13.2 s before), the command is what takes longest: 4.8 s of Python's CPU under one GIL (the planner's
2.3 s, the writing thread's 1.0 to 1.1 s), against PostgreSQL's 2.8 s. Tried and left out: encoding the
next rows in a third thread while PostgreSQL stores the previous ones (no gain measurable at load 3 to 5);
``COPY`` in binary (the COPYs' CPU 1.19 to 1.25 s against 1.21 to 1.29 s in text, the writing thread's
1.0 to 1.1 s either way); the references checked chunk by chunk in the writing thread (0.2 s more of
PostgreSQL's CPU, and the writing lags further behind); the planner held back while the writing is more
than 10,000 or 25,000 objects behind (the tail after the planning 0.2 s instead of 1.6 to 1.8 s, but the
planning 1.5 to 3 s longer: 9.1 to 11.9 s in all against 9.2 to 9.7 s at load 3); 2,500 rows at a time
instead of 5,000 (0.1 s more of PostgreSQL's CPU, no gain in the noise). Not tried: fewer indexes while
writing, or a staging table (dropping an index, like a constraint, locks the table against the site, and
PostgreSQL is no longer the longer side); ``synchronous_commit`` off (the commit takes 0.01 s once no
check is deferred to it, and an import reported done must survive a crash).
Measured and left out too (December 2026): the ``COPY`` text built in Python in one join (0.38 s for
400,000 rows against 0.25 s in psycopg's C formatter, which ``write_row`` calls); that formatter called
directly, without ``write_row`` (0.012 s less per 100,000 rows, through psycopg's private API); the ids
fetched as ranges rather than one by one (0.04 s less, a window query more); the parsers' keywords bound
by ``functools.partial`` rather than a lambda (three times slower to call on Python 3.11).
The tail after the planning, later in December 2026 (``make bench-import`` at load 1: 6.3 to 6.5 s, then
5.9 to 6.0 s): each task's objects are settled by ``finish`` as soon as written, while PostgreSQL stores
the next (0.18 s that waited for the last COPY); ``run`` frees the planner on another thread while
PostgreSQL runs the ``ANALYZE`` and then the reference checks (0.36 s before the ``ANALYZE``, 0.16 s after
it); ``paused_gc`` and ``manage.py`` spare the collector's walks over what they kept. Tried and dropped:
the rows parsed by a forked child process while the parent checks the ones already parsed (the parent's
Python 0.5 s less, but the child's parsing and pickling, 1.2 s, took the core PostgreSQL was using: 6.0 to
6.3 s either way, the two cores already busy; the command's Python, 5.0 s of CPU, and PostgreSQL's 2.9 s
are now what bounds it). What is left in the writing thread: 0.58 s building each row's values in
Python, 0.33 s in psycopg's formatter, the rest sending. Tried and dropped too: that formatting done in
the planner's thread (ids reserved up front for every row the file could create, the ``COPY`` text made
by psycopg's C formatter as each chunk is planned, the writing thread only sending it): the writing
thread's CPU 1.1 → 0.15 s and the writing over as soon as the planning is, but the planning longer by as
much, 5.94 s against 5.89 s. The interpreter, not PostgreSQL, is what the stream waits for.
Then (December 2026, ``make bench-import`` at load 1 to 2: 5.5 s; the commits in turn against the one
before, alternated): 10,000 rows at a time instead of 5,000 (median 5.70 → 5.41 s, together with the
CSV cells measured in C and the created phases' scores read once; alone, 20,000 as fast as 10,000,
40,000 and 2,500 slower); ``finish`` settling only each object's ``pk`` (5.45 → 5.31 s).
Then the writing's turn (``Stream.turn``, December 2026, at load 1): sharing the interpreter with the
planner, the writing thread fed PostgreSQL only half the time while the planning ran, and ended two tasks
(0.8 to 0.9 s) after it, PostgreSQL by then the longer side. The planner now waits while the writing
thread makes and sends a COPY's rows (checked at each row): the wait after the planning 0.2 to 0.4 s, the
planning 0.3 s longer, ``make bench-import`` 5.1 / 5.4 / 5.1 s → 4.9 / 4.9 / 4.9 s (alternated).
"""

from __future__ import annotations

import contextlib
import datetime
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter
from typing import Any

from django.db import connection, models
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from candidates.services.imports import references
from candidates.services.imports.files import paused_gc
from contests.audit import User

BATCH_SIZE = 2000
COPY_CHUNK = 20_000
SWITCH_INTERVAL = 0.0005  # seconds, while a ``Stream`` writes (``sys.setswitchinterval``)


class New:
    """An object the import creates: values by attname, and foreign keys still to resolve (``refs``)."""

    __slots__ = ("model", "pk", "refs", "values", "written_pk")

    def __init__(self, model: type[models.Model], values: dict[str, Any], refs: dict[str, Any] | None = None):
        # ``refs`` a dict, not keywords: 160,000 scores made 0.04 s sooner.
        self.model = model
        self.values = values
        self.refs = {} if refs is None else refs
        self.pk: int | None = None
        # The id a ``Stream`` wrote it under, while the planner still runs: ``pk`` stays None until the
        # planning is over (the planner tells a new object by it).
        self.written_pk: int | None = None

    def __getattr__(self, name: str) -> Any:
        # Called for every field a check reads (half a million times for a large file): no exception
        # on the common path of a default value.
        values = self.values
        if name in values:
            return values[name]
        default = defaults(self.model)
        if name in default:
            return default[name]
        # A property of the model (``Candidate.display_name``) reads the planned values like the fields.
        prop = getattr(self.model, name, None)
        if isinstance(prop, property) and prop.fget is not None:
            return prop.fget(self)
        raise AttributeError(name)


@cache
def defaults(model: type[models.Model]) -> dict[str, Any]:
    return {f.attname: f.get_default() for f in model._meta.concrete_fields if not f.primary_key}


def create(
    model: type[models.Model],
    items: list[New],
    *,
    user: User | None,
    reason: str,
    now: datetime.datetime,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Insert ``items`` and their history rows; sets each item's ``pk``."""
    if not items:
        return
    if connection.vendor == "postgresql":
        with paused_gc(), connection.cursor() as cursor:
            _copy(
                cursor,
                model,
                items,
                user_id=user.pk if user else None,
                reason=reason,
                now=now,
                progress=progress,
            )
        _settle(items)
        return
    for item in items:
        for attname, target in item.refs.items():
            item.values[attname] = target.pk
    base = defaults(model)
    for start in range(0, len(items), BATCH_SIZE):
        chunk = items[start : start + BATCH_SIZE]
        objs = [model(**{**base, **item.values}) for item in chunk]
        bulk_create_with_history(
            objs,
            model,
            batch_size=BATCH_SIZE,
            default_user=user,
            default_change_reason=reason,
            default_date=now,
        )
        for item, obj in zip(chunk, objs, strict=True):
            item.pk = obj.pk
        if progress:
            progress(len(chunk))


def update(
    model: type[models.Model],
    objs: list[models.Model],
    fields: set[str],
    *,
    user: User | None,
    reason: str,
    now: datetime.datetime,
    progress: Callable[[int], None] | None = None,
) -> None:
    for start in range(0, len(objs), BATCH_SIZE):
        chunk = objs[start : start + BATCH_SIZE]
        bulk_update_with_history(
            chunk,
            model,
            sorted(fields),
            batch_size=BATCH_SIZE,
            default_user=user,
            default_change_reason=reason,
            default_date=now,
        )
        if progress:
            progress(len(chunk))


def _settle(items: list[New]) -> None:
    """Once written: each item's ``pk``. Its references stay objects (``refs``): nothing reads their ids
    from its values once it is written (copying them there cost 0.15 s for 100,000 rows)."""
    for item in items:
        item.pk = item.written_pk


def _target_pk(target: Any) -> int:
    """The id of an object a new one refers to: a row already there, or one written earlier in this import."""
    pk: int | None = target.pk
    if pk is None and isinstance(target, New):
        pk = target.written_pk
    if pk is None:
        raise ValueError(f"{target!r} ainda não gravado")  # a bug: the writing order writes it first
    return pk


def reserve_ids(model: type[models.Model], count: int, cursor: Any = None) -> list[int]:
    """``count`` ids from the table's sequence (PostgreSQL)."""
    meta = model._meta
    quote = connection.ops.quote_name
    with connection.cursor() if cursor is None else contextlib.nullcontext(cursor) as cursor:
        # The sequence's name looked up once: ``nextval(pg_get_serial_sequence(…))`` looks it up again for
        # every id (0.33 s for 100,000 ids against 0.04 s).
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [quote(meta.db_table), meta.pk.column])
        (sequence,) = cursor.fetchone()
        cursor.execute("SELECT nextval(%s::regclass) FROM generate_series(1, %s)", [sequence, count])
        return [pk for (pk,) in cursor.fetchall()]


def _copy(
    cursor: Any,
    model: type[models.Model],
    items: list[New],
    *,
    user_id: int | None,
    reason: str,
    now: datetime.datetime,
    progress: Callable[[int], None] | None,
    turn: threading.Event | None = None,
) -> None:
    """Write ``items`` with ``COPY`` through ``cursor`` and their history rows; sets their ``written_pk``.
    ``turn`` (a ``Stream``'s): cleared while the rows are made and sent, the planner waiting meanwhile."""
    meta = model._meta
    history = model.history.model._meta  # type: ignore[attr-defined]  # django-simple-history's manager
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    base = defaults(model)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(c) for c in [meta.pk.column, *(f.column for f in fields)])
    history_columns = ", ".join(
        quote(history.get_field(name).column)
        for name in [
            meta.pk.name,
            *(f.name for f in fields),
            "history_date",
            "history_change_reason",
            "history_type",
            "history_user",
        ]
    )
    for item, pk in zip(items, reserve_ids(model, len(items), cursor), strict=True):
        item.written_pk = pk
    values_of = itemgetter(*(f.attname for f in fields))
    # The history rows are the rows just written, as stored, with who, when and why: PostgreSQL copies
    # them itself rather than reading every value a second time.
    history_insert = (
        f"INSERT INTO {quote(history.db_table)} ({history_columns}) "
        f"SELECT {columns}, %s, %s, '+', %s FROM {quote(meta.db_table)} WHERE "
    )
    pk_column, pk_type = quote(meta.pk.column), meta.pk.db_type(connection) or "bigint"
    for start in range(0, len(items), COPY_CHUNK):
        chunk = items[start : start + COPY_CHUNK]
        with cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            write_row = copy.write_row
            if turn is not None:
                turn.clear()
            try:
                for item in chunk:
                    row = base | item.values
                    for attname, target in item.refs.items():  # ``_target_pk`` inline, but for its refusal
                        target_pk = target.written_pk if type(target) is New else target.pk
                        if target_pk is None:
                            target_pk = _target_pk(target)
                        row[attname] = target_pk
                    write_row((item.written_pk, *values_of(row)))
            finally:  # the end of the COPY, and the history rows, are PostgreSQL's work: the planner goes on
                if turn is not None:
                    turn.set()
        pks = [written for item in chunk if (written := item.written_pk) is not None]  # every one, set above
        condition, ids = references.among(pk_column, pks, pk_type)
        cursor.execute(history_insert + condition, [now, reason, user_id, *ids])
        if progress:
            progress(len(chunk))


class Stream:
    """PostgreSQL: an import's new objects written by a second thread while the planner goes on checking the
    file, in the same transaction (Django's connection, the cursor taken here: the thread has none of its
    own). PostgreSQL then stores them, and fills their history rows, on the other core while Python checks:
    writing after the checks left it idle 2.7 s for 100,000 rows. Nothing changes for all or nothing: the
    transaction rolls back whatever was written if any row has a problem.

    ``send`` takes objects whose references are objects already there or sent before (the writing order);
    ``finish`` waits for the thread, raises what it raised, and sets each object's ``pk``; ``close`` only
    waits, for a transaction that fails anyway."""

    def __init__(
        self,
        *,
        user: User | None,
        reason: str,
        now: datetime.datetime,
        written: Sequence[type[models.Model]],
        deferred: Sequence[type[models.Model]] = (),
    ):
        self.user_id = user.pk if user else None
        self.reason = reason
        self.now = now
        self.cursor = connection.cursor()
        self.written = list(written)
        # The foreign keys of the tables written: checked once per key over all the rows written
        # (``references``: 1.9 s of PostgreSQL's CPU less for 100,000 registrations) where this role may
        # turn the per-row checks off; else checked per row as each COPY ends rather than at the commit, so
        # that they run beside Python's checks. Those pointing at ``deferred`` tables (rows written last)
        # stay deferred.
        tables = [m._meta.db_table for m in written]
        history_tables = [m.history.model._meta.db_table for m in written]  # type: ignore[attr-defined]
        self.set_based = references.skip_row_checks(self.cursor, [*tables, *history_tables])
        self.constraints = ""
        if not self.set_based:
            self.cursor.execute(
                "SELECT conname FROM pg_constraint WHERE contype = 'f' AND condeferrable "
                "AND conrelid::regclass::text = ANY(%s) AND NOT confrelid::regclass::text = ANY(%s)",
                [tables, [m._meta.db_table for m in deferred]],
            )
            self.constraints = ", ".join(
                connection.ops.quote_name(name) for (name,) in self.cursor.fetchall()
            )
        if self.constraints:
            self.cursor.execute(f"SET CONSTRAINTS {self.constraints} IMMEDIATE")
        self.sent: list[New] = []
        self.streamed: dict[type[models.Model], int] = {}  # how many of each model's new objects were sent
        self.error: BaseException | None = None
        self.tasks: queue.SimpleQueue[tuple[type[models.Model], list[New]] | None] = queue.SimpleQueue()
        # The objects of each task once written, in the writing order (None: the thread is done): ``finish``
        # settles them while the thread writes the next ones, rather than all of them after it.
        self.done: queue.SimpleQueue[list[New] | None] = queue.SimpleQueue()
        # The writing thread, back from PostgreSQL, waits for the planner to let go of the GIL (every 5 ms by
        # default) while PostgreSQL has nothing to do: switching every 0.5 ms it feeds it sooner (100,000
        # rows: the writing over 0.6 s sooner, the same CPU). The process's own setting is back at the end.
        self.switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        # The writing's turn: cleared while this thread makes and sends a COPY's rows, and the planner
        # (``plan_rows``, at each row) waits meanwhile instead of sharing the interpreter with it. PostgreSQL,
        # not the planner, is what the import waits for at the end: the rows reach it sooner, and the
        # writing no longer ends two tasks behind the planning (100,000 rows: the wait after the planning
        # 0.8–0.9 s → 0.2–0.4 s, the planning itself about 0.3 s longer, the import 0.3 s shorter).
        self.turn = threading.Event()
        self.turn.set()
        self.thread = threading.Thread(target=self.run, name="import-writer", daemon=True)
        self.thread.start()

    def send_new(self, new: dict[type[models.Model], list[New]]) -> None:
        """Send the objects of ``new`` (the planner's, by model in the writing order: each refers only to
        objects of the models before it, or that exist) added since the last call."""
        for model, items in new.items():
            self.send(model, items[self.streamed.get(model, 0) :])
            self.streamed[model] = len(items)

    def send(self, model: type[models.Model], items: list[New]) -> None:
        if items:
            self.sent += items
            self.tasks.put((model, items))

    def run(self) -> None:
        try:
            while (task := self.tasks.get()) is not None:
                if self.error is not None:
                    continue
                model, items = task
                try:
                    _copy(
                        self.cursor,
                        model,
                        items,
                        user_id=self.user_id,
                        reason=self.reason,
                        now=self.now,
                        progress=None,
                        turn=self.turn,
                    )
                except BaseException as exc:  # raised in the planner's thread by ``finish``
                    self.error = exc
                else:
                    self.done.put(items)
        finally:
            self.done.put(None)

    def close(self) -> None:
        if self.thread.is_alive():
            self.tasks.put(None)
            self.thread.join()
        sys.setswitchinterval(self.switch_interval)
        self.cursor.close()

    def finish(self) -> None:
        self.tasks.put(None)
        # Each task's objects settled as soon as written, while PostgreSQL stores the next ones (for
        # 100,000 rows the thread is still writing the last few thousand when the planning ends: 0.18 s of
        # settling that waited for it). In the writing order: a reference's target is settled before it.
        while (items := self.done.get()) is not None:
            _settle(items)
        self.thread.join()
        sys.setswitchinterval(self.switch_interval)
        if self.error is not None:
            self.cursor.close()
            raise self.error
        if self.set_based:  # every later write checked per row again
            references.restore_row_checks(self.cursor)
        if self.constraints:  # as Django declares them again (INITIALLY DEFERRED)
            self.cursor.execute(f"SET CONSTRAINTS {self.constraints} DEFERRED")
        self.cursor.close()

    def written_ids(self) -> dict[str, tuple[str, list[int]]] | None:
        """Once ``finish``ed: the rows written, ``{table: (id column, ids)}``, whose references
        ``references.check`` must check once the ``deferred`` rows are written too; None where each row's
        were checked as it was written."""
        if not self.set_based:
            return None
        ids: dict[type[models.Model], list[int]] = {model: [] for model in self.written}
        for item in self.sent:
            if (pk := item.pk) is None:  # set by ``finish``, for every one
                raise ValueError(f"{item!r} ainda não gravado")
            ids[item.model].append(pk)
        return {model._meta.db_table: (model._meta.pk.column, pks) for model, pks in ids.items()}
