"""Heteroidentification's permissions (DESIGN.md roles; declarations/migrations/0004)."""

import pytest
from django.contrib.auth.models import Group


def codenames(role: str) -> set[str]:
    return set(
        Group.objects.get(name=role)
        .permissions.filter(content_type__app_label="declarations")
        .values_list("codename", flat=True)
    )


@pytest.mark.django_db
def test_comissao_records_opinions_and_manages_nothing():
    assert "record_opinion" in codenames("Comissão")
    assert not {"manage_heteroidentification", "view_opinion", "view_verification"} & codenames("Comissão")


@pytest.mark.django_db
def test_juridico_manages_secretaria_sees_status_only():
    assert {"manage_heteroidentification", "view_opinion"} <= codenames("Jurídico")
    assert "record_opinion" not in codenames("Jurídico")
    for role in ("Secretaria", "Gestão"):
        hetero = {
            c for c in codenames(role) if "hetero" in c or c.endswith(("opinion", "session", "verification"))
        }
        assert hetero == {"view_heteroidentification_status"}, role
