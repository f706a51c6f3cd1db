"""One notice path for every notice (Lei 9.784 art. 26): a notice records the day it was issued and never
takes effect before it (a letter's receipt before the sending, an e-mail's acknowledgement before the message
was delivered, a gazette edition before the case was opened or the notice issued); refused with the reason,
nothing written."""

from __future__ import annotations

import datetime
import subprocess

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


def pdf_text(data: bytes) -> str:
    result = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(result.stdout.decode().replace("\u2010\n", "").split())


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


# P2: the closing of the instruction is notified; art. 44 counts from that notice ------------------------

POLICY = rules.Policy()


def records(*items) -> tuple[rules.ActRecord, ...]:
    return tuple(rules.ActRecord(kind, on) for kind, on in items)


CLOSED_UNNOTIFIED = records(
    (Act.OPENING, D(2026, 3, 2)),
    (Act.NOTICE, D(2026, 3, 6)),
    (Act.DEFENCE, D(2026, 3, 10)),
    (Act.INSTRUCTION_CLOSED, D(2026, 3, 20)),
)


def test_art44_the_final_statement_period_counts_from_the_closing_notice_not_the_closing_act():
    periods = rules.running_periods(CLOSED_UNNOTIFIED, POLICY)
    assert rules.Period.FINAL_STATEMENT not in periods
    assert periods[rules.Period.DECISION].start == D(2026, 3, 20)  # art. 49: from the closing itself
    notified = (*CLOSED_UNNOTIFIED, rules.ActRecord(Act.CLOSING_NOTICE, D(2026, 3, 25)))
    start = rules.running_periods(notified, POLICY)[rules.Period.FINAL_STATEMENT]
    assert (start.start, start.amount) == (D(2026, 3, 25), 10)


def test_art44_the_report_waits_for_the_closing_notice_eleven_days_after_an_unnotified_closing():
    eleven_days_later = D(2026, 3, 31)
    assert rules.refusal(Act.REPORT, CLOSED_UNNOTIFIED, POLICY, today=eleven_days_later, ends={}) == (
        rules.CLOSING_NOT_NOTIFIED
    )
    assert Act.CLOSING_NOTICE in rules.allowed(CLOSED_UNNOTIFIED, POLICY, today=eleven_days_later, ends={})
    pending = (*CLOSED_UNNOTIFIED, rules.ActRecord(Act.CLOSING_NOTICE, None))
    assert (
        rules.refusal(Act.REPORT, pending, POLICY, today=eleven_days_later, ends={})
        == rules.CLOSING_NOT_NOTIFIED
    )
    notified = (*CLOSED_UNNOTIFIED, rules.ActRecord(Act.CLOSING_NOTICE, D(2026, 3, 25)))
    ends = {rules.Period.FINAL_STATEMENT: D(2026, 4, 6)}
    assert "06/04/2026" in rules.refusal(Act.REPORT, notified, POLICY, today=D(2026, 4, 6), ends=ends)
    assert rules.refusal(Act.REPORT, notified, POLICY, today=D(2026, 4, 7), ends=ends) == ""
    assert rules.refusal(Act.CLOSING_NOTICE, notified, POLICY, today=D(2026, 4, 7), ends=ends) == (
        rules.CLOSING_NOTICE_DONE
    )
    # The candidate who files the final statement shows they knew of the closing (art. 26 §5º).
    stated = (*CLOSED_UNNOTIFIED, rules.ActRecord(Act.FINAL_STATEMENT, D(2026, 3, 22)))
    assert rules.refusal(Act.REPORT, stated, POLICY, today=D(2026, 3, 23), ends={}) == ""


def record(case, cast, kind, day, **kw):
    return services.act_record(procedure=case, kind=kind, by=cast["legal"], today=day, **kw)


def test_art44_a_closing_notified_in_person_starts_the_final_statement_and_the_report_waits(case, cast):
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="in_person")
    record(case, cast, "defence", D(2026, 3, 5), text="Defesa.")
    record(case, cast, "instruction_closed", D(2026, 3, 10), text="Encerrada a instrução.")
    with pytest.raises(ValidationError, match="ainda não foi intimado ao candidato"):
        record(case, cast, "report", D(2026, 3, 21), text="Proposta.")
    with pytest.raises(ValidationError, match=r"anterior ao envio da carta \(12/03/2026\)"):
        services.notice_send(
            procedure=case,
            by=cast["legal"],
            today=D(2026, 3, 12),
            kind="closing_notice",
            means="letter",
            received_on=D(2026, 3, 11),
        )
    notice = services.notice_send(
        procedure=case, by=cast["legal"], today=D(2026, 3, 12), kind="closing_notice", means="in_person"
    )
    assert (notice.kind, notice.issued_on, notice.on) == (Act.CLOSING_NOTICE, D(2026, 3, 12), D(2026, 3, 12))
    assert "alegações finais" in pdf_text(bytes(notice.document.pdf))
    # 12 March + 10 days = Sunday 22 March → Monday 23 March (art. 66 §1º).
    with pytest.raises(ValidationError, match="23/03/2026"):
        record(case, cast, "report", D(2026, 3, 23), text="Proposta.")
    record(case, cast, "report", D(2026, 3, 24), text="Proposta.")


def test_art3_iii_closing_the_instruction_while_the_defence_runs_is_explained_on_the_case_page(
    client_for, case, cast
):
    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")
    page = client_for("legal").get(reverse("declarations:detail", args=[case.year, case.number]))
    body = page.content.decode()
    assert "Encerramento da instrução:</strong> A defesa ainda não foi apresentada" in body


# P3: a hearing has date, time and place; its notice's effect counts for art. 41 ------------------------


HEARING_DAY = D(2026, 11, 24)  # Tuesday; 20 November a holiday → notice in effect by Tue 17 November


@pytest.fixture
def november_case(cast):
    registration = make_registration(racial_category="parda")
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios.",
        by=cast["legal"],
        today=D(2026, 11, 3),
    )
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 11, 3), means="in_person")
    return case


DESIGNATED_ON = D(2026, 11, 10)


def designate(case, cast, kind="hearing", day=DESIGNATED_ON, **kw):
    data = {"hearing_on": HEARING_DAY, "hearing_time": datetime.time(14, 30), "hearing_place": "Sala 3"}
    return record(case, cast, kind, day, text="Oitiva da candidata.", **{**data, **kw})


def test_art41_a_hearing_is_designated_with_its_date_time_and_place(november_case, cast):
    with pytest.raises(ValidationError, match="hora"):
        designate(november_case, cast, hearing_time=None)
    with pytest.raises(ValidationError, match="local"):
        designate(november_case, cast, hearing_place=" ")
    act = designate(november_case, cast)
    assert (act.hearing_on, act.hearing_time, act.hearing_place) == (
        HEARING_DAY,
        datetime.time(14, 30),
        "Sala 3",
    )


def test_art41_the_three_business_days_count_from_the_hearing_notices_effect_not_the_day_it_was_typed(
    november_case, cast
):
    designate(november_case, cast, day=D(2026, 11, 10))  # typed on 10 November: early enough by itself
    letter = services.notice_send(
        procedure=november_case,
        by=cast["legal"],
        today=D(2026, 11, 12),
        kind="hearing_notice",
        means="letter",
    )
    with pytest.raises(ValidationError, match=r"até 17/11/2026.*produziria efeito em 18/11/2026"):
        services.notice_acknowledge(
            act=letter, on=D(2026, 11, 18), by=cast["legal"], how="aviso de recebimento"
        )
    letter.refresh_from_db()
    assert letter.on is None
    services.notice_acknowledge(act=letter, on=D(2026, 11, 17), by=cast["legal"], how="aviso de recebimento")
    letter.refresh_from_db()
    assert letter.on == D(2026, 11, 17)
    with pytest.raises(ValidationError, match="já foi intimado da audiência"):
        services.notice_send(
            procedure=november_case,
            by=cast["legal"],
            today=D(2026, 11, 18),
            kind="hearing_notice",
            means="in_person",
        )


def test_art41_a_hearing_notice_in_person_too_late_is_refused(november_case, cast):
    designate(november_case, cast)
    with pytest.raises(ValidationError, match="até 17/11/2026"):
        services.notice_send(
            procedure=november_case,
            by=cast["legal"],
            today=D(2026, 11, 18),
            kind="hearing_notice",
            means="in_person",
        )
    assert not november_case.acts.filter(kind=Act.HEARING_NOTICE).exists()


def test_art41_a_hearing_notice_needs_a_hearing_or_diligence_designated(november_case, cast):
    with pytest.raises(ValidationError, match="Não há audiência nem diligência designada"):
        services.notice_send(
            procedure=november_case,
            by=cast["legal"],
            today=D(2026, 11, 5),
            kind="hearing_notice",
            means="in_person",
        )


def test_art41_a_diligence_ordered_by_the_authority_is_notified_with_its_date_time_and_place(
    november_case, cast
):
    designate(november_case, cast, kind="diligence", hearing_place="Arquivo municipal, Rua A, 10")
    notice = services.notice_send(
        procedure=november_case,
        by=cast["legal"],
        today=D(2026, 11, 12),
        kind="hearing_notice",
        means="in_person",
    )
    text = pdf_text(bytes(notice.document.pdf))
    assert "Intimação de audiência ou diligência" in text
    assert "24 de novembro de 2026, às 14:30, em Arquivo municipal, Rua A, 10" in text
    assert "Diligência ou prova determinada" in text


# Art. 66 §1º: a closure in the morning only is a business day unless a municipal norm says otherwise -----


def test_art66_par1_a_morning_only_closure_does_not_extend_a_deadline_unless_the_municipality_says_so():
    from contests.models import Holiday, Organization
    from declarations import deadlines
    from declarations.calendars import organization_calendar

    organization = Organization.objects.create(name="Prefeitura", municipality="Santa Maria", state="RS")
    Holiday.objects.create(
        date=D(2026, 3, 16), name="Ponto facultativo pela manhã", kind="closure", period="morning"
    )
    Holiday.objects.create(
        date=D(2026, 3, 17), name="Expediente até o meio-dia", kind="closure", period="afternoon"
    )

    def last_day(start):
        return deadlines.deadline(start, 10, deadlines.Unit.DAYS, organization_calendar([2026])).last_day

    assert last_day(D(2026, 3, 6)) == D(2026, 3, 16)  # opened in the afternoon: a business day
    assert last_day(D(2026, 3, 7)) == D(2026, 3, 18)  # closed early (art. 66 §1º): moves on
    organization.morning_closure_extends_deadlines = True
    organization.save()
    assert last_day(D(2026, 3, 6)) == D(2026, 3, 18)
