"""``manage.py seed_demo`` from an empty database with DEBUG off: no demo users with known passwords; an
existing ``admin`` signs the history. Apart from tests/workspace/test_seed_demo.py, whose tests share one
first run with DEBUG on for the whole module (rows built once are seen by every test of their module).
"""

from __future__ import annotations

from django.contrib.auth.models import User

from contests.models import Contest
from declarations.models import Commission, Procedure
from tests.builders import CAST
from tests.workspace.test_seed_demo import _reserved, seed
from workspace.management.commands.seed_demo import DEMO_PASSWORD


def test_seed_demo_refuses_demo_users_without_debug(db):
    output = seed()
    assert not User.objects.exclude(username__in=CAST).exists()  # the test session's cast aside
    assert DEMO_PASSWORD not in output
    assert (
        "DEBUG desligado: os usuários de demonstração, que têm senhas conhecidas, não foram criados."
        in output
    )
    # The demo contests are still there, without an author in history.
    assert _reserved("demo-santa-maria")["ANSI"] == (13, 3, 1, 9)
    assert set(Contest.history.values_list("history_user", flat=True)) == {None}
    assert "não indicará quem os criou" in output


def test_seed_demo_without_debug_uses_an_existing_admin(db):
    admin = User.objects.create_superuser(username="admin", password="uma-senha-que-ninguem-conhece")
    output = seed()
    assert DEMO_PASSWORD not in output
    assert User.objects.exclude(username__in=CAST).count() == 1  # the test session's cast aside
    assert not admin.check_password(DEMO_PASSWORD)
    assert set(Contest.history.values_list("history_user", flat=True)) == {admin.pk}


def test_seed_demo_without_the_comissao_user_forms_no_commission(db):
    User.objects.create_superuser(username="admin", password="uma-senha-que-ninguem-conhece")
    seed()
    assert not Commission.objects.exists()
    # The procedures are the Jurídico's: one open, one told to its end.
    assert sorted(Procedure.objects.values_list("status", flat=True)) == ["closed", "open"]
