"""Pages with history tables fit a phone: a wide table scrolls inside its box, never the page (no
horizontal scrolling at 390 px). The visually hidden labels inside the table are positioned absolutely;
without a positioned wrapper they widened the whole page (the contest history went to 622 px)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.builders import PASSWORD, make_cast, make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def contest(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(make_cast())["contest"]


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("name", ["contests:history", "candidates:contest_audit_trail"])
def test_history_pages_do_not_scroll_sideways(page, live_server, contest, name, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/painel/")
    page.get_by_label("Usuário").fill("auditor")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    page.goto(live_server.url + reverse(name, args=[contest.slug]))
    assert page.locator("table.history tbody tr").count() > 0  # the table is there, with rows
    assert page.evaluate("document.documentElement.scrollWidth") <= width
