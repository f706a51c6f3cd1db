"""The appeal through the services and the screens: a third party's appeal (Lei 9.784 arts. 58, 62, 64 sole
paragraph), a late appeal recorded and declared not heard (arts. 48, 63), the ex officio review (art. 63
§2º), the reconsideration's choices and the decision's required motivation (arts. 50, 56 §1º)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from declarations import links
from declarations.models import Procedure, ProcedureAct, ProcedureLink
from declarations.procedure import rules, services
from declarations.procedure.selectors import case_state
from tests.builders import make_registration
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db
D = datetime.date


def at(day: datetime.date, hour: int = 12) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def reported(legal, day: datetime.date) -> Procedure:
    """A case with the report joined on ``day``, every act that day."""
    registration = make_registration(racial_category="parda")
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.COMPLAINT,
        complainant="Maria, próxima cotista",
        facts="Denúncia.",
        by=legal,
        today=day,
    )
    services.notice_send(procedure=case, by=legal, today=day, means="in_person")

    def record(kind, **kw):
        return services.act_record(procedure=case, kind=kind, by=legal, today=day, **kw)

    record("defence", text="Sou parda.")
    record("instruction_closed")
    record("final_statement", text="Reitero.")
    record("report", text="Proposta.")
    return case


def decided(legal, outcome: str, day: datetime.date) -> Procedure:
    """A case decided (``outcome``) and notified in person on ``day``, every act that day."""
    case = reported(legal, day)
    services.act_record(
        procedure=case, kind="decision", by=legal, today=day, outcome=outcome, text="Fundamentos."
    )
    services.notice_send(procedure=case, by=legal, today=day, means="in_person")
    return case


def candidate_link(case, legal, now) -> ProcedureLink:
    link, _token = links.link_issue(
        procedure=case, holder=ProcedureLink.Holder.CANDIDATE, name="Candidata", by=legal, now=now
    )
    return link


def test_art62_art64_a_third_partys_appeal_is_notified_and_answered_before_a_change_for_the_worse(cast):
    legal = cast["legal"]
    # Thu 16 April 2026: the answer's 5 business days skip Tiradentes (Tue 21) → Fri 24 April.
    case = decided(legal, "dismissed", D(2026, 4, 14))
    appeal = services.act_record(
        procedure=case,
        kind="appeal",
        by=legal,
        today=D(2026, 4, 15),
        text="A candidata não tem fenótipo pardo.",
        filed_by="Maria Souza, próxima cotista",
        standing="affected",
    )
    assert appeal.record().third_party and appeal.get_standing_display().startswith("Terceiro")
    with pytest.raises(ValidationError, match="intimado do recurso"):
        services.act_record(
            procedure=case,
            kind="reconsideration",
            by=legal,
            today=D(2026, 4, 16),
            outcome="falsity",
            text="x",
        )
    notice = services.notice_send(
        procedure=case, by=legal, today=D(2026, 4, 16), means="in_person", kind="appeal_notice"
    )
    assert (notice.kind, notice.on) == (rules.Act.APPEAL_NOTICE, D(2026, 4, 16))
    assert notice.document is not None
    state = case_state(case, today=D(2026, 4, 17))
    answer_period = state.running_for(rules.Period.APPEAL_ANSWER)
    assert answer_period.deadline.last_day == D(2026, 4, 24)
    with pytest.raises(ValidationError, match="24/04/2026"):
        services.act_record(
            procedure=case,
            kind="reconsideration",
            by=legal,
            today=D(2026, 4, 17),
            outcome="falsity",
            text="x",
        )
    # The candidate answers through the private link, with a file, like any filing.
    link = candidate_link(case, legal, at(D(2026, 4, 17)))
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = services.candidate_file(
        link=link,
        kind="appeal_answer",
        text="Contrarrazões.",
        uploads=[SimpleUploadedFile("c.pdf", b"%PDF-1.4\n%%EOF\n")],
        now=at(D(2026, 4, 17)),
    )
    assert answer.attachments.count() == 1
    reconsidered = services.act_record(
        procedure=case,
        kind="reconsideration",
        by=legal,
        today=D(2026, 4, 17),
        outcome="falsity",
        text="Reconsidero.",
    )
    assert reconsidered.outcome == "falsity"


def test_art63_i_a_late_appeal_is_recorded_declared_not_heard_and_the_decision_becomes_final(cast):
    legal = cast["legal"]
    case = decided(legal, "falsity", D(2026, 3, 2))  # appeal period: 10 days → Thu 12 March
    link = candidate_link(case, legal, at(D(2026, 3, 13)))
    late = services.candidate_file(
        link=link, kind="appeal", text="Recorro.", uploads=[], now=at(D(2026, 3, 13))
    )
    assert late.on == D(2026, 3, 13)
    with pytest.raises(ValidationError, match="não conhecido"):
        services.act_record(
            procedure=case,
            kind="reconsideration",
            by=legal,
            today=D(2026, 3, 14),
            outcome="falsity",
            text="x",
        )
    with pytest.raises(ValidationError, match="recurso pendente"):
        services.act_record(procedure=case, kind="final", by=legal, today=D(2026, 3, 14))
    with pytest.raises(ValidationError, match="motivação"):
        services.act_record(
            procedure=case, kind="appeal_not_heard", by=legal, today=D(2026, 3, 14), ground="late"
        )
    not_heard = services.act_record(
        procedure=case,
        kind="appeal_not_heard",
        by=legal,
        today=D(2026, 3, 14),
        ground="late",
        text="Interposto depois do prazo.",
    )
    assert not_heard.document is not None and not_heard.get_ground_display().startswith("Intempestivo")
    # Not heard: it no longer stops the decision from becoming final.
    assert case_state(case, today=D(2026, 3, 14)).refusal(rules.Act.FINAL) == ""
    review = services.act_record(
        procedure=case,
        kind="appeal_review",
        by=legal,
        today=D(2026, 3, 16),
        outcome="dismissed",
        text="Revejo de ofício: a decisão ignorou a defesa.",
    )
    assert review.document is not None
    case.refresh_from_db()
    assert (case.status, case.outcome) == (Procedure.Status.DECIDED, "dismissed")


def test_art63_i_an_appeal_in_time_is_not_declared_late(cast):
    legal = cast["legal"]
    case = decided(legal, "falsity", D(2026, 3, 2))
    services.act_record(procedure=case, kind="appeal", by=None, today=D(2026, 3, 5), text="Recorro.")
    with pytest.raises(ValidationError, match="dentro do prazo"):
        services.act_record(
            procedure=case, kind="appeal_not_heard", by=legal, today=D(2026, 3, 6), ground="late", text="x"
        )
    act = services.act_record(
        procedure=case,
        kind="appeal_not_heard",
        by=legal,
        today=D(2026, 3, 6),
        ground="illegitimate",
        text="x",
    )
    assert act.ground == "illegitimate"


def test_art58_a_third_partys_appeal_without_the_appellants_name_is_refused(cast):
    legal = cast["legal"]
    case = decided(legal, "dismissed", D(2026, 3, 2))
    with pytest.raises(ValidationError, match="Identifique o recorrente"):
        services.act_record(
            procedure=case, kind="appeal", by=legal, today=D(2026, 3, 3), text="x", standing="affected"
        )
    assert not ProcedureAct.objects.filter(procedure=case, kind="appeal").exists()


# The screens ---------------------------------------------------------------------------------------------


def url(name, case, *args):
    return reverse(f"declarations:{name}", args=[case.year, case.number, *args])


def test_art56_par1_the_reconsideration_offers_reconsider_or_maintain_and_maps_them_to_the_outcome(
    client_for, cast
):
    today = timezone.localdate()
    case = decided(cast["legal"], "falsity", today)
    services.act_record(procedure=case, kind="appeal", by=None, today=today, text="Recorro.")
    client = client_for("legal")
    page = client.get(url("act", case, "reconsideration")).content.decode()
    body = page[page.index('name="outcome"') :]
    assert "Reconsiderar a decisão" in body and "Manter e encaminhar à instância superior" in body
    assert "Falsidade confirmada" not in body[: body.index("</select>")]
    summary = post_form(
        client, url("act", case, "reconsideration"), {"outcome": "maintain", "text": "Mantenho."}
    )
    assert summary.status_code == 200 and "Ao confirmar" in summary.content.decode()
    (confirm,) = [
        f for f in forms_on(summary.content.decode()) if ("confirm", "1") in [(n, v) for n, v, _ in f.buttons]
    ]
    response = client.post(
        confirm.action or url("act", case, "reconsideration"), {**confirm.values, "confirm": "1"}
    )
    assert response.status_code == 302
    act = case.acts.get(kind="reconsideration")
    assert act.outcome == "falsity"  # maintained: forwarded to the superior


def test_art50_the_decision_form_requires_its_motivation_and_refuses_it_empty(client_for, cast):
    case = reported(cast["legal"], timezone.localdate())
    client = client_for("legal")
    page = client.get(url("act", case, "decision")).content.decode()
    textarea = page[page.index("<textarea") : page.index("</textarea>")]
    assert "required" in textarea
    label = page[page.rindex("<label", 0, page.index("<textarea")) : page.index("<textarea")]
    assert "Motivação" in label and 'class="required"' in label
    (form,) = [f for f in forms_on(page) if f.method == "post" and "text" in f.visible]
    # One preview of the document: the confirmation page's, not a second one on the form.
    assert "preview" not in [name for name, _value, _ in form.buttons]
    response = client.post(
        form.action or url("act", case, "decision"), {**form.values, "outcome": "falsity", "text": "  "}
    )
    content = response.content.decode()
    assert "Confirmar: Decisão" not in content and "Este campo é obrigatório" in content


def test_art58_the_appeal_form_records_the_appellant_and_the_standing(client_for, cast):
    today = timezone.localdate()
    case = decided(cast["legal"], "dismissed", today)
    client = client_for("legal")
    response = post_form(
        client,
        url("act", case, "appeal"),
        {"text": "Recurso da próxima cotista.", "filed_by": "Maria Souza", "standing": "affected"},
    )
    assert response.status_code == 302
    appeal = case.acts.get(kind="appeal")
    assert (appeal.filed_by, appeal.standing) == ("Maria Souza", "affected")
    notify = client.get(url("notify", case)).content.decode()
    assert "Intimação do recurso de terceiro" in notify
