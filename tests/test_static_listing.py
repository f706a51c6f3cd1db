"""The session's one listing of the static files (``tests/conftest.py``, ``_static_files_listed_once``)
serves every test client after the first, as WhiteNoise's own listing would."""

from pathlib import Path

from django.conf import settings
from django.test import Client

APP_CSS = Path(settings.BASE_DIR) / "static" / "css" / "app.css"


def test_each_new_client_serves_the_static_files_the_first_listing_found():
    responses = [Client().get("/static/css/app.css") for _ in range(3)]  # three middleware chains
    assert [r.status_code for r in responses] == [200, 200, 200]
    assert {r["ETag"] for r in responses} == {responses[0]["ETag"]}
    assert b"".join(responses[-1].streaming_content) == APP_CSS.read_bytes()
