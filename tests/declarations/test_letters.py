"""Communications of the procedure and of the heteroidentification on paper (issue 19): the notice's
preview and stored act never show the access code ("código enviado ao candidato"); the notice by letter or
in person prints a letter with the text, a private link and the code, noted as printed (the deadline still
waits for the receipt); a non-confirmed candidate without e-mail is told the truth ("nada foi enviado") and
gets the result on a letter with their private link; the candidate's own page shows the call to a session.
Forms and buttons are taken from the rendered pages."""

from __future__ import annotations

import datetime
import io
import os
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from candidates import access
from contests.models import AccessLog
from contests.wording import date_in_full
from declarations.calendars import organization_calendar
from declarations.hetero import services as hs
from declarations.models import ProcedureAct, Verification
from declarations.procedure import services
from tests.builders import make_classified_position, make_contest, make_registration
from tests.declarations.hetero_world import at, make_hetero_world
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db

SAVE = os.environ.get("LETTERS_SAVE_PDF")


def pdf_text(content: bytes, name: str = "") -> str:
    if SAVE and name:
        with open(os.path.join(SAVE, name), "wb") as out:
            out.write(content)
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def private_path(text: str, marker: str) -> str:
    """The path of the private link printed on a letter (its URL may wrap across lines in the PDF text)."""
    flat = re.sub(r"\s+", "", text)
    start = flat.index(marker)
    match = re.match(re.escape(marker) + r"[^/]+/", flat[start:])
    assert match, flat[start : start + 200]
    return match.group(0)


def submit(client, page_url: str, action: str):
    page = client.get(page_url)
    forms = [f for f in forms_on(page.content.decode()) if f.method == "post" and f.action == action]
    assert forms, f"{page_url}: nenhum botão envia para {action}"
    return client.post(action, forms[0].values)


# The procedure's notice -------------------------------------------------------------------------------


@pytest.fixture
def case(cast):
    registration = make_registration(racial_category="parda")
    registration.candidate.address = "Av. Rio Branco, 100\n97010-000 Santa Maria/RS"
    registration.candidate.save()
    return services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="Indícios.",
        by=cast["legal"],
        today=timezone.localdate(),
    )


def test_issue19_the_notice_preview_shows_a_placeholder_not_the_code(client_for, case):
    url = reverse("declarations:notify", args=[case.year, case.number])
    legal = client_for("legal")
    page = legal.get(url)
    form = next(f for f in forms_on(page.content.decode()) if "means" in f.visible)
    response = legal.post(
        form.action or url, {**form.values, "means": "letter", "text": "Teste", "preview": "1"}
    )
    html = response.content.decode()
    assert "código enviado ao candidato" in html
    assert access.code_for(case.registration) not in html


def test_issue19_the_notice_by_letter_prints_text_link_and_code_and_waits_for_the_receipt(client_for, case):
    legal = client_for("legal")
    url = reverse("declarations:notify", args=[case.year, case.number])
    response = post_form(legal, url, {"means": "letter", "text": "Compareça ao protocolo."}, follow=True)
    html = response.content.decode()
    assert "Imprima a carta da intimação" in html and "aviso de recebimento" in html
    act = ProcedureAct.objects.get(procedure=case, kind="notice")
    assert act.on is None and act.delivery == ""
    # The stored act (the case page's PDF) has no code either.
    assert access.code_for(case.registration) not in pdf_text(bytes(act.document.pdf))
    detail = reverse("declarations:detail", args=[case.year, case.number])
    action = reverse("declarations:notice_letter", args=[case.year, case.number, act.pk])
    letter = submit(legal, detail, action)
    assert letter["Content-Type"] == "application/pdf" and "no-store" in letter["Cache-Control"]
    text = pdf_text(letter.content, "carta-intimacao.pdf")
    assert access.code_for(case.registration) in text and "Compareça ao protocolo." in text
    assert "Av. Rio Branco, 100" in text
    assert case.registration.candidate.cpf not in text.replace(".", "").replace("-", "")
    act.refresh_from_db()
    assert act.delivery == "printed" and act.on is None  # printed, not delivered: the AR date is still due
    assert AccessLog.objects.filter(action="document", detail__startswith="carta da intimação").exists()
    assert "Carta impressa (aguarda o aviso de recebimento)" in legal.get(detail).content.decode()
    # The link on the paper opens the candidate's private page of the case.
    path = private_path(text, "/processo/")
    legal.logout()
    assert legal.get(path).status_code == 200


def test_issue19_the_email_notice_is_refused_without_an_address(client_for, case):
    url = reverse("declarations:notify", args=[case.year, case.number])
    response = post_form(client_for("legal"), url, {"means": "email"})
    assert "não tem e-mail cadastrado" in response.content.decode()
    assert not ProcedureAct.objects.filter(procedure=case, kind="notice").exists()


def test_issue19_only_the_legal_office_prints_a_notice_letter(client_for, case, cast):
    act = services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="letter")
    action = reverse("declarations:notice_letter", args=[case.year, case.number, act.pk])
    for role in ("clerk", "manager", "auditor", "commission"):
        assert client_for(role).post(action).status_code in (403, 404), role
    act.refresh_from_db()
    assert act.delivery == ""


# The heteroidentification result ------------------------------------------------------------------------


@pytest.fixture
def not_confirmed(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    world = make_hetero_world(cast, contest)
    session = world["hetero_session"]
    verification = session.verifications.select_related("registration__candidate").order_by("pk").first()
    members = list(session.commission.members.order_by("pk"))
    for v in session.verifications.all():
        hs.attendance_record(verification=v, attended=v.pk == verification.pk, by=cast["legal"])
    for member in members:
        hs.opinion_record(
            verification=verification,
            user=member.user,
            confirms=False,
            reasons="Fenótipo: pele clara, cabelo liso.",
        )
    now = at(datetime.date(2026, 6, 20), 18)
    mail.outbox.clear()
    hs.session_close(
        session=session, by=cast["legal"], now=now, calendar=organization_calendar([now.year, now.year + 1])
    )
    verification.refresh_from_db()
    return verification


def test_issue19_without_email_the_button_says_nothing_was_sent_and_the_letter_carries_the_link(
    client_for, not_confirmed
):
    verification = not_confirmed
    assert verification.outcome == "not_confirmed" and "nada foi enviado" in verification.notice
    legal = client_for("legal")
    session_url = reverse("declarations:hetero_session", args=[verification.session_id])
    html = legal.get(session_url).content.decode()
    assert "Sem e-mail cadastrado: nada foi enviado. Imprima a carta" in html
    assert reverse("declarations:hetero_notify", args=[verification.pk]) not in html
    # Even a hand-made POST to the e-mail button gets the truth, not "enviada".
    response = legal.post(reverse("declarations:hetero_notify", args=[verification.pk]), follow=True)
    assert "nada foi enviado" in response.content.decode() and mail.outbox == []
    action = reverse("declarations:hetero_result_letter", args=[verification.pk])
    letter = submit(legal, session_url, action)
    text = pdf_text(letter.content, "carta-heteroidentificacao.pdf")
    registration = verification.registration
    assert access.code_for(registration) in text
    verification.refresh_from_db()  # the period starts with the letter, the message that left (issue 25 N7)
    assert verification.appeal_deadline is not None
    assert f"até as 23h59 de {date_in_full(verification.appeal_deadline)}" in " ".join(text.split())
    # LGPD: no member named, no opinion's text, no CPF on the paper.
    assert "Fenótipo" not in text and "Membro 1" not in text
    assert registration.candidate.cpf not in text.replace(".", "").replace("-", "")
    verification.refresh_from_db()
    assert verification.notice.startswith("Carta com o resultado e o link privado impressa")
    path = private_path(text, "/heteroidentificacao/resultado/")
    legal.logout()
    page = legal.get(path)
    assert page.status_code == 200 and "Fenótipo: pele clara, cabelo liso." in page.content.decode()


def test_issue19_with_email_the_button_says_queued_and_the_notice_follows_the_send(
    client_for, not_confirmed, django_capture_on_commit_callbacks
):
    verification = not_confirmed
    candidate = verification.registration.candidate
    candidate.email = "ela@example.org"
    candidate.save()
    url = reverse("declarations:hetero_notify", args=[verification.pk])
    with django_capture_on_commit_callbacks(execute=False) as queued:
        client_for("legal").post(url)
    verification.refresh_from_db()
    assert verification.notice.startswith("E-mail com o link privado na fila de envio") and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("legal").post(url, follow=True)
    assert queued and "posto na fila de envio" in response.content.decode()
    assert [m.to for m in mail.outbox] == [["ela@example.org"]]
    verification.refresh_from_db()
    assert verification.notice.startswith("Comunicado por e-mail")


# The candidate's own page -------------------------------------------------------------------------------


def test_issue19_the_candidates_page_shows_the_call_to_the_session(client, cast):
    contest = make_contest(pcd_percent=0, status="in_progress")
    make_classified_position(contest)
    world = make_hetero_world(cast, contest)
    verification: Verification = world["verification"]
    registration = verification.registration
    page = client.get(reverse("public:candidate"))
    form = next(f for f in forms_on(page.content.decode()) if "code" in f.visible)
    response = client.post(
        form.action or reverse("public:candidate"),
        {
            **form.values,
            "contest": contest.pk,
            "number": registration.number,
            "code": access.code_for(registration),
        },
    )
    html = response.content.decode()
    assert "Convocação para a heteroidentificação" in html
    assert "20/06/2026, às 10:00" in html and "Sala 1" in html
    other = client.post(
        reverse("public:candidate"),
        {"contest": contest.pk, "number": "N1", "code": "x"},
    ).content.decode()
    assert "Convocação para a heteroidentificação" not in other
