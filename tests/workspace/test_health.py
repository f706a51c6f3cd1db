"""``/saude/`` (database, migrations, task queue) and the 503 page when the database is down."""

import json
from unittest import mock

import pytest
from django.apps import apps
from django.db import InterfaceError, OperationalError, connections
from django.urls import reverse


def health(client):
    response = client.get(reverse("health"))
    return response, json.loads(response.content)


def database_down(error=OperationalError):
    """The database "stopped": every new cursor fails as with a refused connection."""
    return mock.patch.object(
        connections["default"], "cursor", side_effect=error("connection refused: servidor parado")
    )


def test_health_is_anonymous_json_and_200_when_healthy(client, db):
    response, body = health(client)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] and body["checks"]["migrations"]["ok"]
    assert body["checks"]["migrations"]["detail"] == "todas as migrações aplicadas"


def test_health_shows_no_personal_data_nor_settings(client, cast):
    _, body = health(client)
    assert set(body) == {"status", "checks"}
    assert set(body["checks"]) == {"database", "migrations", "task_queue"}
    text = json.dumps(body)
    assert "clerk" not in text and "sqlite" not in text.lower() and "postgres" not in text.lower()


def test_health_reports_the_queue_not_configured_without_django_tasks(client, db, monkeypatch):
    from workspace.views import health as health_view

    monkeypatch.setattr(health_view.apps, "is_installed", lambda name: False)
    _, body = health(client)
    assert body["checks"]["task_queue"] == {"ok": True, "detail": "não configurada"}


def test_health_counts_the_tasks_waiting_in_the_database_queue(client, db):
    if not apps.is_installed("django_tasks_db"):
        pytest.skip("o backend de banco do django-tasks (django_tasks_db) não está em INSTALLED_APPS")
    from django.utils import timezone

    model = apps.get_model("django_tasks_database", "DBTaskResult")
    model.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="x.y",
        backend_name="default",
        run_after=timezone.now(),
    )
    _, body = health(client)
    assert body["checks"]["task_queue"]["pending"] == 1


def test_health_answers_503_when_a_migration_is_not_applied(client, db):
    with mock.patch(
        "django.db.migrations.executor.MigrationExecutor.migration_plan", return_value=[("m", False)]
    ):
        response, body = health(client)
    assert response.status_code == 503
    assert body["checks"]["migrations"] == {"ok": False, "detail": "1 migração não aplicada"}


def test_health_answers_503_when_the_database_is_down(client, db):
    with database_down():
        response, body = health(client)
    assert response.status_code == 503
    assert body["status"] == "indisponível"
    assert body["checks"]["database"] == {"ok": False, "detail": "banco de dados indisponível"}
    assert not body["checks"]["migrations"]["ok"]


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_answers_a_plain_503_when_the_database_is_down(client, cast, settings, error):
    settings.DEBUG = False
    client.force_login(cast["clerk"])
    with database_down(error):
        response = client.get(reverse("contests:list"))
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    text = response.content.decode()
    assert "Sistema temporariamente indisponível" in text
    assert "O banco de dados não está respondendo" in text
    assert "Clerk" not in text  # rendered without the request: no user, no menu


def test_the_503_page_renders_without_touching_the_database(db):
    from django.template.loader import render_to_string

    with database_down():
        assert "<h1>Sistema temporariamente indisponível</h1>" in render_to_string("503.html")


def test_other_errors_are_not_turned_into_503(client, cast, settings):
    settings.DEBUG = False
    client.raise_request_exception = False
    client.force_login(cast["clerk"])
    with mock.patch("contests.views.contests.render", side_effect=RuntimeError("outro erro")):
        response = client.get(reverse("contests:list"))
    assert response.status_code == 500


def test_health_is_not_redirected_to_https(client, db, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(reverse("health")).status_code == 200
    assert client.get(reverse("login")).status_code == 301


@pytest.mark.parametrize("logged_in", [False, True])
@pytest.mark.parametrize("error_page", ["404", "400", "403 CSRF", "405"])
def test_n6_error_pages_answer_503_not_500_when_the_database_is_down(cast, settings, error_page, logged_in):
    from django.test import Client

    settings.DEBUG = False
    client = Client(enforce_csrf_checks=error_page == "403 CSRF", raise_request_exception=False)
    if logged_in:
        client.force_login(cast["clerk"])
    with database_down():
        if error_page == "404":
            response = client.get("/nao-existe/")
        elif error_page == "400":
            response = client.get("/", HTTP_HOST="endereco invalido!")
        elif error_page == "403 CSRF":
            response = client.post(reverse("login"), {"username": "x"})
        else:
            response = client.put(reverse("health"))
    expected = 405 if error_page == "405" else 503
    assert response.status_code == expected
    if expected == 503:
        assert "Sistema temporariamente indisponível" in response.content.decode()


def test_the_error_pages_keep_the_workspace_when_the_database_answers(client, cast, settings):
    settings.DEBUG = False
    client.force_login(cast["clerk"])
    response = client.get("/nao-existe/")
    assert response.status_code == 404
    assert "Página não encontrada" in response.content.decode()
    assert "Voltar ao painel" in response.content.decode()


def _waiting_task(*, minutes_ago, run_after=None):
    import datetime

    from django.utils import timezone

    model = apps.get_model("django_tasks_database", "DBTaskResult")
    task = model.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="x.y",
        backend_name="default",
        run_after=run_after or datetime.datetime(9999, 1, 1, tzinfo=datetime.UTC),
    )
    model.objects.filter(pk=task.pk).update(
        enqueued_at=timezone.now() - datetime.timedelta(minutes=minutes_ago)
    )
    return task


def test_health_fails_when_the_oldest_waiting_task_is_older_than_the_setting(client, db, settings):
    """Issue 25 N7: a stopped worker was invisible (200 "ok" with tasks waiting for hours)."""
    if not apps.is_installed("django_tasks_db"):
        pytest.skip("sem o backend de banco do django-tasks")
    settings.TASK_QUEUE_MAX_WAIT_MINUTES = 5
    _waiting_task(minutes_ago=1)
    response, body = health(client)
    assert response.status_code == 200 and body["checks"]["task_queue"]["ok"]
    _waiting_task(minutes_ago=12)
    response, body = health(client)
    assert response.status_code == 503
    queue = body["checks"]["task_queue"]
    assert queue["ok"] is False and queue["oldest_minutes"] == 12
    assert "a mais antiga espera há 12 minutos (limite: 5)" in queue["detail"]


def test_health_does_not_count_a_task_scheduled_for_later_as_late(client, db, settings):
    import datetime

    from django.utils import timezone

    if not apps.is_installed("django_tasks_db"):
        pytest.skip("sem o backend de banco do django-tasks")
    settings.TASK_QUEUE_MAX_WAIT_MINUTES = 5
    _waiting_task(minutes_ago=60, run_after=timezone.now() + datetime.timedelta(hours=1))
    response, body = health(client)
    assert response.status_code == 200
    _waiting_task(minutes_ago=60, run_after=timezone.now() - datetime.timedelta(minutes=30))
    response, body = health(client)
    assert response.status_code == 503 and body["checks"]["task_queue"]["oldest_minutes"] == 30
