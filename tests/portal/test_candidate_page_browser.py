"""A candidate on a phone (390 px) opens "Minha inscrição", types the inscription number and the access
code (in lower case, without the hyphens) and sees their place in the general list and their nomination;
the page fits the screen and axe-core finds nothing serious."""

import pytest
from django.core.cache import cache

from candidates import access
from tests.axe import assert_accessible
from tests.builders import make_cast, make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    cache.clear()


def test_a_candidate_enters_the_code_on_a_phone_and_sees_the_position(page, live_server):
    world = make_world(make_cast())
    registration = world["registration"]
    typed = access.code_for(registration).replace("-", "").lower()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/publico/minha-inscricao/?concurso={world['contest'].slug}")
    assert_accessible(page)
    page.get_by_label("Número de inscrição").fill(registration.number)
    page.get_by_label("Código de acesso").fill(typed)
    page.get_by_role("button", name="Ver minha inscrição").click()
    page.get_by_role("heading", name=registration.candidate.display_name).wait_for()
    general = page.get_by_role("row", name="Lista geral (ampla concorrência, cotistas incluídos)")
    assert "1º" in general.inner_text()
    assert world["nomination"].act_number in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page)
    assert typed not in page.url and access.code_for(registration) not in page.url
