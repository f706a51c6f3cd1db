"""PostgreSQL: the foreign keys of an import's bulk writing checked once per key, set-based, instead of once
per row.

Each foreign key is checked by PostgreSQL per row written: one query and one row lock each, 543,047 of them
for 100,000 registrations with scores, 1.9 s of the backend's CPU (two fifths of all it did). While a
``writing.Stream`` writes, ``skip_row_checks`` turns these per-row triggers off for the import's own
transaction (``SET LOCAL session_replication_role = replica``), and ``check`` then does what they did, for
every foreign key of the tables written, in two statements per key over all the rows written:

- the rows referred to that this import did not write are locked ``FOR KEY SHARE``, as each per-row check
  locks its row: no other transaction can delete them, or change their key, until this one ends (the rows
  this import wrote are seen by no other transaction until then);
- then (a new snapshot, after any wait for a lock) one anti-join finds any row written whose reference is
  not there; there is none, or the import fails with ``IntegrityError`` and the transaction writes nothing.

The constraints themselves stay as they are, checked per row for every other write, and by the import
too where it cannot turn them off: a role that is neither a superuser nor granted ``SET`` on
``session_replication_role`` (``GRANT SET ON PARAMETER``, PostgreSQL 15), a setting already other than
``origin``, or a table written that has a trigger of its own (``replica`` would silence it too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction

MAX_RANGES = 32  # ranges of ids spelled out in a condition; more, and the ids go as one array
FOREIGN_KEYS = """
SELECT c.conname, c.conrelid::regclass::text, c.confrelid::regclass::text,
    ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i),
    ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)
FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = ANY(%s::regclass[]) ORDER BY c.conname
"""


def skip_row_checks(cursor: Any, tables: Sequence[str]) -> bool:
    """Turn PostgreSQL's per-row triggers off until ``restore_row_checks`` (or the transaction's end), when
    this role may and none of ``tables`` has a trigger of its own; False when they stay on."""
    cursor.execute(
        "SELECT current_setting('session_replication_role') = 'origin' AND NOT EXISTS ("
        "SELECT 1 FROM pg_trigger WHERE tgrelid = ANY(%s::regclass[]) AND NOT tgisinternal)",
        [list(tables)],
    )
    (allowed,) = cursor.fetchone()
    if not allowed:
        return False
    try:
        with transaction.atomic():  # a refusal rolls back only this savepoint
            cursor.execute("SET LOCAL session_replication_role = replica")
    except DatabaseError:  # insufficient privilege
        return False
    return True


def restore_row_checks(cursor: Any) -> None:
    cursor.execute("SET LOCAL session_replication_role = origin")


def check(cursor: Any, written: Mapping[str, tuple[str, list[int]]]) -> None:
    """Lock and check the references of the rows written, by table: ``{table: (id column, ids)}``. Raises
    ``IntegrityError`` naming the constraint, as PostgreSQL would, for the first reference not there."""
    quote = connection.ops.quote_name
    cursor.execute(FOREIGN_KEYS, [list(written)])
    for name, table, target, columns, keys in cursor.fetchall():
        id_column, ids = written[table]
        if not ids:
            continue
        rows, params = among(f"c.{quote(id_column)}", ids)
        refs = [f"c.{quote(column)}" for column in columns]
        others, other_params = "", list[Any]()
        if target in written and list(keys) == [written[target][0]]:  # not the rows this import wrote
            own, other_params = among(refs[0], written[target][1])
            others = f" AND NOT {own}"
        cursor.execute(
            f"SELECT 1 FROM {target} p WHERE ({', '.join(f'p.{quote(k)}' for k in keys)}) IN "
            f"(SELECT {', '.join(refs)} FROM {table} c WHERE {rows}{others}) FOR KEY SHARE OF p",
            [*params, *other_params],
        )
        matches = " AND ".join(f"p.{quote(k)} = {ref}" for k, ref in zip(keys, refs, strict=True))
        cursor.execute(
            f"SELECT {', '.join(refs)} FROM {table} c WHERE {rows} AND "
            + " AND ".join(f"{ref} IS NOT NULL" for ref in refs)
            + f" AND NOT EXISTS (SELECT 1 FROM {target} p WHERE {matches}) LIMIT 1",
            params,
        )
        missing = cursor.fetchone()
        if missing is not None:
            raise IntegrityError(
                f'insert or update on table "{table}" violates foreign key constraint "{name}": '
                f"key ({', '.join(columns)})=({', '.join(map(str, missing))}) is not present in table "
                f'"{target}"'
            )


def among(column: str, ids: list[int], db_type: str = "bigint") -> tuple[str, list[Any]]:
    """A condition that ``column`` (of ``db_type``) is one of ``ids``, and its parameters: the ranges of
    consecutive ids (ids taken from a sequence in one statement are one, unless another transaction took
    some meanwhile), else one array literal (psycopg would adapt a list of 20,000 ints in Python, one by
    one). The writing's history rows and the checks here select the rows written through it."""
    if not ids:
        return "FALSE", []
    ordered = sorted(ids)
    if ordered[-1] - ordered[0] == len(ordered) - 1 and len(set(ordered)) == len(ordered):
        return f"({column} BETWEEN %s AND %s)", [ordered[0], ordered[-1]]  # the common case: one range
    ranges: list[list[int]] = []
    for pk in ordered:
        if ranges and pk <= ranges[-1][1] + 1:
            ranges[-1][1] = pk
        else:
            ranges.append([pk, pk])
    if len(ranges) > MAX_RANGES:
        return f"{column} = ANY(%s::{db_type}[])", ["{" + ",".join(map(str, ordered)) + "}"]
    return "(" + " OR ".join(f"{column} BETWEEN %s AND %s" for _ in ranges) + ")", [
        bound for pair in ranges for bound in pair
    ]
