"""The access code reaches the candidate: an e-mail through the task queue when a registration with an
address is created (one task per typed registration, one per import), sent once per code version; a
clerk's reissue (audited) sends the new one, or shows it once when there is no address; the procedure's
notice and the nomination letter print the current code."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core import mail
from django.urls import reverse
from django_tasks import default_task_backend
from pypdf import PdfReader

from candidates import access
from candidates.documents import render_nomination_letter
from candidates.models import AccessCodeDelivery, Registration
from candidates.services import registrations as registration_services
from candidates.services.access import access_code_reissue
from candidates.services.imports import commit, parse_upload
from candidates.tasks import id_ranges, send_access_code, send_access_codes
from tests.builders import make_cpf, make_position, make_registration, make_world

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


class Broken(Exception):
    pass


def with_email(email: str = "candidata@example.org", **overrides) -> Registration:
    registration = make_registration(**overrides)
    registration.candidate.email = email
    registration.candidate.save()
    return registration


# The task ---------------------------------------------------------------------------------------------


def test_the_code_is_sent_once_per_version():
    registration = with_email()
    assert send_access_code.call(registration_id=registration.pk) == "enviado"
    assert send_access_code.call(registration_id=registration.pk) == "já enviado"
    (message,) = mail.outbox
    assert message.to == ["candidata@example.org"]
    assert access.code_for(registration) in message.body
    assert reverse("public:candidate") in message.body
    delivery = AccessCodeDelivery.objects.get(registration=registration)
    assert (delivery.version, delivery.status, delivery.attempts) == (1, "sent", 1)


def test_a_registration_without_address_gets_no_email():
    registration = make_registration()
    assert send_access_code.call(registration_id=registration.pk) == "sem e-mail"
    assert mail.outbox == []


def test_a_failure_is_recorded_and_retried_later(settings, monkeypatch):
    settings.TASKS = DUMMY
    registration = with_email()

    def fail(*args, **kwargs):
        raise Broken("servidor de e-mail indisponível")

    monkeypatch.setattr(mail.EmailMessage, "send", fail)
    assert send_access_code.call(registration_id=registration.pk) == "falhou"
    delivery = AccessCodeDelivery.objects.get(registration=registration)
    assert delivery.status == "failed" and "indisponível" in delivery.error
    (retry,) = default_task_backend.results
    assert retry.task.run_after is not None and retry.kwargs == {
        "ranges": [[registration.pk, registration.pk]]
    }
    monkeypatch.undo()
    assert send_access_codes.call(ranges=[[registration.pk, registration.pk]]) == "1 enviado(s), 0 falha(s)"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.error) == ("sent", 2, "")
    assert len(mail.outbox) == 1


def test_the_batch_sends_each_address_once_and_skips_the_others():
    position = make_position()
    people = [with_email(f"p{n}@example.org", position=position) for n in range(3)]
    nobody = make_registration(position)
    ranges = id_ranges([r.pk for r in [*people, nobody]])
    assert send_access_codes.call(ranges=ranges) == "3 enviado(s), 0 falha(s)"
    assert send_access_codes.call(ranges=ranges) == "0 enviado(s), 0 falha(s)"
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p1@example.org", "p2@example.org"]
    for registration, message in zip(people, sorted(mail.outbox, key=lambda m: m.to[0]), strict=True):
        assert access.code_for(registration) in message.body


def test_id_ranges_compress_an_import():
    assert id_ranges([9, 1, 2, 3, 7, 10]) == [[1, 3], [7, 7], [9, 10]]
    assert id_ranges([]) == []


# Enqueued when registrations are created --------------------------------------------------------------


def test_a_typed_registration_with_an_address_enqueues_its_email(
    settings, cast, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    position = make_position()
    with django_capture_on_commit_callbacks(execute=True):
        registration = registration_services.registration_register(
            contest=position.contest,
            by=cast["clerk"],
            candidate_data={"full_name": "Maria", "cpf": make_cpf(), "email": "maria@example.org"},
            data={"position": position, "number": "900", "registered_on": datetime.date(2026, 3, 20)},
        )
    (queued,) = default_task_backend.results
    assert queued.task.name == "send_access_code"
    assert queued.kwargs == {"registration_id": registration.pk}


def test_an_import_enqueues_one_task_for_all_its_registrations(
    settings, cast, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    position = make_position(code="ALEG")
    rows = [f"{700 + n};Pessoa {n};{make_cpf()};ALEG;p{n}@example.org" for n in range(5)]
    data = ("\r\n".join(["Inscrição;Nome;CPF;Cargo;E-mail", *rows]) + "\r\n").encode()
    with django_capture_on_commit_callbacks(execute=True):
        commit(position.contest, parse_upload(data, filename="f.csv"), None, cast["clerk"])
    (queued,) = default_task_backend.results
    assert queued.task.name == "send_access_codes"
    pks = sorted(Registration.objects.filter(contest=position.contest).values_list("pk", flat=True))
    assert queued.kwargs == {"ranges": id_ranges(pks)}
    assert send_access_codes.call(**queued.kwargs) == "5 enviado(s), 0 falha(s)"


# Reissue ----------------------------------------------------------------------------------------------


def test_reissue_is_audited_and_sends_the_new_code(
    settings, cast, client_for, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    registration = with_email()
    old = access.code_for(registration)
    url = reverse("candidates:registration_access_code", args=[registration.contest.slug, registration.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("clerk").post(url)
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.access_code_version == 2
    last = registration.history.order_by("-history_id").first()
    assert last.history_user == cast["clerk"]
    assert "Código de acesso reemitido" in last.history_change_reason
    (message,) = mail.outbox
    new = access.code_for(registration)
    assert new != old and new in message.body and old not in message.body


def test_reissue_without_an_address_shows_the_code_once(client_for):
    registration = make_registration()
    url = reverse("candidates:registration_access_code", args=[registration.contest.slug, registration.pk])
    response = client_for("clerk").post(url)
    assert response.status_code == 200
    registration.refresh_from_db()
    assert access.code_for(registration) in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    detail = client_for("clerk").get(
        reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    )
    assert access.code_for(registration) not in detail.content.decode()


def test_reissue_needs_a_post_and_the_clerk(client_for):
    registration = make_registration()
    url = reverse("candidates:registration_access_code", args=[registration.contest.slug, registration.pk])
    assert client_for("clerk").get(url).status_code == 405
    assert client_for("auditor").post(url).status_code == 403
    registration.refresh_from_db()
    assert registration.access_code_version == 1


# Letters ----------------------------------------------------------------------------------------------


def test_the_nomination_letter_prints_the_current_code(cast, settings, tmp_path, client_for):
    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    nomination = world["nomination"]
    registration = access_code_reissue(registration=nomination.registration, by=cast["clerk"])
    nomination.refresh_from_db()
    text = "".join(
        page.extract_text() for page in PdfReader(io.BytesIO(render_nomination_letter(nomination))).pages
    )
    assert access.code_for(registration) in text
    assert "Portaria nº 10/2026" in text  # the act as it names itself (typed "Portaria 10/2026")
    url = reverse(
        "candidates:nomination_letter", args=[world["contest"].slug, world["position"].pk, nomination.pk]
    )
    response = client_for("clerk").get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_the_procedure_notice_never_shows_the_code_to_staff(cast):
    """The notice is stored and shown to staff (preview, case page): a placeholder, never the secret; the
    code goes on the letter (tests/declarations/test_letters.py)."""
    from declarations.procedure import services
    from declarations.procedure.documents import notice_document

    registration = make_registration(racial_category="parda")
    case = services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="x",
        by=cast["legal"],
        today=datetime.date(2026, 7, 1),
    )
    notice = services.notice_send(
        procedure=case, by=cast["legal"], today=datetime.date(2026, 7, 2), means="in_person"
    )
    html = notice_document(notice)
    assert access.code_for(registration) not in html
    assert "código enviado ao candidato" in html
    assert reverse("public:candidate") in html


def test_the_registration_page_tells_the_clerk_whether_the_code_went_out(client_for):
    registration = with_email()
    url = reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    assert "O e-mail com o código atual ainda não saiu" in client_for("clerk").get(url).content.decode()
    send_access_code.call(registration_id=registration.pk)
    html = client_for("clerk").get(url).content.decode()
    assert "Código atual, e-mail: enviado em" in html
    assert access.code_for(registration) not in html


def test_the_batch_takes_thousands_of_ranges():
    """The ranges were one ``OR`` per query, and SQLite refuses more than 1,000 terms (a retry of a
    large import's failures, its ids broken by the registrations without e-mail)."""
    position = make_position()
    people = [with_email(f"p{n}@example.org", position=position) for n in range(3)]
    ranges = [[-10 * i - 5, -10 * i - 1] for i in range(1500)] + [[r.pk, r.pk] for r in people]
    assert send_access_codes.call(ranges=ranges) == "3 enviado(s), 0 falha(s)"


def test_n10_a_contest_title_with_a_line_break_does_not_stop_its_access_code_emails():
    registration = with_email()
    contest = registration.contest
    contest.title = "Concurso\r\nBcc: alguem@example.org\tnº 1"
    contest.save()
    assert send_access_code.call(registration_id=registration.pk) == "enviado"
    (message,) = mail.outbox
    assert "\n" not in message.subject and "\r" not in message.subject
    assert "Concurso Bcc: alguem@example.org nº 1" in message.subject
    assert message.message()["Bcc"] is None
