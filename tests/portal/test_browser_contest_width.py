"""The public contest page on a phone (390 px) and a desktop (1366 px), with the demo's data: each
document's versions and the table of positions fit without scrolling sideways (each row a card, each cell
after its column's name), and the results come before the document cards. axe-core checks each width."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from contests.models import Contest
from tests.axe import assert_accessible
from tests.portal.test_browser_widths import tables_wider_than_their_box
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.DEBUG = True  # the demo's commission (its draw published as documents) needs the demo users
    call_command("seed_demo", stdout=io.StringIO())
    settings.DEBUG = False
    return list(Contest.objects.order_by("slug"))


@pytest.mark.parametrize("width", [390, 1366])
def test_public_contest_page_fits_and_shows_the_results_first(page, live_server, demo, width):
    page.set_viewport_size({"width": width, "height": 900})
    documents = 0
    for contest in demo:
        page.goto(live_server.url + reverse("public:contest", args=[contest.slug]))
        page.get_by_role("heading", name="Documentos publicados").wait_for()
        documents += page.locator("article.document").count()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), contest.slug
        assert not tables_wider_than_their_box(page), (contest.slug, width)
        results = page.locator("#resultados").bounding_box()
        first_document = page.locator("#documentos").bounding_box()
        assert results["y"] < first_document["y"], contest.slug
        assert_accessible(page)
        screenshot(page, f"public-contest-{contest.slug}-{width}")
    assert documents >= 3  # the editais and the commission's draw: cards to fit
