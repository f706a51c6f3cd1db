"""The writing's turn (``writing.Stream.turn``): while the writing thread makes and sends a COPY's rows the
planner waits, rather than sharing the interpreter with it, and it goes on as soon as the rows are sent,
also when making them failed."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from candidates.models import PhaseResult
from candidates.services.imports import parse_upload, plan, writing
from candidates.services.imports import run as run_module
from candidates.services.imports.writing import New
from tests import builders
from tests.candidates.test_imports import AFTER_CLOSE, ROWS, csv_file


class Target:
    """A row referred to (``refs``) that notes, when the COPY reads its id, whether the turn was given."""

    def __init__(self, pk: int, turn: threading.Event, seen: list[bool]):
        self._pk, self.turn, self.seen = pk, turn, seen

    @property
    def pk(self) -> int:
        self.seen.append(self.turn.is_set())
        return self._pk


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the COPY is PostgreSQL's")
def test_the_turn_is_taken_while_a_copys_rows_are_made_and_given_back_after_them_even_on_a_failure():
    registration = builders.make_registration()
    phase = builders.make_phase(registration.contest)
    turn, seen = threading.Event(), []
    turn.set()
    items = [
        New(
            PhaseResult,
            {"score": None, "absent": True},
            {"registration_id": Target(registration.pk, turn, seen), "phase_id": phase},
        )
    ]
    now = timezone.now()
    with connection.cursor() as cursor:
        writing._copy(
            cursor, PhaseResult, items, user_id=None, reason="teste", now=now, progress=None, turn=turn
        )
        assert seen == [False] and turn.is_set()
        assert PhaseResult.objects.filter(registration=registration, absent=True).count() == 1

        # A row that cannot be made (it refers to an object never written): the turn is given back all the same.
        unwritten = New(PhaseResult, {"score": None, "absent": True})
        failing = New(
            PhaseResult, {"score": None, "absent": True}, {"registration_id": unwritten, "phase_id": phase}
        )
        with pytest.raises(ValueError, match="ainda não gravado"), transaction.atomic():
            writing._copy(
                cursor,
                PhaseResult,
                [failing],
                user_id=None,
                reason="teste",
                now=now,
                progress=None,
                turn=turn,
            )
        assert turn.is_set()


class Held:
    """A writing stream whose turn is taken: it is given back by a timer, as the writing thread gives it back
    once a COPY's rows are sent."""

    def __init__(self) -> None:
        self.turn = threading.Event()
        self.sent = 0

    def send_new(self, new) -> None:
        self.sent += 1


def test_the_planner_plans_no_row_while_the_writing_holds_the_turn(db, monkeypatch):
    contest = builders.make_example_contest()
    monkeypatch.setattr(plan, "STREAM_ROWS", 2)  # the stream opens after the first two rows are read
    monkeypatch.setattr(writing, "reserve_ids", lambda model, count, cursor=None: list(range(1, count + 1)))
    planned: list[float] = []
    plan_row = plan._Planner.plan_row
    monkeypatch.setattr(
        plan._Planner, "plan_row", lambda self, *a: (planned.append(time.monotonic()), plan_row(self, *a))[1]
    )
    planner = run_module._planner(
        contest,
        parse_upload(csv_file(), filename="arquivo.csv"),
        None,
        today=AFTER_CLOSE,
        phase_specs=None,
        progress=None,
        only_contest_positions=False,
    )
    held = Held()
    planner.open_stream = lambda preview, models: held
    given: list[float] = []
    timer = threading.Timer(0.2, lambda: (given.append(time.monotonic()), held.turn.set()))
    timer.start()
    try:
        planner.build()
    finally:
        timer.cancel()
    assert given and len(planned) == len(ROWS) and held.sent  # the rows planned were handed to it
    assert min(planned) >= given[0]  # not one row before the turn came back
    assert not planner.problems
