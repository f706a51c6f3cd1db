"""What a clerk clicks through, in Debian's Chromium: the example file imported, the final list published
by the manager, three nominations called after seeing who and why, one withdrawal with the signed
statement, the next call; the seat strip and the lists show the right people."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from candidates.services.imports import PhaseSpec, commit, parse_upload, suggest_mapping
from tests.builders import EXAMPLE_CSV, PASSWORD, homologate, make_cast, make_example_contest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

EXAMPLE = EXAMPLE_CSV


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def login(page, live_server, username):
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/entrar/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()


@pytest.mark.skipif(not EXAMPLE.exists(), reason="Arquivo de exemplo ausente (../shared/examples).")
def test_publish_call_withdraw_call_again(page, live_server, tmp_path):
    cast = make_cast()
    contest = make_example_contest()
    table = parse_upload(EXAMPLE)
    specs = {
        "Nota Objetiva": PhaseSpec("Nota Objetiva", Decimal(100), Decimal(50)),
        "Nota Discursiva": PhaseSpec("Nota Discursiva", Decimal(10)),
    }
    commit(
        contest,
        table,
        suggest_mapping(contest, table.headers),
        cast["clerk"],
        today=datetime.date(2026, 4, 1),
        phase_specs=specs,
    )
    homologate(contest, timezone.localdate() - datetime.timedelta(days=30))
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())

    # The clerk computes the lists; the manager reviews and publishes them as final.
    login(page, live_server, "clerk")
    page.goto(f"{live_server.url}{contest.get_absolute_url()}")
    page.get_by_role("link", name="Listas de classificação").click()
    page.get_by_label("Para publicar como").select_option("final")
    page.get_by_role("button", name="Calcular").click()
    page.get_by_text("Revise-a antes de publicar").wait_for()  # the run's page, before its address is read
    run_url = page.url
    page.get_by_role("link", name="TLEG").click()
    assert "1020" in page.locator("tbody tr").first.inner_text()
    login(page, live_server, "manager")
    page.goto(run_url)
    page.get_by_label("Final").check()
    page.get_by_role("textbox", name="Quem assina", exact=True).fill("Ana Souza")
    page.get_by_role("textbox", name="Cargo de quem assina").fill("Presidente da Câmara")
    page.get_by_role("button", name="Publicar lista").click()
    assert "publicada" in page.locator(".messages").inner_text()

    # The clerk calls three seats of TLEG: the preview says who and why before anything is written.
    login(page, live_server, "clerk")
    page.goto(f"{live_server.url}{contest.get_absolute_url()}")
    page.get_by_role("link", name="Técnico Legislativo").click()
    page.get_by_role("link", name="Nomeações").click()
    page.get_by_role("link", name="Convocar próximas vagas").click()
    page.get_by_label("Vagas a preencher").fill("3")
    page.get_by_label("Número do ato de nomeação").fill("Portaria 80/2026")
    page.get_by_role("button", name="Ver quem será convocado").click()
    preview = page.locator(".preview").inner_text()
    assert "3ª vaga · Reservada a negros: inscrição 1023" in preview
    assert preview.count("3ª vaga") == 1  # the why line does not repeat the seat
    assert "além das 5 vagas de ampla concorrência" in preview
    page.get_by_role("button", name="Confirmar 3 nomeações").click()
    assert "3 nomeações registradas" in page.locator(".messages").inner_text()

    # The second nominee withdraws, with the signed statement.
    page.get_by_role("link", name="Fábio Moreira Conceição", exact=True).click()
    page.get_by_role("link", name="Registrar desistência").click()
    page.get_by_label("Data da desistência").fill(timezone.localdate().strftime("%d/%m/%Y"))
    statement = tmp_path / "termo.pdf"
    statement.write_bytes(b"%PDF-1.4 termo assinado")
    page.get_by_label("Termo de desistência assinado").set_input_files(str(statement))
    page.get_by_role("button", name="Registrar desistência").click()
    assert "a 2ª vaga será preenchida na próxima chamada" in page.locator(".messages").inner_text()
    assert "livre" in page.locator("dl.figures > div").nth(1).inner_text()

    # The next call refills seat 2 with the next of the general list.
    page.get_by_role("link", name="Convocar próximas vagas").click()
    page.get_by_label("Número do ato de nomeação").fill("Portaria 81/2026")
    page.get_by_role("button", name="Ver quem será convocado").click()
    assert "2ª vaga · Ampla concorrência: inscrição 1036" in page.locator(".preview").inner_text()
    page.get_by_role("button", name="Confirmar 1 nomeação").click()
    seats = page.locator("dl.figures > div")
    numbers = [seats.nth(i).locator("dd a .seats__number").inner_text() for i in range(3)]
    assert numbers == ["inscrição 1020", "inscrição 1036", "inscrição 1023"]
    # Each filled seat shows its holder's name, not only the inscription number.
    assert seats.nth(0).locator("dd a .seats__name").inner_text() == "Rafael Souza Carvalho"
    assert seats.nth(0).locator("dd a").is_visible()
    assert "Reservada a negros" in seats.nth(2).inner_text()
    rows = page.locator("table tbody tr")
    assert rows.count() == 4
    assert "Desistente" in rows.nth(1).inner_text()
    assert problems == []
