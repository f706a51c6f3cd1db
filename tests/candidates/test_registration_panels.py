"""The registration page shows the person's nominations (in any registration), the procedures on this
registration and on the person's other ones (the panel ``declarations`` adds), and their other
registrations; each to who may see it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from declarations.models import Procedure
from declarations.procedure import services as procedures
from tests.builders import make_contest, make_position, make_registration, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    registration = world["registration"]
    # The same person in another contest, with a procedure there.
    other_contest = make_contest(title="Concurso de Técnicos", slug="tecnicos")
    other = make_registration(
        make_position(other_contest, code="TEC"), candidate=registration.candidate, racial_category="parda"
    )
    procedure = procedures.procedure_open(
        registration=other,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios.",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    return {**world, "other": other, "procedure": procedure}


def page(client, registration) -> str:
    url = reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("who", ["clerk", "legal", "manager", "auditor"])
def test_the_registration_page_shows_the_persons_nominations(client_for, who, world):
    html = page(client_for(who), world["registration"])
    nomination = world["nomination"]
    assert 'id="nomeacoes"' in html
    assert f'href="{nomination.get_absolute_url()}">Portaria 10/2026</a>' in html
    assert nomination.get_status_display() in html


def test_the_other_registrations_page_shows_the_nomination_of_the_first(client_for, world):
    html = page(client_for("clerk"), world["other"])
    assert "Portaria 10/2026" in html
    assert f"inscrição {world['registration'].number}" in html  # the nomination is of the other registration
    assert "Outras inscrições da mesma pessoa" in html
    url = reverse("candidates:registration_detail", args=[world["contest"].slug, world["registration"].pk])
    assert url in html


@pytest.mark.parametrize(("who", "linked"), [("clerk", False), ("legal", True), ("auditor", True)])
def test_procedures_on_the_persons_other_registrations(client_for, who, linked, world):
    html = page(client_for(who), world["registration"])
    assert "Em outras inscrições da mesma pessoa" in html
    procedure = world["procedure"]
    assert str(procedure) in html
    assert (procedure.get_absolute_url() in html) is linked


def test_no_panel_noise_for_a_person_with_one_registration(client_for, world):
    lone = make_registration(make_position(world["contest"], code="XYZ"))
    html = page(client_for("clerk"), lone)
    assert "Nenhuma nomeação desta pessoa" in html
    assert "Outras inscrições da mesma pessoa" not in html
    assert "Em outras inscrições da mesma pessoa" not in html
