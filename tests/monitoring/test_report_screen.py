"""The law's report screen (issue 23): who opens it, the form that chooses the policy, the period and the
contests, and the indicator tables with the privacy marks, on the built world of ``test_indicators``
(counts worked out there: 5 open, 3 racial and 1 PcD registrants; 5 nominees)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from monitoring import privacy
from tests.builders import make_user
from tests.monitoring.test_indicators import world  # noqa: F401  (the fixture)
from tests.pages import forms_on

pytestmark = pytest.mark.django_db
URL = "/relatorios-da-lei/"


def params(world, **extra) -> dict[str, object]:  # noqa: F811
    return {
        "policy": world["contest"].policy.pk,
        "start": "01/01/2026",
        "end": "31/12/2026",
        **extra,
    }


def get_form(client: Client) -> set[str]:
    page = client.get(URL)
    assert page.status_code == 200
    (form,) = [f for f in forms_on(page.content.decode()) if f.method == "get"]
    return set(form.visible)


def cells(html: str, measure: str) -> list[str]:
    """The value cells of the rows whose measure is ``measure``."""
    pattern = rf"<td>{re.escape(measure)}</td>\s*<td class=\"num\">([^<]*)</td>"
    return [html_lib.unescape(value) for value in re.findall(pattern, html)]


def test_the_report_shows_the_indicators_with_small_cells_suppressed(client_for, world):  # noqa: F811
    client = client_for("manager")
    assert {"policy", "start", "end"} <= get_form(client)
    page = client.get(URL, params(world))
    html = page.content.decode()
    assert page.status_code == 200
    # T1 registered: everyone 9, open 5 (shown), racial 3 and PcD 1 (suppressed: 9 − 5 = 4 is 1 + 3, 2 + 2 or
    # 3 + 1, neither can be read back).
    assert cells(html, "inscritos") == ["9", "5", privacy.SUPPRESSED_MARK, privacy.SUPPRESSED_MARK]
    # The open share among the 9 registered: 5/9 = 55,6%, on fewer than 10 cases.
    assert cells(html, "inscritos: % do grupo entre os inscritos")[0] == "55,6%*"
    text = html_lib.unescape(html)
    assert privacy.SUPPRESSED_NOTE in text
    # T2: 5 edital vacancies, 1 reserved.
    assert cells(html, "vagas do edital") == ["5"]
    assert cells(html, "reservadas à reserva racial") == ["1"]
    # T3: 5 nominees.
    assert cells(html, "nomeados")[-1:] == ["5"]
    # No person's name on the page: aggregates only.
    for registration in world["position"].registrations.all():
        assert registration.candidate.full_name not in html


def test_the_period_is_bounded_and_ordered(client_for, world):  # noqa: F811
    client = client_for("auditor")
    html = client.get(URL, params(world, start="31/12/2026", end="01/01/2026")).content.decode()
    assert "O fim do período é anterior ao início." in html
    html = client.get(URL, params(world, start="01/01/1990", end="31/12/2026")).content.decode()
    assert "O período não pode passar de 20 anos." in html
    html = client.get(URL, params(world, start="01/01/1800")).content.decode()
    assert "Informe uma data entre" in html
    assert "inscritos" not in html


def test_a_contest_of_another_policy_is_refused(client_for, world):  # noqa: F811
    from tests.builders import make_contest, make_policy

    other = make_contest(slug="c-outra-lei", policy=make_policy(slug="outra-lei"))
    html = client_for("manager").get(URL, params(world, contests=[other.pk])).content.decode()
    assert "Estes concursos não usam a política escolhida" in html


def test_the_monitoring_role_sees_the_aggregates_and_nothing_else(world):  # noqa: F811
    monitor = make_user("monitor", "Monitoramento")
    client = Client()
    client.force_login(monitor)
    assert client.get(URL, params(world)).status_code == 200
    assert client.get(reverse("monitoring:filed")).status_code == 200
    assert client.post(reverse("monitoring:filed"), {}).status_code == 403
    contest = world["contest"]
    assert client.get(reverse("contests:detail", args=[contest.slug])).status_code == 403
    assert client.get(reverse("candidates:registration_list", args=[contest.slug])).status_code == 403
    assert client.get(reverse("declarations:list")).status_code == 403
    names = set(Group.objects.get(name="Monitoramento").permissions.values_list("codename", flat=True))
    # It also writes and publishes the report as an act (its conclusions): aggregates still.
    assert names == {"view_law_report", "view_filedreport", "add_lawreport", "view_lawreport"}


def test_the_staff_navigation_has_the_law_reports_for_who_may_open_them(client_for, world):  # noqa: F811
    assert "Relatórios da lei" in client_for("manager").get(reverse("contests:list")).content.decode()
    assert "Relatórios da lei" not in client_for("clerk").get(reverse("contests:list")).content.decode()
