"""The procedure's services: open, notify (the e-mail really goes out), each act through the state machine,
attachments checked by content, private links, and the effect of a final decision of falsity on the seats."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call, nominations_preview
from declarations import links
from declarations.models import Procedure, ProcedureAct, ProcedureLink
from declarations.procedure import rules, services
from tests.builders import make_classified_position, make_contest, make_registration, publish_final

pytestmark = pytest.mark.django_db
D = datetime.date
Act = rules.Act
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def pdf(name="defesa.pdf"):
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


def at(day: datetime.date, hour: int = 12) -> datetime.datetime:
    from django.utils import timezone

    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


@pytest.fixture
def registration():
    return make_registration(racial_category="parda")


OPENED_ON = D(2026, 3, 2)


def open_case(registration, legal, today=OPENED_ON, **kw):
    data = {"origin": Procedure.Origin.EX_OFFICIO, "facts": "Indícios de falsidade na autodeclaração."}
    data.update(kw)
    return services.procedure_open(registration=registration, by=legal, today=today, **data)


def test_open_numbers_per_year_from_the_database(registration, cast):
    first = open_case(registration, cast["legal"])
    # Other registrations: one registration has one procedure in progress per origin (issue 25 N9).
    second = open_case(make_registration(racial_category="parda"), cast["legal"])
    next_year = open_case(make_registration(racial_category="parda"), cast["legal"], today=D(2027, 1, 4))
    assert [str(first), str(second), str(next_year)] == ["PA nº 1/2026", "PA nº 2/2026", "PA nº 1/2027"]
    assert first.history.first().history_user == cast["legal"]
    (opening,) = first.acts.all()
    assert (opening.kind, opening.on, opening.by) == (Act.OPENING, D(2026, 3, 2), cast["legal"])
    assert first.policy == rules.Policy()  # Santa Maria's policy: the defaults


def test_open_refuses_a_registration_without_self_declaration(cast):
    with pytest.raises(ValidationError, match="não tem autodeclaração"):
        open_case(make_registration(), cast["legal"])
    assert not Procedure.objects.exists()


def test_open_on_complaint_keeps_the_complainant(registration, cast):
    with pytest.raises(ValidationError, match="identifique o denunciante"):
        open_case(registration, cast["legal"], origin=Procedure.Origin.COMPLAINT)
    case = open_case(
        registration, cast["legal"], origin=Procedure.Origin.COMPLAINT, complainant="Fulano, CPF …"
    )
    assert case.complainant == "Fulano, CPF …"


def test_art26_email_notice_goes_out_with_a_private_link_and_starts_nothing_until_acknowledged(
    registration, cast, django_capture_on_commit_callbacks
):
    registration.candidate.email = "candidata@example.org"
    registration.candidate.save()
    case = open_case(registration, cast["legal"])
    with django_capture_on_commit_callbacks(execute=True):
        act = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="email")
    act.refresh_from_db()
    assert (act.delivery, act.delivery_attempts, act.on) == (ProcedureAct.Delivery.SENT, 1, None)
    (message,) = mail.outbox
    assert message.to == ["candidata@example.org"] and "PA nº 1/2026" in message.subject
    link = ProcedureLink.objects.get(procedure=case)
    token = message.body.split("/processo/")[1].split("/")[0]
    assert links.link_resolve(token, now=at(D(2026, 3, 4))) == link
    assert token not in link.token_hash  # only the hash is kept
    with pytest.raises(ValidationError, match="ainda não foi intimado"):
        services.candidate_file(
            link=link, kind="defence", text="Sou parda.", uploads=[], now=at(D(2026, 3, 4))
        )
    services.notice_acknowledge(act=act, on=D(2026, 3, 6), by=None)
    defence = services.candidate_file(
        link=link, kind="defence", text="Sou parda.", uploads=[pdf()], now=at(D(2026, 3, 16))
    )
    assert defence.filed_by.endswith("(candidato)") and defence.attachments.get().sha256


def test_art26_notice_by_email_needs_an_address(registration, cast):
    case = open_case(registration, cast["legal"])
    with pytest.raises(ValidationError, match="não tem e-mail"):
        services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="email")


def test_art26_par4_gazette_only_when_the_candidate_cannot_be_found(registration, cast):
    case = open_case(registration, cast["legal"])
    with pytest.raises(ValidationError, match="não é localizado"):
        services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="gazette")
    act = services.notice_send(
        procedure=case,
        by=cast["legal"],
        today=D(2026, 3, 3),
        means="gazette",
        candidate_unreachable=True,
        gazette_edition="1.234",
        gazette_page="7",
    )
    assert (act.on, act.gazette_edition, act.gazette_page) == (D(2026, 3, 3), "1.234", "7")


def test_rules5_tacit_acknowledgement_refused_without_legal_basis(registration, cast):
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    case = open_case(registration, cast["legal"])
    act = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="email")
    assert act.delivery == ProcedureAct.Delivery.QUEUED  # sent after the commit
    with pytest.raises(ValidationError, match="base legal"):
        services.notice_acknowledge_tacitly(act=act, by=cast["legal"], today=D(2026, 4, 1))


def test_art66_a_late_defence_is_refused_with_the_day_the_period_ended_and_changes_nothing(
    registration, cast
):
    case = open_case(registration, cast["legal"])
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 6), means="in_person")
    link, _token = links.link_issue(
        procedure=case, holder="candidate", name="Candidata", by=cast["legal"], now=at(D(2026, 3, 6))
    )
    # Fri 2026-03-06 + 10 days = Mon 2026-03-16.
    with pytest.raises(ValidationError, match="terminou em 16/03/2026"):
        services.candidate_file(
            link=link, kind="defence", text="Tarde.", uploads=[pdf()], now=at(D(2026, 3, 17), 9)
        )
    assert case.acts.count() == 2


def test_attachments_are_checked_by_content_not_by_name(registration, cast, settings):
    case = open_case(registration, cast["legal"])
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 6), means="in_person")
    fake = SimpleUploadedFile("defesa.pdf", b"MZ\x90\x00 not a pdf", content_type="application/pdf")
    with pytest.raises(ValidationError, match="não é PDF nem imagem"):
        services.act_record(
            procedure=case, kind="evidence", by=cast["legal"], today=D(2026, 3, 7), text="x", uploads=[fake]
        )
    settings.PROCEDURE_ATTACHMENT_MAX_BYTES = 10
    with pytest.raises(ValidationError, match="o limite é"):
        services.act_record(
            procedure=case, kind="evidence", by=cast["legal"], today=D(2026, 3, 7), text="x", uploads=[pdf()]
        )
    assert case.acts.count() == 2


def test_links_altered_expired_or_revoked_are_refused(registration, cast):
    case = open_case(registration, cast["legal"])
    link, token = links.link_issue(
        procedure=case, holder="candidate", name="C", by=cast["legal"], now=at(D(2026, 3, 6))
    )
    with pytest.raises(links.LinkError, match="não é válido"):
        links.link_resolve(token[:-2] + "xx", now=at(D(2026, 3, 7)))
    with pytest.raises(links.LinkError, match="expirou"):
        links.link_resolve(token, now=at(D(2027, 3, 7)))
    links.link_revoke(link=link, by=cast["legal"], now=at(D(2026, 3, 8)))
    with pytest.raises(links.LinkError, match="revogado"):
        links.link_resolve(token, now=at(D(2026, 3, 9)))


def test_art3_iv_a_representative_needs_a_power_of_attorney_and_gets_a_link(registration, cast):
    case = open_case(registration, cast["legal"])
    link, _ = links.link_issue(procedure=case, holder="candidate", name="C", by=None, now=at(D(2026, 3, 6)))
    rep, token = services.representative_name(
        link=link,
        name="Dra. Advogada",
        email="adv@example.org",
        power_of_attorney=pdf("procuracao.pdf"),
        now=at(D(2026, 3, 7)),
    )
    assert (
        rep.holder == ProcedureLink.Holder.REPRESENTATIVE and rep.power_of_attorney.name == "procuracao.pdf"
    )
    assert links.link_resolve(token, now=at(D(2026, 3, 8))) == rep
    with pytest.raises(ValidationError, match="Só o próprio candidato"):
        services.representative_name(
            link=rep, name="Outro", email="", power_of_attorney=pdf(), now=at(D(2026, 3, 8))
        )


# A whole case on a nominee ---------------------------------------------------------------------------


@pytest.fixture
def nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    return position


def test_sm_art3_par3_a_final_decision_of_falsity_annuls_the_nomination_and_the_next_cotista_takes_the_seat(
    nominated, cast
):
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case = open_case(n2, legal, today=D(2026, 7, 1))

    def record(kind, day, **kw):
        return services.act_record(procedure=case, kind=kind, by=legal, today=day, **kw)

    with pytest.raises(ValidationError, match="ainda não foi intimado"):
        record("decision", D(2026, 7, 2), outcome="falsity", text="x")
    services.notice_send(procedure=case, by=legal, today=D(2026, 7, 2), means="in_person")
    record("defence", D(2026, 7, 6), text="Defesa escrita.", uploads=[pdf()])
    record("instruction_closed", D(2026, 7, 7))
    record("final_statement", D(2026, 7, 10), text="Alegações.")
    record("report", D(2026, 7, 13), text="Proponho a confirmação da falsidade.")
    record("decision", D(2026, 7, 14), outcome="falsity", text="Falsidade confirmada: fundamentos …")
    with pytest.raises(ValidationError, match="só se aplicam quando a decisão se torna definitiva"):
        services.effects_apply(procedure=case, by=legal, today=D(2026, 7, 14))
    services.notice_send(procedure=case, by=legal, today=D(2026, 7, 15), means="in_person")
    record("appeal", D(2026, 7, 20), text="Recorro.")
    record(
        "reconsideration", D(2026, 7, 22), outcome="falsity", text="Mantenho; encaminho à instância superior."
    )
    record("superior_decision", D(2026, 8, 3), outcome="falsity", text="Recurso desprovido.")
    services.notice_send(procedure=case, by=legal, today=D(2026, 8, 4), means="in_person")
    # Wed 2026-08-04 + 10 days = Fri 2026-08-14: final after it, not on it.
    with pytest.raises(ValidationError, match="14/08/2026"):
        record("final", D(2026, 8, 14))
    record("final", D(2026, 8, 17))
    case.refresh_from_db()
    assert (case.status, case.outcome) == (Procedure.Status.CLOSED, "falsity")

    result = services.effects_apply(procedure=case, by=legal, today=D(2026, 8, 17))
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED
    nomination = Nomination.objects.get(registration=n2)
    assert nomination.status == Nomination.Status.ANNULLED
    assert "nos termos do PA nº 1/2026" in result.public_act and n2.number in result.public_act
    preview = nominations_preview(position=nominated, count=1)
    assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]
    with pytest.raises(ValidationError, match="já foram aplicados"):
        services.effects_apply(procedure=case, by=legal, today=D(2026, 8, 18))
    services.prosecutor_referral_record(procedure=case, text="Ofício 12/2026 ao MP, 18/08/2026.", by=legal)
    with pytest.raises(ValidationError, match="encerrado"):
        record("evidence", D(2026, 8, 20), text="x")


def test_art26_a_second_means_while_the_email_waits_and_the_first_effect_counts(registration, cast):
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    case = open_case(registration, cast["legal"])
    email = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="email")
    with pytest.raises(ValidationError, match="por este meio aguardando"):
        services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 4), means="email")
    letter = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 4), means="letter")
    assert letter.on is None
    services.notice_acknowledge(act=letter, on=D(2026, 3, 9), by=cast["legal"], how="aviso de recebimento")
    with pytest.raises(ValidationError, match="já produziu efeito por outro meio"):
        services.notice_acknowledge(act=email, on=D(2026, 3, 12), by=None)
    email.refresh_from_db()
    assert email.on is None


def test_art41_a_hearing_needs_three_business_days_notice_counted_on_the_calendar(registration, cast):
    # RULES §6: hearing on Tue 2026-11-24, 20 November a national holiday → notice in effect by 2026-11-17.
    case = open_case(registration, cast["legal"], today=D(2026, 11, 3))
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 11, 3), means="in_person")
    hearing = {"hearing_on": D(2026, 11, 24), "hearing_time": datetime.time(10), "hearing_place": "Sala 1"}
    act = services.act_record(
        procedure=case, kind="hearing", by=cast["legal"], today=D(2026, 11, 5), text="Designada.", **hearing
    )
    assert act.hearing_on == D(2026, 11, 24)
    notify = {"procedure": case, "by": cast["legal"], "kind": "hearing_notice", "means": "in_person"}
    with pytest.raises(ValidationError, match="até 17/11/2026"):
        services.notice_send(today=D(2026, 11, 18), **notify)
    services.notice_send(today=D(2026, 11, 17), **notify)


def test_art26_a_notice_cannot_take_effect_before_the_procedure_was_opened(registration, cast):
    case = open_case(registration, cast["legal"])
    letter = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 3, 3), means="letter")
    with pytest.raises(ValidationError, match="anterior à instauração"):
        services.notice_acknowledge(
            act=letter, on=D(1900, 1, 1), by=cast["legal"], how="aviso de recebimento"
        )
    # Sent on 3 March: a receipt of 2 March (the opening's day) would take effect before the letter existed.
    with pytest.raises(ValidationError, match=r"anterior ao envio da carta \(03/03/2026\)"):
        services.notice_acknowledge(act=letter, on=OPENED_ON, by=cast["legal"], how="aviso de recebimento")
    letter.refresh_from_db()
    assert letter.on is None
    services.notice_acknowledge(act=letter, on=D(2026, 3, 3), by=cast["legal"], how="aviso de recebimento")
    letter.refresh_from_db()
    assert letter.on == D(2026, 3, 3)
