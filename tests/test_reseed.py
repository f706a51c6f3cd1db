"""A transactional test's flush deletes the rows the data migrations made (roles, founding policies);
tests/conftest.py puts them back before the next one: the first time by running those migrations' functions,
then from what that first run made. Both must give the same rows, whether the flush made the content types
and permissions again (its post_migrate) or not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from contests.models import Policy
from declarations.models import ProcedureLaw
from tests import conftest

pytestmark = pytest.mark.django_db(transaction=True)


def _rows() -> dict:
    groups = {
        group.name: sorted(
            group.permissions.values_list("content_type__app_label", "content_type__model", "codename")
        )
        for group in Group.objects.all()
    }
    policies = sorted(
        (model.__name__, *(value for name, value in sorted(row.items()) if name != "id"))
        for model in (Policy, ProcedureLaw)
        for row in model._default_manager.values()
    )
    permissions = sorted(
        Permission.objects.values_list("content_type__app_label", "content_type__model", "codename", "name")
    )
    types = sorted(ContentType.objects.values_list("app_label", "model"))
    return {"groups": groups, "policies": policies, "permissions": permissions, "types": types}


def _flush(post_migrate: bool) -> None:
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=not post_migrate)
    assert not Group.objects.exists() and not Policy.objects.exists()


def _by_the_functions(monkeypatch, post_migrate: bool) -> dict:
    monkeypatch.setattr(conftest, "_SEEDED", None)
    _flush(post_migrate)
    conftest._reseed()
    assert conftest._SEEDED is not None
    return _rows()


@pytest.mark.parametrize("learned_after", [True, False], ids=["flush", "bare-flush"])
def test_the_rows_made_again_after_a_flush_are_the_rows_the_migrations_make(monkeypatch, learned_after):
    """A flush makes the content types and permissions again (its post_migrate) unless told not to (pytest-
    django's, before a serialized rollback): whichever flush the kept rows were learned after and whichever
    came before they are made again, the groups with their permissions, the policies and every content type
    and permission the functions would have made are there."""
    expected = {again: _by_the_functions(monkeypatch, again) for again in (True, False)}
    assert expected[True]["groups"] and expected[True]["policies"]
    _by_the_functions(monkeypatch, learned_after)  # what is kept
    for again in (True, False):
        _flush(again)
        conftest._reseed()
        made = _rows()
        assert made["groups"] == expected[again]["groups"]
        assert made["policies"] == expected[again]["policies"]
        assert set(made["permissions"]) >= set(expected[again]["permissions"])
        assert set(made["types"]) >= set(expected[again]["types"])
