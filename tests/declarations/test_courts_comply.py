"""Complying with a court order through its screens (issue 22): Jurídico opens "Cumprir a ordem" on the
order's page, reads what compliance will do (the service rehearsed, nothing written), then "Confirmar"
complies in one transaction and returns to the order."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils import timezone

from candidates.models import Nomination
from candidates.services.nominations import nominations_call
from declarations.models import CourtOrderEffect
from tests.builders import make_classified_position, make_contest, publish_final
from tests.declarations.courts_world import make_court_order
from tests.pages import forms_on

DAY = datetime.timedelta(days=1)


def nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=5,
        by=cast["clerk"],
        act_number="Portaria 10/2026",
        act_date=timezone.localdate() - 10 * DAY,
    )
    return position


def confirm(client, response):
    path = response.wsgi_request.path
    (form,) = [
        f for f in forms_on(response.content.decode()) if f.method == "post" and f.action in ("", path)
    ]
    return client.post(form.action or response.wsgi_request.path, form.values)


def test_keep_seat_order_shows_the_hold_then_confirmar_holds_the_nomination(client_for, cast):
    position = nominated(cast)
    n2 = position.registrations.get(number="N2")
    order = make_court_order(position.contest, cast["legal"], [n2])  # keep the seat
    client = client_for("legal")
    url = reverse("declarations:court_order_comply", args=[order.pk])
    detail = client.get(order.get_absolute_url()).content.decode()
    assert f'href="{url}"' in detail and "Cumprir a ordem" in detail
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Inscrição nº N2" in page and "continua “ativa”" in page
    assert (
        "inscrição nº N2): de “nomeação ativa (aguardando posse)” a “vaga reservada por ordem judicial"
        in page
    )
    # Reading it changed nothing.
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ACTIVE
    assert not CourtOrderEffect.objects.exists()
    done = confirm(client, response)
    assert done.status_code == 302 and done["Location"] == order.get_absolute_url()
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ON_HOLD
    assert CourtOrderEffect.objects.get(order=order).events == ["court_hold"]
    after = client.get(order.get_absolute_url()).content.decode()
    assert "Ordem cumprida." in after and f'href="{url}"' not in after
    # Pendências: no longer "cumprir até", never overdue; followed until a new decision.
    home = client.get(reverse("home")).content.decode()
    today = timezone.localdate()
    assert f"cumprida em {today:%d/%m/%Y}; vigente, à espera de nova decisão" in home
    assert "cumprir até" not in home and "prazo de cumprimento venceu" not in home


def test_an_order_complied_with_elsewhere_is_refused_with_the_reason(client_for, cast):
    position = nominated(cast)
    order = make_court_order(position.contest, cast["legal"])  # suspend an act: its own screen
    client = client_for("legal")
    assert "Cumprir a ordem" not in client.get(order.get_absolute_url()).content.decode()
    page = client.get(reverse("declarations:court_order_comply", args=[order.pk])).content.decode()
    assert "A ordem não pode ser cumprida aqui agora" in page and "tela própria" in page
    assert "Confirmar" not in page


def test_only_juridico_complies(client_for, cast):
    position = nominated(cast)
    order = make_court_order(position.contest, cast["legal"], [position.registrations.get(number="N2")])
    client = client_for("clerk")
    assert "Cumprir a ordem" not in client.get(order.get_absolute_url()).content.decode()
    assert client.get(reverse("declarations:court_order_comply", args=[order.pk])).status_code == 403
