"""The procedure's and the commission's law of each policy version (``declarations.ProcedureLaw``): seeded for
the founding laws, made with every new policy and version, locked with its policy, edited on the policy's
pages. Plain functions with the database."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import RequestFactory
from django.urls import reverse

from contests import policy_parts, services
from contests.forms import PolicyForm
from contests.models import POLICY_LOCKED, Contest, Policy
from declarations import law as law_services
from declarations.law import LAW_FIELDS, ProcedureLawForm
from declarations.models import ProcedureLaw
from tests.builders import make_contest, make_policy, policy, set_policy
from tests.contests.test_views_policies import post_data

DEFAULTS = {name: getattr(ProcedureLaw(), name) for name in LAW_FIELDS}


def values(law: ProcedureLaw) -> dict:
    return {name: getattr(law, name) for name in LAW_FIELDS}


# The founding laws -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "nominee_falsity_effect"),
    [("santa-maria", "nomination"), ("angra-dos-reis", "admission")],
)
def test_rules_s5_the_founding_laws_have_their_procedure_law(db, slug, nominee_falsity_effect):
    """Their seeds gave them the defaults (contests 0003, 0014) but for Angra's annulment of the admission
    (AR art. 2º, contests 0016); declarations 0009 moved them into the row."""
    law = policy(slug).procedure_law
    assert values(law) == {**DEFAULTS, "nominee_falsity_effect": nominee_falsity_effect}
    assert (law.non_confirmation, law.falsity_effect, law.appeal_instances) == ("open_procedure", "final", 3)


def test_the_seed_of_the_rows_is_idempotent_and_runs_on_the_final_models(db):
    """The suite re-runs it after a flush with the models as they are at the end (tests/conftest.py): the
    founding laws get their values again, and a policy that has its row keeps it."""
    seed = import_module("declarations.migrations.0009_seed_procedure_law").seed
    state_apps = MigrationLoader(connection).project_state().apps
    set_policy("santa-maria", defence_days=20)
    ProcedureLaw.objects.filter(policy__slug="angra-dos-reis").delete()
    seed(state_apps, None)
    seed(state_apps, None)
    assert ProcedureLaw.objects.count() == Policy.objects.count() == 2
    assert policy("santa-maria").procedure_law.defence_days == 20
    assert policy("angra-dos-reis").procedure_law.nominee_falsity_effect == "admission"


# Made with every policy and version -------------------------------------------------------------------------


def test_a_new_policy_and_a_new_version_each_have_their_law(cast):
    created = services.policy_create(
        by=cast["manager"],
        data={
            "slug": "lei-nova",
            "name": "Lei nova",
            "jurisdiction": "Cidade/UF",
            "percent": 20,
            "beneficiary_groups": ["preta", "parda"],
        },
    )
    assert values(Policy.objects.get(pk=created.pk).procedure_law) == DEFAULTS
    version = services.policy_new_version(policy=created, by=cast["manager"])
    assert values(Policy.objects.get(pk=version.pk).procedure_law) == DEFAULTS
    assert ProcedureLaw.objects.count() == Policy.objects.count() == 4


def test_a_new_version_copies_its_law_and_takes_the_changes(cast):
    base = make_policy(appeal_instances=2, hetero_no_show="eliminate", electronic_notice_basis="Edital 12.3")
    new = services.policy_new_version(
        policy=base, by=cast["manager"], parts={"procedure_law": {"defence_days": 15}}
    )
    law = new.procedure_law
    assert (law.appeal_instances, law.hetero_no_show, law.electronic_notice_basis, law.defence_days) == (
        2,
        "eliminate",
        "Edital 12.3",
        15,
    )
    assert base.procedure_law.defence_days == 10
    record = law.history.get()
    assert (record.history_user, record.history_change_reason) == (cast["manager"], f"Nova versão de {base}")


def test_an_invalid_law_refuses_the_whole_new_policy(cast):
    before = Policy.objects.count()
    with pytest.raises(ValidationError) as raised:
        make_policy(by=cast["manager"], appeal_instances=4)
    assert "appeal_instances" in raised.value.message_dict
    assert Policy.objects.count() == before
    assert ProcedureLaw.objects.count() == before


def test_the_policy_screens_know_the_procedure_law_as_a_part():
    assert [(part.accessor, part.form_class) for part in policy_parts.parts()] == [
        ("procedure_law", ProcedureLawForm)
    ]
    # Both forms post under one submit, without prefixes: no field name may be in both.
    assert not set(ProcedureLawForm.base_fields) & set(PolicyForm.base_fields)


def test_an_unknown_part_is_a_programming_error(cast):
    with pytest.raises(ValueError, match="desconhecidas"):
        services.policy_update(policy=policy(), by=cast["manager"], data={}, parts={"outra": {}})


# Locked with its policy -------------------------------------------------------------------------------------


def test_the_law_changes_with_history_while_no_published_contest_uses_the_version(cast):
    make_contest()  # a draft does not lock it
    services.policy_update(
        policy=policy(), by=cast["manager"], data={}, parts={"procedure_law": {"hetero_commission_size": 7}}
    )
    law = policy().procedure_law
    assert law.hetero_commission_size == 7
    assert law.history.first().history_user == cast["manager"]


def test_the_law_of_a_version_a_published_contest_uses_refuses_changes_like_the_policy(cast):
    make_contest(status=Contest.Status.PUBLISHED)
    sm = policy()
    before = sm.procedure_law.history.count()
    for change in (
        lambda: law_services.procedure_law_update(policy=sm, by=cast["manager"], data={"defence_days": 5}),
        lambda: services.policy_update(
            policy=sm, by=cast["manager"], data={}, parts={"procedure_law": {"defence_days": 5}}
        ),
    ):
        with pytest.raises(ValidationError) as raised:
            change()
        assert raised.value.messages == [POLICY_LOCKED]
    assert policy().procedure_law.defence_days == 10
    assert sm.procedure_law.history.count() == before


# On the policy's pages --------------------------------------------------------------------------------------


def test_the_detail_page_shows_the_law(client_for):
    set_policy("santa-maria", hetero_no_show="eliminate")
    page = client_for("auditor").get(policy().get_absolute_url()).content.decode()
    assert "Consequência da ausência à heteroidentificação" in page
    assert "Eliminação do concurso" in page
    assert "Lei 9.784 art. 57: até três instâncias." in page


def test_the_manager_edits_the_law_on_the_policy_page(client_for, cast):
    sm = policy()
    data = post_data(sm, act_number="6.600/2022", appeal_instances="2", tacit_acknowledgement_days="5")
    response = client_for("manager").post(reverse("contests:policy_edit", args=[sm.slug]), data)
    assert response.status_code == 302
    law = policy().procedure_law
    assert (policy().act_number, law.appeal_instances, law.tacit_acknowledgement_days) == ("6.600/2022", 2, 5)
    assert law.history.first().history_user == cast["manager"]


def test_a_refused_law_on_the_policy_page_changes_neither(client_for):
    sm = policy()
    data = post_data(sm, act_number="6.600/2022", appeal_instances="4")
    response = client_for("manager").post(reverse("contests:policy_edit", args=[sm.slug]), data)
    assert response.status_code == 200
    assert "menor ou igual a 3" in response.content.decode()
    assert (policy().act_number, policy().procedure_law.appeal_instances) == ("9247/2021", 3)


def test_the_new_policy_page_creates_the_law_with_what_was_typed(client_for):
    data = post_data(policy(), slug="lei-com-rito", name="Lei com rito", defence_days="15")
    response = client_for("manager").post(reverse("contests:policy_create"), data)
    assert response.status_code == 302
    assert policy("lei-com-rito").procedure_law.defence_days == 15


def test_the_new_version_page_copies_the_law_and_takes_the_changes(client_for):
    make_contest(status=Contest.Status.PUBLISHED)
    sm = set_policy("santa-maria", hetero_no_show="eliminate")
    page = client_for("manager").get(reverse("contests:policy_new_version", args=[sm.slug]))
    assert page.context["part_forms"][0]["hetero_no_show"].value() == "eliminate"
    data = post_data(sm, hetero_appeal_days="5")
    data.pop("slug")
    response = client_for("manager").post(reverse("contests:policy_new_version", args=[sm.slug]), data)
    assert response.status_code == 302
    law = Policy.objects.get(previous_version=sm).procedure_law
    assert (law.hetero_no_show, law.hetero_appeal_days) == ("eliminate", 5)
    assert policy().procedure_law.hetero_appeal_days == 10


# In the admin (superusers' repairs) ---------------------------------------------------------------------------


def _admin_post_data(model, root: User, instance) -> dict:
    request = RequestFactory().get("/")
    request.user = root
    form = admin.site._registry[model].get_form(request, instance)(instance=instance)
    data: dict = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        if isinstance(value, list):
            data[name] = value
            continue
        data[name] = "" if value is None else value.isoformat() if hasattr(value, "isoformat") else str(value)
    return data


def test_a_policy_added_in_the_admin_has_its_law_and_a_locked_law_is_read_only(db, client):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    data = {**_admin_post_data(Policy, root, policy()), "slug": "lei-do-admin", "name": "Lei do admin"}
    response = client.post(reverse("admin:contests_policy_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert values(policy("lei-do-admin").procedure_law) == DEFAULTS
    make_contest(status=Contest.Status.PUBLISHED)
    law = policy().procedure_law
    change = reverse("admin:declarations_procedurelaw_change", args=[law.pk])
    data = {**_admin_post_data(ProcedureLaw, root, law), "defence_days": "5"}
    client.post(change, data)
    assert policy().procedure_law.defence_days == 10
    assert client.get(reverse("admin:declarations_procedurelaw_delete", args=[law.pk])).status_code == 403
