"""Issue 25 N7: no period starts before its message left. The heteroidentification appeal period started at
the session's close even when the e-mail never left; now it starts on the day the e-mail is sent (or the
letter printed), the staff pages say "comunicação pendente" meanwhile, and an appeal is not yet received."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from declarations.calendars import organization_last_day
from declarations.hetero import services as hs
from declarations.models import Verification
from declarations.procedure import services as procedure_services
from tests.builders import make_registration
from tests.declarations.hetero_world import at
from tests.declarations.test_hetero_screens import _close_with, _formed_and_called
from tests.declarations.test_hetero_screens import contest as screens_contest

pytestmark = pytest.mark.django_db

contest = pytest.fixture(screens_contest.__wrapped__, name="contest")  # type: ignore[attr-defined]


def test_rules_s5_the_appeal_period_starts_when_the_email_leaves_not_at_the_close(
    client, cast, contest, django_capture_on_commit_callbacks
):
    session = _formed_and_called(client, cast, contest)
    closed_on = datetime.date(2026, 6, 20)
    with (
        mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("servidor recusou")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        _close_with(session, cast["legal"], {"N2": (False,) * 5}, now=at(closed_on, 18), message_left=False)
    verification = Verification.objects.get(registration__number="N2")
    assert "E-mail não enviado" in verification.notice
    assert (verification.notified_on, verification.appeal_deadline) == (None, None)
    page = client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    assert "Comunicação pendente" in page and "Prazo de recurso até" not in page
    with pytest.raises(ValidationError, match="não foi aberto"):
        hs.appeal_file(verification=verification, reasons="Sou preta.", now=timezone.now())
    # Sent again, months after the close: the period runs from the day the e-mail left.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("declarations:hetero_notify", args=[verification.pk]))
    verification.refresh_from_db()
    today = timezone.localdate()
    assert len(mail.outbox) == 1 and verification.notified_on == today
    assert verification.appeal_deadline == organization_last_day(today, 10, False)
    assert verification.appeal_deadline.strftime("%d/%m/%Y") in mail.outbox[0].body
    page = client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    assert "Comunicação pendente" not in page


def test_a_procedure_notice_whose_email_has_not_left_says_comunicacao_pendente(client_for, cast):
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    procedure = procedure_services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="Indícios.",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    procedure_services.notice_send(
        procedure=procedure, by=cast["legal"], today=timezone.localdate(), means="email"
    )
    page = client_for("legal").get(procedure.get_absolute_url()).content.decode()
    assert "comunicação pendente" in page
