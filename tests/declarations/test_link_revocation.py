"""Issue 25, N2: every private link can be revoked, and a link sent again revokes the one before. A result
link sent to a mistyped address kept the candidate's name, the non-confirmation, every opinion's reasons
and the appeal form open for 180 days, even after a new one was sent."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from declarations.links import LinkError, hetero_link_issue, link_issue, link_resolve
from declarations.models import ProcedureLink, VerificationLink
from tests.builders import make_procedure_world, make_world
from tests.declarations.hetero_world import make_hetero_world
from tests.declarations.test_access_log_displays import logs_of
from tests.pages import forms_on

pytestmark = pytest.mark.django_db

REVOKED = "expirou ou foi revogado"


@pytest.fixture
def hetero(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_hetero_world(cast, make_world(cast)["contest"])


def portal(client, token):
    return client.get(reverse("declarations:hetero_portal", args=[token]))


def test_n2_a_result_link_sent_again_revokes_the_one_before(client, cast, hetero):
    old = hetero["hetero_token"]
    assert portal(client, old).status_code == 200
    _, new = hetero_link_issue(verification=hetero["verification"], by=cast["legal"], now=timezone.now())
    response = portal(client, old)
    assert response.status_code == 403 and REVOKED in response.content.decode()
    assert portal(client, new).status_code == 200
    revoked = VerificationLink.objects.get(revoked_at__isnull=False)
    assert revoked.history.first().history_change_reason == "Link privado revogado: substituído por um novo"


def test_n2_legal_revokes_a_result_link_on_its_screen_and_it_stops_opening(client, cast, hetero):
    token = hetero["hetero_token"]
    verification = hetero["verification"]
    client.force_login(cast["legal"])
    session_page = client.get(reverse("declarations:hetero_session", args=[verification.session_id]))
    url = reverse("declarations:hetero_links", args=[verification.pk])
    page = client.get(url).content.decode()
    assert "vale até" in page and "nunca aberto" in page
    link = VerificationLink.objects.get()
    (form,) = [form for form in forms_on(page) if "link" in form.values]  # one per link still usable
    assert form.values["link"] == str(link.pk)
    response = client.post(form.action or url, {**form.values}, follow=True)
    assert "revogado: não abre mais" in response.content.decode()
    assert "revogado em" in client.get(url).content.decode()
    client.logout()
    assert REVOKED in portal(client, token).content.decode()
    assert session_page.status_code == 200


def test_n2_the_revoke_screen_refuses_a_link_of_another_verification(client, cast, hetero):
    client.force_login(cast["legal"])
    other = VerificationLink.objects.get()
    url = reverse("declarations:hetero_links", args=[hetero["verification"].pk + 1000])
    assert client.get(url).status_code == 404
    response = client.post(
        reverse("declarations:hetero_links", args=[hetero["verification"].pk]), {"link": "x"}
    )
    assert response.status_code == 302
    other.refresh_from_db()
    assert other.revoked_at is None


def test_n2_a_procedure_link_issued_again_for_the_candidate_revokes_the_older(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    procedure = make_procedure_world(cast, world["position"].registrations.get(number="N2"))["procedure"]
    now = timezone.now()
    _, first_token = link_issue(
        procedure=procedure, holder=ProcedureLink.Holder.CANDIDATE, name="Candidata", by=None, now=now
    )
    _, second_token = link_issue(
        procedure=procedure, holder=ProcedureLink.Holder.CANDIDATE, name="Candidata", by=None, now=now
    )
    with pytest.raises(LinkError):
        link_resolve(first_token, now=now)
    assert link_resolve(second_token, now=now).procedure == procedure
    assert ProcedureLink.objects.filter(procedure=procedure, revoked_at__isnull=True).count() == 1


def test_n2_the_links_screen_logs_each_display_of_the_candidate_s_links(client, cast, hetero):
    verification = hetero["verification"]
    client.force_login(cast["legal"])
    before = len(logs_of(verification))
    assert client.get(reverse("declarations:hetero_links", args=[verification.pk])).status_code == 200
    (entry,) = logs_of(verification)[before:]
    assert entry.user == cast["legal"] and entry.detail == "links privados"
