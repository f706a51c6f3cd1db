"""T6 (issue 23) on a built world, counted by hand: four procedures on registrations of the monitored
contest, three opened in 2026 and one in 2025 (outside the period)."""

from __future__ import annotations

import datetime

import pytest

from declarations.models import Procedure, ProcedureAct
from monitoring.procedures import falsity_procedures
from tests.monitoring.test_indicators import scope, world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db
D = datetime.date


def procedure(world, cast, n, *, origin, opened_on, status="open", outcome="", referral="", last_act=None):  # noqa: F811
    registration = world["position"].registrations.order_by("pk")[n]
    made = Procedure.objects.create(
        year=opened_on.year,
        number=n + 1,
        registration=registration,
        origin=origin,
        facts="Indícios.",
        status=status,
        outcome=outcome,
        prosecutor_referral=referral,
        opened_on=opened_on,
        opened_by=cast["legal"],
    )
    ProcedureAct.objects.create(procedure=made, kind="opening", on=opened_on, by=cast["legal"])
    if last_act:
        ProcedureAct.objects.create(procedure=made, kind="decision", on=last_act, by=cast["legal"])
    return made


def test_t6_falsity_procedures_opened_outcomes_median_duration_referrals(world, cast):  # noqa: F811
    procedure(
        world,
        cast,
        0,
        origin="complaint",
        opened_on=D(2026, 2, 1),
        status="closed",
        outcome="falsity",
        referral="Ofício 3/2026 ao MP",
        last_act=D(2026, 3, 3),
    )  # 30 days
    procedure(
        world,
        cast,
        1,
        origin="ex_officio",
        opened_on=D(2026, 4, 1),
        status="closed",
        outcome="dismissed",
        last_act=D(2026, 5, 21),
    )  # 50 days
    procedure(world, cast, 2, origin="complaint", opened_on=D(2026, 9, 1))  # open
    procedure(
        world,
        cast,
        3,
        origin="complaint",
        opened_on=D(2025, 9, 1),
        status="closed",
        outcome="falsity",
        referral="Ofício 9/2025",
        last_act=D(2025, 12, 1),
    )  # before the period
    found = falsity_procedures(scope(world))
    assert found.opened == 3
    assert found.by_origin == {"complaint": 2, "ex_officio": 1, "commission": 0}
    assert found.outcomes == {"falsity": 1, "dismissed": 1, "": 1}
    assert found.closed == 2
    assert found.median_days == 40  # (30 + 50) / 2
    assert found.referred == 1


def test_t6_in_the_report_table_with_small_counts_suppressed(world, cast):  # noqa: F811
    from monitoring import tables

    procedure(world, cast, 0, origin="complaint", opened_on=D(2026, 2, 1))
    rows = {row.medida: row.valor for row in tables.rows(scope(world)) if row.indicador == "T6"}
    assert rows["processos instaurados"] == "<5"  # one procedure: suppressed
    assert rows["instaurados de ofício"] == "0"
    assert "mediana de dias até o último ato" not in rows  # fewer than 5 closed
