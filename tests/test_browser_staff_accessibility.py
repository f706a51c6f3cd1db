"""Accessibility acceptance: axe-core reports no violation, of any impact, on the staff pages, and none
of them scrolls sideways on a 390 px wide phone.

Each role logs in, in Chromium, and opens every staff page the permission matrix lets it open with a GET
(``tests.test_permission_matrix.MATRIX``, the records of ``tests.url_arguments.build_world``): a new
screen is walked as soon as it has its row in the matrix. Downloads (PDF, CSV, attachments) and the
public pages (another issue's bar) are left out. Then the pages only a flow reaches: a success message
after a save, and the import wizard's steps with a file.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from contests.models import Contest
from tests.axe import assert_accessible, preload
from tests.builders import EXAMPLE_CSV, PASSWORD, final_result, make_example_contest
from tests.test_permission_matrix import MATRIX, ROLES, staff_patterns
from tests.url_arguments import arguments, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

DOWNLOADS = {
    "candidates:import_template",
    "candidates:nomination_letter",
    "candidates:nomination_statement",
    "candidates:result_export",
    "candidates:seat_notice_letter",
    "contests:edital_draft_pdf",
    "contests:edital_draft_text",
    "contests:job_output",
    "declarations:attachment",
    "declarations:court_order_file",
    "declarations:document",
    "declarations:document_text",
    "declarations:hetero_document",
    "declarations:hetero_document_text",
    "declarations:hetero_appeal_attachment",
    "declarations:hetero_no_conflict_file",
    "declarations:receipt_pdf",
}
STAFF_ROLES = ("clerk", "legal", "commission", "manager", "auditor")
PHONE = {"width": 390, "height": 844}


def pages_for(who: str) -> list[str]:
    """The URL names ``who`` may open with a GET (200 in the matrix), public pages and downloads aside."""
    column = ROLES.index(who)
    names = []
    for name, row in MATRIX.items():
        cells = row["GET"].split()
        if cells[column] == "200" and cells[0] != "200" and name not in DOWNLOADS:
            names.append(name)
    return sorted(names)


@pytest.fixture
def world(cast, settings, tmp_path):
    return build_world(cast, settings, tmp_path)


def log_in(page, base: str, who: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Usuário").fill(who)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()


@pytest.mark.parametrize("who", STAFF_ROLES)
def test_axe_finds_nothing_and_nothing_scrolls_sideways_on_the_staff_pages_of_each_role(
    page, live_server, world, who
):
    log_in(page, live_server.url, who)
    preload(page)
    routes = staff_patterns()
    visited = []
    failures = []
    for name in pages_for(who):
        url = reverse(name, kwargs=arguments(name, routes[name], world))
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, (name, url)
        try:
            assert_accessible(page)
        except AssertionError as error:
            failures.append(f"{name}: {error}")
        desktop = page.viewport_size
        page.set_viewport_size(PHONE)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            failures.append(f"{name}: {url} rola para o lado a 390 px ({width}px)")
        page.set_viewport_size(desktop)
        visited.append(name)
    assert "home" in visited and "contests:list" in visited
    assert not failures, "\n\n".join(failures)


def test_axe_finds_nothing_on_a_success_message_and_the_import_wizard(page, live_server, world):
    log_in(page, live_server.url, "clerk")
    contest = world["contest"]
    # A save that ends with a success message on the next page.
    page.goto(live_server.url + reverse("contests:edit", args=[contest.slug]))
    page.get_by_role("button", name="Salvar alterações").click()
    page.locator(".message--success").first.wait_for()
    assert_accessible(page)
    # The import wizard's steps on a contest in progress: upload, columns, preview.
    other = make_example_contest(status=Contest.Status.IN_PROGRESS)
    page.goto(live_server.url + reverse("candidates:import_upload", args=[other.slug]))
    page.get_by_label("Arquivo da organizadora (CSV ou XLSX)").set_input_files(str(EXAMPLE_CSV))
    page.get_by_role("button", name="Enviar e conferir as colunas").click()
    page.get_by_role("heading", name="Conferir as colunas").wait_for()
    assert_accessible(page)
    page.get_by_role("button", name="Ver a prévia").click()
    page.get_by_role("heading", name="Prévia da importação").wait_for()
    assert_accessible(page)


def test_axe_finds_nothing_on_the_homologation_and_its_confirmation(page, live_server, world):
    contest = make_example_contest(status=Contest.Status.IN_PROGRESS)
    final_result(contest)  # the homologation is dated from the final result (issue 19)
    log_in(page, live_server.url, "manager")
    page.goto(live_server.url + reverse("contests:homologate", args=[contest.slug]))
    assert_accessible(page)
    page.get_by_label("Ato de homologação").fill("Portaria nº 123/2026")
    page.get_by_role("button", name="Continuar").click()
    page.get_by_role("heading", name="Confirmar a homologação").wait_for()
    assert_accessible(page)
