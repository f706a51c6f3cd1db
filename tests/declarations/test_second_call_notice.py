"""Issue 21 leftover: the candidate called to a second call (a justified absence, where the edital provides
it) is told individually, like the result: an e-mail with the later session's date, time and place and a
private link to their page (which shows the session); without an e-mail, the session page says to send a
letter."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from declarations.hetero.second_call import NO_EMAIL
from declarations.models import SecondCall
from tests.declarations.test_hetero_second_call import _absent
from tests.declarations.test_hetero_second_call import contest as second_call_contest
from tests.pages import post_form

pytestmark = pytest.mark.django_db
contest = second_call_contest
JUSTIFICATION = "Internado em 20/06/2026: atestado médico anexado ao protocolo 12/2026."


def _call(client, cast, contest, email: str, django_capture_on_commit_callbacks):
    _session, later, absent = _absent(client, cast, contest, allowed=True)
    candidate = absent.registration.candidate
    candidate.email = email
    candidate.save()
    client.force_login(cast["legal"])
    url = reverse("declarations:hetero_second_call", args=[absent.pk])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = post_form(
            client, url, {"justification": JUSTIFICATION, "session": str(later.pk)}, follow=True
        )
    return later, absent, response


def test_rules_s5_the_second_call_is_sent_to_the_candidate_with_date_time_place_and_private_link(
    client, cast, contest, django_capture_on_commit_callbacks
):
    later, absent, response = _call(
        client, cast, contest, "n2@example.org", django_capture_on_commit_callbacks
    )
    assert "segue por e-mail" in response.content.decode()
    (sent,) = mail.outbox
    starts = timezone.localtime(later.starts_at)
    assert sent.to == ["n2@example.org"] and absent.registration.number in sent.subject
    assert f"Data: {starts:%d/%m/%Y}" in sent.body and f"Hora: {starts:%H:%M}" in sent.body
    assert "Local: Sala 3" in sent.body
    link = re.search(r"https?://\S+/heteroidentificacao/resultado/\S+/", sent.body)
    assert link is not None
    record = SecondCall.objects.get(absent=absent)
    record.verification.refresh_from_db()
    assert "Convocação da segunda chamada enviada por e-mail" in record.verification.notice
    # A convocation is no result: its leaving starts no appeal period (only the result's message does).
    assert record.verification.notified_on is None and record.verification.appeal_deadline is None
    client.logout()
    page = client.get("/" + link.group(0).split("://", 1)[1].split("/", 1)[1]).content.decode()
    assert f"Sessão de {starts:%d/%m/%Y %H:%M}, Sala 3" in page


def test_rules_s5_without_an_email_the_second_call_goes_by_letter(
    client, cast, contest, django_capture_on_commit_callbacks
):
    _later, absent, response = _call(client, cast, contest, "", django_capture_on_commit_callbacks)
    assert mail.outbox == [] and "comunique a convocação por carta" in response.content.decode()
    assert SecondCall.objects.get(absent=absent).verification.notice == NO_EMAIL
