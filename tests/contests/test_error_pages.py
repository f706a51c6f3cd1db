"""The error pages: Portuguese, and the 500 and 400 pages plain (Django renders them without a request, so
no context processor runs: the organisation's name, the menu and the user are not there)."""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.template.loader import render_to_string
from django.test import Client
from django.urls import include, path

from contests.views import staff_view


def boom(request):
    raise RuntimeError("falha de teste")


def suspicious(request):
    raise SuspiciousOperation("pedido malformado")


@staff_view("contests.view_contest")
def denied(request):
    raise PermissionDenied


@staff_view("contests.view_contest")
def missing(request):
    raise Http404


# This module is the URLconf of its tests: the project's URLs plus views that fail on purpose.
urlpatterns = [
    path("falha/", boom),
    path("suspeito/", suspicious),
    path("negado/", denied),
    path("inexistente/", missing),
    path("", include("config.urls")),
]

pytestmark = pytest.mark.urls(__name__)


@pytest.fixture
def production(settings):
    settings.DEBUG = False


@pytest.fixture
def browser_client(production, cast):
    """A client that gets the error page, as a browser would, instead of the exception."""
    client = Client(raise_request_exception=False)
    client.force_login(cast["clerk"])
    return client


def test_500_page_when_a_view_raises(browser_client):
    response = browser_client.get("/falha/")
    assert response.status_code == 500
    page = response.content.decode()
    assert '<html lang="pt-BR">' in page
    assert "<h1>Erro no servidor</h1>" in page
    assert "falha de teste" not in page and "Traceback" not in page
    assert "/static/css/app.css" in page


def test_500_page_renders_without_a_request_or_context():
    page = render_to_string("500.html")
    assert "Erro no servidor" in page
    assert 'href="/"' in page


def test_400_page_is_portuguese(browser_client):
    response = browser_client.get("/suspeito/")
    assert response.status_code == 400
    assert "<h1>Pedido inválido</h1>" in response.content.decode()


@pytest.mark.parametrize(
    ("url", "status", "title"),
    [("/negado/", 403, "Acesso negado"), ("/inexistente/", 404, "Página não encontrada")],
)
def test_403_and_404_pages_keep_the_workspace(browser_client, url, status, title):
    response = browser_client.get(url)
    assert response.status_code == status
    page = response.content.decode()
    assert f"<h1>{title}</h1>" in page
    assert "Ir para o conteúdo" in page  # the base layout, with its menu, for a signed-in user
