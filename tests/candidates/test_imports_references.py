"""PostgreSQL: while an import streams its rows, the per-row foreign-key checks are off for its transaction
and every key is checked once, set-based, over the rows written; a bad reference still fails the import,
and the rows referred to that the import did not write are locked as the per-row checks lock them."""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from candidates.models import Candidate, Phase, PhaseResult, Registration, SelfDeclaration
from candidates.services.imports import references, writing
from candidates.services.imports.writing import New
from tests import builders

MODELS = [Candidate, Registration, SelfDeclaration, PhaseResult]


def test_among_spells_consecutive_ids_as_ranges():
    assert references.among("c.id", [5, 3, 4, 9]) == (
        "(c.id BETWEEN %s AND %s OR c.id BETWEEN %s AND %s)",
        [3, 5, 9, 9],
    )
    assert references.among("c.id", []) == ("FALSE", [])


def test_among_sends_scattered_ids_as_one_array(monkeypatch):
    monkeypatch.setattr(references, "MAX_RANGES", 2)
    assert references.among("c.id", [7, 1, 4]) == ("c.id = ANY(%s::bigint[])", ["{1,4,7}"])


postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the stream is PostgreSQL's")


def _role() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('session_replication_role')")
        return cursor.fetchone()[0]


def _locked(model, pk) -> bool:
    """Whether a transaction locked or deleted the row (its ``xmax`` is set)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT xmax::text <> '0' FROM {model._meta.db_table} WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def _stream(registrations: list[New], candidates: list[New], results: Sequence[New] = ()) -> writing.Stream:
    stream = writing.Stream(
        user=None, reason="Importação: teste", now=timezone.now(), written=MODELS, deferred=[Phase]
    )
    stream.send(Candidate, candidates)
    stream.send(Registration, registrations)
    stream.send(PhaseResult, list(results))
    stream.finish()
    return stream


def _check(stream: writing.Stream) -> None:
    """What ``run.commit`` does once the stream is finished and the new phases are saved."""
    written = stream.written_ids()
    assert written is not None  # the tests' role is a superuser: the checks are set-based
    with connection.cursor() as cursor:
        references.check(cursor, written)


def _new_registration(position, candidate, number: str, **values) -> New:
    return New(
        Registration,
        {"contest_id": position.contest_id, "position_id": position.pk, "number": number, **values},
        {"candidate_id": candidate},
    )


def _new_candidate() -> New:
    n = builders.make_cpf()
    return New(Candidate, {"full_name": f"Candidata {n}", "cpf": n, "birth_date": datetime.date(1990, 1, 1)})


@pytest.mark.django_db
@postgresql_only
def test_the_keys_are_checked_once_and_the_rows_referred_to_are_locked():
    position = builders.make_position()
    other = builders.make_position(builders.make_contest())
    existing = builders.make_candidate()
    candidate = _new_candidate()
    with transaction.atomic():
        stream = _stream(
            [_new_registration(position, existing, "1"), _new_registration(position, candidate, "2")],
            [candidate],
        )
        assert stream.set_based  # the tests' role is a superuser
        assert _role() == "origin"  # back once the stream is done: later writes are checked per row
        _check(stream)
        # Locked as each per-row check locks: the position and the candidate already there; not what the
        # import wrote itself (no other transaction sees it), nor what no row refers to.
        assert _locked(type(position), position.pk) and _locked(Candidate, existing.pk)
        assert not _locked(Candidate, candidate.pk) and not _locked(type(other), other.pk)
    assert Registration.objects.filter(position=position).count() == 2


@pytest.mark.django_db
@postgresql_only
@pytest.mark.parametrize("bad", ["position of another contest", "candidate not there", "phase not there"])
def test_a_reference_the_database_would_refuse_fails_the_import(bad):
    """The phases the file creates are saved last: their key is checked with the others, at the end."""
    position = builders.make_position()
    other = builders.make_position(builders.make_contest())
    candidate = builders.make_candidate()
    registration = _new_registration(position, candidate, "1")
    results = []
    if bad == "candidate not there":
        registration = _new_registration(position, Candidate(pk=candidate.pk + 10_000), "1")
        constraint = "candidates_registrat_candidate_id_ff9a9677_fk_candidate"
    elif bad == "phase not there":
        phase = builders.make_phase(position.contest)
        results = [
            New(
                PhaseResult,
                {"phase_id": phase.pk + 10_000, "absent": True},
                {"registration_id": registration},
            )
        ]
        constraint = "candidates_phaseresult_phase_id_b0dcedf8_fk_candidates_phase_id"
    else:  # the composite key (position, contest): the position is the other contest's
        registration = _new_registration(position, candidate, "1", position_id=other.pk)
        constraint = "candidates_registration_position_in_contest"
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        _check(_stream([registration], [], results))
    assert not Registration.objects.exists()


@pytest.mark.django_db
@postgresql_only
def test_a_table_with_a_trigger_of_its_own_keeps_the_per_row_checks():
    """``replica`` would silence a trigger of the project's too: then the keys stay checked per row."""
    position = builders.make_position()
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION test_noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$; "
            "CREATE TRIGGER test_noop BEFORE INSERT ON candidates_phaseresult "
            "FOR EACH ROW EXECUTE FUNCTION test_noop()"
        )
    registration = _new_registration(
        position, builders.make_candidate(), "1", position_id=position.pk + 10_000
    )
    # Raised by psycopg in the writing thread: Django does not wrap a COPY's errors.
    refused = (IntegrityError, psycopg.errors.IntegrityError)
    with pytest.raises(refused, match="candidates_registration_position_in_contest"), transaction.atomic():
        stream = writing.Stream(user=None, reason="teste", now=timezone.now(), written=MODELS)
        assert not stream.set_based
        stream.send(Registration, [registration])
        stream.finish()  # the per-row check, immediate, failed in the writing thread


@pytest.mark.django_db
@postgresql_only
def test_a_role_that_may_not_turn_the_checks_off_keeps_them_per_row():
    """Neither a superuser nor granted SET on session_replication_role: the SET is refused in its own
    savepoint, and the import goes on with the per-row checks, its transaction intact."""
    role = f"cotas_test_no_replica_{os.getpid()}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role}")  # rolled back with the test's transaction
        cursor.execute(f"SET LOCAL ROLE {role}")
        try:
            assert references.skip_row_checks(cursor, [Registration._meta.db_table]) is False
            cursor.execute("SELECT current_setting('session_replication_role')")
            assert cursor.fetchone()[0] == "origin"
        finally:
            cursor.execute("RESET ROLE")
        assert references.skip_row_checks(cursor, [Registration._meta.db_table]) is True
        references.restore_row_checks(cursor)


def test_among_spells_one_run_of_ids_as_one_range_and_a_repeat_is_not_a_run():
    assert references.among("c.id", [6, 4, 5]) == ("(c.id BETWEEN %s AND %s)", [4, 6])
    assert references.among("c.id", [4, 4, 6]) == (
        "(c.id BETWEEN %s AND %s OR c.id BETWEEN %s AND %s)",
        [4, 4, 6, 6],
    )
