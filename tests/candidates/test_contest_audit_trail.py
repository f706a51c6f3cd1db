"""One audit trail per contest: every change on one timeline, filters, CSV export."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.access import ROLES, assert_access
from tests.builders import make_world

pytestmark = pytest.mark.django_db

HISTORY_READERS = {"clerk", "manager", "auditor"}


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    cast["clerk"].first_name, cast["clerk"].last_name = "Clara", "Souza"
    cast["clerk"].save()
    return make_world(cast)


def url(world, **query) -> str:
    base = reverse("candidates:contest_audit_trail", args=[world["contest"].slug])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.mark.parametrize("who", ROLES)
def test_trail_access(client_for, world, who):
    assert_access(client_for, who, url(world), HISTORY_READERS)


def test_trail_has_every_kind_of_change_by_full_name(client_for, world):
    html = client_for("auditor").get(url(world)).content.decode()
    for kind in ("Concurso", "Cargo", "Nomeação", "Inscrições"):
        assert f'<span class="history__kind">{kind}</span>' in html, kind
    assert "Clara Souza" in html
    assert ">clerk<" not in html  # never the user name


def test_trail_filters_by_who_and_what(client_for, world):
    client = client_for("auditor")
    html = client.get(url(world, who="clara", what="Nomeação")).content.decode()
    assert '<span class="history__kind">Nomeação</span>' in html
    assert '<span class="history__kind">Concurso</span>' not in html
    html = client.get(url(world, who="ninguém")).content.decode()
    assert "Nenhuma alteração registrada." in html


def test_trail_filters_by_day(client_for, world):
    html = client_for("auditor").get(url(world, end="01/01/2000")).content.decode()
    assert "Nenhuma alteração registrada." in html


def test_trail_csv_is_semicolon_separated_utf8_with_bom(client_for, world):
    response = client_for("auditor").get(url(world, what="Nomeação", formato="csv"))
    assert response["Content-Type"].startswith("text/csv")
    body = response.content
    assert body.startswith("\ufeff".encode())
    text = body.decode("utf-8-sig")
    lines = text.strip().split("\r\n")
    assert lines[0] == "Quando;Quem;Ação;Registro;Descrição;Motivo;Alterações"
    assert len(lines) > 1 and all(";Nomeação;" in line for line in lines[1:])
    assert "Clara Souza" in text


def test_trail_names_a_nomination_by_its_nominee_and_a_run_by_what_it_is(client_for, world):
    """Named as people read them: "Nomeação de FULANA (vaga 3)", never "Nomeação #12" or "1ª nomeação"; "Resultado final
    publicado em ...", never "Lista 2"."""
    from django.utils.html import escape

    nomination = world["nomination"]
    name = f"Nomeação de {nomination.registration.candidate.display_name} (vaga {nomination.seat})"
    html = client_for("auditor").get(url(world)).content.decode()
    assert escape(name) in html
    assert world["run"].name in html and "Lista 1" not in html
    detail = reverse(
        "candidates:nomination_detail", args=[world["contest"].slug, nomination.position_id, nomination.pk]
    )
    page = client_for("clerk").get(detail).content.decode()
    assert f"<h1>{escape(name)}</h1>" in page
    assert f'<span aria-current="page">{escape(name)}</span>' in page  # the breadcrumb
