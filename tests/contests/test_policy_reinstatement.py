"""The policy parameter ``reinstatement`` (RULES §4 item 7): its reading and legal basis where a user
meets it (the policy's page and form), and the engine's parameters read from it."""

from __future__ import annotations

from django.urls import reverse

from candidates.engine_params import params_from_policy
from contests.models import Policy
from tests.builders import policy

from .test_views_policies import post_data


def test_rules_par4_item7_policy_page_shows_the_reinstatement_reading_and_its_basis(client_for):
    page = client_for("auditor").get(policy().get_absolute_url()).content.decode()
    assert "Vaga de quem é reintegrado" in page or "vaga de quem é reintegrado" in page
    assert "Próxima vaga: o reintegrado recebe a primeira vaga das próximas convocações" in page
    assert "Súmula 473 do STF" in page and "Lei 9.784 art. 54" in page


def test_rules_par4_item7_default_is_next_seat_and_the_engine_reads_the_policy(db):
    row = policy()
    assert row.reinstatement == Policy.Reinstatement.NEXT_SEAT
    assert params_from_policy(row).reinstatement == "next_seat"
    row.reinstatement = Policy.Reinstatement.OWN_SEAT
    assert params_from_policy(row).reinstatement == "own_seat"


def test_rules_par4_item7_manager_sets_own_seat_through_the_policy_form(client_for, cast):
    data = post_data(policy(), slug="lei-propria-vaga", name="Lei da própria vaga", reinstatement="own_seat")
    response = client_for("manager").post(reverse("contests:policy_create"), data)
    assert response.status_code == 302
    created = Policy.objects.get(slug="lei-propria-vaga")
    assert created.reinstatement == "own_seat"
    assert created.history.first().history_user == cast["manager"]
