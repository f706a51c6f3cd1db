"""The public portal on a phone: the published lists, a search across a run's lists, the
nomination order and the candidate's own page show every column (the score, the ranks) at 390 px without
scrolling a table sideways (each row a card, each cell after its column's name), and still fit 1366 px.
axe-core checks each page at both widths."""

from __future__ import annotations

import pytest
from django.urls import reverse

from candidates import access
from tests.axe import assert_accessible
from tests.builders import make_cast, make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def world(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(make_cast())


def tables_wider_than_their_box(page) -> list[int]:
    return [
        inner
        for inner, outer in (
            box.evaluate("b => [b.scrollWidth, b.clientWidth]")
            for box in page.locator("main .table-wrap").all()
        )
        if inner > outer
    ]


@pytest.mark.parametrize("width", [390, 1366])
def test_public_tables_show_every_column_without_sideways_scrolling(page, live_server, world, width):
    page.set_viewport_size({"width": width, "height": 900})
    contest, position, run = world["contest"], world["position"], world["run"]
    urls = {
        "lista": reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"]),
        "busca": reverse("public:run", args=[contest.slug, run.pk]) + "?q=N",
        "nomeações": reverse("public:nominations", args=[contest.slug, position.pk]),
    }
    wide = {}
    for label, url in urls.items():
        page.goto(live_server.url + url)
        assert page.locator("main table").count() > 0, label
        if boxes := tables_wider_than_their_box(page):
            wide[label] = boxes
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), label
        assert_accessible(page)
    registration = run.entries.select_related("registration").first().registration
    page.goto(live_server.url + reverse("public:candidate"))
    page.locator("#id_contest").select_option(str(contest.pk))
    page.locator("#id_number").fill(registration.number)
    page.locator("#id_code").fill(access.code_for(registration))
    page.locator("main form button[type=submit]").click()
    page.get_by_text("Nota final").first.wait_for()
    if boxes := tables_wider_than_their_box(page):
        wide["minha inscrição"] = boxes
    assert_accessible(page)
    assert not wide, f"a {width} px: {wide}"
