"""The law's report in Chromium (issue 23): axe-core finds nothing on the screen with its tables and charts,
each chart is an image with a text alternative and a table of its figures, and nothing scrolls sideways on
a phone. On the built world of ``test_indicators``."""

from __future__ import annotations

import pytest

from tests.axe import assert_accessible
from tests.builders import PASSWORD
from tests.monitoring.test_indicators import world  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 390, "height": 844}


def test_the_report_with_its_charts_passes_axe_and_fits_a_phone(page, live_server, world):  # noqa: F811
    page.goto(live_server.url + "/entrar/")
    page.get_by_label("Usuário").fill("manager")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    page.get_by_role("link", name="Relatórios da lei").click()
    page.get_by_label("Política (lei)").select_option(str(world["contest"].policy.pk))
    page.get_by_label("Início do período").fill("01/01/2026")
    page.get_by_label("Fim do período").fill("31/12/2026")
    page.get_by_role("button", name="Ver os indicadores").click()
    page.get_by_role("heading", name="Gráficos").wait_for()
    images = page.locator("figure.chart img")
    assert images.count() == 2  # the funnel of the one position, and the seats
    for index in range(images.count()):
        assert images.nth(index).get_attribute("alt").startswith("Gráfico de barras")
        assert images.nth(index).evaluate("img => img.naturalWidth") > 0  # the SVG was drawn
    assert page.locator("figure.chart table").count() == 2
    assert_accessible(page)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto(live_server.url + "/relatorios-da-lei/entregues/")
    assert_accessible(page)
    # "Gerar relatório": the monitoring body's form.
    page.goto(live_server.url + "/relatorios-da-lei/gerar/")
    page.get_by_label("Conclusões do órgão de acompanhamento").wait_for()
    assert_accessible(page)
    page.goto(live_server.url + "/dados-abertos/")
    page.get_by_role("heading", name="Relatórios da lei (acompanhamento da política de cotas)").wait_for()
    assert_accessible(page)
