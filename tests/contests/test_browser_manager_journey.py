"""Gestão's journey, in Chromium, by links and buttons only (issue 19): from the page the login lands on,
record who signs each kind of act, publish the edital, publish the final list with its document in one
step, homologate, and publish the nomination act; after each publication the manager stays in the staff
area, reads the message and follows its link to the public page.

What the Secretaria does between the steps (the contest, its positions and edital text, the import, the
computed list, the call) is done through the services, as the Secretaria's own journey does it on screen.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from candidates.models import ResultRun
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute
from contests.documents.models import Document
from contests.documents.services import edital_text_save
from contests.models import Contest
from tests.builders import PASSWORD, make_cast, make_classified_position, make_contest, make_position
from tests.pages import choose
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SCHEDULE = (
    "02/03/2026 – Publicação do edital\n09/03/2026 a 08/04/2026 – Inscrições\n10/05/2026 – Prova objetiva"
)


def shot(page, name: str) -> None:
    screenshot(page, f"gestao-journey-{name}")


def home(page) -> None:
    page.locator("a.brand").click()  # the header's name of the app leads home
    page.get_by_role("heading", name="Pendências", level=1).wait_for()


def field(page, label: str):
    """The field labelled exactly ``label`` (a required field's label ends in an asterisk)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


def queue_link(page, queue: str, label: str):
    """The link ``label`` in the home's queue titled ``queue``."""
    heading = page.locator("h3", has_text=queue)
    return heading.locator("xpath=following-sibling::ul[1]").get_by_role("link", name=label)


@pytest.fixture
def prepared(db):
    """What the Secretaria leaves for Gestão: a draft contest with two positions and its edital's text
    (no signer: the organisation's comes in), its registrations with scores, and the computed list."""
    cast = make_cast()
    contest = make_contest(title="Cargos efetivos da Câmara", pcd_percent=0)
    position = make_classified_position(contest, code="TLEG", title="Técnico legislativo")
    make_position(contest, vacancies=2, code="ANSI", title="Analista")
    edital_text_save(
        contest=contest,
        by=cast["clerk"],
        data={"schedule": SCHEDULE, "exam_content": "Prova objetiva de 60 questões."},
    )
    result_run_compute(contest=contest, by=cast["clerk"], kind=ResultRun.Kind.FINAL)
    return cast, contest, position


def test_manager_publishes_edital_list_and_act_and_homologates_by_clicking(page, live_server, prepared):
    cast, contest, position = prepared
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server.url + "/painel/")
    page.get_by_label("Usuário").fill("manager")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_role("heading", name="Pendências", level=1).wait_for()
    shot(page, "1-home")

    # Who signs: the organisation's authority, recorded once, and designated for each kind of act.
    page.get_by_role("link", name="Organização", exact=True).first.click()
    page.get_by_role("link", name="Autoridades e quem assina").click()
    page.get_by_role("link", name="Nova autoridade").click()
    field(page, "Nome").fill("Ana Souza")
    field(page, "Cargo").fill("Presidente da Câmara")
    field(page, "Ato de competência").fill("Lei Orgânica do Município, art. 35")
    field(page, "Em exercício desde").fill("01/01/2025")
    page.get_by_role("button", name="Salvar", exact=True).click()
    page.get_by_text("Autoridade registrada.").wait_for()
    page.get_by_role("link", name="Designar quem assina").click()
    for kind in ("Edital e retificações", "Listas de classificação", "Atos de nomeação"):
        choose(field(page, kind), "Ana Souza")
    shot(page, "2-signatories")
    page.get_by_role("button", name="Salvar quem assina").click()
    page.get_by_text("Autoridades que assinam cada espécie de ato salvas.").wait_for()
    shot(page, "2-authorities")

    # The edital, from the home's queue; the signer comes prefilled.
    home(page)
    queue_link(page, "Editais a publicar", "Cargos efetivos da Câmara").click()
    page.get_by_role("heading", name="Publicar o edital").wait_for()
    assert page.get_by_role("textbox", name="Quem assina", exact=True).input_value() == "Ana Souza"
    page.get_by_label("Edição do diário oficial").fill("DOM nº 1.234")
    shot(page, "3-edital-publish")
    page.get_by_role("button", name="Publicar", exact=True).click()
    page.get_by_text("Edital publicado.").wait_for()
    assert "/verificar/" not in page.url  # still in the staff area
    edital = Document.objects.get(kind=Document.Kind.EDITAL)
    assert (edital.signer_name, edital.signer_office) == ("Ana Souza", "Presidente da Câmara")
    shot(page, "4-edital-published")

    # The list and its document, in one step.
    home(page)
    queue_link(page, "Listas aguardando publicação", "Concurso").click()
    page.get_by_label("Final").check()
    assert page.get_by_role("textbox", name="Quem assina", exact=True).input_value() == "Ana Souza"
    shot(page, "5-list-publish")
    page.get_by_role("button", name="Publicar lista").click()
    page.get_by_text("com o seu documento assinado").wait_for()
    assert Document.objects.filter(kind=Document.Kind.RESULT_LIST).count() == 1
    shot(page, "6-list-published")

    # The homologation, from the home: the final result is published and the registrations ended.
    home(page)
    queue_link(page, "Concursos aguardando homologação", "Cargos efetivos da Câmara").click()
    page.get_by_label("Ato de homologação").fill("Portaria nº 12/2026")
    page.get_by_role("button", name="Continuar").click()
    shot(page, "7-homologation-confirm")
    page.get_by_role("button", name="Confirmar a homologação").click()
    page.get_by_text("homologado", exact=False).first.wait_for()
    contest.refresh_from_db()
    assert contest.homologation_date == timezone.localdate()

    # The Secretaria calls two nominees; their act waits on Gestão's home.
    nominations_call(
        position=position,
        count=2,
        by=cast["clerk"],
        act_number="Portaria nº 20/2026",
        act_date=timezone.localdate(),
    )
    home(page)
    shot(page, "8-home-act-waiting")
    queue_link(page, "Atos de nomeação a publicar", "Portaria nº 20/2026").click()
    assert page.get_by_label("Ato", exact=True).input_value() == "Portaria nº 20/2026"
    assert page.get_by_role("textbox", name="Quem assina", exact=True).input_value() == "Ana Souza"
    page.get_by_role("button", name="Publicar o ato").click()
    page.get_by_text("Ato de nomeação – Portaria nº 20/2026 publicado.").wait_for()
    shot(page, "9-act-published")

    # The message's link leads to the public page of the act.
    page.get_by_role("link", name="Ver a página pública do documento").click()
    act = Document.objects.get(kind=Document.Kind.NOMINATION_ACT)
    assert page.url.endswith(f"/verificar/{act.code}/")
    shot(page, "10-public-act")

    page.go_back()  # back to the staff page the link left
    home(page)
    for queue in ("Editais a publicar", "Listas aguardando publicação", "Atos de nomeação a publicar"):
        assert page.locator("h3", has_text=queue).locator(".badge").inner_text() == "0", queue
    assert Contest.objects.get(pk=contest.pk).final_result_published_on == timezone.localdate()
