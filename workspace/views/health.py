"""``/saude/``: whether this instance can serve, for a load balancer or a monitor (anonymous, JSON).

It says only whether the database answers, whether every migration is applied and how the task queue
stands; no personal data, no version numbers, no settings. 200 when healthy, 503 otherwise.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from contests.wording import plural

# django-tasks' database backend (the django-tasks-db package since django-tasks 0.12): its queue is a table.
TASKS_DB_APP = "django_tasks_db"
TASKS_DB_LABEL = "django_tasks_database"  # the app label its models go by


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return {"ok": False, "detail": "banco de dados indisponível"}
    return {"ok": True, "detail": "banco de dados acessível"}


def _migrations() -> dict[str, Any]:
    try:
        executor = MigrationExecutor(connection)
        pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return {"ok": False, "detail": "migrações não verificadas (banco indisponível)"}
    if pending:
        return {"ok": False, "detail": plural(pending, "migração não aplicada", "migrações não aplicadas")}
    return {"ok": True, "detail": "todas as migrações aplicadas"}


def _task_queue() -> dict[str, Any]:
    """The queue: "não configurada" without django-tasks; the tasks waiting with its database backend."""
    if not apps.is_installed("django_tasks") and not apps.is_installed(TASKS_DB_APP):
        return {"ok": True, "detail": "não configurada"}
    if not apps.is_installed(TASKS_DB_APP):
        backend = (getattr(settings, "TASKS", {}).get("default") or {}).get("BACKEND", "")
        name = backend.rsplit(".", 1)[-1] or "padrão"
        return {"ok": True, "detail": f"configurada sem fila no banco ({name})"}
    try:
        waiting = apps.get_model(TASKS_DB_LABEL, "DBTaskResult").objects.filter(status="READY").count()
    except DatabaseError:
        return {"ok": False, "detail": "fila não verificada (banco indisponível)"}
    return {"ok": True, "detail": plural(waiting, "tarefa pendente", "tarefas pendentes"), "pending": waiting}


@login_not_required
@require_safe
@never_cache
def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "migrations": _migrations(), "task_queue": _task_queue()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "indisponível", "checks": checks},
        status=200 if healthy else 503,
        json_dumps_params={"ensure_ascii": False},
    )
