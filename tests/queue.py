"""The task queue in tests: what ``manage.py db_worker`` does with each task waiting in the database
backend's queue, run here in the test's own transaction (the worker's loop opens an exclusive transaction
of its own, which a test cannot)."""

from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

WORKER_ID = "teste"


def run_queued_tasks() -> int:
    """Claim and run every task ready in the queue, oldest first, as the worker does (a task that raises is
    recorded as failed); how many ran."""
    worker = Worker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=WORKER_ID,
    )
    ran = 0
    while (result := DBTaskResult.objects.ready().order_by("enqueued_at").first()) is not None:
        result.claim(WORKER_ID)
        worker.run_task(result)
        ran += 1
    return ran
