"""The roles' permissions are DESIGN.md's table, no wider.

Secretaria edits contest data, Gestão does not (it publishes, homologates and keeps the laws); Comissão sees
registrations only within its own sessions, so no registration list or detail of any contest.
"""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from tests.builders import make_contest, make_position, make_registration

# Writes to contest data: Secretaria's alone (DESIGN.md, roles: "edits no contest data: Secretaria does").
CONTEST_DATA_WRITES = {
    f"{app}.{action}_{model}"
    for app, models in {
        "contests": ("contest", "position", "vacancyopening"),
        "candidates": (
            "candidate",
            "registration",
            "selfdeclaration",
            "phase",
            "phaseresult",
            "importmapping",
        ),
    }.items()
    for model in models
    for action in ("add", "change", "delete")
} | {"candidates.import_registrations", "candidates.call_nomination", "candidates.change_nomination"}


def permissions(role: str) -> set[str]:
    group = Group.objects.get(name=role)
    return {
        f"{app}.{codename}"
        for app, codename in group.permissions.values_list("content_type__app_label", "codename")
    }


@pytest.mark.django_db
def test_only_secretaria_writes_contest_data():
    for role in ("Jurídico", "Comissão", "Gestão", "Auditoria"):
        assert not permissions(role) & CONTEST_DATA_WRITES, role
    assert {"contests.change_contest", "contests.add_position", "candidates.add_registration"} <= permissions(
        "Secretaria"
    )


@pytest.mark.django_db
def test_gestao_keeps_what_the_design_gives_it():
    assert {
        "contests.homologate_contest",
        "contests.add_policy",
        "contests.change_policy",
        "candidates.publish_resultrun",
        "contests.view_accesslog",
    } <= permissions("Gestão")


@pytest.mark.django_db
def test_comissao_reads_no_registration_outside_its_sessions():
    assert not {p for p in permissions("Comissão") if p.startswith("candidates.")}


def test_commission_member_cannot_open_a_contest_s_registrations(client_for):
    registration = make_registration(make_position(make_contest()))
    contest = registration.contest
    client = client_for("commission")
    assert client.get(reverse("candidates:registration_list", args=[contest.slug])).status_code == 403
    detail = reverse("candidates:registration_detail", args=[contest.slug, registration.pk])
    assert client.get(detail).status_code in (403, 404)


def test_manager_cannot_edit_a_contest(client_for):
    contest = make_contest()
    client = client_for("manager")
    assert client.get(reverse("contests:edit", args=[contest.slug])).status_code == 403
    response = client.post(reverse("contests:status", args=[contest.slug]), {"status": "published"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_monitoramento_reads_the_law_reports_aggregates_and_nothing_else():
    """The monitoring body (issue 23; AR art. 5º) sees the report's aggregates and the filed reports."""
    assert permissions("Monitoramento") == {
        "monitoring.view_law_report",
        "monitoring.view_filedreport",
        "monitoring.view_lawreport",
        "monitoring.add_lawreport",
    }
    assert {"monitoring.view_law_report", "monitoring.add_filedreport"} <= permissions("Gestão")
    assert "monitoring.view_law_report" in permissions("Auditoria")
    assert "monitoring.add_filedreport" not in permissions("Auditoria")
