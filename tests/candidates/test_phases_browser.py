"""As a clerk would, in Debian's Chromium and through the real pages only (issue 19): Secretaria sets up two
phases with cut-offs from the contest page, watches the split between the lists change as it types K,
and, with the first phase scored and the second not yet, sees who goes on to the second; Gestão publishes
that as the first phase's result.

Nothing but the login page is reached by typing an address. The first phase's scores come from the
organiser (the import screens have their own journey, ``test_browser_clerk_flow``): here they are
recorded through the service, as the import does. Who should go on is worked out by hand below, from
RULES §3, never by asking the engine. Screenshots when asked for (tests/screens.py).
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from candidates.models import Phase, ResultRun
from candidates.services.registrations import phase_result_set
from tests.axe import assert_accessible
from tests.builders import PASSWORD, make_cast, make_contest, make_position, make_registration
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# TLEG's candidates: (inscription, objective score, racial option). Santa Maria, no PcD reserve.
PEOPLE = [
    ("101", 95, None),
    ("102", 90, "parda"),  # a cotista through the general list: takes no reserved place
    ("103", 85, None),
    ("104", 80, None),
    ("105", 75, "preta"),
    ("106", 70, "parda"),
    ("107", 65, None),
    ("108", 40, "preta"),  # below the pass mark 50: on no list, cotista included
]
# Phase 1: K 4, of them 1 for negros, the open K left empty → 4 − 1 = 3 on the general list (RULES §3):
# 101, 102, 103; then the best cotista not already through: 105. 104, 106 and 107 are cut; 108 is below
# the pass mark.
GOES_ON = ["101", "102", "103", "105"]
CUT = {"104", "106", "107"}


def _shot(page, name: str) -> None:
    screenshot(page, f"browser-phases-{name}")


def login(page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state()


def watch(page, problems: list[str]) -> None:
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())  # a publication asks for confirmation


def preview_rows(page) -> list[str]:
    return page.locator("[data-cut-preview] [data-preview='rows'] li").all_inner_texts()


def test_secretaria_sets_up_two_phases_with_cut_offs_and_sees_who_goes_on(browser, page, live_server):
    cast = make_cast()
    contest = make_contest(pcd_percent=0, title="Concurso da Câmara")
    position = make_position(contest, code="TLEG", title="Técnico legislativo", vacancies=7)
    registrations = {
        number: make_registration(position, number=number, racial_category=racial)
        for number, _, racial in PEOPLE
    }
    base = live_server.url
    problems: list[str] = []
    watch(page, problems)

    # 1. From the contest page to the phases screen.
    login(page, base, "clerk")
    page.get_by_role("link", name="Concursos", exact=True).first.click()
    page.get_by_role("link", name=re.compile("Concurso da Câmara")).first.click()
    page.get_by_role("link", name="Fases e notas de corte").click()
    page.get_by_role("heading", name="Fases e notas de corte", level=1).wait_for()
    page.get_by_text("Nenhuma fase cadastrada.").wait_for()

    # 2. The first phase: the split is shown as K is typed, before anything is saved.
    page.get_by_role("link", name="Nova fase").first.click()
    page.get_by_label("Nome da fase").fill("Prova objetiva")
    page.get_by_label("Nota máxima").fill("100")
    page.get_by_label("Nota mínima da fase").fill("50")
    page.get_by_label("Quantos passam (K)").fill("10")
    page.get_by_text("Em cada cargo passam 10 candidatos").wait_for()
    rows = preview_rows(page)
    assert rows[0].startswith("Lista geral (ampla concorrência): 8"), rows  # 20% of 10 = 2 for negros
    assert rows[1].startswith("Lista reservada a negros: 2 – 20% de 10 = 2"), rows
    assert not any("deficiência" in row for row in rows), rows  # this contest has no PcD reserve
    page.get_by_label("Quantos passam (K)").fill("4")
    page.get_by_label("K da lista reservada a negros").fill("1")
    page.get_by_text("Em cada cargo passam 4 candidatos").wait_for()
    rows = preview_rows(page)
    assert rows == [
        "Lista geral (ampla concorrência): 3 – K menos os das listas reservadas: 4 − 1 = 3",
        "Lista reservada a negros: 1 – fixado pelo edital",
    ], rows
    _shot(page, "1-form")
    assert_accessible(page)
    page.get_by_role("button", name="Criar fase").click()
    page.get_by_text("Fase Prova objetiva criada: é a 1ª do concurso.").wait_for()

    # 3. The second phase: K 2, split by default (2 is below Santa Maria's threshold of 3: no reserved place).
    page.get_by_role("link", name="Nova fase").first.click()
    page.get_by_label("Nome da fase").fill("Prova discursiva")
    page.get_by_label("Peso na nota final").fill("2")
    page.get_by_label("Nota máxima").fill("10")
    page.get_by_label("Quantos passam (K)").fill("2")
    page.get_by_text("Em cada cargo passam 2 candidatos").wait_for()
    assert preview_rows(page)[1].startswith(
        "Lista reservada a negros: 0 – a reserva só se aplica a partir de 3"
    )
    page.get_by_role("button", name="Criar fase").click()
    page.get_by_text("Fase Prova discursiva criada: é a 2ª do concurso.").wait_for()
    _shot(page, "2-phases")
    assert_accessible(page)
    phases = list(Phase.objects.filter(contest=contest).order_by("order"))
    assert [(p.name, p.cutoff, p.cutoff_open, p.cutoff_racial, p.pass_mark) for p in phases] == [
        ("Prova objetiva", 4, None, 1, Decimal(50)),
        ("Prova discursiva", 2, None, None, None),
    ]
    assert (
        page.get_by_text("Lista geral (ampla concorrência): 3 – K menos os das listas reservadas").count()
        == 1
    )

    # 4. The organiser's scores of the first phase arrive; the second phase has none yet.
    for number, score, _ in PEOPLE:
        phase_result_set(
            registration=registrations[number], phase=phases[0], by=cast["clerk"], score=Decimal(score)
        )

    # 5. Who goes on to the second phase: the lists after the first, offered by the lists screen.
    page.get_by_role("link", name="Listas de classificação").first.click()
    page.get_by_text("A 2ª fase (Prova discursiva) ainda não tem notas").wait_for()
    assert page.get_by_label("Listas").input_value() == str(phases[0].pk)
    _shot(page, "3-lists")
    page.get_by_role("button", name="Calcular").click()
    page.get_by_text("Revise-a antes de publicar").wait_for()
    general = page.locator("table tbody tr").evaluate_all(
        "rows => rows.map(r => r.querySelector('td, th') && r.innerText)"
    )
    shown = [number for number in GOES_ON if any(number in (row or "") for row in general)]
    assert shown == GOES_ON, general
    assert len(general) == len(GOES_ON), general
    _shot(page, "4-general")
    page.get_by_role("link", name=re.compile("^Fora das listas")).click()
    out = page.locator("table tbody tr").all_inner_texts()
    for number in CUT:
        (line,) = [row for row in out if number in row]
        assert "Não classificado na fase Prova objetiva" in line, line
        assert "lista reservada a negros" in line and "racial" not in line and "deficiência" not in line, line
    (below,) = [row for row in out if "108" in row]
    assert "abaixo da nota mínima" in below
    _shot(page, "5-out")
    run = ResultRun.objects.get(contest=contest)
    assert run.after_phase == phases[0]

    # 6. Gestão publishes it as the first phase's definitive result.
    manager = browser.new_context(locale="pt-BR", timezone_id="America/Sao_Paulo")
    gestao = manager.new_page()
    watch(gestao, problems)
    login(gestao, base, "manager")
    gestao.get_by_role("link", name=re.compile("Cálculo após a fase Prova objetiva")).first.click()
    gestao.get_by_label("Resultado definitivo da fase Prova objetiva").check()
    # No signer recorded for lists in this world: Gestão types who signs.
    gestao.get_by_role("textbox", name="Quem assina", exact=True).fill("Ana Souza")
    gestao.get_by_role("textbox", name="Cargo de quem assina", exact=True).fill("Presidente da Câmara")
    gestao.get_by_role("button", name="Publicar lista").click()
    gestao.wait_for_load_state()
    _shot(gestao, "6-published")
    gestao.get_by_text("Ela não muda mais").first.wait_for()
    run.refresh_from_db()
    assert (run.status, run.kind) == (ResultRun.Status.PUBLISHED, ResultRun.Kind.PHASE_FINAL)
    manager.close()
    assert not problems, problems


@pytest.mark.parametrize("width", [390, 1366])
def test_the_phase_screens_fit_the_screen_without_sideways_scrolling(page, live_server, width):
    make_cast()
    contest = make_contest(title="Provimento de cargos efetivos do quadro de pessoal da Câmara Municipal")
    make_position(contest, code="TLEG")
    from tests.builders import make_phase

    first = make_phase(contest, name="Prova objetiva de conhecimentos gerais e específicos", cutoff=40)
    make_phase(contest, name="Prova discursiva (redação oficial)", cutoff=12, cutoff_racial=4, pass_mark=50)
    page.set_viewport_size({"width": width, "height": 900})
    login(page, live_server.url, "clerk")
    wide = {}
    for label, url in {
        "fases": reverse("candidates:phase_list", args=[contest.slug]),
        "edição": reverse("candidates:phase_edit", args=[contest.slug, first.pk]),
        "listas": reverse("candidates:result_list", args=[contest.slug]),
    }.items():
        page.goto(live_server.url + url)
        if label == "edição":
            page.get_by_text("Em cada cargo passam 40 candidatos").wait_for()
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > page.evaluate("innerWidth"):
            wide[label] = scroll
        assert_accessible(page)
        _shot(page, f"{label}-{width}")
    assert not wide, f"a {width} px: {wide}"
