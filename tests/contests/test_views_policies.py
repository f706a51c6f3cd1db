"""Policies in the staff workspace: list, detail, create, edit, new version."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from contests.forms import PolicyForm
from contests.models import Contest, Policy
from declarations.law import ProcedureLawForm
from tests.access import ROLES, assert_access
from tests.builders import make_contest, policy

POLICY_READERS = {"clerk", "legal", "manager", "auditor"}


def post_data(instance: Policy, **overrides) -> dict:
    """What the policy's page would post for ``instance`` (its form and its procedure law's), with
    ``overrides``."""
    data = {}
    for form in (PolicyForm(instance=instance), ProcedureLawForm(instance=instance.procedure_law)):
        for name in form.fields:
            value = form[name].value()
            if isinstance(value, bool):
                if value:
                    data[name] = "on"
                continue
            if value is None:
                value = ""
            elif isinstance(value, datetime.date):
                value = value.strftime("%d/%m/%Y")
            elif isinstance(value, Decimal):
                value = str(value).replace(".", ",")
            data[name] = value
    for name, value in overrides.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_policy_list_access(client_for, who):
    assert_access(client_for, who, reverse("contests:policy_list"), POLICY_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_policy_detail_access(client_for, who):
    assert_access(client_for, who, policy().get_absolute_url(), POLICY_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_policy_create_access(client_for, who):
    assert_access(client_for, who, reverse("contests:policy_create"), {"manager"})


@pytest.mark.parametrize("who", ROLES)
def test_policy_edit_access(client_for, who):
    assert_access(client_for, who, reverse("contests:policy_edit", args=["santa-maria"]), {"manager"})


@pytest.mark.parametrize("who", ROLES)
def test_policy_new_version_access(client_for, who):
    assert_access(client_for, who, reverse("contests:policy_new_version", args=["santa-maria"]), {"manager"})


# Reading ---------------------------------------------------------------------------------------------


def test_list_shows_seeded_policies_and_missing_dates(client_for):
    page = client_for("legal").get(reverse("contests:policy_list")).content.decode()
    assert "Santa Maria (RS) – Câmara Municipal" in page
    assert "Angra dos Reis (RJ) – Poder Executivo" in page
    assert "Datas a confirmar" in page


def test_detail_shows_parameters_reading_and_series(client_for):
    response = client_for("auditor").get(policy().get_absolute_url())
    page = response.content.decode()
    assert policy().missing_dates_warning in page
    assert "SM art. 1º §2º: reserva quando as vagas forem 3 ou mais" in page
    # RULES §2 reference values at 20% with threshold 3 (n = 1…25).
    assert [count for _, count in response.context["racial_series"]] == [
        0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5,
    ]  # fmt: skip


# Create ----------------------------------------------------------------------------------------------


def test_manager_creates_policy(client_for, cast):
    data = post_data(
        policy(), slug="lei-municipal-30", name="Lei municipal de 30%", percent="30", threshold="2"
    )
    response = client_for("manager").post(reverse("contests:policy_create"), data)
    created = Policy.objects.get(slug="lei-municipal-30")
    assert response.status_code == 302
    assert response.url == created.get_absolute_url()
    assert created.percent == Decimal(30)
    assert created.threshold == 2
    assert created.beneficiary_groups == ["preta", "parda"]
    assert created.history.first().history_user == cast["manager"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"percent": "120"}, "menor ou igual a 100"),
        ({"percent": "-5"}, "maior ou igual a 0"),
        ({"beneficiary_groups": None}, "Este campo é obrigatório."),
        (
            {"publication_date": "10/05/2026", "effective_date": "01/05/2026"},
            "A vigência não pode começar antes",
        ),
        ({"slug": "santa-maria"}, "já existe"),
    ],
)
def test_policy_create_bad_input_changes_nothing(client_for, overrides, message):
    before = Policy.objects.count()
    data = post_data(policy(), **{"slug": "nova-lei", "name": "Nova lei", **overrides})
    response = client_for("manager").post(reverse("contests:policy_create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Policy.objects.count() == before


# Edit and new version --------------------------------------------------------------------------------


def test_manager_edits_unused_policy(client_for, cast):
    sm = policy()
    data = post_data(sm, act_kind="lei", act_number="6.600/2022", publication_date="15/03/2022")
    response = client_for("manager").post(reverse("contests:policy_edit", args=[sm.slug]), data)
    assert response.status_code == 302
    sm.refresh_from_db()
    assert (sm.act_kind, sm.act_number, sm.publication_date) == (
        "lei",
        "6.600/2022",
        datetime.date(2022, 3, 15),
    )
    assert sm.history.first().history_user == cast["manager"]


def test_edit_percent_120_changes_nothing(client_for):
    sm = policy()
    response = client_for("manager").post(
        reverse("contests:policy_edit", args=[sm.slug]), post_data(sm, percent="120")
    )
    assert response.status_code == 200
    assert "menor ou igual a 100" in response.content.decode()
    sm.refresh_from_db()
    assert sm.percent == Decimal(20)


def test_policy_used_by_published_contest_cannot_be_edited(client_for):
    make_contest(status=Contest.Status.PUBLISHED)
    sm = policy()
    client = client_for("manager")
    url = reverse("contests:policy_edit", args=[sm.slug])
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == reverse("contests:policy_new_version", args=[sm.slug])
    response = client.post(url, post_data(sm, percent="30"), follow=True)
    assert "crie uma nova versão" in response.content.decode()
    sm.refresh_from_db()
    assert sm.percent == Decimal(20)
    detail = client.get(sm.get_absolute_url())
    assert not detail.context["can_edit"]
    assert "Nova versão" in detail.content.decode()


def test_manager_creates_new_version(client_for, cast):
    make_contest(status=Contest.Status.PUBLISHED)
    sm = policy()
    data = post_data(sm, percent="30", effective_date="01/01/2027", publication_date="01/01/2027")
    data.pop("slug", None)
    response = client_for("manager").post(reverse("contests:policy_new_version", args=[sm.slug]), data)
    new = Policy.objects.get(previous_version=sm)
    assert response.status_code == 302
    assert response.url == new.get_absolute_url()
    assert (new.version, new.percent, new.effective_date) == (2, Decimal(30), datetime.date(2027, 1, 1))
    assert new.slug.startswith("santa-maria-v")
    assert new.history.first().history_user == cast["manager"]
    sm.refresh_from_db()
    assert sm.percent == Decimal(20)
    assert sm.contests.count() == 1


def test_new_version_form_has_no_slug(client_for):
    response = client_for("manager").get(reverse("contests:policy_new_version", args=["santa-maria"]))
    assert "slug" not in response.context["form"].fields
    assert response.context["form"]["percent"].value() == Decimal("20.00")
