"""The public portal's results and nominations: only published runs, their frozen lists paginated
and searchable without accents, the nomination order, and their open data (CSV and JSON).

Plain functions with the test client, anonymous.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from candidates.models import Candidate
from candidates.services.results import result_run_compute, result_run_publish
from contests.models import Contest
from portal.templatetags.public_lists import escape
from tests.builders import (
    make_candidate,
    make_classified_position,
    make_contest,
    make_position,
    make_registration,
    make_world,
    publish_final,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def list_url(world, kind="geral", **query) -> str:
    url = reverse("public:list", args=[world["contest"].slug, world["run"].pk, world["position"].pk, kind])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def numbers_in(page: str) -> list[str]:
    """The inscription numbers in the list table's rows, in order."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        row.split('<td data-label="Inscrição">', 1)[1].split("</td>", 1)[0] for row in body.split("<tr>")[1:]
    ]


# Only what is published -----------------------------------------------------------------------------------------


def test_unpublished_run_is_a_404_never_a_preview(client, world, cast):
    draft = result_run_compute(contest=world["contest"], by=cast["manager"])
    slug, position = world["contest"].slug, world["position"].pk
    assert client.get(reverse("public:run", args=[slug, draft.pk])).status_code == 404
    assert client.get(reverse("public:list", args=[slug, draft.pk, position, "geral"])).status_code == 404
    assert (
        client.get(reverse("public:list_data", args=[slug, draft.pk, position, "geral", "csv"])).status_code
        == 404
    )
    contest_page = html(client.get(reverse("public:contest", args=[slug])))
    assert reverse("public:run", args=[slug, draft.pk]) not in contest_page
    assert reverse("public:run", args=[slug, world["run"].pk]) in contest_page


def test_run_of_another_contest_unknown_list_or_position_is_a_404(client, world):
    other = make_contest(status=Contest.Status.IN_PROGRESS)
    run, position = world["run"].pk, world["position"].pk
    assert client.get(reverse("public:run", args=[other.slug, run])).status_code == 404
    assert (
        client.get(reverse("public:list", args=[world["contest"].slug, run, position, "outra"])).status_code
        == 404
    )
    stranger = make_position(other).pk
    assert (
        client.get(reverse("public:list", args=[world["contest"].slug, run, stranger, "geral"])).status_code
        == 404
    )
    assert (
        client.get(reverse("public:nominations", args=[world["contest"].slug, stranger])).status_code == 404
    )
    bad = reverse("public:list_data", args=[world["contest"].slug, run, position, "geral", "xml"])
    assert client.get(bad).status_code == 404


def test_draft_contest_results_are_404_even_with_a_published_run(client, cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_classified_position(contest)
    run = publish_final(contest, cast["manager"])
    Contest.objects.filter(pk=contest.pk).update(
        edital_published_on=None, status="draft", homologation_date=None
    )
    assert client.get(reverse("public:run", args=[contest.slug, run.pk])).status_code == 404
    assert client.get(reverse("public:nominations", args=[contest.slug, position.pk])).status_code == 404


# Lists -----------------------------------------------------------------------------------------------------


def test_general_and_racial_lists_in_order(client, world):
    assert numbers_in(html(client.get(list_url(world)))) == ["A", "N1", "B", "C", "D", "E", "N2", "N3"]
    assert numbers_in(html(client.get(list_url(world, "racial")))) == ["N1", "N2", "N3"]


def test_list_comes_from_the_frozen_run_not_from_live_data(client, world):
    candidate = world["position"].registrations.get(number="N1").candidate
    before = Candidate.objects.get(pk=candidate.pk).full_name
    Candidate.objects.filter(pk=candidate.pk).update(full_name="Nome Mudado Depois")
    page = html(client.get(list_url(world, "racial")))
    assert before in page and "Nome Mudado Depois" not in page


def test_search_is_accent_and_case_insensitive_by_name_or_number(client, cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_position(contest, vacancies=5)
    people = [("João Conceição", "J1"), ("JOANA PRADO", "J2"), ("Ângela Müller", "A9"), ("Maria Silva", "M1")]
    for i, (name, number) in enumerate(people):
        make_registration(
            position, candidate=make_candidate(full_name=name), number=number, final_score=Decimal(90 - i)
        )
    run = result_run_publish(
        run=result_run_compute(contest=contest, by=cast["manager"]), kind="final", by=cast["manager"]
    )
    world = {"contest": contest, "run": run, "position": position}
    assert numbers_in(html(client.get(list_url(world, q="conceicao")))) == ["J1"]
    assert numbers_in(html(client.get(list_url(world, q="ANGELA muller")))) == ["A9"]
    assert numbers_in(html(client.get(list_url(world, q="jo")))) == ["J1", "J2"]
    assert numbers_in(html(client.get(list_url(world, q="A9")))) == ["A9"]
    nobody = html(client.get(list_url(world, q="ninguém")))
    assert "Ninguém encontrado" in nobody
    across = html(client.get(reverse("public:run", args=[contest.slug, run.pk]) + "?q=joao+conceicao"))
    assert "João Conceição" in across and "Maria Silva" not in across and "1 linha encontrada" in across


def test_list_is_paginated_by_50_with_the_search_kept(client, cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_position(contest, vacancies=5)
    for i in range(1, 121):
        make_registration(position, number=f"P{i:03d}", final_score=Decimal(200 - i))
    run = publish_final(contest, cast["manager"])
    world = {"contest": contest, "run": run, "position": position}
    first = html(client.get(list_url(world)))
    assert numbers_in(first)[0] == "P001" and len(numbers_in(first)) == 50
    assert "Página 1 de 3" in first and "pagina=2" in first
    third = html(client.get(list_url(world, pagina=3)))
    assert numbers_in(third) == [f"P{i:03d}" for i in range(101, 121)]
    assert html(client.get(list_url(world, pagina="abc"))).count("Página 1 de 3") == 1  # nonsense: page 1
    assert numbers_in(html(client.get(list_url(world, pagina=99)))) == numbers_in(third)  # past the end: last
    searched = html(client.get(list_url(world, q="P0")))  # P001 to P099
    assert "Página 1 de 2" in searched and "q=p0&amp;pagina=2" in searched  # the search as run: folded


def test_list_page_queries_do_not_grow_with_the_rows(client, cast, django_assert_max_num_queries):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_classified_position(contest, people=[(f"Q{i:03d}", "parda") for i in range(60)])
    run = publish_final(contest, cast["manager"])
    with django_assert_max_num_queries(8):
        client.get(list_url({"contest": contest, "run": run, "position": position}, "racial"))


# Open data ---------------------------------------------------------------------------------------------------


def test_list_csv_semicolon_utf8_bom_and_stable_columns(client, world):
    url = reverse(
        "public:list_data",
        args=[world["contest"].slug, world["run"].pk, world["position"].pk, "racial", "csv"],
    )
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == [
        "concurso", "resultado", "resultado_especie", "cargo", "lista", "classificacao", "classificacao_geral",
        "inscricao", "nome", "nota_final",
    ]  # fmt: skip
    assert [r[7] for r in rows[1:]] == ["N1", "N2", "N3"]
    first = rows[1]
    assert first[:6] == [
        world["contest"].slug,
        str(world["run"].pk),
        "final",
        world["position"].code,
        "racial",
        "1",
    ]
    assert first[6] == "2" and first[9] == "89,00"


def test_list_json_carries_identifiers_and_rows(client, world):
    url = reverse(
        "public:list_data",
        args=[world["contest"].slug, world["run"].pk, world["position"].pk, "geral", "json"],
    )
    response = client.get(url)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    data = json.loads(response.content)
    assert data["concurso"]["identificador"] == world["contest"].slug
    assert data["resultado"] == {
        "id": world["run"].pk,
        "especie": "final",
        "publicado_em": data["resultado"]["publicado_em"],
    }
    assert data["lista"]["identificador"] == "geral"
    assert [line["inscricao"] for line in data["linhas"]][:3] == ["A", "N1", "B"]
    assert data["linhas"][0] == {
        "classificacao": 1,
        "classificacao_geral": 1,
        "inscricao": "A",
        "nome": data["linhas"][0]["nome"],
        "nota_final": "90.00",
    }


# Nominations ---------------------------------------------------------------------------------------------------


def test_nomination_order_with_seat_list_status_and_act_by_social_name(client, world):
    nominated = world["nomination"].registration.candidate
    Candidate.objects.filter(pk=nominated.pk).update(social_name="Nome Social Usado")
    page = html(client.get(reverse("public:nominations", args=[world["contest"].slug, world["position"].pk])))
    assert "Nome Social Usado" in page and nominated.full_name not in page
    assert "Portaria 10/2026" in page and "Desistente" in page and "1ª" in page
    csv_response = client.get(
        reverse("public:nominations_data", args=[world["contest"].slug, world["position"].pk, "csv"])
    )
    assert csv_response.content.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(csv_response.content.decode("utf-8-sig")), delimiter=";"))
    assert [(r["ordem"], r["vaga"], r["situacao"]) for r in rows] == [
        ("1", "1", "active"),
        ("2", "2", "withdrawn"),
    ]
    assert rows[0]["nome"] == "Nome Social Usado" and rows[0]["ato"] == "Portaria 10/2026"
    data = json.loads(
        client.get(
            reverse("public:nominations_data", args=[world["contest"].slug, world["position"].pk, "json"])
        ).content
    )
    assert [n["situacao"] for n in data["nomeacoes"]] == ["active", "withdrawn"]
    assert data["nomeacoes"][0]["vaga_revertida"] is False


def test_position_without_nominations_says_so(client, world):
    other = make_position(world["contest"])
    page = html(client.get(reverse("public:nominations", args=[world["contest"].slug, other.pk])))
    assert "Nenhuma nomeação publicada neste cargo." in page


def test_search_with_control_characters_is_harmless(client, world):
    response = client.get(list_url(world, q="N1%00%01"))
    assert response.status_code == 200
    assert numbers_in(response.content.decode()) == ["N1"]


def test_a_list_line_is_escaped_and_its_places_have_the_thousands_dot():
    """The table's lines are written in Python (portal.templatetags.public_lists): what ``{{ }}`` printed."""
    from candidates.published import row_text
    from portal.templatetags.public_lists import list_lines

    row = {"rank": 1234, "general_rank": 20345, "number": "<N1>", "name": "Ana & <b>Bia</b>", "score": None}
    html_line = list_lines([row_text(row)])
    assert '<td class="num" data-label="Classificação">1.234º</td>' in html_line
    assert '<td data-label="Inscrição">&lt;N1&gt;</td>' in html_line
    assert "Ana &amp; &lt;b&gt;Bia&lt;/b&gt;" in html_line and "<b>" not in html_line
    assert '<td class="num" data-label="Nota final">—</td>' in html_line
    assert '<td class="num" data-label="Na lista geral">20.345º</td>' in html_line


def test_the_lines_escape_is_djangos_conditional_escape():
    """``list_lines`` escapes plain texts and integers without Django's checks: the same text for each."""
    for value in ('Joana D\'Arc "Bia" <i> & co', "", 1234, None, mark_safe("<b>já seguro</b>"), 7.5):
        assert escape(value) == conditional_escape(value)
