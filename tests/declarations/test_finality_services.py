"""The acts after a final decision through the services (revision, art. 65; annulment, art. 53) and the
reversal of a decision of falsity whose effects were applied: recorded, the registration reinstated, shown
in its history; the acts' PDFs signed by a person."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call
from contests.documents.models import Document
from declarations import links
from declarations.models import Procedure, ProcedureAct, ProcedureLaw, ProcedureLink, ProcedureReversal
from declarations.procedure import finality, services
from tests.acts_reading import act_of, problems
from tests.builders import make_classified_position, make_contest, publish_final, set_policy

pytestmark = pytest.mark.django_db
D = datetime.date


@pytest.fixture
def nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    return position


def decided(registration, legal, outcome="falsity"):
    """A case on ``registration`` decided in the first instance and notified (on 15/07/2026)."""
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios de falsidade na autodeclaração.",
        by=legal,
        today=D(2026, 7, 1),
    )

    def record(kind, day, **kw):
        return services.act_record(procedure=case, kind=kind, by=legal, today=day, **kw)

    services.notice_send(procedure=case, by=legal, today=D(2026, 7, 2), means="in_person")
    record("defence", D(2026, 7, 6), text="Defesa escrita.")
    record("instruction_closed", D(2026, 7, 7))
    record("final_statement", D(2026, 7, 10), text="Alegações.")
    record("report", D(2026, 7, 13), text="Proposta.")
    record("decision", D(2026, 7, 14), outcome=outcome, text="Fundamentos da decisão.")
    services.notice_send(procedure=case, by=legal, today=D(2026, 7, 15), means="in_person")
    return case, record


def final_with_effects(registration, legal):
    case, record = decided(registration, legal)
    record("final", D(2026, 7, 28))
    services.effects_apply(procedure=case, by=legal, today=D(2026, 7, 28))
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ELIMINATED
    return case, record


def signed_pdf_reads_well(act: ProcedureAct) -> str:
    act.refresh_from_db()
    assert act.document is not None
    read = act_of(act.document)
    assert problems(read) == [], problems(read)
    return read.text


def test_art65_a_revision_at_the_candidates_request_lightens_and_the_reversal_reinstates(nominated, cast):
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case, record = final_with_effects(n2, legal)
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ANNULLED
    # The candidate files the request through their private link, on new facts.
    link, _token = links.link_issue(
        procedure=case, holder=ProcedureLink.Holder.CANDIDATE, name="N2", by=legal, now=timezone.now()
    )
    request = services.candidate_file(
        link=link,
        kind="revision_request",
        text="Fato novo: certidão de nascimento que registra a cor parda.",
        uploads=[],
        now=timezone.make_aware(datetime.datetime.combine(D(2026, 9, 1), datetime.time(10))),
    )
    assert request.kind == "revision_request" and request.filed_by.startswith("N2")
    revision = record(
        "revision", D(2026, 9, 2), outcome="dismissed", text="A certidão é fato novo que afasta a falsidade."
    )
    case.refresh_from_db()
    n2.refresh_from_db()
    assert (case.status, case.outcome, case.effects_applied_on) == (
        Procedure.Status.CLOSED,
        "dismissed",
        None,
    )
    assert n2.status == Registration.Status.ACTIVE
    reversal = ProcedureReversal.objects.get(procedure=case)
    assert (reversal.act, reversal.on, reversal.effects_applied_on) == (
        revision,
        D(2026, 9, 2),
        D(2026, 7, 28),
    )
    assert "revisão" in reversal.undone and "ª vaga" in reversal.undone
    assert reversal.history.count() == 1
    # The registration's history names the reversal and the case.
    assert n2.history.filter(history_change_reason__contains=f"Reversão no {case}").exists()
    text = signed_pdf_reads_well(revision)
    assert "REVEJO" in text and "pedido de revisão apresentado por N2" in " ".join(text.split())
    # The revision is notified through the one notice path.
    notice = services.notice_send(
        procedure=case, by=legal, today=D(2026, 9, 3), means="in_person", kind="after_final_notice"
    )
    assert (notice.kind, notice.on) == ("after_final_notice", D(2026, 9, 3))
    assert "Intimação" in signed_pdf_reads_well(notice)
    with pytest.raises(ValidationError, match="Não há revisão nem anulação a intimar"):
        services.notice_send(procedure=case, by=legal, today=D(2026, 9, 4), means="in_person")


def test_art65_sole_paragraph_a_revision_that_would_worsen_is_refused_and_changes_nothing(nominated, cast):
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case, record = decided(n2, legal, outcome="dismissed")
    record("final", D(2026, 7, 28))
    before = ProcedureAct.objects.filter(procedure=case).count()
    with pytest.raises(ValidationError, match="não pode agravar a sanção"):
        record("revision", D(2026, 9, 2), outcome="falsity", text="Novas fotos indicam falsidade.")
    assert ProcedureAct.objects.filter(procedure=case).count() == before
    case.refresh_from_db()
    assert case.outcome == "dismissed"


def test_art53_annulment_of_a_falsity_undoes_its_effects_and_records_the_reversal(nominated, cast):
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case, _record = final_with_effects(n2, legal)
    with pytest.raises(ValidationError, match="vício de legalidade"):
        services.act_record(procedure=case, kind="annulment", by=legal, today=D(2026, 9, 2), text=" ")
    annulment = services.act_record(
        procedure=case,
        kind="annulment",
        by=legal,
        today=D(2026, 9, 2),
        text="A decisão não apreciou a defesa apresentada: vício de motivação (art. 50).",
    )
    case.refresh_from_db()
    n2.refresh_from_db()
    assert (case.status, case.outcome, case.effects_applied_on) == (Procedure.Status.CLOSED, "", None)
    assert n2.status == Registration.Status.ACTIVE
    reversal = ProcedureReversal.objects.get(act=annulment)
    assert "anulada" in reversal.undone
    assert "ANULO" in signed_pdf_reads_well(annulment)
    # The public act of the effects was made void.
    assert Document.objects.filter(kind=Document.Kind.PROCEDURE_EFFECTS).count() >= 1


def test_art54_annulling_a_dismissal_more_than_five_years_old_needs_proven_bad_faith(nominated, cast):
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case, record = decided(n2, legal, outcome="dismissed")
    record("final", D(2026, 7, 28))
    later = D(2031, 7, 15)
    with pytest.raises(ValidationError, match=r"art\. 54"):
        services.act_record(procedure=case, kind="annulment", by=legal, today=later, text="Vício.")
    # Bad faith proven, the candidate is still heard on the intended annulment first (STF Tema 138).
    services.notice_send(
        procedure=case, by=legal, today=later, means="in_person", kind="annulment_notice", text="Fraude."
    )
    record("annulment_answer", later, text="Os documentos são autênticos.")
    services.act_record(
        procedure=case,
        kind="annulment",
        by=legal,
        today=later,
        text="Documentos falsificados.",
        bad_faith=True,
    )
    case.refresh_from_db()
    assert case.outcome == "" and "Má-fé comprovada" in case.acts.get(kind="annulment").text


def test_art61_a_reconsideration_that_reverses_effects_from_the_first_decision_records_the_reversal(
    nominated, cast
):
    legal = cast["legal"]
    set_policy(nominated.contest.policy, falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    n2 = nominated.registrations.get(number="N2")
    case, record = decided(n2, legal)
    services.effects_apply(procedure=case, by=legal, today=D(2026, 7, 16))
    record("appeal", D(2026, 7, 20), text="Recorro.")
    reconsideration = record("reconsideration", D(2026, 7, 22), outcome="dismissed", text="Reconsidero.")
    reversal = ProcedureReversal.objects.get(procedure=case)
    assert reversal.act == reconsideration and reversal.effects_applied_on == D(2026, 7, 16)
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    assert finality.AFTER_FINAL_ACTS  # the module the state machine hands the closed case to


def test_art53_the_annulment_of_a_revision_says_when_it_came_and_its_notice_that_no_decision_stands(
    nominated, cast
):
    """A revision is given after the decision became final: the annulment of it names it so (it did not
    "become final" itself), and its notice says the case is left with no decision in force, not that the
    final decision's situation stands."""
    legal = cast["legal"]
    n2 = nominated.registrations.get(number="N2")
    case, record = final_with_effects(n2, legal)
    record("revision", D(2026, 9, 1), outcome="dismissed", text="Fato novo: certidão.")
    services.notice_send(
        procedure=case, by=legal, today=D(2026, 9, 2), kind="after_final_notice", means="in_person"
    )
    # Annulling a revision to dismissed worsens: the candidate heard first (STF Tema 138).
    services.notice_send(
        procedure=case,
        by=legal,
        today=D(2026, 9, 3),
        kind="annulment_notice",
        means="in_person",
        text="Vício de forma na revisão.",
    )
    record("annulment_answer", D(2026, 9, 4), text="A revisão é regular.")
    annulment = record("annulment", D(2026, 9, 10), text="Vício de forma na revisão.")
    text = " ".join(signed_pdf_reads_well(annulment).split())
    assert (
        "foi proferida, depois que a decisão do processo se tornou definitiva, a decisão de revisão" in text
    )
    assert "se tornou definitiva a decisão de revisão" not in text
    notice = services.notice_send(
        procedure=case, by=legal, today=D(2026, 9, 11), kind="after_final_notice", means="in_person"
    )
    notice_text = " ".join(signed_pdf_reads_well(notice).split())
    assert "o processo fica sem decisão em vigor" in notice_text
    assert "permanece a situação decorrente da decisão definitiva" not in notice_text
