"""A contest's publications as an Atom feed (public): what the public saw change, newest first, in
Portuguese, with absolute links; only public facts; a draft is a 404; served from the public cache and
stale as soon as a publication commits.

Plain functions with the test client, anonymous.
"""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from candidates.models import Candidate
from candidates.services.nominations import nominations_call
from contests.documents.models import Document
from contests.documents.services import document_publish
from tests.builders import make_contest, make_world
from tests.contests.test_publication import one_page_pdf

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.PUBLIC_BASE_URL = "https://concursos.camara.example"
    return make_world(cast)


def feed_url(contest) -> str:
    return reverse("public:contest_feed", args=[contest.slug])


def entries(response) -> list[dict[str, str]]:
    root = ET.fromstring(response.content)
    return [
        {
            "title": entry.findtext(f"{ATOM}title") or "",
            "link": entry.find(f"{ATOM}link").get("href", ""),  # type: ignore[union-attr]
            "id": entry.findtext(f"{ATOM}id") or "",
            "summary": entry.findtext(f"{ATOM}summary") or "",
        }
        for entry in root.findall(f"{ATOM}entry")
    ]


def test_the_feed_lists_the_contests_publications_newest_first(client, world):
    contest, position = world["contest"], world["position"]
    response = client.get(feed_url(contest))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert (
        root.findtext(f"{ATOM}title")
        == f"Publicações do concurso {contest.number}/{contest.year}: {contest.title}"
    )
    found = entries(response)
    assert [entry["title"] for entry in found] == [
        f"Desistência na 2ª vaga de {position.title}",
        f"Nomeação de 2 candidatos para {position.title} (Portaria 10/2026)",
        world["run"].name,
    ]
    nominations = "https://concursos.camara.example" + reverse(
        "public:nominations", args=[contest.slug, position.pk]
    )
    assert found[0]["link"] == nominations and found[0]["summary"].startswith(
        "Ocorrência na ordem de nomeação"
    )
    assert found[2]["link"] == "https://concursos.camara.example" + reverse(
        "public:run", args=[contest.slug, world["run"].pk]
    )
    assert len({entry["id"] for entry in found}) == 3
    assert response["ETag"] and response["Cache-Control"].startswith("public")


def test_a_draft_contest_has_no_feed(client):
    assert client.get(feed_url(make_contest())).status_code == 404


def test_the_contest_page_links_its_feed_in_the_head(client, world):
    html = client.get(reverse("public:contest", args=[world["contest"].slug])).content.decode()
    head = html.split("</head>", 1)[0]
    assert '<link rel="alternate" type="application/atom+xml"' in head
    assert f'href="{feed_url(world["contest"])}"' in head


def test_the_feed_moves_on_with_a_publication(client, world, cast, django_capture_on_commit_callbacks):
    before = client.get(feed_url(world["contest"]))
    assert client.get(feed_url(world["contest"]))["ETag"] == before["ETag"]  # stored
    with django_capture_on_commit_callbacks(execute=True):
        nominations_call(
            position=world["position"],
            count=1,
            act_number="Portaria 30/2026",
            act_date=datetime.date(2026, 6, 10),
            by=cast["clerk"],
        )
    after = client.get(feed_url(world["contest"]))
    assert after["ETag"] != before["ETag"]
    assert entries(after)[0]["title"].endswith("(Portaria 30/2026)")


def test_the_feed_names_no_procedure_party_and_shows_no_cpf(client, world):
    contest = world["contest"]
    registration = world["registration"]
    name = registration.candidate.display_name
    document_publish(
        contest=contest,
        kind=Document.Kind.PROCEDURE_EFFECTS,
        subject="pa-2026-1-efeitos",
        title=f"Eliminação de {name}, inscrição {registration.number}, nos termos do Processo 1/2026.",
        render=lambda stamp: one_page_pdf("efeitos"),
        by=None,
        signer_name="Fulana",
        signer_office="Presidente",
    )
    text = client.get(feed_url(contest)).content.decode()
    assert "Ato de eliminação ou anulação (processo administrativo)" in text
    assert name not in text and "Processo 1/2026" not in text
    for cpf in Candidate.objects.values_list("cpf", flat=True):
        assert cpf not in text and f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}" not in text
