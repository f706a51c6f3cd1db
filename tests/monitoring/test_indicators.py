"""The law's indicators (issue 23) on a built world, the numbers worked out by hand in each test.

The world: Santa Maria's policy (20%, reserve from 3 vacancies, half up), one position with 5 vacancies and
RULES §4's worked example as registrants — general list A, N1, B, C, D, E, N2, N3 (N1, N2, N3 in the racial
reserve) — a PcD registrant P at the end, a phase everyone but E sat, the final list published, the contest
homologated on 01/06/2026 and the five seats called on 10/06/2026; A takes office on 20/06/2026.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from candidates.models import PhaseResult
from candidates.services.nominations import nomination_took_office, nominations_call
from monitoring import indicators
from monitoring.indicators import OPEN, PCD, RACIAL, Scope
from tests.builders import (
    make_classified_position,
    make_contest,
    make_phase,
    make_registration,
    publish_final,
)

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def world(cast):
    contest = make_contest(slug="c-monitorado")
    position = make_classified_position(contest, vacancies=5)
    make_registration(position, number="P", pcd_reserve=True, final_score=Decimal(50))
    phase = make_phase(contest, name="Prova objetiva")
    for registration in position.registrations.all():
        PhaseResult.objects.create(registration=registration, phase=phase, absent=registration.number == "E")
    publish_final(contest, cast["manager"])
    called = nominations_call(
        position=position, count=5, act_number="Portaria 10/2026", act_date=D(2026, 6, 10), by=cast["clerk"]
    )
    first = next(n for n in called if n.registration.number == "A")
    nomination_took_office(nomination=first, date=D(2026, 6, 20), by=cast["clerk"])
    return {"contest": contest, "position": position, "called": called}


def scope(world, **overrides) -> Scope:
    data = {"policy": world["contest"].policy, "start": D(2026, 1, 1), "end": D(2026, 12, 31)}
    data.update(overrides)
    return Scope(**data)


def test_t1_funnel_per_group(world):
    funnel = indicators.funnel(scope(world))
    stage = "fase 1: Prova objetiva"
    assert funnel.stages == ["inscritos", stage, "aprovados (lista final)", "nomeados", "empossados"]
    by_group = {row.group: row.counts for row in funnel.rows}
    # Registered: A B C D E (open) + N1 N2 N3 (racial) + P (pcd) = 9. E missed the phase and is on no final
    # list. The five seats: 1 racial (20% of 5 = 1), 1 PcD (the contest's 5% of 5 = 0,25, rounded up) and 3
    # open, in the order A (open), N1 (open: within the open seats, SM art. 4º §3º), N2 (racial), B (open),
    # P (PcD). A took office.
    assert by_group[OPEN] == {
        "inscritos": 5,
        stage: 4,
        "aprovados (lista final)": 4,
        "nomeados": 2,
        "empossados": 1,
    }
    assert by_group[RACIAL] == {
        "inscritos": 3,
        stage: 3,
        "aprovados (lista final)": 3,
        "nomeados": 2,
        "empossados": 0,
    }
    assert by_group[PCD] == {
        "inscritos": 1,
        stage: 1,
        "aprovados (lista final)": 1,
        "nomeados": 1,
        "empossados": 0,
    }
    assert funnel.total(world["position"], "inscritos") == 9
    assert funnel.total(world["position"], "nomeados") == 5


def test_t2_seats_per_position(world):
    (row,) = indicators.seats(scope(world))
    # 5 edital vacancies, none later; 20% of 5 = 1 reserved, exact, nothing carried; N2 holds it.
    assert (row.edital, row.later, row.reserved, row.filled_by_cotistas, row.reverted, row.still_open) == (
        5,
        0,
        1,
        1,
        0,
        0,
    )
    assert row.carried_fraction == "0"


def test_t3_sm_art4_par3_cotistas_in_open_competition_and_share_of_negros(world):
    (row,) = indicators.nominees(scope(world))
    # Nominees A, N1, N2, B, P: 2 negros (N1 and N2), N1 seated in open competition.
    assert (row.nominees, row.racial_nominees, row.racial_in_open) == (5, 2, 1)


def test_t8_days_from_homologation_to_nomination_by_list(world):
    rows = {row.source_list: row for row in indicators.delays(scope(world))}
    # Homologated 01/06/2026, all called 10/06/2026: 9 days; A, N1, B from the open list, N2 from the
    # racial, P from the PcD list.
    assert (rows["open"].nominations, rows["open"].median_days, rows["open"].max_days) == (3, 9, 9)
    assert (rows["racial"].nominations, rows["racial"].median_days) == (1, 9)
    assert (rows["pcd"].nominations, rows["pcd"].median_days) == (1, 9)


def test_the_period_selects_contests_by_edital_date_and_nominations_by_act_date(world):
    assert indicators.funnel(scope(world, start=D(2026, 3, 3))).rows == []  # edital 02/03/2026
    before_calls = indicators.nominees(scope(world, end=D(2026, 6, 9)))
    assert before_calls[0].nominees == 0
    assert indicators.positions_in(scope(world, contest_slugs=("outro",))) == []
