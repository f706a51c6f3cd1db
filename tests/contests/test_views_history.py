"""The "Histórico" pages (who changed what and when, field by field) and the access log."""

import datetime

import pytest
from django.urls import reverse

from contests import audit, services
from contests.models import Contest
from tests.access import ROLES, assert_access
from tests.builders import final_result, make_contest

HISTORY_READERS = {"clerk", "manager", "auditor"}


@pytest.fixture
def story(cast):
    """A contest created, edited, given a position, homologated and with vacancies opened, by named users."""
    clerk, manager = cast["clerk"], cast["manager"]
    contest = make_contest(title="Concurso Original")
    services.contest_update(contest=contest, by=clerk, data={"title": "Concurso Alterado"})
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "TL", "title": "Técnico"}, edital_vacancies=7
    )
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    services.contest_homologate(
        contest=contest, by=manager, date=datetime.date(2026, 7, 1), act="Portaria 9/2026"
    )
    opening = services.vacancy_opening_create(
        position=position, by=clerk, data={"kind": "later", "count": 2, "date": datetime.date(2026, 9, 1)}
    )
    services.vacancy_opening_update(opening=opening, by=clerk, data={"count": 3})
    return {"contest": contest, "position": position, "opening": opening}


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_contest_history_access(client_for, story, who):
    url = reverse("contests:history", args=[story["contest"].slug])
    assert_access(client_for, who, url, HISTORY_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_position_history_access(client_for, story, who):
    url = reverse("contests:position_history", args=[story["contest"].slug, story["position"].pk])
    assert_access(client_for, who, url, HISTORY_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_accesslog_access(client_for, who):
    assert_access(client_for, who, reverse("contests:accesslog_list"), {"manager", "auditor"})


# History ---------------------------------------------------------------------------------------------


def test_contest_history_lists_changes_field_by_field(client_for, story):
    response = client_for("auditor").get(reverse("contests:history", args=[story["contest"].slug]))
    entries = response.context["page"].object_list
    page = response.content.decode()
    by_label = [(e.kind, e.action, e.user) for e in entries]
    # The contest, its position and the position's openings, newest first.
    assert by_label[0] == ("Abertura de vagas", "Alteração", "Clerk")
    assert ("Concurso", "Alteração", "Manager") in by_label
    assert ("Cargo", "Criação", "Clerk") in by_label
    title_change = next(e for e in entries if any(c.field == "Título" for c in e.changes))
    change = next(c for c in title_change.changes if c.field == "Título")
    assert (change.old, change.new, title_change.user) == ("Concurso Original", "Concurso Alterado", "Clerk")
    homologation = next(e for e in entries if e.reason == "Concurso homologado")
    fields = {c.field: (c.old, c.new) for c in homologation.changes}
    assert fields["Data da homologação"] == ("—", "01/07/2026")
    assert fields["Situação"] == ("Em andamento", "Homologado")
    assert homologation.user == "Manager"
    count_change = entries[0].changes
    assert [(c.field, c.old, c.new) for c in count_change] == [("Número de vagas", "2", "3")]
    assert "Concurso Alterado" in page and "Portaria 9/2026" in page


def test_position_history_includes_its_openings(client_for, story):
    url = reverse("contests:position_history", args=[story["contest"].slug, story["position"].pk])
    entries = client_for("clerk").get(url).context["page"].object_list
    assert {e.kind for e in entries} == {"Cargo", "Abertura de vagas"}
    assert all(e.kind != "Concurso" for e in entries)
    creation = next(e for e in entries if e.kind == "Cargo")
    assert {c.field: c.new for c in creation.changes}["Código"] == "TL"


def test_deleted_opening_stays_in_history(client_for, cast):
    contest = make_contest()
    position = services.position_create(contest=contest, by=cast["clerk"], data={"code": "X", "title": "X"})
    opening = services.vacancy_opening_create(
        position=position, by=cast["clerk"], data={"kind": "edital", "count": 4, "date": contest.edital_date}
    )
    services.vacancy_opening_delete(opening=opening, by=cast["clerk"])
    entries = (
        client_for("manager")
        .get(reverse("contests:history", args=[contest.slug]))
        .context["page"]
        .object_list
    )
    assert (entries[0].action, entries[0].kind, entries[0].user) == ("Exclusão", "Abertura de vagas", "Clerk")


def test_history_links_only_for_who_may_see_it(client_for):
    contest = make_contest()
    history_url = reverse("contests:history", args=[contest.slug])
    assert history_url in client_for("clerk").get(contest.get_absolute_url()).content.decode()


def test_history_link_hidden_without_permission(client_for):
    contest = make_contest()
    history_url = reverse("contests:history", args=[contest.slug])
    assert history_url not in client_for("commission").get(contest.get_absolute_url()).content.decode()


# Access log ------------------------------------------------------------------------------------------


def test_accesslog_lists_and_filters(client_for, cast):
    contest = make_contest(title="Concurso Sensível")
    audit.log_access(user=cast["legal"], obj=contest, detail="autodeclaração")
    audit.log_access(user=cast["clerk"], obj=contest, detail="laudo PcD")
    client = client_for("auditor")
    page = client.get(reverse("contests:accesslog_list")).content.decode()
    assert "autodeclaração" in page and "laudo PcD" in page and "Concurso Sensível" in page
    page = client.get(reverse("contests:accesslog_list"), {"user": "legal"}).content.decode()
    assert "autodeclaração" in page and "laudo PcD" not in page
    page = client.get(reverse("contests:accesslog_list"), {"start": "31/12/2199"}).content.decode()
    assert "Nenhum acesso registrado" in page


def test_accesslog_translates_actions_and_exports_csv(client_for, cast):
    contest = make_contest(title="Concurso Sensível")
    cast["legal"].first_name, cast["legal"].last_name = "Laura", "Lima"
    cast["legal"].save()
    audit.log_access(user=cast["legal"], obj=contest, action="view_sensitive", detail="autodeclaração")
    audit.log_access(user=cast["clerk"], obj=contest, action="download", detail="laudo.pdf")
    client = client_for("auditor")
    page = client.get(reverse("contests:accesslog_list")).content.decode()
    assert (
        "Consulta de dado sensível" in page and "Download de anexo" in page and "view_sensitive" not in page
    )
    response = client.get(reverse("contests:accesslog_list"), {"user": "laura", "formato": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith("\ufeff".encode())
    lines = response.content.decode("utf-8-sig").strip().split("\r\n")
    assert lines[0] == "Quando;Quem;Ação;Registro;Detalhe;Endereço IP"
    assert len(lines) == 2 and ";Laura Lima;Consulta de dado sensível;" in lines[1]
    assert "autodeclaração" in lines[1]
