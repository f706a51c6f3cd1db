"""Pages with personal data must not be kept by the browser or a proxy.

Every response to an authenticated user says ``Cache-Control: no-store`` (lists, registration detail,
downloads); anonymous pages are left to their own caching.
"""

import pytest
from django.urls import reverse

from tests.builders import make_world


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def urls(world) -> dict[str, str]:
    contest, position, registration = world["contest"], world["position"], world["registration"]
    return {
        "contests": reverse("contests:list"),
        "registrations": reverse("candidates:registration_list", args=[contest.slug]),
        "registration": reverse("candidates:registration_detail", args=[contest.slug, registration.pk]),
        "nominations": reverse("candidates:nomination_list", args=[contest.slug, position.pk]),
        "statement": reverse(
            "candidates:nomination_statement", args=[contest.slug, position.pk, world["withdrawn"].pk]
        ),
    }


@pytest.mark.parametrize("page", ["contests", "registrations", "registration", "nominations", "statement"])
def test_staff_pages_with_personal_data_are_not_stored(client_for, world, page):
    response = client_for("clerk").get(urls(world)[page])
    assert response.status_code == 200
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert {"no-store", "private"} <= directives, response.get("Cache-Control")


def test_refusals_to_staff_are_not_stored_either(client_for, world):
    response = client_for("commission").get(urls(world)["statement"])
    assert response.status_code in (403, 404)
    assert "no-store" in response.get("Cache-Control", "")
