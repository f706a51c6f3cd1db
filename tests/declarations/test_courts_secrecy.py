"""The public act says only what it must of a court order (issue 22, review): the nomination act cites the
case number and nothing else of the case; an order recorded in segredo de justiça (CPC art. 189) is cited
without its number ("em cumprimento a decisão judicial, precariamente"); the public nomination order still
marks the nomination "sub judice"."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils import timezone

from candidates import documents
from candidates.models import Registration
from candidates.services.nominations import nominations_call
from declarations.courts import rules
from declarations.models import CourtOrder
from tests.builders import make_classified_position, make_contest, publish_final
from tests.candidates.test_nomination_act import pdf_text
from tests.declarations.courts_world import CASE_NUMBER, make_court_order
from tests.declarations.test_courts_screens import fill
from tests.pages import post_form


def _nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=3,
        by=cast["clerk"],
        act_number="Portaria 61/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=5),
    )
    return contest, position


def _act(contest) -> str:
    return " ".join(pdf_text(documents.render_nomination_act(contest, "Portaria 61/2026")).split())


def test_the_act_cites_only_the_case_number_of_a_public_case(cast):
    contest, position = _nominated(cast)
    order = make_court_order(contest, cast["legal"], [position.registrations.get(number="N2")])
    text = _act(contest)
    assert f"em cumprimento à decisão proferida nos autos nº {CASE_NUMBER}, precariamente" in text
    assert order.body not in text and order.summary not in text and "Liminar" not in text


def test_cpc_189_an_order_in_segredo_de_justica_is_cited_without_its_number(client_for, cast):
    contest, position = _nominated(cast)
    n2 = position.registrations.get(number="N2")
    client = client_for("legal")
    create = reverse("declarations:court_order_create")
    post_form(  # the page renders the flag (post_form refuses a field it does not show)
        client,
        create,
        fill(contest, effect="keep_seat", scope="candidate", numbers="N2", secret="on"),
        containing="case_number",
    )
    order = CourtOrder.objects.get()
    assert order.secret and list(order.registrations.all()) == [n2]
    text = _act(contest)
    assert "em cumprimento a decisão judicial, precariamente" in text
    assert CASE_NUMBER not in text and "autos" not in text
    public = client.get(reverse("public:nominations", args=[contest.slug, position.pk])).content.decode()
    assert "(sub judice)" in public and CASE_NUMBER not in public


def test_the_removals_rules_name_registration_statuses():
    statuses = set(Registration.Status.values)
    assert set(rules.REMOVALS) <= statuses
    assert set(rules.REMOVALS.values()) == {rules.ELIMINATE, rules.EXCLUDE}
