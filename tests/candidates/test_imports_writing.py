"""Writing an import in bulk: every object gets its history row naming who imported and why, and on
PostgreSQL the history rows are selected by id range, or by an array when the ids have gaps."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from candidates.models import Candidate, Phase, PhaseResult, Registration, SelfDeclaration
from candidates.services.imports import commit, parse_upload, references, writing
from candidates.services.imports import run as run_module
from candidates.services.imports.writing import New
from tests import builders


def test_the_history_rows_are_selected_by_the_ids_written_as_ranges_or_one_array_of_the_key_s_type(
    monkeypatch,
):
    """``_copy`` selects the rows it wrote through ``references.among``, as the reference checks do."""
    assert references.among('"id"', [12, 10, 11], "bigint") == ('("id" BETWEEN %s AND %s)', [10, 12])
    assert references.among('"id"', [7]) == ('("id" BETWEEN %s AND %s)', [7, 7])
    monkeypatch.setattr(references, "MAX_RANGES", 1)  # another transaction took ids in between
    assert references.among('"id"', [10, 12, 13], "integer") == (
        '"id" = ANY(%s::integer[])',
        ["{10,12,13}"],
    )


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the array condition is PostgreSQL's")
@pytest.mark.parametrize("max_ranges", [references.MAX_RANGES, 1])
def test_the_ids_condition_selects_exactly_those_rows(monkeypatch, max_ranges):
    monkeypatch.setattr(references, "MAX_RANGES", max_ranges)  # 1: the scattered ids as one array
    ids = [builders.make_candidate().pk for _ in range(4)]
    table = connection.ops.quote_name(Candidate._meta.db_table)
    for chosen in ([ids[0], ids[1], ids[2]], [ids[0], ids[2], ids[3]]):
        condition, params = references.among('"id"', chosen)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id FROM {table} WHERE {condition} ORDER BY id", params)
            assert [row[0] for row in cursor.fetchall()] == chosen


@pytest.mark.django_db
def test_create_writes_each_object_and_its_history_row_naming_the_user_and_reason():
    user = get_user_model().objects.create_user("secretaria-escrita")
    items = [
        New(
            Candidate,
            {
                "full_name": f"Candidata {n}",
                "cpf": builders.make_cpf(),
                "birth_date": datetime.date(1990, 1, 1),
            },
        )
        for n in range(3)
    ]
    now = timezone.now()
    writing.create(Candidate, items, user=user, reason="Importação: inscricoes.csv", now=now)

    assert [Candidate.objects.get(pk=item.pk).full_name for item in items] == [
        f"Candidata {n}" for n in range(3)
    ]
    history = Candidate.history.filter(id__in=[item.pk for item in items])
    assert sorted(h.id for h in history) == sorted(item.pk for item in items)
    for row in history:
        assert (row.history_type, row.history_user, row.history_change_reason) == (
            "+",
            user,
            "Importação: inscricoes.csv",
        )
        assert row.history_date == now


def _planned_candidates(count: int) -> list[New]:
    return [
        New(
            Candidate,
            {
                "full_name": f"Candidata {n}",
                "cpf": builders.make_cpf(),
                "birth_date": datetime.date(1990, 1, 1),
            },
        )
        for n in range(count)
    ]


@pytest.mark.django_db
def test_create_takes_ids_from_the_tables_sequence_so_later_rows_follow_them():
    writing.create(
        Candidate, items := _planned_candidates(3), user=None, reason="Importação", now=timezone.now()
    )

    later = builders.make_candidate()

    assert len({item.pk for item in items}) == 3
    assert later.pk > max(item.pk for item in items if item.pk is not None)


@pytest.mark.django_db
def test_create_writes_the_same_history_rows_as_simple_historys_bulk_create():
    """On PostgreSQL ``create`` COPYs the rows and fills the history by ``INSERT … SELECT``; its history rows
    hold what simple-history's ``bulk_create_with_history`` writes for the same objects (on SQLite the two
    are the same path)."""
    user = get_user_model().objects.create_user("secretaria-historico")
    now = timezone.now()
    copied, reference = _planned_candidates(2), _planned_candidates(2)
    writing.create(Candidate, copied, user=user, reason="Importação: a.csv", now=now)
    objs = [Candidate(**item.values) for item in reference]
    bulk_create_with_history(
        objs, Candidate, default_user=user, default_change_reason="Importação: a.csv", default_date=now
    )

    def history_rows(pks):
        rows = Candidate.history.filter(id__in=pks).order_by("id").values()
        return [{k: v for k, v in row.items() if k not in {"id", "history_id", "cpf"}} for row in rows]

    assert history_rows([item.pk for item in copied]) == history_rows([obj.pk for obj in objs])


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="ANALYZE is PostgreSQL's")
@pytest.mark.parametrize("threshold, analysed", [(100, True), (1_000, False)])
def test_an_import_of_many_rows_renews_the_statistics_of_the_tables_the_lists_read(
    monkeypatch, threshold, analysed
):
    """PostgreSQL learns how many registrations there are at once (its planner joined 100,000 by a nested
    loop after an import it had not analysed); a small import leaves that to autovacuum."""
    monkeypatch.setattr(run_module, "BULK_ANALYZE_ROWS", threshold)
    tables = [m._meta.db_table for m in (Registration, Candidate, PhaseResult)]

    def estimates():
        with connection.cursor() as cursor:
            cursor.execute("SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s)", [tables])
            return dict(cursor.fetchall())

    contest = builders.make_example_contest()
    clerk = builders.make_user("secretaria", "Secretaria")
    before = estimates()
    commit(contest, parse_upload(builders.EXAMPLE_CSV), None, clerk, today=datetime.date(2026, 6, 1))
    counts = {m._meta.db_table: float(m.objects.count()) for m in (Registration, Candidate, PhaseResult)}
    assert counts[Registration._meta.db_table] == 132
    # The estimates are kept outside transactions: an earlier test's may already be these counts.
    assert estimates() == (counts if analysed else before)
    if analysed:  # with the statistics of the columns the lists' reads join and filter on
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tablename, attname FROM pg_stats WHERE tablename = ANY(%s)", [list(counts)]
            )
            seen = set(cursor.fetchall())
        named = {
            (m._meta.db_table, column) for m, columns in run_module._ANALYZED.items() for column in columns
        }
        assert named <= seen
        assert (Registration._meta.db_table, "position_id") in seen


@pytest.mark.django_db
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the stream and its set-based checks are PostgreSQL's"
)
def test_commit_checks_the_references_of_every_row_written_once_the_phases_it_creates_are_saved(monkeypatch):
    """The references are checked after the planner is let go (``run._free_meanwhile``): from the ids the
    stream wrote, every one of them, and with the phases the file creates already saved."""
    contest = builders.make_example_contest()
    clerk = builders.make_user("secretaria", "Secretaria")
    seen: dict = {}
    check = references.check

    def spy(cursor, written):
        seen["written"] = {table: sorted(ids) for table, (_, ids) in written.items()}
        seen["phases"] = sorted(Phase.objects.filter(contest=contest).values_list("pk", flat=True))
        check(cursor, written)

    monkeypatch.setattr(references, "check", spy)
    assert not Phase.objects.filter(contest=contest).exists()  # the file creates them
    commit(contest, parse_upload(builders.EXAMPLE_CSV), None, clerk, today=datetime.date(2026, 6, 1))
    registrations = Registration.objects.filter(contest=contest)
    assert seen["written"] == {
        Candidate._meta.db_table: sorted(Candidate.objects.values_list("pk", flat=True)),
        Registration._meta.db_table: sorted(registrations.values_list("pk", flat=True)),
        SelfDeclaration._meta.db_table: sorted(
            SelfDeclaration.objects.filter(registration__in=registrations).values_list("pk", flat=True)
        ),
        PhaseResult._meta.db_table: sorted(
            PhaseResult.objects.filter(registration__in=registrations).values_list("pk", flat=True)
        ),
    }
    assert len(seen["written"][Registration._meta.db_table]) == 132
    assert seen["phases"] and seen["phases"] == sorted(
        Phase.objects.filter(contest=contest).values_list("pk", flat=True)
    )
