"""``/saude/``: whether this instance can serve, for a load balancer or a monitor (anonymous, JSON).

It says only whether the database answers, whether every migration is applied and how the task queue
stands (503 when the task waiting longest has waited ``TASK_QUEUE_MAX_WAIT_MINUTES``: a stopped worker); no personal data, no version numbers, no settings. 200 when healthy, 503 otherwise.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Max, Min
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
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
        queue = apps.get_model(TASKS_DB_LABEL, "DBTaskResult").objects
        waiting = queue.filter(status="READY").count()
        oldest = _oldest_wait(queue) if waiting else None
    except DatabaseError:
        return {"ok": False, "detail": "fila não verificada (banco indisponível)"}
    detail = plural(waiting, "tarefa pendente", "tarefas pendentes")
    if oldest is None:
        return {"ok": True, "detail": detail, "pending": waiting}
    minutes = int((timezone.now() - oldest).total_seconds() // 60)
    limit = settings.TASK_QUEUE_MAX_WAIT_MINUTES
    if minutes >= limit:
        # A worker that stopped leaves e-mails unsent and deadlines that would run from them: say so.
        reason = f"{detail}; a mais antiga espera há {plural(minutes, 'minuto', 'minutos')} (limite: {limit})"
        return {
            "ok": False,
            "detail": f"fila parada? {reason}",
            "pending": waiting,
            "oldest_minutes": minutes,
        }
    return {"ok": True, "detail": detail, "pending": waiting, "oldest_minutes": minutes}


def _oldest_wait(queue: Any) -> datetime.datetime | None:
    """When the task waiting longest became due: its ``run_after`` when it has one (django-tasks-db keeps
    a far-future sentinel for "none"), else when it was enqueued. Tasks scheduled for later are not late."""
    now = timezone.now()
    ready = queue.filter(status="READY")
    sentinel = ready.aggregate(latest=Max("run_after"))["latest"]
    due = ready.filter(run_after__lte=now).aggregate(first=Min("run_after"))["first"]
    unscheduled = None
    if sentinel is not None and sentinel.year == 9999:
        unscheduled = ready.filter(run_after=sentinel).aggregate(first=Min("enqueued_at"))["first"]
    moments = [moment for moment in (due, unscheduled) if moment is not None]
    return min(moments) if moments else None


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
