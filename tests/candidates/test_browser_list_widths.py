"""Acceptance for the busiest lists: the contest list, the nominations pages (the contest's and
a position's) and the registration list fit 1366 px and 390 px without sideways scrolling of the page, on
data with long names (long contest and position titles, a candidate's full name with five parts); the
names in the seat strip wrap, whole. At 1366 px no table scrolls in its box either, and on a phone the
nominations' tables stack as cards instead of scrolling. axe-core checks each page at both widths."""

from __future__ import annotations

import pytest
from django.urls import reverse

from candidates.models import Candidate
from contests.models import Contest, Position
from tests.axe import assert_accessible
from tests.builders import PASSWORD, make_cast, make_contest, make_position, make_world
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

LONG_NAMES = (
    "Maria Aparecida dos Santos Nascimento Figueiredo de Albuquerque",
    "Ana Beatriz Conceição Vasconcelos Cavalcanti",
    "Joaquim Maximiliano Bittencourt de Oliveira Guimarães",
)


@pytest.fixture
def world(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    world = make_world(make_cast())
    contest = world["contest"]
    Contest.objects.filter(pk=contest.pk).update(
        title="Provimento de cargos efetivos do quadro de pessoal da Câmara Municipal de Santa Maria"
    )
    Position.objects.filter(pk=world["position"].pk).update(
        title="Técnico Legislativo – Especialidade Processo Legislativo e Redação Parlamentar"
    )
    for candidate, name in zip(
        Candidate.objects.filter(registrations__position=world["position"]).order_by("pk"),
        LONG_NAMES * 3,
        strict=False,
    ):
        Candidate.objects.filter(pk=candidate.pk).update(full_name=name)
    # A few more contests for the list, one with many positions and vacancies (three-digit columns).
    big = make_contest(
        title="Concurso unificado da Prefeitura Municipal para os quadros da saúde, educação e assistência",
        status=Contest.Status.IN_PROGRESS,
    )
    for i in range(4):
        make_position(big, vacancies=120 + i, title=f"Professor de Educação Básica – Anos Iniciais {i}")
    make_contest(title="Concurso de Agentes Comunitários de Saúde e de Combate às Endemias")
    return world


def log_in(page, base: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label("Usuário").fill("clerk")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()


def pages(world) -> dict[str, str]:
    contest, position = world["contest"], world["position"]
    return {
        "lista de concursos": reverse("contests:list"),
        "nomeações do concurso": reverse("candidates:contest_nominations", args=[contest.slug]),
        "nomeações do cargo": reverse("candidates:nomination_list", args=[contest.slug, position.pk]),
        "inscrições": reverse("candidates:registration_list", args=[contest.slug]),
    }


@pytest.mark.parametrize("width", [390, 1366])
def test_lists_fit_the_screen_without_sideways_scrolling(page, live_server, world, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server.url)
    wide = {}
    for label, url in pages(world).items():
        page.goto(live_server.url + url)
        assert page.locator("main table, main .seats").count() > 0, label  # the list is there
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > page.evaluate("innerWidth"):
            wide[label] = scroll
        # On a desk screen no table scrolls in its box; on a phone the nominations' tables stack.
        if width >= 1366 or label.startswith("nomeações"):
            for box in page.locator("main .table-wrap").all():
                inner, outer = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
                if inner > outer:
                    wide[f"{label}: tabela"] = inner
        for name in page.locator("main .seats__name").all():  # seat holders' names wrap, whole
            assert name.evaluate("n => n.scrollWidth <= n.clientWidth"), name.inner_text()
        assert_accessible(page)  # the narrow layout too (a stacked table keeps its meaning)
        screenshot(page, f"browser-widths-{label.replace(' ', '-')}-{width}")
    assert not wide, f"a {width} px: {wide}"
