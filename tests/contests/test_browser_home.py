"""Issue 13's acceptance for the home page: each role logs in, in Chromium, and lands on its "Pendências"
with the right counts on builder data (``tests.builders.make_world``: a homologated contest whose TLEG-like
position has 5 vacancies, 2 nominations called and 1 withdrawn; plus a draft run and a procedure here)."""

from __future__ import annotations

import pytest

from candidates.services.results import result_run_compute
from tests.builders import PASSWORD, make_cast, make_procedure_world, make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

EXPECTED = {
    "manager": {"Resultados aguardando publicação": "1", "Concursos aguardando homologação": "0"},
    "clerk": {"Vagas livres para nomear": "4", "Prazos de posse vencidos ou a vencer em 7 dias": "1"},
    "legal": {"Processos abertos, pelo próximo prazo": "1"},
    "commission": {},
    "auditor": {"Consultas a dados sensíveis mais recentes": "0"},
}
NOTICES = {"commission": "módulo da comissão de heteroidentificação ainda não existe"}


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    cast = make_cast()
    world = make_world(cast)
    result_run_compute(contest=world["contest"], by=cast["manager"], position=None)  # a draft to publish
    make_procedure_world(cast, world["position"].registrations.get(number="N2"))
    return world


@pytest.mark.parametrize("who", sorted(EXPECTED))
def test_role_logs_in_and_sees_its_home_with_counts(page, live_server, demo, who):
    page.goto(live_server.url + "/painel/")
    page.get_by_label("Usuário").fill(who)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    assert page.url == live_server.url + "/painel/"
    shown = {
        h.evaluate("h => h.firstChild.textContent.trim()"): h.locator(".badge").inner_text()
        for h in page.locator("h3").all()
    }
    for title, count in EXPECTED[who].items():
        assert shown.get(title) == count, (who, title, shown)
    if who in NOTICES:
        assert NOTICES[who] in page.locator("main").inner_text()
    if who == "auditor":
        assert int(shown["Alterações mais recentes"]) > 0
    page.screenshot(path=f"/tmp/browser-home-{who}.png", full_page=True)
