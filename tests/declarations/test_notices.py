"""One notice path for every notice (Lei 9.784 art. 26): a notice records the day it was issued and never
takes effect before it (a letter's receipt before the sending, an e-mail's acknowledgement before the message
was delivered, a gazette edition before the case was opened or the notice issued); refused with the reason,
nothing written."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from declarations.models import Procedure, ProcedureAct
from declarations.procedure import notices, rules, services
from tests.builders import make_registration
from tests.pages import post_form

pytestmark = pytest.mark.django_db
D = datetime.date
Act = rules.Act
Means = notices.Means
OPENED_ON = D(2026, 3, 2)
SENT_ON = D(2026, 3, 20)


def at(day: datetime.date, hour: int = 12) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


@pytest.fixture
def case(cast):
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "candidata@example.org"
    registration.candidate.save()
    return services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios de falsidade na autodeclaração.",
        by=cast["legal"],
        today=OPENED_ON,
    )


def effects(**kw) -> str:
    data = {"effect_on": SENT_ON, "issued_on": SENT_ON, "opened_on": OPENED_ON}
    return notices.notice_effect_refusal(**{**data, **kw})


# The pure rule ------------------------------------------------------------------------------------------


def test_art26_a_letter_takes_effect_no_earlier_than_the_day_it_was_sent():
    assert "não pode ser anterior ao envio da carta (20/03/2026)" in effects(
        means=Means.LETTER, effect_on=D(2026, 3, 2)
    )
    assert effects(means=Means.LETTER, effect_on=SENT_ON) == ""
    assert effects(means=Means.IN_PERSON, effect_on=D(2026, 3, 19)).startswith(
        "A ciência não pode ser anterior à expedição da intimação (20/03/2026)"
    )


def test_art26_par3_an_email_acknowledgement_recorded_by_staff_needs_the_delivery_and_never_precedes_it():
    assert "ainda não foi entregue" in effects(means=Means.EMAIL, delivered_on=None)
    assert "anterior à sua entrega (21/03/2026)" in effects(
        means=Means.EMAIL, effect_on=SENT_ON, delivered_on=D(2026, 3, 21)
    )
    assert effects(means=Means.EMAIL, effect_on=D(2026, 3, 21), delivered_on=D(2026, 3, 21)) == ""
    # The candidate's own acknowledgement through the link is the day they give it.
    assert effects(means=Means.EMAIL, delivered_on=None, staff_recorded=False) == ""
    assert "anterior à expedição" in effects(
        means=Means.EMAIL, effect_on=D(2026, 3, 19), delivered_on=None, staff_recorded=False
    )


def test_art26_par4_a_gazette_publication_is_dated_by_its_edition_after_the_opening_and_the_issue():
    assert "anterior à instauração do processo (02/03/2026)" in effects(
        means=Means.GAZETTE, effect_on=D(2026, 1, 5)
    )
    assert "anterior à expedição da intimação (20/03/2026)" in effects(
        means=Means.GAZETTE, effect_on=D(2026, 3, 19)
    )
    assert effects(means=Means.GAZETTE, effect_on=SENT_ON) == ""


# Through the services: refused with the reason, nothing written -----------------------------------------


def send(case, cast, **kw):
    return services.notice_send(procedure=case, by=cast["legal"], today=SENT_ON, **kw)


def assert_no_deadline_and_no_closing(case):
    from declarations.procedure.selectors import case_state

    state = case_state(case, today=D(2026, 4, 30))
    assert state.running == ()
    assert "ainda não foi intimado" in state.refusal(Act.INSTRUCTION_CLOSED)


def test_art26_a_letter_sent_on_20_march_with_a_receipt_of_2_march_is_refused_at_sending_and_later(
    case, cast
):
    with pytest.raises(ValidationError, match=r"anterior ao envio da carta \(20/03/2026\)"):
        send(case, cast, means="letter", received_on=D(2026, 3, 2))
    assert not case.acts.filter(kind=Act.NOTICE).exists()
    letter = send(case, cast, means="letter")
    assert (letter.issued_on, letter.on) == (SENT_ON, None)
    with pytest.raises(ValidationError, match=r"anterior ao envio da carta \(20/03/2026\)"):
        services.notice_acknowledge(
            act=letter, on=D(2026, 3, 2), by=cast["legal"], how="aviso de recebimento"
        )
    letter.refresh_from_db()
    assert letter.on is None
    assert_no_deadline_and_no_closing(case)
    services.notice_acknowledge(act=letter, on=D(2026, 3, 23), by=cast["legal"], how="aviso de recebimento")
    letter.refresh_from_db()
    assert letter.on == D(2026, 3, 23)


def test_art26_par3_an_email_acknowledgement_recorded_by_staff_before_its_delivery_is_refused(case, cast):
    email = send(case, cast, means="email")
    assert email.issued_on == SENT_ON
    with pytest.raises(ValidationError, match="ainda não foi entregue"):
        services.notice_acknowledge(act=email, on=SENT_ON, by=cast["legal"], how="registrada pelo jurídico")
    ProcedureAct.objects.filter(pk=email.pk).update(
        delivery=ProcedureAct.Delivery.SENT, delivered_at=at(SENT_ON)
    )
    email.refresh_from_db()
    with pytest.raises(ValidationError, match=r"anterior à sua entrega \(20/03/2026\)"):
        services.notice_acknowledge(act=email, on=D(2026, 3, 2), by=cast["legal"], how="registrada")
    email.refresh_from_db()
    assert email.on is None
    assert_no_deadline_and_no_closing(case)
    services.notice_acknowledge(act=email, on=D(2026, 3, 21), by=cast["legal"], how="registrada")
    email.refresh_from_db()
    assert email.on == D(2026, 3, 21)


def test_art26_par4_a_gazette_edition_of_5_january_for_a_case_opened_on_2_march_is_refused(case, cast):
    gazette = {
        "means": "gazette",
        "candidate_unreachable": True,
        "gazette_edition": "1.234",
        "gazette_page": "7",
    }
    with pytest.raises(ValidationError, match=r"anterior à instauração do processo \(02/03/2026\)"):
        send(case, cast, published_on=D(2026, 1, 5), **gazette)
    with pytest.raises(ValidationError, match=r"anterior à expedição da intimação \(20/03/2026\)"):
        send(case, cast, published_on=D(2026, 3, 19), **gazette)
    assert not case.acts.filter(kind=Act.NOTICE).exists()
    assert_no_deadline_and_no_closing(case)
    act = send(case, cast, published_on=SENT_ON, **gazette)
    assert (act.issued_on, act.on) == (SENT_ON, SENT_ON)


def test_art26_the_notice_path_takes_any_notice_kind_and_refuses_another_act(case, cast):
    with pytest.raises(ValidationError, match="não é uma intimação"):
        send(case, cast, means="in_person", kind="evidence")
    with pytest.raises(ValidationError, match="ainda não foi intimado"):
        send(case, cast, means="in_person", kind="decision_notice")
    act = send(case, cast, means="in_person", kind="notice")
    assert (act.kind, act.issued_on, act.on) == (Act.NOTICE, SENT_ON, SENT_ON)


def test_art26_a_receipt_before_the_sending_is_refused_on_the_case_page(client_for, case, cast):
    letter = send(case, cast, means="letter")
    page = reverse("declarations:detail", args=[case.year, case.number])
    response = post_form(client_for("legal"), page, {"on": "02/03/2026"}, follow=True)
    assert "anterior ao envio da carta (20/03/2026)" in response.content.decode()
    letter.refresh_from_db()
    assert letter.on is None
    assert "expedida em 20/03/2026" in response.content.decode()
