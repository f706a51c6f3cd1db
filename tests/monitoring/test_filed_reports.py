"""A filed report (issue 23): recorded by Gestão on its page, kept with history, and no longer asked for on
Pendências (AR art. 5º: a conclusive report every two years, the final one in the last year's first
quarter)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from contests.calendar import add_years
from monitoring.models import FiledReport
from tests.builders import set_policy
from tests.pages import post_form

pytestmark = pytest.mark.django_db
URL = "/relatorios-da-lei/entregues/"


def home(client) -> str:
    return client.get(reverse("home")).content.decode()


def test_ar_art5_a_filed_report_leaves_pendencias(client_for):
    today = timezone.localdate()
    # In force for four years and a month: the 1st periodic report (first two years) is overdue.
    start = add_years(today, -4) - datetime.timedelta(days=30)
    policy = set_policy("angra-dos-reis", publication_date=start, effective_date=start)
    client = client_for("manager")
    assert "1º relatório periódico (art. 5º) em atraso" in home(client)
    period_end = add_years(start, 2) - datetime.timedelta(days=1)
    response = post_form(
        client,
        URL,
        {
            "policy": str(policy.pk),
            "kind": "periodic",
            "number": "1",
            "period_start": f"{start:%d/%m/%Y}",
            "period_end": f"{period_end:%d/%m/%Y}",
            "filed_on": f"{today:%d/%m/%Y}",
            "document": "Ofício SMAS 12/2026",
            "notes": "Entregue ao Prefeito.",
        },
    )
    assert response.status_code == 302
    report = FiledReport.objects.get()
    assert (report.kind, report.number, report.policy) == ("periodic", 1, policy)
    assert report.history.count() == 1
    html = home(client)
    assert "1º relatório periódico (art. 5º) em atraso" not in html
    assert "Ofício SMAS 12/2026" in client.get(URL).content.decode()


def test_a_report_is_filed_once_and_after_its_period(client_for):
    today = timezone.localdate()
    policy = set_policy(
        "angra-dos-reis", publication_date=add_years(today, -3), effective_date=add_years(today, -3)
    )
    client = client_for("manager")
    data = {
        "policy": str(policy.pk),
        "kind": "periodic",
        "number": "1",
        "period_start": f"{add_years(today, -3):%d/%m/%Y}",
        "period_end": f"{today:%d/%m/%Y}",
        "filed_on": f"{today - datetime.timedelta(days=1):%d/%m/%Y}",
        "document": "Ofício 1",
    }
    html = post_form(client, URL, data).content.decode()
    assert "Um relatório é entregue depois do fim do período que cobre." in html
    assert not FiledReport.objects.exists()
    data["filed_on"] = f"{today:%d/%m/%Y}"
    assert post_form(client, URL, data).status_code == 302
    html = post_form(client, URL, data).content.decode()
    assert FiledReport.objects.count() == 1
    assert "já existe" in html.lower() or "already exists" in html.lower()
