"""Two clerks calling on the same position at once never fill a seat twice nor nominate anyone twice.

The services lock the position's row (``SELECT … FOR UPDATE``); the second call waits for the first to
commit and continues from the state it left. SQLite has no row locks (it serialises whole writes), so
these tests need PostgreSQL.
"""

import datetime
import threading
import time

import pytest
from django.db import connection

from candidates.models import Nomination
from candidates.services import nominations
from candidates.services.nominations import calls
from tests.builders import make_cast, make_classified_position, make_contest, publish_final

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Travas de linha (SELECT … FOR UPDATE) só existem no PostgreSQL; o SQLite serializa as escritas.",
    ),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

PEOPLE = tuple((f"R{i:02d}", "parda" if i % 4 == 3 else None) for i in range(1, 41))
ACT_DATE = datetime.date(2026, 6, 10)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def setup():
    cast = make_cast()
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, vacancies=30, people=PEOPLE)
    publish_final(contest, cast["manager"])
    return position, cast


def run_in_threads(count, target):
    barrier = threading.Barrier(count)
    errors = []

    def worker(i):
        try:
            barrier.wait(timeout=10)
            target(i)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def assert_each_seat_and_candidate_once(position):
    holding = list(Nomination.objects.filter(position=position, status__in=Nomination.HOLDING))
    seats = [n.seat for n in holding]
    people = [n.registration_id for n in holding]
    assert len(seats) == len(set(seats))
    assert len(people) == len(set(people))
    orders = sorted(Nomination.objects.filter(position=position).values_list("order", flat=True))
    assert orders == list(range(1, len(orders) + 1))
    return holding


def test_two_clerks_call_at_once_while_each_reads_slowly(setup, monkeypatch):
    position, cast = setup
    load = nominations._load

    def slow_load(*args, **kwargs):
        loaded = load(*args, **kwargs)
        time.sleep(0.3)  # without the lock both would read the same state here
        return loaded

    monkeypatch.setattr(calls, "_load", slow_load)

    def call(i):
        nominations.nominations_call(
            position=position, count=5, act_number=f"Portaria {i}/2026", act_date=ACT_DATE, by=cast["clerk"]
        )

    errors = run_in_threads(2, call)
    assert errors == []
    holding = assert_each_seat_and_candidate_once(position)
    assert sorted(n.seat for n in holding) == list(range(1, 11))
    # One act took seats 1–5, the other 6–10: the second continued from the first.
    acts = {n.act_number: sorted(x.seat for x in holding if x.act_number == n.act_number) for n in holding}
    assert sorted(acts.values()) == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]


def test_many_calls_and_withdrawals_at_once(setup):
    position, cast = setup
    first = nominations.nominations_call(
        position=position, count=4, act_number="Portaria 1/2026", act_date=ACT_DATE, by=cast["clerk"]
    )

    def act(i):
        if i < 2:
            from django.core.files.uploadedfile import SimpleUploadedFile

            statement = SimpleUploadedFile(f"termo-{i}.pdf", b"%PDF-1.4", content_type="application/pdf")
            nominations.nomination_withdraw(
                nomination=first[i], statement_file=statement, by=cast["clerk"], date=ACT_DATE
            )
        for k in range(3):
            nominations.nominations_call(
                position=position,
                count=1,
                act_number=f"Portaria {i}{k}/2026",
                act_date=ACT_DATE,
                by=cast["clerk"],
            )

    errors = run_in_threads(6, act)
    assert errors == []
    holding = assert_each_seat_and_candidate_once(position)
    # 4 first, 2 withdrawn and refilled, 18 more calls: 20 seats held, seats 1..20.
    assert sorted(n.seat for n in holding) == list(range(1, 21))
