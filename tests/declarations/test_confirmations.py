"""Acts with legal effect in two steps (issue 21): the button leads to a page saying what will happen (the
service rehearsed in a savepoint, nothing written), then "Confirmar" does it. A decision (signed by the
authority chosen on its form among the organisation's), the application of a decision's effects, and the
candidate's acknowledgement through the private link; all through the pages."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call
from contests.documents import signing
from contests.documents.models import Document
from contests.models import Authority
from declarations import links
from declarations.models import Procedure
from declarations.procedure import documents, services
from declarations.procedure.selectors import case_state
from tests.acts_reading import act_of, signature_refusal
from tests.builders import make_classified_position, make_contest, make_registration, publish_final
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db
DAY = datetime.timedelta(days=1)


def submit(client, response, button: str, fill: dict | None = None):
    """Click ``button`` (its name) on the POST form of the page ``response`` rendered, as a person does:
    the page's own values (hidden ones included), ``fill`` on top."""
    page = response.content.decode()
    path = response.wsgi_request.path
    (form,) = [
        f
        for f in forms_on(page)
        if f.method == "post" and f.action in ("", path) and any(b[0] == button for b in f.buttons)
    ]
    value = next(b[1] for b in form.buttons if b[0] == button)
    return client.post(
        form.action or response.wsgi_request.path, {**form.values, **(fill or {}), button: value}
    )


def open_case(registration, legal, today):
    return services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Indícios.",
        by=legal,
        today=today,
    )


def instruct(case, legal, start):
    """Notice, defence, instruction, final statement and report, from ``start``: a decision may follow."""
    services.notice_send(procedure=case, by=legal, today=start + DAY, means="in_person")
    for days, kind, text in (
        (3, "defence", "Defesa."),
        (4, "instruction_closed", ""),
        (5, "final_statement", "Alegações."),
        (6, "report", "Proposta."),
    ):
        services.act_record(procedure=case, kind=kind, by=legal, today=start + days * DAY, text=text)


def decide(case, legal, start):
    """... and a decision of falsity on day 7, notified on day 8, final on day 30."""
    instruct(case, legal, start)
    services.act_record(
        procedure=case, kind="decision", by=legal, today=start + 7 * DAY, outcome="falsity", text="Motivos."
    )
    services.notice_send(procedure=case, by=legal, today=start + 8 * DAY, means="in_person")
    services.act_record(procedure=case, kind="final", by=legal, today=start + 30 * DAY)


@pytest.fixture
def vice():
    return Authority.objects.create(
        name="Rogério Antunes Lima",
        office="Vice-Presidente da Câmara Municipal",
        competence="Portaria nº 7/2026 (delegação de competência)",
        delegated=True,
        valid_from=datetime.date(2025, 1, 1),
    )


# A decision ---------------------------------------------------------------------------------------------


def test_a_decision_offers_the_organisations_authorities_the_designated_one_chosen(client_for, cast, vice):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today - 20 * DAY)
    instruct(case, cast["legal"], today - 20 * DAY)
    Authority.objects.create(
        name="Fora de Exercício",
        office="Ex-Presidente",
        valid_from=datetime.date(2020, 1, 1),
        valid_until=today - DAY,
    )
    url = reverse("declarations:act", args=[case.year, case.number, "decision"])
    (form,) = [
        f
        for f in forms_on(client_for("legal").get(url).content.decode())
        if f.method == "post" and "text" in f.visible
    ]
    authority = form.controls["authority"]
    assert authority.kind == "select"
    offered = {Authority.objects.get(pk=pk).name for pk in authority.options if pk}
    assert offered == {"Paula Ribeiro Matos", vice.name}  # in office today: not the one whose term ended
    designated = Authority.objects.get(name="Paula Ribeiro Matos")
    assert form.values["authority"] == str(designated.pk)
    # Only decisions: the other acts are signed by the designated authority.
    evidence = reverse("declarations:act", args=[case.year, case.number, "evidence"])
    (form,) = [
        f
        for f in forms_on(client_for("legal").get(evidence).content.decode())
        if f.method == "post" and "text" in f.visible
    ]
    assert "authority" not in form.controls


def test_a_decision_is_confirmed_after_a_summary_and_signed_by_the_chosen_authority(
    client_for, cast, vice, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today - 20 * DAY)
    instruct(case, cast["legal"], today - 20 * DAY)
    client = client_for("legal")
    url = reverse("declarations:act", args=[case.year, case.number, "decision"])
    documents_before = Document.objects.count()
    fill = {"outcome": "falsity", "text": "Fotografias incompatíveis: falsidade.", "authority": str(vice.pk)}
    # The summary's rehearsal leaves no e-mail nor task behind: its commit callbacks run, and there are none.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = post_form(client, url, fill)
    assert callbacks == [] and mail.outbox == []
    page = response.content.decode()
    # The summary: what recording does, from the service rehearsed; nothing recorded yet.
    assert response.status_code == 200 and "Confirmar: Decisão" in page
    assert (
        f"Decisão registrada em {today:%d/%m/%Y}: o {case} passa a “Decidido (sujeito a recurso) · Falsidade"
        in page
    )
    assert f"assinado por {vice.name}, {vice.office}" in page
    assert "Fotografias incompatíveis: falsidade." in page  # the document's preview
    assert not case.acts.filter(kind="decision").exists() and Document.objects.count() == documents_before
    case.refresh_from_db()
    assert case.status == Procedure.Status.OPEN
    # "Voltar e corrigir" brings back the filled form, still nothing recorded.
    back = submit(client, response, "edit")
    assert back.status_code == 200 and "Fotografias incompatíveis: falsidade." in back.content.decode()
    assert not case.acts.filter(kind="decision").exists()
    # "Confirmar": recorded, redirected to the case, the PDF signed by the chosen authority.
    done = submit(client, response, "confirm")
    assert done.status_code == 302 and done["Location"] == case.get_absolute_url()
    decision = case.acts.get(kind="decision")
    assert decision.authority == vice and decision.outcome == "falsity"
    assert (decision.document.signer_name, decision.document.signer_office) == (vice.name, vice.office)
    read = act_of(decision.document)
    assert signature_refusal(read) == "", signature_refusal(read)
    assert "Portaria nº 7/2026 (delegação de competência)" in read.text


def test_the_summary_of_a_refused_decision_is_the_services_reason_and_nothing_is_recorded(client_for, cast):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today - 5 * DAY)
    services.notice_send(procedure=case, by=cast["legal"], today=today - 4 * DAY, means="in_person")
    url = reverse("declarations:act", args=[case.year, case.number, "decision"])
    response = post_form(client_for("legal"), url, {"outcome": "falsity", "text": "Motivos."})
    page = response.content.decode()
    assert response.status_code == 200 and "Confirmar: Decisão" not in page
    assert "instrução" in page.lower()  # the state machine's refusal, on the form
    assert not case.acts.filter(kind="decision").exists()


def test_a_chosen_authority_out_of_office_on_the_acts_date_is_refused(cast, vice):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today - 20 * DAY)
    instruct(case, cast["legal"], today - 20 * DAY)
    vice.valid_until = today - DAY
    vice.save()
    with pytest.raises(ValidationError, match="não está em exercício"):
        services.act_record(
            procedure=case,
            kind="decision",
            by=cast["legal"],
            today=today,
            outcome="falsity",
            text="M.",
            authority=vice,
        )
    assert not case.acts.filter(kind="decision").exists()


# The effects ---------------------------------------------------------------------------------------------


def test_applying_the_effects_shows_the_elimination_and_the_annulled_nomination_then_confirms(
    client_for, cast, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    start = today - 40 * DAY
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=start - 10 * DAY
    )
    n2 = position.registrations.get(number="N2")
    case = open_case(n2, cast["legal"], start)
    decide(case, cast["legal"], start)
    client = client_for("legal")
    detail = client.get(case.get_absolute_url()).content.decode()
    url = reverse("declarations:effects", args=[case.year, case.number])
    assert f'href="{url}"' in detail  # the button leads to the summary, it does not act
    tasks_before = DBTaskResult.objects.count()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.get(url)
    assert callbacks == [] and mail.outbox == [] and DBTaskResult.objects.count() == tasks_before
    page = response.content.decode()
    assert response.status_code == 200
    assert "A inscrição nº N2 passa de “ativa” a “eliminada”" in page
    assert f"Nomeação de {start - 10 * DAY:%d/%m/%Y} (Portaria 10/2026" in page
    assert (
        "a vaga liberada será preenchida na próxima convocação pelo candidato seguinte da mesma lista" in page
    )
    assert f"Eliminação de {n2.candidate.full_name}, inscrição N2" in page
    # Nothing changed by reading it.
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ACTIVE
    assert not Document.objects.filter(kind=Document.Kind.PROCEDURE_EFFECTS).exists()
    case.refresh_from_db()
    assert case.effects_applied_on is None
    # "Confirmar" applies them.
    done = submit(client, response, "")
    assert done.status_code == 302 and done["Location"] == case.get_absolute_url()
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED
    assert Nomination.objects.get(registration=n2).status == Nomination.Status.ANNULLED
    assert Document.objects.filter(kind=Document.Kind.PROCEDURE_EFFECTS).count() == 1


def test_the_summaries_render_sign_and_store_no_document_and_queue_nothing(
    client_for, cast, monkeypatch, django_capture_on_commit_callbacks
):
    """A summary rehearses the service with ``publish=False``: the decision's and the effects' documents
    are named with their signer, but no PDF is rendered, signed or timestamped, none is stored, and nothing
    waits for a commit (e-mail, the public site's refresh)."""
    today = timezone.localdate()
    start = today - 40 * DAY
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=start - 10 * DAY
    )
    n2 = position.registrations.get(number="N2")
    case = open_case(n2, cast["legal"], start)
    decide(case, cast["legal"], start)
    other = open_case(make_registration(racial_category="parda"), cast["legal"], today - 20 * DAY)
    instruct(other, cast["legal"], today - 20 * DAY)
    calls: list[str] = []
    render, sign = documents.render_pdf, signing.sign_pdf
    monkeypatch.setattr(documents, "render_pdf", lambda *a, **k: calls.append("render") or render(*a, **k))
    monkeypatch.setattr(signing, "sign_pdf", lambda *a, **k: calls.append("sign") or sign(*a, **k))
    client = client_for("legal")
    before = Document.objects.count()
    with django_capture_on_commit_callbacks() as queued:
        effects = client.get(reverse("declarations:effects", args=[case.year, case.number]))
        decision = post_form(
            client,
            reverse("declarations:act", args=[other.year, other.number, "decision"]),
            {"outcome": "falsity", "text": "Motivos."},
        )
    assert "Será publicado o ato público" in effects.content.decode()
    assert "Confirmar: Decisão" in decision.content.decode() and "Será publicado o documento" in (
        decision.content.decode()
    )
    assert calls == [] and queued == [] and Document.objects.count() == before
    # The mocks see what publishing does.
    services.effects_apply(procedure=case, by=cast["legal"], today=today)
    assert "render" in calls


def test_the_effects_page_says_why_they_cannot_be_applied_yet(client_for, cast):
    today = timezone.localdate()
    case = open_case(make_registration(racial_category="parda"), cast["legal"], today - 20 * DAY)
    instruct(case, cast["legal"], today - 20 * DAY)
    services.act_record(
        procedure=case, kind="decision", by=cast["legal"], today=today, outcome="falsity", text="Motivos."
    )
    page = client_for("legal").get(reverse("declarations:effects", args=[case.year, case.number]))
    text = page.content.decode()
    assert page.status_code == 200 and "Os efeitos não podem ser aplicados agora" in text
    assert "Confirmar" not in text


# The candidate's acknowledgement ------------------------------------------------------------------------


def test_the_candidate_acknowledges_after_reading_the_period_it_starts(
    client, cast, django_capture_on_commit_callbacks
):
    today = timezone.localdate()
    registration = make_registration(racial_category="parda")
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    case = open_case(registration, cast["legal"], today)
    notice = services.notice_send(procedure=case, by=cast["legal"], today=today, means="email")
    _link, token = links.link_issue(
        procedure=case, holder="candidate", name="Candidata", by=cast["legal"], now=timezone.now()
    )
    portal = client.get(reverse("declarations:portal", args=[token])).content.decode()
    url = reverse("declarations:portal_acknowledge", args=[token, notice.pk])
    assert f'href="{url}"' in portal  # a link to the summary, not a one-click form
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.get(url)
    assert callbacks == [] and mail.outbox == []  # no e-mail nor task leaves
    page = response.content.decode()
    notice.refresh_from_db()
    assert response.status_code == 200 and notice.on is None  # reading the summary changes nothing
    # The period, as the case will count it once the acknowledgement is recorded.
    (form,) = [f for f in forms_on(page) if f.method == "post" and f.action in ("", url)]
    done = client.post(form.action or url, form.values)
    assert done.status_code == 302 and done["Location"] == reverse("declarations:portal", args=[token])
    notice.refresh_from_db()
    assert notice.on == today
    (running,) = case_state(case, today=today).running
    assert (
        f"Prazo de defesa de 10 (dez) dias (prazo da política; Lei 9.784 art. 24): corre a partir de amanhã, "
        f"{today + DAY:%d/%m/%Y}, até {running.deadline.last_day:%d/%m/%Y}, às 23h59." in page
    )
    assert f"produz efeito hoje, {today:%d/%m/%Y}" in page
