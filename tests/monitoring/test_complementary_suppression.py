"""LGPD art. 11, complementary suppression (issue 23): a cell under 5 people must not be read back by
subtracting the shown cells from a shown total. Checked by brute force, independently of ``privacy.protect``:
for every sum of the report (T1: the groups of a stage and everyone; T6: the origins and the outcomes and the
procedures opened), every suppressed cell must admit at least two values consistent with what is shown."""

from __future__ import annotations

import datetime
import itertools

import pytest

from declarations.models import Procedure
from monitoring import privacy, tables
from monitoring.indicators import Scope
from tests.builders import make_classified_position, make_contest, make_registration

D = datetime.date
GROUPS = ("Ampla concorrência (sem reserva)", "Reserva racial", "Pessoas com deficiência")


def readings(parts: list[str], total: str, cap: int) -> list[set[int]]:
    """For each suppressed cell of ``parts`` + [``total``], the values it could hold given the shown ones
    ("<5": 1 to 4; "X": 0 or 5 and more)."""

    def allowed(text: str) -> list[int]:
        if text == privacy.SUPPRESSED_MARK:
            return [1, 2, 3, 4]
        if text == privacy.COMPLEMENTARY_MARK:
            return [0, *range(5, cap + 1)]
        return [int(text)]

    cells = [*parts, total]
    found: list[set[int]] = [set() for _ in cells]
    for values in itertools.product(*(allowed(text) for text in cells)):
        if sum(values[:-1]) == values[-1]:
            for i, value in enumerate(values):
                found[i].add(value)
    return [found[i] for i, text in enumerate(cells) if not text.isdigit()]


def test_readings_catch_a_cell_given_back_by_subtraction():
    # 13 registered, 10 open, 0 PcD shown: the racial "<5" is 3, read back.
    assert readings(["10", "<5", "0"], "13", 20) == [{3}]
    assert readings(["X", "<5", "0"], "13", 20) == [set(range(9, 13)), {1, 2, 3, 4}]


def test_lgpd_art11_protect_by_hand():
    people = {"t", "a", "b", "c"}
    # 13 = 10 + 3 + 0: the 3 is suppressed, and the 10 with it (the smallest part other than zero).
    assert privacy.protect(
        {"t": 13, "a": 10, "b": 3, "c": 0}, [privacy.Relation("t", ("a", "b", "c"))], people
    ) == {
        "b": privacy.PRIMARY,
        "a": privacy.COMPLEMENTARY,
    }
    # 9 = 5 + 3 + 1: the two small cells hide each other (3 + 1 = 4 is 1 + 3, 2 + 2, 3 + 1).
    assert privacy.protect(
        {"t": 9, "a": 5, "b": 3, "c": 1}, [privacy.Relation("t", ("a", "b", "c"))], people
    ) == {
        "b": privacy.PRIMARY,
        "c": privacy.PRIMARY,
    }
    # 6 = 1 + 5: hiding the 5 is not enough (1 + 5 is the only way to 6 with a cell under 5 and one that is
    # not): the total goes too.
    assert privacy.protect({"t": 6, "a": 1, "b": 5}, [privacy.Relation("t", ("a", "b"))], people) == {
        "a": privacy.PRIMARY,
        "b": privacy.COMPLEMENTARY,
        "t": privacy.COMPLEMENTARY,
    }


@pytest.fixture
def small_world(cast):
    """The worked example (A B C D E open, N1 N2 N3 racial) plus five more open registrants: 13 registered,
    10 open, 3 racial, 0 PcD; and 3 procedures: 2 by complaint, 1 ex officio, 3 without a decision."""
    contest = make_contest(slug="c-supressao")
    position = make_classified_position(contest, vacancies=5)
    for n in range(5):
        make_registration(position, number=f"F{n}")
    for n, (origin, registration) in enumerate(
        zip(("complaint", "complaint", "ex_officio"), position.registrations.order_by("pk"), strict=False)
    ):
        Procedure.objects.create(
            year=2026,
            number=n + 1,
            registration=registration,
            origin=origin,
            facts="Indícios.",
            opened_on=D(2026, 5, 1),
            opened_by=cast["legal"],
        )
    return Scope(contest.policy, D(2026, 1, 1), D(2026, 12, 31), (contest.slug,))


@pytest.mark.django_db
def test_lgpd_art11_no_suppressed_cell_can_be_read_back_from_the_report(small_world):
    rows = tables.rows(small_world)
    shown = {(r.indicador, r.grupo, r.medida): r.valor for r in rows}
    # By hand: 13 = 10 + 3 + 0. Without the complement, the racial 3 would be 13 − 10 − 0.
    assert shown[("T1", "Todos", "inscritos")] == "13"
    assert shown[("T1", "Reserva racial", "inscritos")] == privacy.SUPPRESSED_MARK
    assert shown[("T1", "Pessoas com deficiência", "inscritos")] == "0"
    assert shown[("T1", "Ampla concorrência (sem reserva)", "inscritos")] == privacy.COMPLEMENTARY_MARK
    # Their shares go with them (the open share would give the 10 back).
    assert (
        shown[("T1", "Ampla concorrência (sem reserva)", "inscritos: % do grupo entre os inscritos")] == "<5"
    )
    # T6: 3 opened (suppressed), 2 by complaint and 1 ex officio (suppressed).
    assert shown[("T6", "", "processos instaurados")] == privacy.SUPPRESSED_MARK
    stages = [r.medida for r in rows if r.indicador == "T1" and r.grupo == "Todos"]
    sums = [([shown[("T1", g, stage)] for g in GROUPS], shown[("T1", "Todos", stage)]) for stage in stages]
    t6 = [(r.valor, r.medida) for r in rows if r.indicador == "T6"]
    origins = [value for value, what in t6 if what.startswith("instaurados ")]
    outcomes = [value for value, what in t6 if what.startswith("resultado: ")]
    opened = shown[("T6", "", "processos instaurados")]
    sums += [(origins, opened), (outcomes, opened)]
    checked = 0
    for parts, total in sums:
        for values in readings(parts, total, cap=40):
            assert len(values) >= 2, (parts, total)
            checked += 1
    assert checked >= 3
