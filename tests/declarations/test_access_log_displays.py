"""LGPD: every display of a candidate's case is in the access log, filtered here by the object displayed.
Two pages showed one unlogged (code review): the candidate's acknowledgement of a notice ("Dou ciência",
through the private link) and Jurídico's second call of a justified absence (the candidate's name and
absence, and the justification typed)."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from contests.models import AccessLog
from declarations import links
from declarations.models import Procedure, Verification
from declarations.procedure import services
from tests.builders import make_registration
from tests.declarations.test_confirmations import open_case
from tests.declarations.test_hetero_second_call import _absent
from tests.declarations.test_hetero_second_call import contest as second_call_contest

pytestmark = pytest.mark.django_db
contest = second_call_contest


def logs_of(obj) -> list[AccessLog]:
    kind = ContentType.objects.get_for_model(obj)
    return list(AccessLog.objects.filter(content_type=kind, object_id=str(obj.pk)).order_by("pk"))


def test_lgpd_the_acknowledgement_page_logs_the_display_of_the_notice(client, cast):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today)
    other = open_case(make_registration(racial_category="parda"), cast["legal"], today)
    notice = services.notice_send(
        procedure=case, by=cast["legal"], today=today, means="email", recipient="c@example.org"
    )
    _link, token = links.link_issue(
        procedure=case, holder="candidate", name="Candidata", by=cast["legal"], now=timezone.now()
    )
    before = len(logs_of(case))
    response = client.get(reverse("declarations:portal_acknowledge", args=[token, notice.pk]))
    assert response.status_code == 200
    (row,) = logs_of(case)[before:]
    assert row.user is None and row.via_link == "Candidato(a)" and row.action == "portal"
    assert "Candidata" in row.detail and "ciência" in row.detail
    assert logs_of(other) == [] and isinstance(case, Procedure)


def test_lgpd_the_second_call_page_logs_the_display_of_the_absent_candidate(client, cast, contest):
    session, later, absent = _absent(client, cast, contest, allowed=True)
    other = Verification.objects.get(session=session, registration__number="N3")
    client.force_login(cast["legal"])
    url = reverse("declarations:hetero_second_call", args=[absent.pk])
    assert client.get(url).status_code == 200
    (row,) = logs_of(absent)
    assert row.user == cast["legal"] and row.action == "view" and "segunda chamada" in row.detail
    # A refused submission shows the page again, with what was typed: logged too.
    assert client.post(url, {"justification": "", "session": str(later.pk)}).status_code == 200
    assert len(logs_of(absent)) == 2 and logs_of(other) == []
