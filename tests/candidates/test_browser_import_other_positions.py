"""The import preview of a file that also carries another contest's position, in Chromium as the clerk:
the grouped problem and the offer "Importar só os cargos deste concurso", then the preview that leaves those
rows out; axe-core clean, no sideways scrolling at 390 px, at each step."""

from __future__ import annotations

import pytest
from django.urls import reverse

from candidates.models import Registration
from tests.axe import assert_accessible
from tests.builders import EXAMPLE_CSV, PASSWORD, make_cast, make_contest, make_position
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def contest(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    make_cast()
    contest = make_contest()
    make_position(contest, vacancies=2, code="ALEG", title="Assistente Legislativo")
    make_position(contest, vacancies=7, code="TLEG", title="Técnico Legislativo")
    return contest


def fits(page) -> None:
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_clerk_leaves_the_other_position_out_and_imports(page, live_server, contest, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/painel/")
    page.get_by_label("Usuário").fill("clerk")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    page.goto(live_server.url + reverse("candidates:import_upload", args=[contest.slug]))
    page.get_by_label("Arquivo da organizadora (CSV ou XLSX)").set_input_files(str(EXAMPLE_CSV))
    page.get_by_role("button", name="Enviar e conferir as colunas").click()
    page.get_by_role("button", name="Ver a prévia").click()
    page.get_by_role("heading", name="O arquivo traz linhas de cargos que este concurso não tem").wait_for()
    problems = page.locator("#problemas ~ .table-wrap tbody tr")
    assert problems.count() == 1 and "78 linhas" in problems.inner_text()
    fits(page)
    screenshot(page, f"import-other-positions-{width}")
    page.get_by_role("button", name="Importar só os cargos deste concurso").click()
    page.get_by_role("heading", name="Só os cargos deste concurso").wait_for()
    fits(page)
    screenshot(page, f"import-only-positions-{width}")
    # The file's new phases are confirmed as shown, then the import.
    page.get_by_role("button", name="Confirmar as fases").click()
    page.get_by_role("button", name="Importar", exact=True).click()
    page.get_by_text("78 linhas de outros cargos ficaram de fora").wait_for()
    assert Registration.objects.filter(contest=contest).count() == 54
