"""The procedure's documents through the documents pipeline: each act's PDF published as a restricted
document in the act's transaction and served only to who may read the file (logged); the public act of the
effects (RULES §7), on /verificar/; the effects applied from the first decision undone when a later decision
dismisses the charge, the public act made void by a new version."""

from __future__ import annotations

import datetime
import shutil
import subprocess
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call
from contests.documents.models import RESTRICTED_KINDS, Document
from contests.models import AccessLog, Policy
from declarations import links
from declarations.models import Procedure, ProcedureAct, ProcedureLaw
from declarations.procedure import documents, services
from tests.access import ROLES, assert_access
from tests.builders import (
    make_classified_position,
    make_contest,
    make_registration,
    publish_final,
    set_policy,
)

pytestmark = pytest.mark.django_db
D = datetime.date
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")


def pdf_text(data: bytes) -> str:
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(out.stdout.decode().split())


OPENED_ON = D(2026, 7, 1)


def open_case(registration, legal, today=OPENED_ON):
    return services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios de falsidade na autodeclaração.",
        by=legal,
        today=today,
    )


@pytest.fixture
def case(cast):
    cast["legal"].last_name = "Jurídica"
    cast["legal"].save()
    return open_case(make_registration(racial_category="parda"), cast["legal"])


@needs_pdftotext
def test_the_opening_act_is_a_restricted_pdf_signed_by_the_authority_not_by_who_recorded_it(case):
    """DESIGN point 11: the act is the competent authority's (with its act of competence); the clerk who
    recorded it is its publisher ("Elaborado por" in the history), never on the PDF."""
    opening = case.acts.get()
    document = opening.document
    assert document.kind == Document.Kind.PROCEDURE_ACT and document.kind in RESTRICTED_KINDS
    assert document.contest == case.registration.contest and document.title.startswith("Portaria")
    assert (document.signer_name, document.signer_office) == (
        "Paula Ribeiro Matos",
        "Presidente da Câmara Municipal",
    )
    assert document.published_by.username == "legal"
    text = pdf_text(bytes(document.pdf))
    assert "PORTARIA Nº 1/2026" in text and "Processo Administrativo nº 1/2026" in text
    assert "Indícios de falsidade" in text and document.code in text
    assert "Paula Ribeiro Matos" in text and "Presidente da Câmara Municipal" in text
    assert "Lei Orgânica do Município, art. 35" in text  # the act of competence under the office
    assert "Legal Jurídica" not in text and "Setor Jurídico" not in text


def test_notices_decisions_and_the_final_certificate_each_get_their_pdf_and_filings_none(case, cast):
    legal = cast["legal"]

    def record(kind, day, **kw):
        return services.act_record(procedure=case, kind=kind, by=legal, today=day, **kw)

    notice = services.notice_send(procedure=case, by=legal, today=D(2026, 7, 2), means="in_person")
    defence = record("defence", D(2026, 7, 6), text="Defesa.")
    record("instruction_closed", D(2026, 7, 7))
    record("final_statement", D(2026, 7, 8), text="Alegações.")
    record("report", D(2026, 7, 9), text="Proposta.")
    decision = record("decision", D(2026, 7, 10), outcome="dismissed", text="Improcedente: fundamentos.")
    decision_notice = services.notice_send(procedure=case, by=legal, today=D(2026, 7, 10), means="in_person")
    final = record("final", D(2026, 7, 21))
    for act in (notice, decision, decision_notice, final):
        act.refresh_from_db()
        assert act.document is not None and act.document.kind == Document.Kind.PROCEDURE_ACT, act.kind
    defence.refresh_from_db()
    assert defence.document is None
    titles = list(
        Document.objects.filter(kind=Document.Kind.PROCEDURE_ACT)
        .order_by("pk")
        .values_list("title", flat=True)
    )
    assert [t.split(" – ")[0] for t in titles] == [
        "Portaria de instauração",
        "Intimação para defesa",
        "Decisão",
        "Intimação da decisão",
        "Certidão de trânsito em julgado administrativo",
    ]


def test_the_act_and_its_document_are_written_together_or_not_at_all(case, cast):
    with (
        mock.patch(
            "declarations.procedure.documents.document_publish", side_effect=ValidationError("falhou")
        ),
        pytest.raises(ValidationError),
    ):
        services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 7, 2), means="in_person")
    assert case.acts.count() == 1
    assert Document.objects.count() == 1  # the opening's


@pytest.mark.parametrize("who", ROLES)
def test_case_page_serves_the_act_pdf_to_who_may_read_the_case_and_logs_it(client_for, who, case):
    opening = case.acts.get()
    url = reverse("declarations:document", args=[case.year, case.number, opening.pk])
    response = assert_access(client_for, who, url, {"legal", "auditor"})
    if who in ("legal", "auditor"):
        assert response["Content-Type"] == "application/pdf"
        assert response.content == bytes(opening.document.pdf)
        assert "no-store" in response["Cache-Control"]
        assert AccessLog.objects.filter(object_id=str(case.pk), action="document").exists()


def test_private_page_serves_the_notice_pdf_and_logs_it(client, case, cast):
    notice = services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 7, 2), means="in_person")
    _link, token = links.link_issue(
        procedure=case,
        holder="candidate",
        name="Candidata",
        by=cast["legal"],
        now=datetime.datetime.now(datetime.UTC),
    )
    page = client.get(reverse("declarations:portal", args=[token])).content.decode()
    assert "documento (PDF)" in page
    response = client.get(reverse("declarations:portal_document", args=[token, notice.pk]))
    assert response["Content-Type"] == "application/pdf"
    notice.refresh_from_db()
    assert response.content == bytes(notice.document.pdf)
    assert AccessLog.objects.filter(object_id=str(case.pk), action="document", user=None).exists()
    assert client.get(reverse("declarations:portal_document", args=["nada", notice.pk])).status_code == 403


def test_the_act_form_keeps_its_html_preview_and_publishes_nothing(client_for, case, cast):
    services.notice_send(procedure=case, by=cast["legal"], today=D(2026, 7, 2), means="in_person")
    before = Document.objects.count()
    response = client_for("legal").post(
        reverse("declarations:act", args=[case.year, case.number, "appeal_not_heard"]),
        {"text": "Motivação da prévia.", "ground": "incompetent", "preview": "1"},
    )
    assert "Motivação da prévia." in response.content.decode()
    assert Document.objects.count() == before


# The public act of the effects ---------------------------------------------------------------------------


@pytest.fixture
def nominated(cast):
    def build(slug="santa-maria", **policy_changes):
        if policy_changes:
            set_policy(slug, **policy_changes)
        contest = make_contest(pcd_percent=0, policy=Policy.objects.get(slug=slug))
        position = make_classified_position(contest)
        publish_final(contest, cast["manager"])
        nominations_call(
            position=position,
            count=5,
            by=cast["clerk"],
            act_number="Portaria 10/2026",
            act_date=D(2026, 6, 10),
        )
        return position

    return build


def decide_falsity(case, legal, *, start=OPENED_ON):
    """Notice, defence, instruction, report, decision of falsity and its notice (in person)."""

    def record(kind, days, **kw):
        return services.act_record(
            procedure=case, kind=kind, by=legal, today=start + datetime.timedelta(days=days), **kw
        )

    services.notice_send(
        procedure=case, by=legal, today=start + datetime.timedelta(days=1), means="in_person"
    )
    record("defence", 3, text="Defesa.")
    record("instruction_closed", 4)
    record("final_statement", 5, text="Alegações.")
    record("report", 6, text="Proposta.")
    record("decision", 7, outcome="falsity", text="Falsidade confirmada: fundamentos.")
    services.notice_send(
        procedure=case, by=legal, today=start + datetime.timedelta(days=8), means="in_person"
    )
    return start + datetime.timedelta(days=8)


@needs_pdftotext
@pytest.mark.parametrize(
    ("slug", "annulment", "article"),
    [
        ("santa-maria", "anulação da sua nomeação", "Art. 2º Anular a nomeação de"),
        ("angra-dos-reis", "anulação da sua admissão", "Art. 2º Anular a admissão ao serviço público de"),
    ],
)
def test_rules7_the_public_act_of_a_nominee_names_the_annulment_the_policy_prescribes(
    nominated, cast, client, slug, annulment, article
):
    position = nominated(slug, falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    n2 = position.registrations.get(number="N2")
    case = open_case(n2, cast["legal"])
    day = decide_falsity(case, cast["legal"])
    result = services.effects_apply(procedure=case, by=cast["legal"], today=day)
    document = result.document
    assert document.kind == Document.Kind.PROCEDURE_EFFECTS and document.kind not in RESTRICTED_KINDS
    assert annulment in result.public_act and f"nos termos do {case}" in result.public_act
    text = pdf_text(bytes(document.pdf))
    name = n2.candidate.full_name
    assert f"Art. 1º Eliminar {name}, inscrição nº N2, do {case.registration.contest}" in text
    assert f"{article} {name}" in text
    # Nothing sensitive: no CPF, no declaration, no reasons, no facts.
    for secret in (n2.candidate.cpf, "parda", "preta", "fundamentos", "Indícios"):
        assert secret not in text
    # Public: /verificar/ shows the sentence and serves the PDF.
    page = client.get(f"/verificar/{document.code}/").content.decode()
    assert result.public_act == document.title and result.public_act in page
    assert client.get(f"/verificar/{document.code}/documento.pdf").content == bytes(document.pdf)


def test_a_non_nominee_is_eliminated_and_the_act_says_only_elimination(case, cast):
    day = decide_falsity(case, cast["legal"])
    services.act_record(
        procedure=case, kind="final", by=cast["legal"], today=day + datetime.timedelta(days=20)
    )
    result = services.effects_apply(procedure=case, by=cast["legal"], today=day + datetime.timedelta(days=20))
    assert result.public_act.startswith("Eliminação de ") and "anulação" not in result.public_act
    assert result.document.title == result.public_act
    case.refresh_from_db()
    assert case.effects_previous_status == Registration.Status.ACTIVE


# Undo (art. 61 option) -------------------------------------------------------------------------------------


def test_art61_effects_from_the_first_decision_fall_when_the_reconsideration_dismisses_and_the_act_is_void(
    nominated, cast, client
):
    legal = cast["legal"]
    position = nominated(falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    n2 = position.registrations.get(number="N2")
    case = open_case(n2, legal)
    day = decide_falsity(case, legal)
    applied = services.effects_apply(procedure=case, by=legal, today=day)
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ANNULLED

    services.act_record(
        procedure=case, kind="appeal", by=None, today=day + datetime.timedelta(days=2), text="Recorro."
    )
    services.act_record(
        procedure=case,
        kind="reconsideration",
        by=legal,
        today=day + datetime.timedelta(days=3),
        outcome="dismissed",
        text="Reconsidero: improcedente.",
    )
    n2.refresh_from_db()
    case.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    assert (case.effects_applied_on, case.effects_previous_status) == (None, "")
    history = n2.history.first()
    assert "Efeitos desfeitos" in history.history_change_reason and history.history_user == legal
    void = documents.effects_document(case)
    assert void.version == 2 and void.previous == applied.document
    assert void.title == f"Tornado sem efeito: {applied.public_act}"
    assert "Tornado sem efeito" in void.rectification_summary
    first_page = client.get(f"/verificar/{applied.document.code}/").content.decode()
    assert "retificada por versão posterior" in first_page and void.code in first_page
    # A later decision of falsity (the superior's) applies the effects again: a third version.
    services.notice_send(procedure=case, by=legal, today=day + datetime.timedelta(days=4), means="in_person")
    services.act_record(
        procedure=case,
        kind="appeal",
        by=None,
        today=day + datetime.timedelta(days=5),
        text="Recurso do denunciante.",
        filed_by="O denunciante",
        standing="affected",
    )
    # The candidate is heard on the third party's appeal before a change for the worse (arts. 62, 64).
    services.notice_send(
        procedure=case,
        by=legal,
        today=day + datetime.timedelta(days=6),
        means="in_person",
        kind="appeal_notice",
    )
    services.act_record(
        procedure=case,
        kind="appeal_answer",
        by=None,
        today=day + datetime.timedelta(days=6),
        text="Contrarrazões.",
    )
    services.act_record(
        procedure=case,
        kind="reconsideration",
        by=legal,
        today=day + datetime.timedelta(days=6),
        outcome="dismissed",
        text="Mantenho.",
    )
    services.act_record(
        procedure=case,
        kind="superior_decision",
        by=legal,
        today=day + datetime.timedelta(days=7),
        outcome="falsity",
        text="Falsidade confirmada.",
    )
    services.notice_send(procedure=case, by=legal, today=day + datetime.timedelta(days=8), means="in_person")
    again = services.effects_apply(procedure=case, by=legal, today=day + datetime.timedelta(days=8))
    assert again.document.version == 3 and again.document.previous == void
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED


def test_effects_applied_on_a_final_decision_are_not_undone_by_anything(case, cast):
    day = decide_falsity(case, cast["legal"])
    later = day + datetime.timedelta(days=20)
    services.act_record(procedure=case, kind="final", by=cast["legal"], today=later)
    services.effects_apply(procedure=case, by=cast["legal"], today=later)
    with pytest.raises(ValidationError, match="encerrado"):
        services.act_record(
            procedure=case,
            kind="reconsideration",
            by=cast["legal"],
            today=later,
            outcome="dismissed",
            text="x",
        )
    case.registration.refresh_from_db()
    assert case.registration.status == Registration.Status.ELIMINATED


def test_no_act_document_without_an_act_kind_that_has_one(case):
    act = ProcedureAct(procedure=case, kind="evidence", text="x")
    assert documents.act_document_publish(act=act, by=None) is None


def test_art64_the_superiors_dismissal_also_undoes_effects_applied_from_the_first_decision(nominated, cast):
    legal = cast["legal"]
    position = nominated(falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    n2 = position.registrations.get(number="N2")
    case = open_case(n2, legal)
    day = decide_falsity(case, legal)
    services.effects_apply(procedure=case, by=legal, today=day)

    def record(kind, days, **kw):
        return services.act_record(
            procedure=case, kind=kind, by=legal, today=day + datetime.timedelta(days=days), **kw
        )

    record("appeal", 1, text="Recorro.")
    record("reconsideration", 2, outcome="falsity", text="Mantenho; ao superior.")
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED  # maintained: the effects stand
    record("superior_decision", 3, outcome="dismissed", text="Provido o recurso.")
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    assert documents.effects_document(case).title.startswith("Tornado sem efeito: ")


@needs_pdftotext
def test_art26_par4_a_notice_published_in_the_gazette_never_prints_the_personal_access_code(case, cast):
    from candidates.access import code_for

    legal = cast["legal"]
    personal = services.notice_send(procedure=case, by=legal, today=D(2026, 7, 2), means="in_person")
    # A stored act never carries the code (issue 19: it goes on the letter); a personal notice says where
    # the candidate follows the registration, with a placeholder for the code (the control).
    personal_text = pdf_text(bytes(personal.document.pdf))
    assert code_for(case.registration) not in personal_text and "código de acesso" in personal_text
    other = open_case(make_registration(racial_category="parda"), legal)
    gazette = services.notice_send(
        procedure=other,
        by=legal,
        today=D(2026, 7, 2),
        means="gazette",
        candidate_unreachable=True,
        gazette_edition="1.234",
        gazette_page="7",
    )
    text = pdf_text(bytes(gazette.document.pdf))
    assert "INTIMAÇÃO PARA DEFESA" in text
    assert code_for(other.registration) not in text and "código de acesso" not in text


# Who signs (DESIGN point 11: the competent authority, never the clerk) --------------------------------------


@needs_pdftotext
def test_art56_the_delegate_decides_the_superior_decides_the_appeal_the_effects_act_has_its_own_signer(
    nominated, cast
):
    from contests.models import Signatory
    from tests.builders import make_signatory

    make_signatory(
        Signatory.Kind.PROCEDURE,
        "Sara Secretária",
        "Secretária Municipal de Administração",
        competence="Decreto nº 100/2025",
        delegated=True,
    )
    make_signatory(Signatory.Kind.PROCEDURE_APPEAL, "Pedro Prefeito", "Prefeito Municipal")
    make_signatory(Signatory.Kind.PROCEDURE_EFFECTS, "Pedro Prefeito", "Prefeito Municipal")
    legal = cast["legal"]
    position = nominated(falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    case = open_case(position.registrations.get(number="N2"), legal)
    day = decide_falsity(case, legal)
    effects = services.effects_apply(procedure=case, by=legal, today=day).document
    for kind, days, extra in (
        ("appeal", 1, {"text": "Recorro."}),
        ("reconsideration", 2, {"outcome": "falsity", "text": "Mantenho; ao superior."}),
        ("superior_decision", 3, {"outcome": "falsity", "text": "Nego provimento."}),
    ):
        services.act_record(
            procedure=case, kind=kind, by=legal, today=day + datetime.timedelta(days=days), **extra
        )
    signed = {
        act.kind: (act.document.signer_name, pdf_text(bytes(act.document.pdf)))
        for act in case.acts.exclude(document=None).select_related("document")
    }
    for kind in ("opening", "decision", "reconsideration"):
        name, text = signed[kind]
        assert name == "Sara Secretária", kind
        assert "Por delegação de competência: Decreto nº 100/2025" in text, kind
    name, text = signed["superior_decision"]
    assert name == "Pedro Prefeito" and "Prefeito Municipal" in text and "Sara Secretária" not in text
    assert effects.signer_name == "Pedro Prefeito" and "Pedro Prefeito" in pdf_text(bytes(effects.pdf))
    assert all(legal.get_full_name() not in text for _, text in signed.values())


def test_no_authority_for_the_procedure_refuses_the_opening_and_says_who_must_act(cast):
    from contests.models import Signatory

    Signatory.objects.filter(kind=Signatory.Kind.PROCEDURE).delete()
    registration = make_registration(racial_category="parda")
    with pytest.raises(ValidationError) as refused:
        open_case(registration, cast["legal"])
    assert "Nenhuma autoridade foi designada para assinar" in str(refused.value)
    assert "Organização › Autoridades" in str(refused.value)
    assert not Procedure.objects.exists() and not Document.objects.exists()
