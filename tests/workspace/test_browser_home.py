"""Acceptance for the home page: each role logs in, in Chromium, and lands on its "Pendências"
with the right counts: first on builder data (``tests.builders.make_world``: a homologated contest whose
TLEG-like position has 5 vacancies, 2 nominations called and 1 withdrawn; plus a draft run and a
procedure here), then on the demo data (``seed_demo``, the example file imported, the lists computed) as
each demo user with the demo password."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User

from candidates.services.results import result_run_compute
from contests.models import Contest
from tests.builders import PASSWORD, make_cast, make_procedure_world, make_world
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

EXPECTED = {
    "manager": {"Listas aguardando publicação": "1", "Concursos aguardando homologação": "0"},
    "clerk": {"Vagas livres para nomear": "4", "Prazos de posse vencidos ou a vencer em 7 dias": "1"},
    "legal": {"Processos abertos, pelo próximo prazo": "1"},
    "commission": {"Próximas sessões da sua comissão": "0"},
    "auditor": {"Consultas a dados sensíveis mais recentes": "0"},
}


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
    if who == "auditor":
        assert int(shown["Alterações mais recentes"]) > 0
    screenshot(page, f"browser-home-{who}")


# On the demo data (``manage.py seed_demo``), with the example file imported and the lists computed: what a
# newcomer sees after `make demo` and a first import, logged in as each demo user with the demo password.
# The auditor's latest changes: the demo's 2 contests (created, then moved on) and 5 positions.
DEMO_EXPECTED = {
    "gestao": {
        "Editais a publicar": "0",
        "Listas aguardando publicação": "1",
        "Atos de nomeação a publicar": "0",  # the demo publishes its nomination Portaria
        "Concursos aguardando homologação": "0",
        "Validades que terminam em 90 dias": "0",
        # The seeded Angra dos Reis law (ten years, AR art. 5) has no dates of publication recorded yet:
        # one item asks for them, so that its term and reports can be counted.
        "Vigência das leis e relatórios devidos": "1",
    },
    # The concluded contest of the demo (published, homologated today) called 7 nominees today out of its
    # open seats: 6 seats are still free, and every deadline to take office is running (none ended).
    "secretaria": {
        "Vagas livres para nomear": "6",
        "Prazos de posse vencidos ou a vencer em 7 dias": "0",
        "Ordens judiciais vigentes, pelo prazo de cumprimento": "0",  # the demo records no court order
    },
    # The demo's one procedure (a fictitious complaint on a registration of the concluded contest, the
    # defence deadline running).
    # Its heteroidentification queue: the contests with a commission (members, sessions and appeals to
    # follow): the one in progress, and the concluded one whose session was held weeks ago.
    "juridico": {
        "Processos abertos, pelo próximo prazo": "1",
        "Ordens judiciais vigentes, pelo prazo de cumprimento": "0",
        "Efeitos de decisão a aplicar": "0",
        "Atos de heteroidentificação a publicar": "0",
        "Heteroidentificação": "2",
    },
    # Santa Maria's commission, drawn with Conceição (comissao) in it: one session, 14 days after the seed.
    "comissao": {"Próximas sessões da sua comissão": "1"},
    "auditoria": {"Consultas a dados sensíveis mais recentes": "0", "Alterações mais recentes": "10"},
}


@pytest.fixture
def seeded(settings, tmp_path):
    from django.core.management import call_command

    from tests.builders import EXAMPLE_CSV

    settings.MEDIA_ROOT = tmp_path
    settings.DEBUG = True  # the demo users exist only with DEBUG on
    call_command("seed_demo", stdout=io.StringIO())
    settings.DEBUG = False
    call_command(
        "import_registrations", "demo-santa-maria", str(EXAMPLE_CSV), "--commit", "--user", "secretaria",
        stdout=io.StringIO(),
    )  # fmt: skip
    contest = Contest.objects.get(slug="demo-santa-maria")
    result_run_compute(contest=contest, by=User.objects.get(username="gestao"), position=None)


@pytest.mark.parametrize("who", sorted(DEMO_EXPECTED))
def test_demo_user_logs_in_and_sees_its_home_with_counts(page, live_server, seeded, who):
    from workspace.management.commands.seed_demo import DEMO_PASSWORD

    page.goto(live_server.url + "/painel/")  # the staff's home; "/" is the public portal
    page.get_by_label("Usuário").fill(who)
    page.get_by_label("Senha").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    shown = {
        h.evaluate("h => h.firstChild.textContent.trim()"): h.locator(".badge").inner_text()
        for h in page.locator("main h3").all()
    }
    assert shown == DEMO_EXPECTED[who]
    main = page.locator("main").inner_text()
    assert "ainda não existe" not in main
    if who == "gestao":
        contest = Contest.objects.get(slug="demo-santa-maria")
        link = page.get_by_role("link", name=f"Concurso {contest.number}/{contest.year}: ")
        assert link.count() == 1  # the draft run, named by what it is, leads to its page
    if who == "juridico":
        assert "PA nº 1/" in main and "próximo prazo até" in main and "prazo venceu" not in main
    if who == "comissao":
        assert "Sessão de " in main and "já começou" not in main
    if who == "auditoria":
        # Changes are told with the author's full name, never the user name.
        assert "Sílvia Secretaria" in main or "Gabriela Gestão" in main or "Administração do sistema" in main
    screenshot(page, f"browser-home-demo-{who}")
