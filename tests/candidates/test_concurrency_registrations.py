"""Two clerks typing the same CPF or inscription number at once get a form error.

Each clerk's validation sees no duplicate (the other has not committed yet); the database's unique
constraint refuses the second insert. Without care that is an ``IntegrityError``, a 500; the service turns
it into a ``ValidationError`` on the field, which the form shows. The race needs two real connections and
row-level waiting, so these tests need PostgreSQL.
"""

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from candidates.models import Candidate, Registration
from candidates.services import registrations
from tests.builders import make_cast, make_contest, make_cpf, make_position

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="A corrida precisa do PostgreSQL."),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def race(model, register):
    """Run ``register(i)`` in two threads that both pass validation of a ``model`` row before either
    saves it; returns (results, refusals, other errors)."""
    barrier = threading.Barrier(2)
    audited_save = registrations.audited_save

    def save_after_both_validated(obj, **kwargs):
        if isinstance(obj, model):
            obj.full_clean(exclude=kwargs.get("exclude"))
            barrier.wait(timeout=10)
            # Validated above, before either saved: the save's own validation would run after the other
            # clerk's commit when that thread is faster (a loaded CI machine), and refuse before the
            # database does, which is not the race this test is about.
            obj.full_clean = lambda **_: None
        audited_save(obj, **kwargs)

    results, refusals, errors = [], [], []

    def worker(i):
        try:
            results.append(register(i))
        except ValidationError as error:
            refusals.append(error)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    registrations.audited_save = save_after_both_validated
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        registrations.audited_save = audited_save
    return results, refusals, errors


def candidate(cpf):
    return {"full_name": "Maria da Silva", "cpf": cpf, "birth_date": datetime.date(1990, 1, 1)}


def test_same_cpf_typed_by_two_clerks_at_once_is_a_form_error():
    clerk = make_cast()["clerk"]
    position = make_position(make_contest())
    cpf = make_cpf()

    def register(i):
        return registrations.registration_register(
            contest=position.contest,
            by=clerk,
            candidate_data=candidate(cpf),
            data={"position": position, "number": f"N{i}", "registered_on": datetime.date(2026, 3, 10)},
        )

    results, refusals, errors = race(Candidate, register)
    assert errors == []
    assert len(results) == 1 and len(refusals) == 1
    assert "cpf" in refusals[0].message_dict
    assert "outro usuário" in refusals[0].message_dict["cpf"][0]
    assert Candidate.objects.filter(cpf=cpf).count() == 1
    assert Registration.objects.filter(contest=position.contest).count() == 1


def test_same_inscription_number_typed_by_two_clerks_at_once_is_a_form_error():
    clerk = make_cast()["clerk"]
    position = make_position(make_contest())
    cpfs = [make_cpf(), make_cpf()]

    def register(i):
        return registrations.registration_register(
            contest=position.contest,
            by=clerk,
            candidate_data=candidate(cpfs[i]),
            data={"position": position, "number": "777", "registered_on": datetime.date(2026, 3, 10)},
        )

    results, refusals, errors = race(Registration, register)
    assert errors == []
    assert len(results) == 1 and len(refusals) == 1
    assert "number" in refusals[0].message_dict
    assert "outro usuário" in refusals[0].message_dict["number"][0]
    assert Registration.objects.filter(contest=position.contest, number="777").count() == 1
