"""A query's rows read in bulk (``candidates.services.copied_rows``): the ORM's values, and a digest of them.

On PostgreSQL through ``COPY … TO STDOUT`` (text parsed column by column), elsewhere through the ORM: the
tests run on either database and hold the values to what ``values_list`` gives on it.
"""

import datetime
import hashlib
from decimal import Decimal

import pytest
from django.db import DataError, connection, transaction
from django.db.models import CharField, Value

from candidates.models import Candidate, PhaseResult, Registration
from candidates.services.copied_rows import read_columns
from tests.builders import make_candidate, make_contest, make_phase, make_position, make_registration

COLUMNS = (
    ("pk", "int"),
    ("number", "text"),
    ("racial_reserve", "bool"),
    ("final_score", "decimal"),
    ("candidate__full_name", "text"),
    ("candidate__social_name", "text"),
    ("candidate__birth_date", "date"),
)


@pytest.fixture
def rows(db):
    """Registrations with what the text of a COPY escapes or marks: NULLs, a tab, a newline, a backslash,
    a literal ``\\N``, accents, an empty text."""
    position = make_position(make_contest())
    names = ["Conceição Araújo", "Tab\there", "Line\nbreak", "Back\\slash", "\\N", "Ñandú \\t\\\\"]
    for i, name in enumerate(names):
        candidate = make_candidate()
        # The names as stored, past the form's validation (the reading must give back whatever is there).
        Candidate.objects.filter(pk=candidate.pk).update(
            full_name=name, social_name="" if i % 2 else f"Social {i}", birth_date=None
        )
        make_registration(
            position,
            candidate=candidate,
            number=f"{i}\\{i}" if i == 3 else str(100 + i),
            racial_reserve=bool(i % 2),
            final_score=None if i % 3 == 0 else Decimal(f"{i}.50"),
        )
    Candidate.objects.filter(full_name="Conceição Araújo").update(birth_date=datetime.date(1960, 2, 29))
    return Registration.objects.filter(position=position).order_by("pk")


def _orm(queryset):
    return [tuple(column) for column in zip(*queryset, strict=True)]


def test_the_columns_read_are_the_orms_values(rows):
    queryset = rows.values_list(*(name for name, _ in COLUMNS))
    columns = read_columns(queryset, [kind for _, kind in COLUMNS], hashlib.sha256())
    assert [tuple(column) for column in columns] == _orm(queryset)
    assert [type(v) for v in columns[3]] == [type(v) for v in _orm(queryset)[3]]


def test_a_query_without_rows_reads_empty_columns(db):
    queryset = Registration.objects.none().values_list("pk", "number")
    assert [tuple(c) for c in read_columns(queryset, ["int", "text"], hashlib.sha256())] == [(), ()]


def test_nulls_only_in_some_columns_and_none_in_others(db):
    phase = make_phase(make_contest())
    registration = make_registration(make_position(phase.contest))
    PhaseResult.objects.create(registration=registration, phase=phase, score=Decimal("7.25"))
    PhaseResult.objects.create(
        registration=make_registration(make_position(phase.contest)), phase=phase, absent=True
    )
    queryset = PhaseResult.objects.order_by("pk").values_list("registration_id", "score", "absent")
    columns = read_columns(queryset, ["int", "decimal", "bool"], hashlib.sha256())
    assert [tuple(c) for c in columns] == _orm(queryset)


def test_the_digest_follows_every_value_and_only_the_digest_is_read_when_asked(rows):
    queryset = rows.values_list(*(name for name, _ in COLUMNS))
    kinds = [kind for _, kind in COLUMNS]

    def digest(**kwargs):
        found = hashlib.sha256()
        columns = read_columns(queryset, kinds, found, **kwargs)
        return found.hexdigest(), columns

    first, _ = digest()
    again, nothing = digest(parse=False)
    assert again == first
    assert [tuple(c) for c in nothing] == [()] * len(kinds)
    registration = rows.first()
    Registration.objects.filter(pk=registration.pk).update(final_score=Decimal("1.00"))
    changed, _ = digest()
    assert changed != first
    Registration.objects.filter(pk=registration.pk).update(final_score=registration.final_score)
    assert digest()[0] == first
    Candidate.objects.filter(pk=registration.candidate_id).update(full_name="Outro Nome")
    assert digest()[0] != first


def test_nulls_without_escapes_read_as_none(db):
    """Nothing escaped but NULLs: a text column of NULLs, an organiser's final score never given."""
    position = make_position(make_contest())
    for i in range(3):
        make_registration(position, number=f"N{i}", final_score=None)
    queryset = (
        Registration.objects.filter(position=position)
        .annotate(nothing=Value(None, output_field=CharField()))
        .order_by("pk")
        .values_list("pk", "number", "nothing", "final_score")
    )
    columns = read_columns(queryset, ["int", "text", "text", "decimal"], hashlib.sha256())
    assert [tuple(c) for c in columns] == _orm(queryset)
    assert list(columns[2]) == [None] * 3 and list(columns[3]) == [None] * 3


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="A leitura por COPY é a do PostgreSQL.")
def test_a_query_failing_midway_raises_the_databases_error_and_the_connection_goes_on(db):
    """The COPY is read through libpq: an error the server meets after sending rows reaches the caller as
    Django's error, and the connection is free again for the next query (after the savepoint's rollback)."""
    position = make_position(make_contest())
    for i in range(3):
        make_registration(position, number=f"{i}", final_score=Decimal(i))
    # 1 / (final_score - 2): the third row divides by zero, once two rows have been sent (no ORDER BY: the
    # rows go out as the table is read, not after a sort that would meet the error first).
    queryset = (
        Registration.objects.filter(position=position)
        .order_by()
        .extra(select={"ratio": "1 / (final_score - 2)"})
        .values_list("pk", "ratio")
    )
    with pytest.raises(DataError, match="division by zero"), transaction.atomic():
        read_columns(queryset, ["int", "decimal"], hashlib.sha256())
    assert Registration.objects.filter(position=position).count() == 3
