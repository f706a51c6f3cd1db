"""The heteroidentification journey in Chromium, every screen reached by the links and buttons a person sees
from the page the login lands on (the only addresses typed: the login page, and the links taken from the
e-mails sent). Python only sets up what has no screen here: the contest and its classified registrations.

Jurídico finds the contest's heteroidentification on the home page; announces the draw with the pool typed
field by field (masculine colours accepted), draws the commission with the seed, creates each drawn member's
login (the members with e-mail set the password by the e-mailed link; the one without gets a printed
first-access letter, PDF, and types its code); forms the appeal commission (refused first with a member in
common); uploads every no-conflict declaration in one form; schedules the session, calls and publishes the
call, records the attendance in one table. Each member logs in, finds the session on the home page and
records their opinions; N2 is not confirmed, is told by e-mail and appeals through the private link; the
appeal commission confirms the non-confirmation; Jurídico applies every final result in one step (N2 leaves
the racial list under ``keep_open``, N3 takes the reserved seat) and publishes the confirmed list."""

from __future__ import annotations

import datetime
import io
import re
import unicodedata
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from candidates.models import Registration
from candidates.services.nominations import nominations_call, nominations_preview
from contests.documents.models import Document, EditalText
from declarations.hetero import draw as draw_rules
from declarations.models import CommissionMember, DrawAnnouncement, Opinion, Verification
from tests import screens
from tests.axe import assert_accessible
from tests.builders import PASSWORD as STAFF_PASSWORD
from tests.builders import make_cast, make_classified_position, make_contest, publish_final, set_policy
from tests.declarations.hetero_world import SEED, a_day_passes
from tests.queue import run_queued_tasks
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
D = datetime.date
PASSWORD = "Senha-do-membro-2026"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"

# The pool: name, office, gender, colour as a person picks it, e-mail (the 7th drawn has none).
POOL = [
    ("Ana Beatriz Reis", "Procuradora", "feminino", "preta"),
    ("Bruno Carvalho", "Assessor Jurídico", "masculino", "parda"),
    ("Carla Mendes", "Técnica Legislativa", "feminino", "branca"),
    ("Davi Potiguara", "Professor", "masculino", "indígena"),
    ("Elza Nogueira", "Conselheira", "feminino", "parda"),
    ("Fábio Okabe", "Assistente", "masculino", "amarela"),
    ("Glória Santos", "Servidora", "feminino", "preta"),
]
APPEAL = [
    ("Hélio Souza", "Procurador", "masculino", "preta"),
    ("Iara Lima", "Assessora", "feminino", "parda"),
    ("Júlia Prado", "Servidora", "feminino", "branca"),
]


def email_of(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name.split()[0].lower()).encode("ascii", "ignore").decode()
    return f"{plain}@example.org"


def log_in(browser, base: str, username: str, password: str):
    """A fresh browser at the login page (the one address typed); lands on the home page."""
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(f"{base}/entrar/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(password)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"{base}/painel/")
    return page


def fill_members(page, people, emails: dict[str, str]) -> None:
    for i, (name, office, gender, colour) in enumerate(people, start=1):
        block = page.get_by_role("group", name=f"Membro {i}", exact=True)
        block.get_by_label("Nome").fill(name)
        block.get_by_label("Cargo ou função").fill(office)
        block.get_by_label("Gênero").select_option(gender)
        block.get_by_label("Cor ou raça (IBGE)").select_option(colour)
        if emails.get(name):
            block.get_by_label("E-mail (opcional)").fill(emails[name])


def assert_no_sideways_scroll(page) -> None:
    """At 390 px the page does not scroll sideways (tables scroll inside their own region)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 800})
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(size)
    assert width <= 390, f"{page.url} rola para o lado ({width}px)"


def publish(page, signer: str = "Ana Souza") -> None:
    page.get_by_label(re.compile(r"^Quem assina")).fill(signer)
    page.get_by_label("Cargo de quem assina").fill("Procuradora do Município")
    page.get_by_role("button", name="Publicar").click()


def set_password_from_email(browser, base: str, address: str) -> str:
    """The member opens the e-mailed link and sets the password; the user name, as the e-mail says."""
    message = next(m for m in mail.outbox if m.to == [address])
    link = re.search(r"https?://[^/\s]+(/heteroidentificacao/definir-senha/\S+/)", message.body)
    named = re.search(r"Nome de usuário: (\S+)", message.body)
    assert link and named, message.body
    path, username = link.group(1), named.group(1)
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(base + path)
    page.get_by_label(re.compile(r"^Nova senha")).fill(PASSWORD)
    page.get_by_label("Confirmação da nova senha").fill(PASSWORD)
    page.get_by_role("button", name="Definir a senha").click()
    page.wait_for_url(f"{base}/entrar/")
    assert "Senha definida" in page.content()
    page.context.close()
    return username


def opinions(browser, base: str, username: str, session_name: str, votes: dict, text: str) -> None:
    """A member logs in, opens the session from the home page and records an opinion on each candidate."""
    page = log_in(browser, base, username, PASSWORD)
    page.get_by_role("link", name=session_name).first.click()
    for verification, confirms in votes.items():
        card = page.locator(f"#verificacao-{verification.pk}")
        assert card.get_by_label("Fundamentação").input_value() == ""  # never another member's opinion
        label = "Confirma a autodeclaração" if confirms else "Não confirma a autodeclaração"
        card.get_by_label(label, exact=True).check()
        card.get_by_label("Fundamentação").fill(f"{text} ({username})")
        card.get_by_role("button", name="Registrar meu parecer").click()
        expect(page.locator("main")).to_contain_text("registrado")
    page.context.close()


def test_heteroidentification_journey_from_the_draw_to_the_result_and_the_appeal(
    live_server, browser, settings
):
    settings.PUBLIC_BASE_URL = live_server.url
    cast = make_cast()
    set_policy("santa-maria", non_confirmation="keep_open")
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    for registration in Registration.objects.filter(contest=contest).select_related("candidate"):
        registration.candidate.email = f"{registration.number.lower()}@example.org"
        registration.candidate.save()
    EditalText.objects.update_or_create(contest=contest, defaults={"uses_heteroidentification": True})
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    base = live_server.url
    drawn = draw_rules.draw(SEED, [p[0] for p in POOL], 5).drawn
    no_email = drawn[-1]  # a drawn member without e-mail: the printed first-access letter
    emails = {p[0]: email_of(p[0]) for p in POOL + APPEAL if p[0] != no_email}

    # Jurídico lands on the home page, where the contest's heteroidentification waits.
    officer = log_in(browser, base, cast["legal"].username, STAFF_PASSWORD)
    officer.get_by_role("link", name=f"Heteroidentificação: {contest}").click()
    hub = officer.url
    officer.get_by_role("link", name="Anunciar sorteio").click()
    officer.get_by_label("Comissão").select_option("first")
    fill_members(officer, POOL, emails)
    officer.get_by_label("Fonte pública da semente").fill("Resultado do concurso nº 2950 da Mega-Sena")
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)  # strictly after the notice's day
    officer.get_by_label("Semente conhecida a partir de").fill(tomorrow.strftime("%d/%m/%Y"))
    officer.get_by_label(re.compile(r"^Quem assina o aviso")).fill("Ana Souza")
    officer.get_by_label("Cargo de quem assina o aviso").fill("Procuradora do Município")
    screenshot(officer, "hetero-journey-announce")
    assert_no_sideways_scroll(officer)
    assert_accessible(officer)
    officer.get_by_role("button", name="Publicar o aviso de sorteio").click()
    expect(officer.locator("main")).to_contain_text("Aviso de sorteio publicado")
    a_day_passes(DrawAnnouncement.objects.get())  # the seed's day comes
    officer.get_by_role("link", name="Sortear: comissão de heteroidentificação").click()
    officer.get_by_label("Semente pública do sorteio").fill(SEED)
    officer.get_by_label("Constituída em").fill("01/06/2026")
    officer.get_by_label("Ato de designação").fill("Portaria 5/2026")
    officer.get_by_role("button", name="Sortear e constituir a comissão").click()
    officer.wait_for_url(hub)
    expect(officer.locator("main")).to_contain_text("5 membros sem acesso")

    # Each drawn member gets a login: by e-mail, or by the printed letter for the one without e-mail.
    mail.outbox.clear()
    for name in drawn:
        officer.get_by_role("link", name=f"Criar ou vincular o acesso de {name}").click()
        expect(officer.get_by_role("button", name="Criar a conta")).to_be_visible()
        if name == drawn[0]:
            assert_accessible(officer)
        officer.get_by_role("button", name="Criar a conta").click()
        expect(officer.locator("main")).to_contain_text("Conta")
        if name == no_email:
            screenshot(officer, "hetero-journey-access")
            with officer.expect_download() as download:
                officer.get_by_role("button", name="Imprimir a carta de primeiro acesso (PDF)").click()
            letter = Path(download.value.path()).read_bytes()
            if screens.FOLDER:  # beside the screenshots, for a person to read
                Path(screens.FOLDER, "hetero-journey-letter.pdf").write_bytes(letter)
            text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(letter)).pages)
            letter_user = re.search(r"Nome de usuário: (\S+)", text).group(1)
            letter_code = re.search(r"Código de primeiro acesso:\s*([0-9a-z -]+)", text).group(1)
        officer.get_by_role("link", name="Voltar à heteroidentificação do concurso").click()
    run_queued_tasks()
    assert sorted(m.to[0] for m in mail.outbox) == sorted(emails[n] for n in drawn if n != no_email)
    usernames = {
        name: set_password_from_email(browser, base, emails[name]) for name in drawn if name != no_email
    }

    # The member without e-mail: from the login page, "Primeiro acesso", the code as printed.
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(f"{base}/entrar/")
    page.get_by_role("link", name="Primeiro acesso").click()
    page.get_by_label("Nome de usuário").fill(letter_user)
    page.get_by_label("Código de primeiro acesso").fill(letter_code)
    page.get_by_role("button", name="Continuar").click()
    page.get_by_label(re.compile(r"^Nova senha")).fill(PASSWORD)
    page.get_by_label("Confirmação da nova senha").fill(PASSWORD)
    page.get_by_role("button", name="Definir a senha").click()
    page.wait_for_url(f"{base}/entrar/")
    page.context.close()
    usernames[no_email] = letter_user

    # The appeal commission: refused with a drawn member in common, then formed; its members' logins.
    officer.get_by_role("link", name="Constituir comissão").click()
    officer.get_by_label("Comissão").select_option("appeal")
    officer.get_by_label("Constituída em").fill("01/06/2026")
    common = next(p for p in POOL if p[0] == drawn[0])
    fill_members(officer, [common, *APPEAL[:2]], emails)
    officer.get_by_role("button", name="Constituir a comissão").click()
    expect(officer.locator("main")).to_contain_text("não pode ter membro em comum")
    fill_members(officer, APPEAL, emails)
    officer.get_by_role("button", name="Constituir a comissão").click()
    officer.wait_for_url(hub)
    mail.outbox.clear()
    for name, *_ in APPEAL:
        officer.get_by_role("link", name=f"Criar ou vincular o acesso de {name}").click()
        officer.get_by_role("button", name="Criar a conta").click()
        officer.get_by_role("link", name="Voltar à heteroidentificação do concurso").click()
    run_queued_tasks()
    appeal_users = {name: set_password_from_email(browser, base, emails[name]) for name, *_ in APPEAL}
    assert "sem acesso" not in officer.locator("main").inner_text()

    # Every no-conflict declaration of the first commission in one form.
    officer.get_by_role(
        "link", name=re.compile(r"Enviar as declarações de ausência de conflito \(comissão de h")
    ).click()
    for name in drawn:
        officer.get_by_label(f"Declaração assinada de {name} (PDF)").set_input_files(
            {"name": "declaracao.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
        officer.get_by_label(f"Assinada em ({name})").fill("01/06/2026")
    officer.get_by_role("button", name="Enviar as declarações").click()
    officer.wait_for_url(hub)
    assert (
        CommissionMember.objects.filter(commission__kind="first", no_conflict_signed_on=D(2026, 6, 1)).count()
        == 5
    )

    # The draw's record published; a session scheduled, the candidates called, the call published.
    officer.get_by_role("link", name="Publicar o registro do sorteio").click()
    publish(officer)
    officer.wait_for_url(hub)
    today = timezone.localdate()
    officer.get_by_role("link", name="Agendar sessão").click()
    officer.get_by_label("Comissão").select_option(label="Comissão de heteroidentificação")
    officer.get_by_label("Data").fill(today.strftime("%d/%m/%Y"))
    officer.get_by_label("Hora").fill("09:30")
    officer.get_by_label("Local (presencial)").fill("Sala 1 da Prefeitura")
    officer.get_by_role("button", name="Agendar a sessão").click()
    officer.wait_for_url(re.compile(r".*/heteroidentificacao/sessoes/\d+/$"))
    session_url = officer.url
    officer.get_by_role("link", name="Chamar candidatos").click()
    officer.get_by_role("button", name="Chamar").click()
    officer.wait_for_url(session_url)
    officer.get_by_role("link", name="Publicar a convocação").click()
    publish(officer)
    officer.wait_for_url(session_url)
    for number in ("N1", "N2", "N3"):
        officer.get_by_label(f"Compareceu: inscrição {number}").check()
    officer.get_by_role("button", name="Registrar o comparecimento").click()
    expect(officer.locator("main")).to_contain_text("3 compareceram")
    screenshot(officer, "hetero-journey-session")
    assert_no_sideways_scroll(officer)

    # Each member, from the home page, records their opinions; N2 is not confirmed 3 to 2.
    called = {v.registration.number: v for v in Verification.objects.select_related("registration")}
    session_name = str(called["N1"].session)
    no_votes = dict(zip(drawn, (True, True, False, False, False), strict=True))
    for name in drawn:
        votes = {called["N1"]: True, called["N2"]: no_votes[name], called["N3"]: True}
        opinions(browser, base, usernames[name], session_name, votes, "Fenótipo observado na sessão")
    assert Opinion.objects.filter(verification=called["N2"]).count() == 5
    mail.outbox.clear()
    officer.reload()
    officer.get_by_role("button", name="Encerrar a sessão e apurar os resultados").click()
    expect(officer.locator("main")).to_contain_text("Não confirmada pela maioria: 3 pareceres contra 2.")

    # N2 is told by e-mail, reads the result through the private link and appeals.
    run_queued_tasks()
    message = next(m for m in mail.outbox if m.to == ["n2@example.org"])
    link = re.search(r"https?://[^/\s]+(/heteroidentificacao/resultado/[^\s/]+/)", message.body).group(1)
    candidate = browser.new_context(locale="pt-BR").new_page()
    candidate.goto(base + link)
    candidate.get_by_label("Razões do recurso").fill("Sou preta, como declarei; peço nova avaliação.")
    candidate.get_by_role("button", name="Enviar o recurso").click()
    expect(candidate.locator("main")).to_contain_text("Recurso recebido")

    # The appeal commission's session: the appellant called, present, three opinions, closed.
    officer.get_by_role("link", name="Heteroidentificação do concurso").click()
    officer.get_by_role("link", name="Agendar sessão").click()
    officer.get_by_label("Comissão").select_option(label="Comissão recursal")
    officer.get_by_label("Data").fill(today.strftime("%d/%m/%Y"))
    officer.get_by_label("Hora").fill("15:00")
    officer.get_by_label("Link da videoconferência").fill("https://video.example.org/recursal")
    officer.get_by_role("button", name="Agendar a sessão").click()
    officer.wait_for_url(re.compile(r".*/heteroidentificacao/sessoes/\d+/$"))
    appeal_url = officer.url
    officer.get_by_role("link", name="Chamar candidatos").click()
    officer.get_by_label(re.compile("Inscrição N2")).check()
    officer.get_by_role("button", name="Chamar").click()
    officer.wait_for_url(appeal_url)
    officer.get_by_label("Compareceu: inscrição N2").check()
    officer.get_by_role("button", name="Registrar o comparecimento").click()
    expect(officer.locator("main")).to_contain_text("1 compareceu")
    judged = Verification.objects.get(session__commission__kind="appeal")
    for name, *_ in APPEAL:
        opinions(browser, base, appeal_users[name], str(judged.session), {judged: False}, "Mantenho")
    officer.reload()
    officer.get_by_role("button", name="Encerrar a sessão e apurar os resultados").click()
    expect(officer.locator("main")).to_contain_text("Não confirmada pela maioria: 3 pareceres contra 0.")

    # Jurídico applies every final result in one step, from the first session's page.
    officer.get_by_role("link", name="Heteroidentificação do concurso").click()
    officer.get_by_role("link", name=session_name).click()
    officer.get_by_role("button", name="Aplicar a todos os marcados").wait_for()  # the session's page
    screenshot(officer, "hetero-journey-apply")
    assert_no_sideways_scroll(officer)
    officer.get_by_role("button", name="Aplicar a todos os marcados").click()
    expect(officer.locator("main")).to_contain_text("Resultado definitivo aplicado a 3 candidatos")
    registration = Registration.objects.get(pk=called["N2"].registration_id)
    assert registration.status == Registration.Status.EXCLUDED_FROM_RESERVE
    assert set(
        Verification.objects.filter(session__commission__kind="first").values_list("consequence", flat=True)
    ) == {
        "none",
        "keep_open",
    }
    preview = nominations_preview(position=position, count=1)
    assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]

    # The confirmed list, published from the contest's page.
    officer.get_by_role("link", name="Heteroidentificação do concurso").click()
    officer.get_by_role("link", name="Publicar a lista de confirmados").click()
    publish(officer)
    officer.wait_for_url(hub)
    assert Document.objects.filter(kind=Document.Kind.HETERO_RESULT).count() == 1
    screenshot(officer, "hetero-journey-hub")
    assert_accessible(officer)
