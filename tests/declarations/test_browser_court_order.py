"""In Debian's Chromium through the real pages (issue 22, the court-order part of the acceptance): a court
order keeps a nominee's seat; Jurídico opens it, clicks "Cumprir a ordem", reads what compliance does and
confirms (the nomination goes on hold, the candidate is told); the order is confirmed on its page (the seat
released, the candidate told by when to take office) and the public nomination order says "sub judice"."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from candidates.models import Nomination
from candidates.services.nominations import nominations_call
from tests.builders import make_cast, make_classified_position, make_contest, publish_final
from tests.declarations.courts_world import make_court_order
from tests.declarations.test_browser_case import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_a_court_order_keeps_a_seat_is_complied_with_confirmed_and_the_nomination_is_sub_judice(
    page, live_server, settings
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    cast = make_cast()
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=5,
        by=cast["clerk"],
        act_number="Portaria 10/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=5),
    )
    n2 = position.registrations.get(number="N2")
    n2.candidate.email = "n2@example.org"
    n2.candidate.save()
    order = make_court_order(contest, cast["legal"], [n2])
    base = live_server.url
    order_url = base + order.get_absolute_url()

    login(page, order_url, "legal")
    page.get_by_role("link", name="Cumprir a ordem").click()
    # Waited for, not read from content(): the click does not wait for the new page.
    page.get_by_text("vaga reservada por ordem judicial").first.wait_for()
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ACTIVE
    page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(order_url)
    assert "Ordem cumprida." in page.content()
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ON_HOLD
    assert mail.outbox[-1].subject.startswith("Vaga reservada por ordem judicial")

    page.get_by_label("Nova situação").select_option("confirmed")
    page.get_by_label("Data da decisão que muda a situação").fill(f"{timezone.localdate():%d/%m/%Y}")
    page.locator("textarea[name=note]").fill("Sentença que confirma a liminar.")
    page.get_by_role("button", name="Mudar a situação").click()
    page.wait_for_url(order_url)
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ACTIVE
    assert mail.outbox[-1].subject.startswith("Fim da reserva judicial: posse")

    page.goto(base + reverse("public:nominations", args=[contest.slug, position.pk]))
    public = page.content()
    assert "Nomeação ativa (aguardando posse) (sub judice)" in public
    assert order.case_number not in public and order.body not in public
