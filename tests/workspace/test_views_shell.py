"""The workspace shell: header, navigation by role, error pages, admin for superusers, CSP."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from contests import services
from tests.builders import make_contest, make_position

NAV = {
    "clerk": {"Concursos", "Ordens judiciais", "Políticas de reserva", "Feriados", "Organização"},
    "legal": {
        "Concursos",
        "Processos",
        "Heteroidentificação",
        "Ordens judiciais",
        "Políticas de reserva",
        "Feriados",
        "Organização",
    },
    "commission": {"Concursos", "Heteroidentificação"},
    "manager": {
        "Concursos",
        "Políticas de reserva",
        "Relatórios da lei",
        "Feriados",
        "Organização",
        "Registro de acessos",
    },
    "auditor": {
        "Concursos",
        "Processos",
        "Heteroidentificação",
        "Ordens judiciais",
        "Políticas de reserva",
        "Relatórios da lei",
        "Feriados",
        "Organização",
        "Registro de acessos",
    },
    "outsider": set(),
}


@pytest.mark.parametrize("who", NAV)
def test_navigation_follows_permissions(client_for, who):
    response = client_for(who).get(reverse("contests:policy_list"))
    labels = {entry["label"] for entry in response.context["workspace"]["navigation"]}
    assert labels == NAV[who]


def test_current_section_is_marked(client_for):
    response = client_for("manager").get(reverse("contests:holiday_list"))
    current = [e["label"] for e in response.context["workspace"]["navigation"] if e.get("current")]
    assert current == ["Feriados"]
    assert 'aria-current="page">Feriados' in response.content.decode()


def test_header_names_the_organization(client_for, cast):
    page = client_for("clerk").get(reverse("contests:list")).content.decode()
    assert "Organização não configurada" in page
    services.organization_save(
        by=cast["manager"],
        data={"name": "Prefeitura de Angra dos Reis", "municipality": "Angra", "state": "RJ"},
    )
    page = client_for("clerk").get(reverse("contests:list")).content.decode()
    assert "Prefeitura de Angra dos Reis" in page


def test_page_has_skip_link_language_and_no_inline_script_or_style(client_for):
    contest = make_contest()
    response = client_for("clerk").get(contest.get_absolute_url())
    page = response.content.decode()
    assert '<html lang="pt-BR">' in page
    assert 'href="#conteudo"' in page and 'id="conteudo"' in page
    assert "<style" not in page and " style=" not in page
    assert "<script>" not in page and "<script src=" in page
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_403_page_is_portuguese(client_for):
    response = client_for("outsider").get(reverse("contests:list"))
    assert response.status_code == 403
    assert "Acesso negado" in response.content.decode()


def test_404_page_is_portuguese(client_for, settings):
    settings.DEBUG = False
    response = client_for("clerk").get("/concursos/nao-existe/")
    assert response.status_code == 404
    assert "Página não encontrada" in response.content.decode()


def test_painel_is_the_home_page_of_pendencies(client_for):
    response = client_for("clerk").get("/painel/")
    assert response.status_code == 200
    assert "<h1>Pendências</h1>" in response.content.decode()


def test_root_is_the_public_portal_for_staff_too(client_for):
    response = client_for("clerk").get("/")
    assert response.status_code == 200
    assert "<h1>Concursos públicos</h1>" in response.content.decode()
    assert "no-store" in response["Cache-Control"]  # a signed-in user's answer is never stored


def test_dates_are_brazilian(client_for):
    contest = make_contest()
    assert "02/03/2026" in client_for("clerk").get(contest.get_absolute_url()).content.decode()


# Admin -----------------------------------------------------------------------------------------------


def test_admin_is_for_superusers_only(client, db):
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("admin:index")).status_code == 302
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    assert client.get(reverse("admin:index")).status_code == 200
    for name in ("policy", "organization", "holiday", "contest", "position", "vacancyopening", "accesslog"):
        assert client.get(reverse(f"admin:contests_{name}_changelist")).status_code == 200


def test_admin_shows_history(client, db):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    contest = make_contest()
    assert client.get(reverse("admin:contests_contest_history", args=[contest.pk])).status_code == 200


def test_access_log_is_read_only_in_admin(client, db):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    assert client.get(reverse("admin:contests_accesslog_add")).status_code == 403


def test_superuser_sees_admin_link(client, db):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    response = client.get(reverse("contests:list"))
    assert "Administração" in {e["label"] for e in response.context["workspace"]["navigation"]}


def test_breadcrumbs_come_from_the_view_and_end_on_the_page(client_for):
    position = make_position(make_contest(number="12"), code="TLEG")
    contest = position.contest
    response = client_for("clerk").get(reverse("contests:position_history", args=[contest.slug, position.pk]))
    assert response.context["breadcrumbs"] == [
        ("Concursos", reverse("contests:list")),
        ("Concurso 12/2026", contest.get_absolute_url()),
        ("TLEG", position.get_absolute_url()),
        ("Histórico", None),
    ]
    page = response.content.decode()
    assert f'<li><a href="{contest.get_absolute_url()}">Concurso 12/2026</a></li>' in page
    assert '<li><span aria-current="page">Histórico</span></li>' in page


def test_a_page_without_breadcrumbs_draws_no_trail(client_for):
    page = client_for("clerk").get(reverse("contests:list")).content.decode()
    assert 'class="breadcrumbs"' not in page
