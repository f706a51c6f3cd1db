"""Two legal officers opening procedures at once never get the same number (the year's counter row is
locked with SELECT … FOR UPDATE; the unique constraint is the backstop). PostgreSQL only: SQLite
serialises whole writes and has no row locks."""

import datetime
import threading
import time

import pytest
from django.db import connection

from declarations.models import Procedure, ProcedureCounter
from declarations.procedure import services
from tests.builders import make_cast, make_registration

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Travas de linha (SELECT … FOR UPDATE) só existem no PostgreSQL; o SQLite serializa as escritas.",
    ),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

TODAY = datetime.date(2026, 7, 1)


def test_two_clerks_open_at_once_and_get_consecutive_numbers(monkeypatch):
    cast = make_cast()
    registrations = [make_registration(racial_category="parda") for _ in range(6)]
    real = services._next_number

    def slow_next_number(year):
        number = real(year)
        time.sleep(0.2)  # without the lock two openings would read the same counter here
        return number

    monkeypatch.setattr(services, "_next_number", slow_next_number)
    barrier = threading.Barrier(len(registrations))
    errors = []

    def open_one(registration):
        try:
            barrier.wait(timeout=10)
            services.procedure_open(
                registration=registration,
                origin="ex_officio",
                facts="Indícios.",
                by=cast["legal"],
                today=TODAY,
            )
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one, args=(r,)) for r in registrations]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    numbers = sorted(Procedure.objects.filter(year=2026).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5, 6]
    assert ProcedureCounter.objects.get(year=2026).last == 6
