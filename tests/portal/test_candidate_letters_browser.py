"""The candidate's journey with the access code on paper and by e-mail (issue 19), in Debian's Chromium
through the real pages, every step by a link or a button a person sees:

- Secretaria opens the contest's registrations and prints "cartas dos candidatos sem e-mail" (one PDF);
- the candidate without e-mail reads the code on the letter (the PDF's text), opens "Consultar minha
  inscrição" from the public site, and sees their own page with the call to the heteroidentification session;
- the candidate with e-mail does the same with the code of the message the task sent (the mail outbox);
- Jurídico notifies by registered letter and prints it; the candidate types the private link printed on the
  letter and reaches the case's private page.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.utils import timezone
from pypdf import PdfReader

from candidates.models import Registration
from candidates.tasks import send_access_code
from declarations.calendars import organization_calendar
from declarations.hetero import services as hs
from declarations.procedure import services as procedure_services
from tests.axe import assert_accessible
from tests.builders import PASSWORD, make_cast, make_classified_position, make_contest, publish_final
from tests.declarations.hetero_world import make_hetero_world
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    cache.clear()


def shot(page, name: str) -> None:
    screenshot(page, f"letters-{name}")


def login(page, base: str, username: str) -> None:
    page.goto(f"{base}/entrar/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state()


def logout(page) -> None:
    page.get_by_role("button", name="Sair").click()
    page.wait_for_load_state()


def download_text(page, click) -> str:
    with page.expect_download() as info:
        click()
    path = info.value.path()
    with open(path, "rb") as handle:
        content = handle.read()
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)


def letter_code(text: str, number: str) -> str:
    """The code printed on the letter of inscription ``number`` (one letter per page)."""
    page = next(part for part in text.split("Carta pessoal ao candidato") if f"Inscrição {number}" in part)
    found = re.search(r"Código de acesso: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2})", page)
    assert found, page
    return found.group(1)


def open_own_page(page, base: str, contest, number: str, code: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Consultar minha inscrição").first.click()
    page.get_by_role("combobox", name=re.compile("^Concurso")).select_option(label=str(contest))
    page.get_by_label("Número de inscrição").fill(number)
    page.get_by_label("Código de acesso").fill(code)
    page.get_by_role("button", name="Ver minha inscrição").click()
    page.get_by_role("heading", name="Classificação nas listas publicadas").wait_for()


def test_issue19_the_candidate_enters_with_the_code_of_the_letter_and_of_the_email(page, live_server):
    base = live_server.url
    cast = make_cast()
    contest = make_contest(pcd_percent=0, status="in_progress")
    make_classified_position(contest)
    publish_final(contest, cast["manager"])
    world = make_hetero_world(cast, contest)
    called: Registration = world["verification"].registration  # called to the session, no e-mail
    emailed = Registration.objects.filter(contest=contest).exclude(pk=called.pk).order_by("number").first()
    emailed.candidate.email = "candidata@example.org"
    emailed.candidate.save()

    # Secretaria prints the letters of those without e-mail, from the contest's registrations.
    login(page, base, "clerk")
    page.get_by_role("link", name="Concursos", exact=True).click()
    page.get_by_role("link", name=contest.title).first.click()
    page.get_by_role("link", name="Inscrições", exact=True).click()
    page.get_by_role("heading", name="Código de acesso dos candidatos sem e-mail").wait_for()
    assert_accessible(page)
    shot(page, "1-secretaria-inscricoes")
    text = download_text(
        page,
        lambda: page.get_by_role(
            "button", name=re.compile("Imprimir cartas dos candidatos sem e-mail")
        ).click(),
    )
    assert f"Inscrição {emailed.number}" not in text  # has e-mail: no letter
    code = letter_code(text, called.number)
    page.reload()
    assert "Todos já têm a carta com o código atual impressa." in page.content()
    page.get_by_role("link", name=called.candidate.display_name, exact=True).click()
    page.wait_for_url(f"**/inscricoes/{called.pk}/")  # the click does not wait for the new page
    assert "Código atual, carta impressa: impressa 1 vez" in page.content()
    assert code not in page.content()
    assert_accessible(page)
    shot(page, "1b-secretaria-inscricao")
    logout(page)

    # The candidate types the code of the letter and sees the call to the session.
    open_own_page(page, base, contest, called.number, code.lower().replace("-", ""))
    call = page.get_by_role("region", name="Convocação para a heteroidentificação")
    assert "20/06/2026, às 10:00" in call.inner_text() and "Sala 1" in call.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert_accessible(page)
    shot(page, "2-candidato-carta-minha-inscricao")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "3-candidato-carta-390px")
    page.set_viewport_size({"width": 1280, "height": 900})

    # The other candidate gets the code by e-mail (the task sends it) and enters with it.
    mail.outbox.clear()
    assert send_access_code.call(registration_id=emailed.pk) == "enviado"
    (message,) = mail.outbox
    emailed_code = re.search(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{2}\b", message.body).group(0)
    page.get_by_role("link", name="Consultar outra inscrição").click()
    page.get_by_role("combobox", name=re.compile("^Concurso")).select_option(label=str(contest))
    page.get_by_label("Número de inscrição").fill(emailed.number)
    page.get_by_label("Código de acesso").fill(emailed_code)
    page.get_by_role("button", name="Ver minha inscrição").click()
    page.get_by_role("heading", name=emailed.candidate.display_name).wait_for()
    shot(page, "4-candidato-email-minha-inscricao")


def test_issue19_the_candidate_follows_the_private_link_printed_on_the_notice(page, live_server):
    base = live_server.url
    cast = make_cast()
    contest = make_contest(pcd_percent=0, status="in_progress")
    position = make_classified_position(contest)
    registration = position.registrations.get(number="N2")
    procedure = procedure_services.procedure_open(
        registration=registration, origin="ex_officio", facts="Indícios.", by=cast["legal"],
        today=timezone.localdate(),
    )  # fmt: skip

    # Jurídico notifies by registered letter through the form, then prints the letter from the case page.
    login(page, base, "legal")
    page.get_by_role("link", name="Processos", exact=True).click()
    page.get_by_role("link", name=str(procedure)).first.click()
    page.get_by_role("link", name="Intimar").click()
    page.get_by_label("Carta registrada").first.check()
    page.get_by_role("button", name="Registrar intimação").click()
    page.get_by_text("Imprima a carta da intimação").first.wait_for()
    shot(page, "5-juridico-processo")
    text = download_text(
        page, lambda: page.get_by_role("button", name="Imprimir a carta da intimação").click()
    )
    page.reload()
    assert "Carta impressa (aguarda o aviso de recebimento)" in page.content()
    logout(page)
    flat = re.sub(r"\s+", "", text)
    path = re.search(r"/processo/[^/]+/", flat).group(0)

    # The candidate types the address printed on the letter.
    page.goto(base + path)
    page.get_by_role("heading", name=re.compile(str(procedure.number))).first.wait_for()
    assert_accessible(page)
    shot(page, "6-candidato-link-privado")


def test_issue19_the_candidate_without_email_appeals_through_the_link_on_the_result_letter(page, live_server):
    base = live_server.url
    cast = make_cast()
    contest = make_contest(pcd_percent=0, status="in_progress")
    make_classified_position(contest)
    world = make_hetero_world(cast, contest)
    session = world["hetero_session"]
    verification = session.verifications.order_by("pk").first()
    for v in session.verifications.all():
        hs.attendance_record(verification=v, attended=v.pk == verification.pk, by=cast["legal"])
    for member in session.commission.members.order_by("pk"):
        hs.opinion_record(
            verification=verification,
            user=member.user,
            confirms=False,
            reasons="Fenótipo: pele clara, cabelo liso.",
        )
    now = timezone.now()
    hs.session_close(
        session=session, by=cast["legal"], now=now, calendar=organization_calendar([now.year, now.year + 1])
    )

    # Jurídico reaches the session's page from the menu, sees that nothing went by e-mail and prints the
    # letter.
    login(page, base, "legal")
    page.get_by_role("link", name="Heteroidentificação", exact=True).first.click()
    page.get_by_role("link", name=str(session)).first.click()
    page.get_by_role("button", name=re.compile("Imprimir carta com o resultado")).wait_for()
    assert "Sem e-mail cadastrado: nada foi enviado. Imprima a carta" in page.content()
    shot(page, "7-juridico-sessao-carta")
    text = download_text(
        page, lambda: page.get_by_role("button", name=re.compile("Imprimir carta com o resultado")).click()
    )
    logout(page)
    path = re.search(r"/heteroidentificacao/resultado/[^/]+/", re.sub(r"\s+", "", text)).group(0)

    # The candidate types the address printed on the letter, reads the result and appeals.
    page.goto(base + path)
    assert "Fenótipo: pele clara, cabelo liso." in page.content()
    assert_accessible(page)
    page.get_by_role("textbox").first.fill("Sou parda; peço nova avaliação.")
    page.get_by_role("button", name=re.compile("recurso", re.I)).click()
    page.get_by_text("Recurso recebido").first.wait_for()
    shot(page, "8-candidato-recurso")
