"""What the public sees moves on with the service that publishes it (DESIGN.md: one ``publication_record``,
no signals): the public nomination page, its CSV and its JSON change, content and ETag, as soon as the act's
transaction commits.

Plain functions with the test client, anonymous. A service's commit is played with
``django_capture_on_commit_callbacks(execute=True)``: the test's own transaction never commits.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from candidates.services.nominations import nominations_call
from tests.builders import make_world

pytestmark = pytest.mark.django_db

ACT_DATE = datetime.date(2026, 6, 10)


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def nomination_urls(world) -> list[str]:
    slug, pk = world["contest"].slug, world["position"].pk
    return [
        reverse("public:nominations", args=[slug, pk]),
        reverse("public:nominations_data", args=[slug, pk, "csv"]),
        reverse("public:nominations_data", args=[slug, pk, "json"]),
    ]


@pytest.mark.xfail(strict=True, reason="a call is written in bulk: no signal, the stored pages stay")
def test_a_call_changes_the_public_nomination_pages_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    before = {url: client.get(url) for url in nomination_urls(world)}
    with django_capture_on_commit_callbacks(execute=True):
        nominations_call(
            position=world["position"],
            count=1,
            act_number="Portaria 77/2026",
            act_date=ACT_DATE,
            by=cast["clerk"],
        )
    for url, first in before.items():
        after = client.get(url)
        assert after.status_code == 200, url
        assert after["ETag"] != first["ETag"], url
        assert (
            "Portaria 77/2026" in after.content.decode() and "Portaria 77/2026" not in first.content.decode()
        )
