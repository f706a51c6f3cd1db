"""What a clerk clicks through, in Debian's Chromium: log in, type vacancies, watch the reserve, save.

The page runs under the strict CSP (scripts and styles from 'self' only): a violation would show as a
console error, so the test fails on any.
"""

import pytest

from tests.builders import PASSWORD, make_cast, make_contest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_clerk_sees_the_reserve_while_typing_and_creates_a_position(page, live_server):
    make_cast()
    contest = make_contest()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))

    page.goto(f"{live_server.url}{contest.get_absolute_url()}")
    page.get_by_label("Usuário").fill("clerk")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("link", name="Novo cargo").first.click()

    page.get_by_label("Código").fill("TL")
    page.get_by_label("Denominação").fill("Técnico Legislativo")
    vacancies = page.get_by_label("Vagas do edital")
    vacancies.fill("")
    vacancies.press_sequentially("13")
    summary = page.locator("[data-preview='summary']")
    # 20% of 13 = 2.6 → 3 (SM art. 1 §3); PcD 5% of 13 = 0.65 → 1.
    summary.filter(has_text="3 reservadas a negros").wait_for()
    assert page.locator("[data-preview='racial']").inner_text() == "3"
    assert page.locator("[data-preview='pcd']").inner_text() == "1"
    assert "20% de 13 = 2,6 → 3" in page.locator("[data-preview='racial_explanation']").inner_text()

    vacancies.fill("2")
    summary.filter(has_text="0 reservadas a negros").wait_for()
    assert "a partir de 3 vagas" in page.locator("[data-preview='racial_explanation']").inner_text()

    vacancies.fill("13")
    summary.filter(has_text="3 reservadas a negros").wait_for()
    page.get_by_role("button", name="Criar cargo").click()
    page.get_by_role("heading", name="TL – Técnico Legislativo").wait_for()
    assert "Cargo TL criado" in page.locator(".messages").inner_text()
    # No console error: no CSP violation, no failed request.
    assert problems == []
