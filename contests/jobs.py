"""Background jobs (DESIGN: heavy work off the request): the ``Job`` row a screen creates when it hands
work to the task queue (django-tasks), and what the task writes on it as it goes.

A view calls ``job_enqueue`` with the task to run (the job's id is its first argument) and redirects to
the job's page, which refreshes itself until the job ends. The task wraps its work in ``job_run``: the job
goes from "na fila" to "em andamento", ``Running.progress`` says what is happening ("Gerando o PDF:
página 120 de 400"), and the job ends with ``Running.finish`` (its result) or fails with the reason the
person reads: a ``JobRefused`` or ``ValidationError`` message as it is, anything else as an unexpected
error (logged with where it happened but not its message, which may quote personal data, and raised
again as ``JobCrashed`` so that the queue records it too).

Progress written inside a transaction the task opened (an import is all or nothing, so it checks and
writes in one) would stay invisible until the transaction ends: on PostgreSQL it goes through a connection
of its own; SQLite has one writer at a time, so there the page shows the last message written before the
transaction.
"""

from __future__ import annotations

import datetime
import logging
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone
from django_tasks.base import Task

from contests.audit import User
from contests.models import Contest, Document, Job

logger = logging.getLogger(__name__)

# Seconds between two progress writes (the page refreshes every 2 s; a write per row would cost more than
# the work it reports).
PROGRESS_INTERVAL = 0.5
UNEXPECTED = (
    "Erro inesperado: a tarefa parou sem concluir e nada foi alterado. O erro ficou registrado no "
    "servidor: avise o suporte."
)


class JobRefused(Exception):
    """The job cannot do its work, for a reason the person can act on (the message, in Portuguese)."""


class JobCrashed(Exception):
    """What the queue records of an unexpected error: its kind and where, never its message (a database
    error can quote a row's values, a CPF among them)."""


def job_enqueue(
    *,
    kind: str,
    contest: Contest,
    by: User | None,
    title: str,
    permission: str,
    task: Task,
    origin_url: str = "",
    subject: str = "",
    **arguments: Any,
) -> Job:
    """Create the job and put ``task(job_id, **arguments)`` in the queue, in the caller's transaction (with
    the database backend the task's row is written with the job's: the worker sees both or neither)."""
    _forget_old_outputs()
    job = Job(
        kind=kind,
        contest=contest,
        subject=subject,
        title=title[:300],
        requested_by=by if by is not None and by.pk else None,
        permission=permission,
        origin_url=origin_url,
        message="Na fila: começa assim que o processo de segundo plano estiver livre.",
    )
    job.full_clean()
    job.save()
    result = task.enqueue(str(job.pk), **arguments)
    # An inline backend (tests) has run the task already and written on the row: only the id is added.
    Job.objects.filter(pk=job.pk).update(task_id=str(result.id)[:64])
    job.refresh_from_db()
    return job


def job_in_flight(*, kind: str, subject: str, by: User | None = None) -> Job | None:
    """The job of this kind and subject still queued or running (asked by ``by``, when given)."""
    jobs = Job.objects.filter(kind=kind, subject=subject, status__in=[Job.Status.QUEUED, Job.Status.RUNNING])
    if by is not None:
        jobs = jobs.filter(requested_by=by)
    return jobs.defer("output").order_by("-created_at").first()


def _output_limit() -> datetime.datetime:
    return timezone.now() - datetime.timedelta(hours=settings.JOB_OUTPUT_HOURS)


def _output_kept(job: Job) -> bool:
    return (
        job.status == Job.Status.DONE and job.finished_at is not None and job.finished_at >= _output_limit()
    )


def output_available(job: Job) -> bool:
    """Whether the job's file can still be downloaded, asked without reading the file itself."""
    return _output_kept(job) and Job.objects.filter(pk=job.pk, output__isnull=False).exists()


def job_output(job: Job) -> bytes | None:
    """The file the job generated, while it is kept (``JOB_OUTPUT_HOURS`` after the job ended)."""
    if not _output_kept(job):
        return None
    output = Job.objects.filter(pk=job.pk).values_list("output", flat=True).first()
    return bytes(output) if output else None


def _forget_old_outputs() -> None:
    """A generated file (a draft list's PDF: personal data) is kept ``JOB_OUTPUT_HOURS`` for its download,
    then deleted (at the next job asked for; never served after that time); the job's row stays."""
    Job.objects.filter(finished_at__lt=_output_limit(), output__isnull=False).update(output=None)


@dataclass
class Running:
    """The job a task is working on: ``progress`` as it goes, ``finish`` at the end."""

    job: Job
    _side: BaseDatabaseWrapper | None = field(default=None, repr=False)
    _last: float = field(default=0.0, repr=False)
    # The transactions open when the job started (none in the worker; a test's or a request's with an
    # inline backend): progress from inside one the task opened itself is what the page cannot see.
    _depth: int = field(default_factory=lambda: len(transaction.get_connection().atomic_blocks), repr=False)

    def progress(self, message: str, done: int = 0, total: int = 0) -> None:
        """Say what is happening. Written at most every ``PROGRESS_INTERVAL`` seconds (the last step of a
        stage always)."""
        now = time.monotonic()
        if now - self._last < PROGRESS_INTERVAL and done != total:
            return
        self._last = now
        values = {"message": message[:300], "done": done, "total": total, "updated_at": timezone.now()}
        connection = transaction.get_connection()
        if len(connection.atomic_blocks) > self._depth and connection.vendor == "postgresql":
            self._write_aside(values)
        else:
            Job.objects.filter(pk=self.job.pk).update(**values)
        for name, value in values.items():
            setattr(self.job, name, value)

    def _write_aside(self, values: dict[str, Any]) -> None:
        """The same update through a connection of its own, committed at once: the page sees it while the
        task's transaction is still open. Never waits long for a lock (the task's transaction must not
        hold the job's row: it does not write it)."""
        try:
            if self._side is None:
                self._side = connections.create_connection(DEFAULT_DB_ALIAS)
                with self._side.cursor() as cursor:
                    cursor.execute("SET lock_timeout = '2s'")
            quote = self._side.ops.quote_name
            # The fields written are plain ones: each column has the field's name.
            columns = ", ".join(f"{quote(name)} = %s" for name in values)
            with self._side.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {quote(Job._meta.db_table)} SET {columns} WHERE {quote('id')} = %s",
                    [*values.values(), self.job.pk],
                )
        except Exception as error:  # progress is a courtesy: never let it stop the work
            logger.warning("tarefa %s: andamento não gravado: %s", self.job.pk, error)

    def finish(
        self,
        *,
        text: str = "",
        url: str = "",
        label: str = "",
        document: Document | None = None,
        output: bytes | None = None,
        output_name: str = "",
    ) -> None:
        """The job is done: what it produced (a summary, a link, a published document or a file)."""
        now = timezone.now()
        job = self.job
        job.status = Job.Status.DONE
        job.message = "Concluído."
        job.done = job.total
        job.result_text, job.result_url, job.result_label = text, url, label
        job.document = document
        job.output, job.output_name = output, output_name
        job.finished_at = job.updated_at = now
        job.full_clean(exclude=["output"])
        job.save()

    def fail(self, error: str) -> None:
        now = timezone.now()
        Job.objects.filter(pk=self.job.pk).update(
            status=Job.Status.FAILED, error=error or UNEXPECTED, finished_at=now, updated_at=now
        )
        self.job.refresh_from_db()

    def close(self) -> None:
        if self._side is not None:
            self._side.close()
            self._side = None


@contextmanager
def job_run(job_id: str) -> Iterator[Running | None]:
    """Run the job ``job_id`` once: None when it is not waiting in the queue (done already, or another
    worker took it). A refusal ends it as failed with its message; an unexpected error too, with a general
    message, and is raised again."""
    now = timezone.now()
    claimed = Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
        status=Job.Status.RUNNING, started_at=now, updated_at=now, message="Começando."
    )
    if not claimed:
        logger.warning("tarefa %s: não está na fila (já executada?)", job_id)
        yield None
        return
    running = Running(Job.objects.defer("output").select_related("contest", "requested_by").get(pk=job_id))
    try:
        yield running
    except JobRefused as refused:
        running.fail(str(refused))
    except ValidationError as error:
        running.fail(" ".join(error.messages))
    except Exception as error:
        logger.error(
            "tarefa %s (%s) falhou com %s (mensagem omitida: pode conter dados pessoais)\n%s",
            job_id,
            running.job.kind,
            type(error).__name__,
            "".join(traceback.format_tb(error.__traceback__)),
        )
        running.fail(UNEXPECTED)
        raise JobCrashed(f"{type(error).__name__} na tarefa {job_id}: veja o registro do servidor") from None
    else:
        if not running.job.is_finished:
            running.finish()
    finally:
        running.close()
