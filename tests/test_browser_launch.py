"""The Chromium the browser tests drive runs with Playwright's disabled features and ours (tests/conftest.py):
Chromium keeps only the last ``--disable-features`` of its command line, so a list of ours alone would have
turned Playwright's back on."""

from __future__ import annotations

import pytest

from tests.conftest import DISABLED_FEATURES, browser_command_line

pytestmark = pytest.mark.browser


def test_the_last_disable_features_carries_playwright_s_and_ours(browser):
    switches = [
        argument for argument in browser_command_line(browser) if argument.startswith("--disable-features=")
    ]
    assert len(switches) == 2  # Playwright's, then ours
    playwright_s, ours = (set(switch.split("=", 1)[1].split(",")) for switch in switches)
    assert "PaintHolding" in playwright_s  # one Playwright turns off for every test it runs
    assert playwright_s <= ours
    assert set(DISABLED_FEATURES) <= ours


def test_a_page_still_loads_and_runs_its_scripts(page, live_server):
    page.goto(live_server.url + "/entrar/")
    assert page.get_by_label("Usuário").is_visible()
    assert page.evaluate("document.documentElement.classList.contains('high-contrast')") is False
    page.get_by_role("button", name="Alto contraste").first.click()
    assert page.evaluate("document.documentElement.classList.contains('high-contrast')") is True
