"""What an import reads of the data already there beyond its contest: the candidates its CPFs name."""

from __future__ import annotations

from collections.abc import Iterator

from django.db import connection

from candidates.models import Candidate


def candidates_with_cpf(cpfs: list[str]) -> Iterator[Candidate]:
    """The candidates already registered (in any contest) under these CPFs."""
    if not cpfs:
        return
    if connection.vendor == "postgresql":  # one array literal (as ``references.among``): CPFs are digits
        table, literal = connection.ops.quote_name(Candidate._meta.db_table), "{" + ",".join(cpfs) + "}"
        yield from Candidate.objects.raw(f"SELECT * FROM {table} WHERE cpf = ANY(%s::text[])", [literal])
        return
    for start in range(0, len(cpfs), 2000):
        yield from Candidate.objects.filter(cpf__in=cpfs[start : start + 2000])
