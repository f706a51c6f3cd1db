"""Court orders through their screens (issue 22): Jurídico records an order (its CNJ number checked, its
court decoded, its file kept in private storage), changes its status by the allowed moves, and the clerk's
Pendências lists the orders vigentes by compliance due day. Everything audited; nothing public."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from contests.models import AccessLog
from declarations.courts import services
from declarations.models import CourtOrder
from tests.builders import make_contest, make_position, make_registration
from tests.declarations.courts_world import CASE_NUMBER, PDF, make_court_order
from tests.pages import forms_on, post_form

CREATE = reverse("declarations:court_order_create")


def fill(contest, **overrides) -> dict:
    today = timezone.localdate()
    data = {
        "contest": str(contest.pk),
        "case_number": CASE_NUMBER,
        "court": "",
        "body": "1ª Vara Federal de Santa Maria",
        "kind": "urgent_relief",
        "decided_on": f"{today - datetime.timedelta(days=2):%d/%m/%Y}",
        "notified_on": f"{today - datetime.timedelta(days=1):%d/%m/%Y}",
        "summary": "Reincluir os autores nas listas de classificação.",
        "file": SimpleUploadedFile("decisao.pdf", PDF, content_type="application/pdf"),
        "compliance_days": "10",
        "compliance_unit": "days",
        "effect": "reinclude_lists",
        "scope": "group",
        "position": "",
        "list_name": "",
        "numbers": "",
        "duration": "further_decision",
        "until": "",
    }
    return data | overrides


def errors(response) -> str:
    return response.content.decode()


def test_juridico_records_a_collective_order_with_its_court_decoded(client_for, cast):
    position = make_position(make_contest())
    first, second = make_registration(position), make_registration(position)
    client = client_for("legal")
    response = post_form(
        client,
        CREATE,
        fill(position.contest, numbers=f"{first.number}\n{second.number}"),
        containing="case_number",
    )
    order = CourtOrder.objects.get()
    assert response.status_code == 302 and response["Location"] == order.get_absolute_url()
    assert order.court == "Tribunal Regional Federal da 4ª Região (TRF4)"
    assert order.court_code == "4.04"
    assert set(order.registrations.all()) == {first, second}
    assert order.status == "in_force"
    assert {h.history_user for h in order.history.all()} == {cast["legal"]}
    reasons = list(order.history.order_by("history_id").values_list("history_change_reason", flat=True))
    assert reasons == [
        "Ordem judicial registrada",  # then the candidates it reaches (the m2m's own history row)
        f"Candidatos alcançados: {first.number}, {second.number}",
    ]
    page = client.get(order.get_absolute_url()).content.decode()
    assert "Tribunal Regional Federal da 4ª Região" in page
    due = timezone.localdate() - datetime.timedelta(days=1) + datetime.timedelta(days=10)
    assert "Último dia" in page
    assert order.file.name and not Path(settings.MEDIA_ROOT, order.file.name).exists()
    assert AccessLog.objects.filter(
        user=cast["legal"],
        action="view",
        content_type=ContentType.objects.get_for_model(CourtOrder),
        object_id=str(order.pk),
    ).exists()
    listing = client.get(reverse("declarations:court_orders")).content.decode()
    assert order.case_number in listing
    assert due.year >= 2026


def test_invalid_check_digits_refused_with_the_reason_nothing_recorded(client_for):
    position = make_position(make_contest())
    registration = make_registration(position)
    client = client_for("legal")
    response = post_form(
        client,
        CREATE,
        fill(position.contest, case_number="5046512-95.2016.4.04.7000", numbers=registration.number),
        containing="case_number",
    )
    assert response.status_code == 200
    assert "Dígito verificador inválido: 95 não confere" in errors(response)
    assert not CourtOrder.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"case_number": "0000001-00.2024.8.28.0001"}, "TR é o estado"),
        ({"decided_on": "01/01/1800"}, "01/01/1800"),
        (
            {"notified_on": "01/01/2016", "decided_on": "02/01/2016"},
            "A intimação não pode ser anterior à decisão",
        ),
        ({"numbers": "inexistente"}, "não tem a inscrição inexistente"),
        ({"scope": "contest"}, "recai sobre candidatos"),
        ({"duration": "until_date"}, "Informe até quando a ordem vigora"),
        ({"compliance_days": "4000"}, "3650"),
    ],
)
def test_bad_orders_refused_in_portuguese(client_for, overrides, message):
    position = make_position(make_contest())
    registration = make_registration(position)
    data = fill(position.contest, numbers=registration.number) | overrides
    if data["scope"] == "contest":
        data["numbers"] = ""
    response = post_form(client_for("legal"), CREATE, data, containing="case_number")
    assert response.status_code == 200
    page = errors(response)
    assert message in page or message.replace("/", "&#x2F;") in page, page[:0]
    assert not CourtOrder.objects.exists()


def test_a_date_beyond_the_bounds_is_refused_by_the_form(client_for):
    position = make_position(make_contest())
    response = post_form(
        client_for("legal"),
        CREATE,
        fill(position.contest, effect="suspend_act", scope="contest", decided_on="01/01/1800"),
        containing="case_number",
    )
    assert response.status_code == 200
    assert 'aria-invalid="true"' in response.content.decode()
    assert not CourtOrder.objects.exists()


def test_status_moves_through_the_page_and_a_final_status_never_changes(client_for, cast):
    position = make_position(make_contest())
    registration = make_registration(position)
    order = make_court_order(position.contest, cast["legal"], [registration])
    client = client_for("legal")
    url = order.get_absolute_url()
    today = f"{timezone.localdate():%d/%m/%Y}"
    response = post_form(
        client,
        url,
        {"status": "confirmed", "decided_on": today, "note": "Sentença que confirmou a liminar."},
    )
    assert response.status_code == 302
    order.refresh_from_db()
    assert order.status == "confirmed"
    # A confirmed order cannot be vigente again: the page offers only the allowed moves.
    form = next(f for f in forms_on(client.get(url).content.decode()) if "status" in f.controls)
    assert form.controls["status"].options == ["revoked", "reformed", "final"]
    post_form(
        client, url, {"status": "reformed", "decided_on": today, "note": "Acórdão que reformou a sentença."}
    )
    order.refresh_from_db()
    assert order.status == "reformed"
    page = client.get(url).content.decode()
    assert not [f for f in forms_on(page) if "status" in f.controls]
    assert "situação definitiva" in page
    with pytest.raises(ValidationError, match="definitiva"):
        services.court_order_status(
            order=order,
            status="final",
            decided_on=timezone.localdate(),
            note="x",
            by=cast["legal"],
            today=timezone.localdate(),
        )
    reasons = [h.history_change_reason for h in order.history.order_by("history_date")]
    assert reasons[-2:] == ["Situação: Vigente → Confirmada", "Situação: Confirmada → Reformada"]


def test_status_decision_before_the_order_refused(client_for, cast):
    position = make_position(make_contest())
    order = make_court_order(position.contest, cast["legal"], [make_registration(position)])
    response = post_form(
        client_for("legal"),
        order.get_absolute_url(),
        {"status": "revoked", "decided_on": "01/01/2020", "note": "Decisão."},
    )
    assert response.status_code == 200
    assert "não pode ser anterior à própria ordem" in response.content.decode()
    order.refresh_from_db()
    assert order.status == "in_force"


def test_the_decision_file_is_downloaded_by_readers_and_logged(client_for, cast):
    position = make_position(make_contest())
    order = make_court_order(position.contest, cast["legal"], [make_registration(position)])
    client = client_for("auditor")
    response = client.get(reverse("declarations:court_order_file", args=[order.pk]))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert "no-store" in response["Cache-Control"]
    assert AccessLog.objects.filter(
        user=cast["auditor"],
        action="download",
        detail="decisao.pdf",
        content_type=ContentType.objects.get_for_model(CourtOrder),
        object_id=str(order.pk),
    ).exists()


def test_clerks_pendencias_list_vigentes_orders_by_compliance_due_day(client_for, cast):
    contest = make_contest()
    position = make_position(contest)
    today = timezone.localdate()
    later = make_court_order(
        contest,
        cast["legal"],
        [make_registration(position)],
        case_number="5021365-32.2017.4.04.7000",
        compliance_days=30,
        compliance_unit="days",
    )
    # Notified ten days ago with one day to comply: past due whatever the weekday and the holidays (two
    # days ago, it was not yet due on a Sunday or a Monday, its day moved past the weekend).
    sooner = make_court_order(
        contest,
        cast["legal"],
        [make_registration(position)],
        decided_on=today - datetime.timedelta(days=12),
        notified_on=today - datetime.timedelta(days=10),
        compliance_days=1,
        compliance_unit="days",
    )
    revoked = make_court_order(
        contest, cast["legal"], [make_registration(position)], case_number="5063130-17.2016.4.04.7000"
    )
    services.court_order_status(
        order=revoked, status="revoked", decided_on=today, note="Revogada.", by=cast["legal"], today=today
    )
    page = client_for("clerk").get(reverse("home")).content.decode()
    assert "Ordens judiciais vigentes, pelo prazo de cumprimento" in page
    assert page.index(sooner.case_number) < page.index(later.case_number)
    assert "5063130-17.2016.4.04.7000" not in page
    assert "prazo de cumprimento venceu em" in page
