"""The accessibility checker itself: it finds a violation where there is one (so a clean page means clean)."""

import pytest

from tests import axe
from tests.axe import assert_accessible, violations

# Like every browser test: a transactional test without serialized rollback ends with a flush that
# recreates the content types, and the next test with serialized rollback then failed to restore them.
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_axe_reports_an_image_without_alternative_text(page):
    page.set_content(
        '<html lang="pt-BR"><head><title>t</title></head><body><main><h1>t</h1>'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>'
    )
    assert any(v["id"] == "image-alt" for v in violations(page))
    with pytest.raises(AssertionError, match="image-alt"):
        assert_accessible(page)


def test_axe_passes_the_login_page(page, live_server):
    page.goto(live_server.url + "/entrar/")
    assert_accessible(page)


def test_the_kept_answer_is_the_one_axe_gives_the_same_document(page, tmp_path, monkeypatch):
    """A document seen again (another run, the other worker) gets axe's own answer for it, not a stale one."""
    monkeypatch.delenv("COTAS_TEST_AXE", raising=False)
    monkeypatch.setattr(axe, "VERDICTS", axe.Verdicts(tmp_path / "axe-results"))
    page.set_content(
        '<html lang="pt-BR"><head><title>t</title></head><body><main><h1>t</h1>'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>'
    )
    first = violations(page)
    again = violations(page)
    assert (axe.VERDICTS.ran, axe.VERDICTS.reused) == (1, 1)
    assert again == first == axe._run_axe(page)
    assert any(v["id"] == "image-alt" for v in again)
