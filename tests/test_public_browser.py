"""Acceptance in Chromium, as a candidate would, on a phone (360 × 740): the home page, the demo
contest, a search by name without accents, the place in the racial list and in the nomination order, the
CSV downloaded, the published edital verified by uploading its PDF. axe-core (vendored) on every public
page visited: no violation of any impact; no page scrolls sideways; the keyboard reaches the search with
the e-MAG access key, and the high-contrast toggle is remembered.
"""

from __future__ import annotations

import datetime
import importlib
import io
import re

import pytest
from django.core.management import call_command

from tests.axe import assert_accessible
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def removable_documents(transactional_db):
    """The flush after a transactional test deletes rows, which SQLite's triggers refuse for published
    documents (PostgreSQL's flush truncates, which fires no row trigger): lift them for the cleanup only."""
    yield
    from django.db import connection

    if connection.vendor != "sqlite":
        return
    immutable = importlib.import_module("contests.migrations.0010_documents_immutable")
    with connection.cursor() as cursor:
        for statement in immutable.SQLITE_BACKWARD:
            cursor.execute(statement)
        cursor.execute("DELETE FROM contests_document")
        for statement in immutable.SQLITE_FORWARD:
            cursor.execute(statement)


def check(page, problems: list[str]) -> None:
    """What every public page must be: accessible (axe), within the phone's width, without script errors."""
    assert_accessible(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} rola para o lado: {width}px"
    assert not problems, problems


def test_candidate_finds_their_place_downloads_the_csv_and_verifies_the_edital(
    page, live_server, tmp_path, settings, removable_documents
):
    settings.MEDIA_ROOT = tmp_path
    call_command("seed_demo", "--organization", "angra", stdout=io.StringIO())
    from contests.models import Contest

    demo = Contest.objects.get(slug="demo-angra")
    exam_day = demo.edital_date + datetime.timedelta(days=62)  # the schedule counts from the demo's day
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size(PHONE)

    # 1. The home page: the demo contest among the concluded ones (homologated).
    page.goto(live_server.url + "/")
    page.get_by_role("heading", name="Concursos públicos", level=1).wait_for()
    check(page, problems)
    screenshot(page, "portal-home")
    page.get_by_role("link", name="Concluídos").click()
    page.get_by_role("link", name=f"Concurso 1/{demo.year}: Poder Executivo de Angra dos Reis").click()

    # 2. The contest page: documents, results, vacancies, schedule.
    page.get_by_role("heading", name="Documentos publicados").wait_for()
    check(page, problems)
    assert f"{exam_day:%d/%m/%Y}" in page.locator("#cronograma ~ ol").inner_text()
    contest_url = page.url
    page.get_by_role("link", name="Resultado final publicado em").first.click()

    # 3. The result: search a name without accents with the e-MAG access key to reach the search box.
    page.get_by_role("heading", name="Listas por cargo").wait_for()
    check(page, problems)
    page.keyboard.press("Alt+3")
    focused = lambda: page.evaluate("() => document.activeElement && document.activeElement.id")  # noqa: E731
    for _ in range(40):  # the strict CSP refuses wait_for_function's eval: poll instead
        if focused() == "busca":
            break
        page.wait_for_timeout(50)
    assert focused() == "busca"
    page.keyboard.type("joao conceicao")
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="Resultado da busca").wait_for()
    check(page, problems)
    rows = page.locator("table tbody tr")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    assert any(
        "João Conceição dos Santos" in t and "Lista reservada a negros e índios" in t and "1º" in t
        for t in texts
    ), texts
    assert any("João Conceição dos Santos" in t and "Lista geral" in t and "2º" in t for t in texts), texts

    # 4. The racial list, where João is first; its CSV downloaded.
    page.get_by_role("link", name="Lista reservada a negros e índios").first.click()
    page.get_by_role(
        "heading", name="AGAD – Agente Administrativo: Lista reservada a negros e índios"
    ).wait_for()
    check(page, problems)
    first = page.locator("table tbody tr").first.inner_text()
    assert "1º" in first and "João Conceição dos Santos" in first
    with page.expect_download() as download_info:
        page.get_by_role("link", name="CSV", exact=True).click()
    download = download_info.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    content = saved.read_bytes()
    assert content.startswith("\ufeff".encode()) and "João Conceição dos Santos" in content.decode(
        "utf-8-sig"
    )
    assert content.decode("utf-8-sig").splitlines()[0].startswith("concurso;resultado;")

    # 5. The nomination order of the position: João called second.
    page.goto(contest_url)
    page.get_by_role("link", name="Ordem de nomeação de AGAD").click()
    page.get_by_role("heading", name="Ordem de nomeação: AGAD – Agente Administrativo").wait_for()
    check(page, problems)
    joao = page.locator("tbody tr", has_text="João Conceição dos Santos").inner_text()
    assert joao.startswith("2ª") and "Portaria 101 (demonstração)" in joao

    # 6. The published edital: its PDF downloaded and checked on /verificar/.
    page.goto(contest_url)
    # The result lists are editais too ("Edital nº 2/2026 – Resultado …"): the opening one is the edital.
    document = page.locator(
        "article.document", has=page.get_by_role("heading", name=re.compile(r"^Edital de Abertura"), level=3)
    )
    # Each PDF link names its version and its document, as a screen reader lists the page's links.
    pdf_link = document.get_by_role("link", name=re.compile(r"^PDF da versão 1: Edital de Abertura"))
    # The PDF opens in the browser (inline): fetched as the browser would, with its cookies (none).
    href = pdf_link.get_attribute("href")
    fetched = page.request.get(live_server.url + href)
    assert fetched.ok and fetched.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "edital.pdf"
    pdf.write_bytes(fetched.body())
    document.get_by_role("link", name="verificar").click()
    page.get_by_role("heading", name="Versões").wait_for()
    check(page, problems)
    page.get_by_label("Arquivo PDF a conferir").set_input_files(pdf)
    page.get_by_role("button", name="Conferir", exact=True).click()
    page.get_by_text("Autêntico.").wait_for()
    check(page, problems)

    # 7. High contrast: toggled from the accessibility bar, kept on the next page.
    page.get_by_role("button", name="Alto contraste").click()
    assert page.evaluate("document.documentElement.classList.contains('high-contrast')")
    page.get_by_role("link", name="Acessibilidade", exact=True).first.click()
    page.get_by_role("heading", name="Acessibilidade", level=1).wait_for()
    assert page.evaluate("document.documentElement.classList.contains('high-contrast')")
    assert page.get_by_role("button", name="Alto contraste").get_attribute("aria-pressed") == "true"
    check(page, problems)
    screenshot(page, "portal-accessibility-contrast")
