"""The notice's e-mail task: delivery recorded on the act, a failure recorded and retried later (where the
backend can defer), the link of a failed attempt revoked."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail

from contests.models import Organization
from declarations.models import ProcedureAct, ProcedureLink
from declarations.procedure import services
from declarations.procedure.tasks import retry_delay, send_notice_email
from tests.builders import make_registration

pytestmark = pytest.mark.django_db


class Broken(Exception):
    pass


@pytest.fixture
def notice(cast):
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    case = services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="x",
        by=cast["legal"],
        today=datetime.date(2026, 7, 1),
    )
    return services.notice_send(
        procedure=case, by=cast["legal"], today=datetime.date(2026, 7, 2), means="email"
    )


def fail(*args, **kwargs):
    raise Broken("servidor de e-mail indisponível")


def test_a_failure_is_recorded_on_the_act_and_retried_later(notice, settings, monkeypatch):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    monkeypatch.setattr(mail.EmailMessage, "send", fail)
    assert send_notice_email.call(act_id=notice.pk) == "falhou"
    notice.refresh_from_db()
    assert (notice.delivery, notice.delivery_attempts) == (ProcedureAct.Delivery.FAILED, 1)
    assert "indisponível" in notice.delivery_error
    assert ProcedureLink.objects.get(procedure=notice.procedure).revoked_at is not None
    from django_tasks import default_task_backend

    (retry,) = default_task_backend.results
    assert retry.task.run_after is not None and retry.kwargs == {"act_id": notice.pk}
    monkeypatch.undo()
    assert send_notice_email.call(act_id=notice.pk) == "enviada"
    notice.refresh_from_db()
    assert (notice.delivery, notice.delivery_attempts, notice.delivery_error) == (
        ProcedureAct.Delivery.SENT,
        2,
        "",
    )
    assert len(mail.outbox) == 1
    assert send_notice_email.call(act_id=notice.pk) == "já enviada"  # a duplicate run sends nothing


def test_no_retry_after_the_configured_attempts(notice, settings, monkeypatch):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    settings.NOTICE_EMAIL_ATTEMPTS = 1
    monkeypatch.setattr(mail.EmailMessage, "send", fail)
    send_notice_email.call(act_id=notice.pk)
    from django_tasks import default_task_backend

    assert default_task_backend.results == []


def test_retry_delays_grow_and_are_capped():
    assert [retry_delay(n).total_seconds() / 60 for n in (1, 2, 3)] == [1, 4, 16]
    assert retry_delay(30) == datetime.timedelta(days=1)


def test_the_notice_email_names_the_organization_that_gives_notice(notice):
    Organization.objects.create(
        name="Câmara Municipal de Santa Maria", municipality="Santa Maria", state="RS"
    )
    assert send_notice_email.call(act_id=notice.pk) == "enviada"
    (message,) = mail.outbox
    assert "A Câmara Municipal de Santa Maria intima Vossa Senhoria" in message.body
    assert "O órgão intima" not in message.body
