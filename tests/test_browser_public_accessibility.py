"""Accessibility acceptance on every public page, not a sample: axe-core (vendored) reports no
violation of any impact on each page anonymous visitors may open (the permission matrix's anonymous 200
rows, with the records of ``tests.url_arguments.build_world``), at the phone width the portal promises, and
on the verification page of a public and of a restricted document. Downloads (CSV, JSON, PDF) and the
health check are left out. A public page added to the matrix is walked from then on.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from contests.documents.models import Document
from tests.axe import assert_accessible, preload
from tests.portal.test_views_contests import make_document
from tests.test_permission_matrix import MATRIX, staff_patterns
from tests.url_arguments import arguments, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

NOT_PAGES = {
    "health",
    "public:contest_feed",  # an Atom document, not a page
    "public:list_data",
    "public:nominations_data",
    "declarations:portal_download",
    "declarations:portal_document",
    "declarations:portal_receipt",  # the receipt's PDF
}
PHONE = {"width": 360, "height": 740}


def public_pages() -> list[str]:
    return sorted(
        name for name, row in MATRIX.items() if row["GET"].split()[0] == "200" and name not in NOT_PAGES
    )


@pytest.fixture
def world(cast, settings, tmp_path):
    return build_world(cast, settings, tmp_path)


def test_axe_finds_nothing_on_any_public_page(page, live_server, world):
    routes = staff_patterns()
    preload(page)
    page.set_viewport_size(PHONE)
    failures = []
    visited = []
    for name in public_pages():
        url = reverse(name, kwargs=arguments(name, routes[name], world))
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, (name, url)
        try:
            assert_accessible(page)
        except AssertionError as error:
            failures.append(f"{name}: {error}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            failures.append(f"{name}: {url} rola para o lado ({width}px)")
        visited.append(name)
    assert {"public:home", "public:list", "public:privacy", "public:candidate"} <= set(visited)
    for document in (
        make_document(world["contest"]),
        make_document(world["contest"], Document.Kind.PROCEDURE_ACT, subject="pa-1", title="Restrito"),
    ):
        page.goto(live_server.url + reverse("public:verify", args=[document.code]))
        try:
            assert_accessible(page)
        except AssertionError as error:
            failures.append(f"public:verify ({document.get_kind_display()}): {error}")
    assert not failures, "\n\n".join(failures)
