"""Issue 25 N9: opening a procedure ("Instaurar") is idempotent. The same form submitted twice opens one
procedure (its one-time token), a second opening for the same registration and origin is refused while the
first is in progress (the registration's row locked; a partial unique constraint backs it), and six
concurrent openings on PostgreSQL make one."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from declarations.models import Procedure
from declarations.procedure import services
from tests.builders import make_cast, make_registration
from tests.pages import forms_on


def _open_page(client, registration):
    url = reverse("declarations:open", args=[registration.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = next(f for f in forms_on(page.content.decode()) if f.method == "post" and "facts" in f.visible)
    return url, {**form.values, "origin": "ex_officio", "facts": "Indícios."}


@pytest.mark.django_db
def test_the_same_opening_form_submitted_twice_opens_one_procedure(client_for, cast):
    registration = make_registration(racial_category="parda")
    client = client_for("legal")
    url, data = _open_page(client, registration)
    assert data["form_token"]
    first = client.post(url, data)
    second = client.post(url, data)
    procedure = Procedure.objects.get(registration=registration)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == procedure.get_absolute_url()
    page = client.get(second["Location"]).content.decode()
    assert "nada foi instaurado de novo" in page


@pytest.mark.django_db
def test_a_second_form_for_the_same_cause_is_refused_while_the_first_runs(client_for, cast):
    registration = make_registration(racial_category="parda")
    client = client_for("legal")
    url, data = _open_page(client, registration)
    client.post(url, data)
    url, data = _open_page(client, registration)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "já tem um processo em andamento com esta origem" in response.content.decode()
    assert Procedure.objects.filter(registration=registration).count() == 1
    # Another cause (a complaint) is another procedure.
    url, data = _open_page(client, registration)
    data.update(origin="complaint", complainant="Fulano, fulano@example.org")
    assert client.post(url, data).status_code == 302
    assert Procedure.objects.filter(registration=registration).count() == 2


@pytest.mark.django_db
def test_the_database_refuses_two_open_procedures_for_one_cause(cast):
    registration = make_registration(racial_category="parda")
    procedure = services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="Indícios.",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    twin = Procedure(
        year=procedure.year,
        number=procedure.number + 1,
        registration=registration,
        origin="ex_officio",
        facts="x",
        opened_on=procedure.opened_on,
        opened_by=cast["legal"],
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save()
    Procedure.objects.filter(pk=procedure.pk).update(status=Procedure.Status.CLOSED)
    twin.save()  # once the first is closed, a new inquiry is a new procedure


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="Travas de linha só existem no PostgreSQL.")
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_six_concurrent_openings_of_one_registration_make_one_procedure():
    cast = make_cast()
    registration = make_registration(racial_category="parda")
    barrier = threading.Barrier(6)
    refused: list[Exception] = []

    def open_one(i):
        try:
            barrier.wait(timeout=10)
            services.procedure_open(
                registration=registration,
                origin="ex_officio",
                facts="Indícios.",
                by=cast["legal"],
                today=timezone.localdate(),
                form_token=f"token-{i}",
            )
        except Exception as error:
            refused.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert Procedure.objects.filter(registration=registration).count() == 1
    assert len(refused) == 5
    assert all("já tem um processo em andamento" in str(error) for error in refused)
