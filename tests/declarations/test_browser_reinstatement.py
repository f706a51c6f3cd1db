"""In Debian's Chromium through the real pages, the whole acceptance of issue 22: a decision of falsity
applied from the first instance (Lei 9.784 art. 61, the appeal without suspensive effect), the seat
refilled, the decision reversed on appeal and the seat given back by ``next_seat`` at the next call; then a
court order that keeps a seat for the next in line, recorded on its screen and complied with: the call marks
the seat on hold and calls the next person for the next seat; the order confirmed, the seat released and
the nomination published "sub judice"; then the order revoked (STF Tema 476), the nomination annulled and
the seat refilled at the next call."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call
from declarations.models import CourtOrder, Procedure, ProcedureLaw
from declarations.procedure import services
from tests.builders import (
    make_cast,
    make_classified_position,
    make_contest,
    publish_final,
    set_policy,
)
from tests.declarations.courts_world import CASE_NUMBER, PDF
from tests.declarations.test_browser_case import act, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Ten vacancies; the cotistas below the general list's first ten, so that the reserved seats go to them.
PEOPLE = (
    ("A", None),
    ("N1", "parda"),
    *((letter, None) for letter in "BCDEFGHIJ"),
    ("N2", "preta"),
    ("N3", "parda"),
    ("K", None),
    ("N4", "parda"),
    ("L", None),
)


def decided_and_notified(registration, legal) -> Procedure:
    """A case on ``registration`` decided "falsity" in the first instance and notified in person today."""
    today = timezone.localdate()
    case = services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.EX_OFFICIO,
        facts="Não confirmação pela comissão; indícios de falsidade.",
        by=legal,
        today=today,
    )
    services.notice_send(procedure=case, by=legal, today=today, means="in_person")
    for kind, extra in (
        ("defence", {"text": "Sou preta."}),
        ("instruction_closed", {}),
        ("final_statement", {"text": "Reitero."}),
        ("report", {"text": "Proponho a falsidade."}),
        ("decision", {"text": "Falsidade: fundamentos.", "outcome": "falsity"}),
    ):
        services.act_record(procedure=case, kind=kind, by=legal, today=today, **extra)
    services.notice_send(procedure=case, by=legal, today=today, means="in_person")
    return case


def call(page, list_url: str, count: int, act_number: str) -> str:
    """Through "Convocar próximas vagas": the preview's text, then confirmed."""
    page.goto(list_url)
    page.get_by_role("link", name="Convocar próximas vagas").click()
    page.get_by_label("Vagas a preencher").fill(str(count))
    page.get_by_label("Número do ato de nomeação").fill(act_number)
    page.get_by_role("button", name="Ver quem será convocado").click()
    preview = page.locator("aside .preview")
    preview.wait_for()
    text = preview.inner_text()
    page.get_by_role("button", name="Confirmar").click()
    page.wait_for_url(list_url)
    return text


def status(page, order_url: str, target: str, note: str) -> None:
    page.goto(order_url)
    page.get_by_label("Nova situação").select_option(target)
    page.get_by_label("Data da decisão que muda a situação").fill(f"{timezone.localdate():%d/%m/%Y}")
    page.locator("textarea[name=note]").fill(note)
    page.get_by_role("button", name="Mudar a situação").click()
    page.wait_for_url(order_url)


def seat_of(position, number: str) -> tuple[int, str]:
    nomination = Nomination.objects.filter(
        registration__position=position, registration__number=number
    ).latest("order")
    return nomination.seat, nomination.status


def test_reversed_on_appeal_the_seat_comes_back_then_a_court_order_holds_releases_and_falls(
    page, live_server, browser, settings
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    cast = make_cast()
    set_policy(
        "santa-maria",
        appeal_instances=2,
        falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION,
        reinstatement="next_seat",
    )
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest, vacancies=10, people=PEOPLE)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=5,
        by=cast["clerk"],
        act_number="Portaria 10/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=5),
    )
    for number in ("N2", "D"):
        candidate = position.registrations.get(number=number).candidate
        candidate.email = f"{number.lower()}@example.org"
        candidate.save()
    n2 = position.registrations.get(number="N2")
    case = decided_and_notified(n2, cast["legal"])
    base = live_server.url
    case_url = base + case.get_absolute_url()
    list_url = base + reverse("candidates:nomination_list", args=[contest.slug, position.pk])

    # Art. 61: the effects applied from the first decision, the appeal pending.
    login(page, case_url, "legal")
    page.wait_for_url(case_url)
    page.get_by_role("link", name="Aplicar os efeitos").click()
    page.get_by_role("button", name="Confirmar").click()
    page.wait_for_url(case_url)
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ELIMINATED
    clerk = browser.new_context(locale="pt-BR").new_page()
    login(clerk, list_url, "clerk")
    clerk.wait_for_url(list_url)
    assert seat_of(position, "N2") == (3, Nomination.Status.ANNULLED)
    # The freed seat goes to the next cotista.
    assert "3ª vaga · Reservada a negros: inscrição N3" in call(clerk, list_url, 1, "Portaria 11/2026")
    assert seat_of(position, "N3") == (3, Nomination.Status.ACTIVE)

    # The candidate's appeal, received at the desk; the authority maintains, the superior reverses.
    page.goto(case_url)
    page.get_by_role("link", name="Recurso", exact=True).click()
    page.get_by_label("Recorrente", exact=True).fill(n2.candidate.full_name)
    page.get_by_label("Legitimidade do recorrente (art. 58)").select_option("party")
    page.locator("textarea[name=text]").fill("Sou preta; a decisão não examinou as provas.")
    page.get_by_role("button", name="Registrar", exact=True).click()
    page.wait_for_url(case_url)
    act(page, case_url, "Juízo de reconsideração", "Mantenho a decisão; ao superior.", outcome="maintain")
    act(
        page,
        case_url,
        "Decisão da instância superior",
        "Recurso provido: autodeclaração confirmada.",
        outcome="dismissed",
    )
    n2.refresh_from_db()
    assert n2.status == Registration.Status.ACTIVE
    # The next call pays the seat owed to the reinstated candidate first (next_seat), with the reason.
    preview = call(clerk, list_url, 1, "Portaria 12/2026")
    assert "6ª vaga · Ampla concorrência: inscrição N2" in preview
    assert "reintegrado(a) por decisão da instância superior" in preview
    assert seat_of(position, "N2") == (6, Nomination.Status.ACTIVE)
    assert seat_of(position, "N3") == (3, Nomination.Status.ACTIVE)  # nobody displaced under next_seat

    # A court order keeps the seat of D, next in line: recorded by Jurídico on its screen.
    today = timezone.localdate()
    page.goto(case_url)
    page.get_by_role("link", name="Ordens judiciais").click()
    page.get_by_role("link", name="Registrar ordem").click()
    page.get_by_label("Concurso").select_option(str(contest.pk))
    page.get_by_label("Número do processo").fill(CASE_NUMBER)
    page.get_by_label("Órgão julgador").fill("1ª Vara Federal de Santa Maria")
    page.get_by_label("Espécie de decisão").select_option("injunction")
    page.get_by_label(re.compile(r"^Data da decisão( \*)?$")).fill(
        f"{today - datetime.timedelta(days=2):%d/%m/%Y}"
    )
    page.get_by_label("Data da intimação do órgão").fill(f"{today - datetime.timedelta(days=1):%d/%m/%Y}")
    page.get_by_label("O que a decisão determina").fill("Reservar a vaga do autor até o julgamento.")
    page.get_by_label("Arquivo da decisão").set_input_files(
        {"name": "liminar.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )
    page.get_by_label("Prazo (quantidade)").fill("5")
    page.get_by_label("dias úteis").check()
    page.get_by_label("Efeito").select_option("keep_seat")
    page.get_by_label("Alcance").select_option("candidate")
    page.get_by_label("Inscrições alcançadas").fill("D")
    page.get_by_label("Até o trânsito em julgado").check()
    page.get_by_role("button", name="Registrar", exact=True).click()
    order = CourtOrder.objects.get()
    order_url = base + order.get_absolute_url()
    page.wait_for_url(order_url)
    page.get_by_role("link", name="Cumprir a ordem").click()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    page.wait_for_url(order_url)
    assert "Ordem cumprida." in page.content()

    # The call marks D's seat on hold (kept, not refilled) and calls the next person for the next seat.
    preview = call(clerk, list_url, 2, "Portaria 13/2026")
    assert "7ª vaga · Ampla concorrência: inscrição D, " in preview
    assert "vaga reservada por ordem judicial (sub judice)" in preview
    assert "8ª vaga · Reservada a negros: inscrição N4" in preview
    assert seat_of(position, "D") == (7, Nomination.Status.ON_HOLD)
    assert seat_of(position, "N4") == (8, Nomination.Status.ACTIVE)

    # The order confirmed by the sentence: the seat released; the public nomination order says
    # "sub judice" and nothing of the case.
    status(page, order_url, "confirmed", "Sentença que confirma a liminar.")
    assert seat_of(position, "D") == (7, Nomination.Status.ACTIVE)
    public_url = base + reverse("public:nominations", args=[contest.slug, position.pk])
    anonymous = browser.new_context(locale="pt-BR").new_page()
    anonymous.goto(public_url)
    public = anonymous.content()
    assert public.count("(sub judice)") == 1
    assert CASE_NUMBER not in public and "Vara" not in public

    # Revoked on appeal (STF Tema 476): the nomination falls from the start and the seat is refilled.
    status(page, order_url, "revoked", "Acórdão que revoga a liminar e julga improcedente o pedido.")
    assert seat_of(position, "D") == (7, Nomination.Status.ANNULLED)
    assert position.registrations.get(number="D").status == Registration.Status.ELIMINATED
    preview = call(clerk, list_url, 1, "Portaria 14/2026")
    assert "7ª vaga · Ampla concorrência: inscrição E" in preview
    assert seat_of(position, "E") == (7, Nomination.Status.ACTIVE)
    subjects = [m.subject for m in mail.outbox]
    for told in ("Reintegração – inscrição N2", "Vaga reservada por ordem judicial – inscrição D"):
        assert any(s.startswith(told) for s in subjects), subjects
    assert any(s.startswith("Fim da reserva judicial: posse – inscrição D") for s in subjects), subjects
    later = browser.new_context(locale="pt-BR").new_page()  # the public page is cached a while by browsers
    later.goto(public_url)
    assert "(sub judice)" not in later.content()
