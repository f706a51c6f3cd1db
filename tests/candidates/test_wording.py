"""One wording for the reserved lists on every screen: a reserved seat, list or count is "Reservada(s) a
<the policy's group>" or "Reservada(s) a pessoas com deficiência" (candidates.engine.schedule.kind_label),
never "Reservadas PcD", "Lista PcD" or "reserva racial" (Cotas is the name of the system)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates.engine.schedule import list_label
from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute
from tests.builders import homologate, make_classified_position, make_contest, publish_final

VARIANTS = re.compile(r"reservadas? pcd|reserva pcd|lista pcd|vagas? pcd|reserva racial|lista racial", re.I)


@pytest.fixture
def pages(cast, settings, tmp_path):
    """The staff pages that show reserved seats, lists or counts (a contest with 5% PcD)."""
    settings.MEDIA_ROOT = tmp_path
    contest = make_contest(pcd_percent=5)
    position = make_classified_position(contest, vacancies=20, code="ALEG")
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    run = publish_final(contest, cast["manager"])
    draft = result_run_compute(contest=contest, by=cast["clerk"])
    (nomination,) = nominations_call(
        position=position, count=1, act_number="P 1", act_date=timezone.localdate(), by=cast["clerk"]
    )
    s, p = contest.slug, position.pk
    registration = position.registrations.get(number="N1")
    return [
        reverse("contests:list"),
        contest.get_absolute_url(),
        position.get_absolute_url(),
        reverse("contests:position_create", args=[s]),
        reverse("candidates:registration_list", args=[s]),
        reverse("candidates:registration_create", args=[s]),
        reverse("candidates:registration_declaration", args=[s, registration.pk]),
        reverse("candidates:result_detail", args=[s, run.pk]) + f"?cargo={p}&lista=racial",
        reverse("candidates:result_compare", args=[s, draft.pk]),
        reverse("candidates:nomination_list", args=[s, p]),
        reverse("candidates:nomination_detail", args=[s, p, nomination.pk]),
        reverse("candidates:nomination_open_vacancies", args=[s, p]),
    ]


def test_reserved_lists_have_one_wording_on_every_screen(client_for, pages):
    client = client_for("clerk")
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = re.sub(r"<[^>]+>", " ", response.content.decode())
        assert not VARIANTS.findall(text), (url, VARIANTS.findall(text))


def test_the_shared_wording_names_the_policys_group(client_for, pages):
    client = client_for("clerk")
    detail = client.get(pages[1]).content.decode()
    assert "Reservadas a negros" in detail and "Reservadas a pessoas com deficiência" in detail
    strip = client.get(pages[9]).content.decode()
    assert "Reservada a negros" in strip and "Reservada a pessoas com deficiência" in strip
    nomination = client.get(pages[10]).content.decode()
    assert "<dt>Lista de origem</dt><dd>Ampla concorrência</dd>" in nomination
    listing = client.get(pages[0]).content.decode()
    assert "Reservadas a negros" in listing
    filters = client.get(pages[4]).content.decode()
    assert "Reservada a negros (cotistas)" in filters


def test_a_list_has_the_same_name_on_the_screen_and_in_the_published_document(client_for, pages):
    """One label per list: the result page's list headings are the ones the PDF and CSV print."""
    html = client_for("clerk").get(pages[7]).content.decode()
    for kind in ("open", "racial", "pcd"):
        assert list_label(kind, "negros") in html, kind
    assert "Ampla concorrência (lista geral)" not in html


def test_a_score_in_a_history_title_has_a_decimal_comma(client_for):
    from decimal import Decimal

    from candidates.models import PhaseResult
    from tests.builders import make_phase, make_registration

    registration = make_registration()
    phase = make_phase(registration.contest, name="Nota Objetiva")
    PhaseResult.objects.create(registration=registration, phase=phase, score=Decimal("72.5"))
    url = reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    html = client_for("clerk").get(url).content.decode()
    assert "Nota Objetiva: 72,50" in html
    assert "72.50" not in html


def test_each_list_has_one_name():
    assert list_label("open", "negros") == "Lista geral (ampla concorrência, cotistas incluídos)"
    assert list_label("racial", "negros e índios") == "Lista reservada a negros e índios"
    assert list_label("pcd", "negros") == "Lista reservada a pessoas com deficiência"
    assert list_label("out", "negros") == "Fora das listas"
