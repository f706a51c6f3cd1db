"""Job: a long piece of work the task queue runs (a long list's PDF, a large import) and what its page says
while it runs: status, a progress message, counters, then the result or the error (``contests.jobs``)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from contests.models.checks import ChecksInOneQuery


class Job(ChecksInOneQuery, models.Model):
    """One request for background work and its outcome, shown on ``/tarefas/<id>/``.

    No history table: the row is operational (who asked, when, how it went); what the work changed is
    recorded by the services it calls (the import's history rows, the published document).
    """

    class Kind(models.TextChoices):
        RESULT_LIST_PDF = "result_list_pdf", "PDF das listas de classificação"
        RESULT_LIST_DOCUMENT = "result_list_document", "Publicação do documento das listas de classificação"
        REGISTRATIONS_IMPORT = "registrations_import", "Importação de inscrições"
        HETERO_MINUTES = "hetero_minutes", "Publicação da ata da heteroidentificação"
        HETERO_RESULT = "hetero_result", "Publicação do resultado da heteroidentificação"

    class Status(models.TextChoices):
        QUEUED = "queued", "na fila"
        RUNNING = "running", "em andamento"
        DONE = "done", "concluído"
        FAILED = "failed", "falhou"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField("espécie", max_length=30, choices=Kind.choices)
    contest = models.ForeignKey(
        "contests.Contest", verbose_name="concurso", on_delete=models.CASCADE, related_name="jobs"
    )
    subject = models.CharField(
        "objeto",
        max_length=80,
        blank=True,
        help_text="O que a tarefa trata, entre as da mesma espécie (ex.: a lista de um resultado).",
    )
    title = models.CharField("título", max_length=300)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="pedida por",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    permission = models.CharField(
        "permissão para acompanhar",
        max_length=100,
        help_text="Além de ver o concurso, quem não pediu a tarefa precisa desta permissão para acompanhá-la "
        "(a mesma que dá acesso ao que ela produz).",
    )
    origin_url = models.CharField("pedida na página", max_length=300, blank=True)
    task_id = models.CharField("identificador na fila", max_length=64, blank=True)
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.QUEUED)
    message = models.CharField("andamento", max_length=300, blank=True)
    done = models.PositiveIntegerField("feito", default=0)
    total = models.PositiveIntegerField("total", default=0)
    result_text = models.TextField("resultado", blank=True)
    result_url = models.CharField("endereço do resultado", max_length=300, blank=True)
    result_label = models.CharField("nome do resultado", max_length=120, blank=True)
    document = models.ForeignKey(
        "contests.Document",
        verbose_name="documento publicado",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    output = models.BinaryField("arquivo gerado", null=True, blank=True)
    output_name = models.CharField("nome do arquivo gerado", max_length=200, blank=True)
    error = models.TextField("erro", blank=True)
    created_at = models.DateTimeField("pedida em", default=timezone.now)
    started_at = models.DateTimeField("iniciada em", null=True, blank=True)
    updated_at = models.DateTimeField("última notícia em", default=timezone.now)
    finished_at = models.DateTimeField("terminada em", null=True, blank=True)

    class Meta:
        verbose_name = "tarefa"
        verbose_name_plural = "tarefas"
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running"]) | Q(finished_at__isnull=False),
                name="contests_job_finished_has_time",
                violation_error_message="Uma tarefa concluída ou que falhou tem a hora em que terminou.",
            ),
            models.CheckConstraint(
                condition=~Q(status="failed") | ~Q(error=""),
                name="contests_job_failure_says_why",
                violation_error_message="Uma tarefa que falhou diz por quê.",
            ),
        ]
        indexes = [models.Index(fields=["kind", "subject"], name="contests_job_subject")]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("contests:job", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int | None:
        """How far it went, for the progress bar; None while the total is unknown."""
        if not self.total:
            return None
        return min(100, self.done * 100 // self.total)
