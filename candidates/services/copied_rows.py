"""A query's rows read in bulk, typed as the ORM gives them, and summed into a digest as they are read.

The lists of 100,000 registrations read the contest's rows twice: to compute a run, and again to check,
when it is published, that nothing changed since (``ResultRun.inputs_hash``). Both read with
``read_columns``, which feeds the rows as read into the digest:

- on PostgreSQL, ``COPY (query) TO STDOUT``: the digest is of the bytes the server sent (a change of any
  value changes its text), the rows are parsed from them column by column with the builtins' C code, and
  a check that only needs the digest (``parse=False``) never parses at all. ``values_list`` made a
  Python tuple per row through Django's iterator, and the digest a ``repr`` of each: a second of CPU for
  the rows of 100,000 registrations, twice;
- elsewhere (SQLite), the queryset's ``values_list`` rows, each row's ``repr`` in the digest.

The digest of the same rows is the same on one database; it differs between the two paths (a run is
published on the database it was computed on).
"""

from __future__ import annotations

import datetime
import select
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, Literal, Protocol

import psycopg
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet
from psycopg.pq import ExecStatus

from candidates.services.imports.files import paused_gc

Kind = Literal["int", "text", "bool", "decimal", "date"]
# COPY's text format: NULL as \N; a backslash, and the control characters below, escaped with one.
_NULL = "\\N"
_ESCAPES = {"\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


class Digest(Protocol):
    def update(self, data: bytes, /) -> None: ...


def read_columns(
    queryset: QuerySet[Any, Any], kinds: Sequence[Kind], digest: Digest, *, parse: bool = True
) -> list[Sequence[Any]]:
    """The columns of ``queryset``'s rows (a ``values_list`` of ``len(kinds)`` columns; each column a
    sequence with a value per row, in the rows' order), each of ``kinds``' type (``int``, ``text``,
    ``bool``, ``decimal``, ``date``; ``None`` for NULL) as the ORM reads it. Everything read goes into
    ``digest``; ``parse=False``: the digest only (empty columns)."""
    if connection.vendor != "postgresql":
        rows = list(queryset.iterator())  # read now, whether or not the queryset was before
        for row in rows:
            digest.update(repr(row).encode())
        if not parse or not rows:
            return [() for _ in kinds]
        return list(zip(*rows, strict=True))
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:  # a filter no row can pass (``pk__in=[]``): nothing to read, as the ORM says
        return [() for _ in kinds]
    # The collector paused: a message per row is read, and each collection meanwhile walked every object
    # of the process (four times the CPU of the read).
    with paused_gc(), connection.wrap_database_errors:
        data = _copied_out(f"COPY ({sql}) TO STDOUT", params)
    digest.update(data)
    if not parse or not data:
        return [() for _ in kinds]
    # Every line ends with a newline: one split of the whole text, then each column is every n-th field.
    text = data[:-1].decode()
    fields = text.replace("\n", "\t").split("\t")
    width = len(kinds)
    if len(fields) % width:
        raise ValueError(f"A consulta não tem {width} colunas.")
    columns = [fields[i::width] for i in range(width)]
    # Nothing escaped when every backslash is a NULL's (each ``\N`` field has one, and COPY writes any
    # other backslash as an escape): the texts are as read, but for their NULLs. Both counted in C.
    if text.count("\\") == fields.count(_NULL):
        return [
            _unescaped_texts(column) if kind == "text" else _PARSERS[kind](column)
            for kind, column in zip(kinds, columns, strict=True)
        ]
    return [_PARSERS[kind](column) for kind, column in zip(kinds, columns, strict=True)]


def _copied_out(query: str, params: Sequence[Any]) -> bytes:
    """The whole text a ``COPY … TO STDOUT`` sends, read through libpq (``psycopg.pq``), whose calls block
    until a row arrives. The server sends a message per row: psycopg's ``Copy`` reads each through a
    generator and a wait, a third more of this process's CPU (0.12 against 0.08 s for 129,000 rows of five
    columns; computing and publishing the lists of 100,000 read 517,000 rows)."""
    connection.ensure_connection()
    conn = connection.connection
    pgconn = conn.pgconn
    # The parameters bound here, as psycopg's own ``copy`` binds them (a COPY takes none from the server).
    statement = psycopg.ClientCursor(conn).mogrify(query, params)
    parts: list[Any] = []
    with conn.lock:
        pgconn.send_query(statement.encode(conn.info.encoding))
        while pgconn.flush():  # the connection does not block on sending: what is left, once writable
            select.select([], [pgconn.socket], [])
        result = pgconn.get_result()
        if result is not None and result.status == ExecStatus.COPY_OUT:
            take, keep = pgconn.get_copy_data, parts.append
            while (received := take(0))[0] > 0:
                keep(received[1])
            result = pgconn.get_result()  # the COPY's own, after its last row
        rest = pgconn.get_result()
        while rest is not None:  # the connection is free for the next query only once all are read
            rest = pgconn.get_result()
    if result is None or result.status != ExecStatus.COMMAND_OK:
        if result is not None and result.status == ExecStatus.FATAL_ERROR:
            raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
        raise psycopg.OperationalError(f"COPY interrompido: {pgconn.get_error_message()}")
    return b"".join(parts)


# Each column parsed by the builtins' C code, through ``map``, unless it has a NULL (a C scan finds it).


def _ints(column: list[str]) -> list[Any]:
    if _NULL in column:
        return [None if value == _NULL else int(value) for value in column]
    return list(map(int, column))


def _unescaped_texts(column: list[str]) -> list[Any]:
    """``_texts`` of a column known to have nothing escaped: only its NULLs to replace, by a lookup made
    in C (``dict.get`` of each value, itself when it is not NULL)."""
    if _NULL not in column:
        return column
    return list(map(_AS_NONE.get, column, column))


_AS_NONE: dict[str, None] = {_NULL: None}


def _texts(column: list[str]) -> list[Any]:
    return [None if value == _NULL else _unescape(value) if "\\" in value else value for value in column]


def _unescape(value: str) -> str:
    out, i = [], 0
    while (j := value.find("\\", i)) >= 0:
        out.append(value[i:j])
        out.append(_ESCAPES[value[j + 1]])
        i = j + 2
    out.append(value[i:])
    return "".join(out)


def _bools(column: list[str]) -> list[Any]:
    if _NULL in column:
        return [None if value == _NULL else value == "t" for value in column]
    return list(map("t".__eq__, column))


def _decimals(column: list[str]) -> list[Any]:
    if column.count(_NULL) == len(column):  # a column never given (the organiser's final score)
        return [None] * len(column)
    if _NULL in column:
        return [None if value == _NULL else Decimal(value) for value in column]
    return list(map(Decimal, column))


def _dates(column: list[str]) -> list[Any]:
    parse = datetime.date.fromisoformat
    if _NULL in column:
        return [None if value == _NULL else parse(value) for value in column]
    return list(map(parse, column))


_PARSERS: dict[str, Callable[[list[str]], list[Any]]] = {
    "int": _ints,
    "text": _texts,
    "bool": _bools,
    "decimal": _decimals,
    "date": _dates,
}
