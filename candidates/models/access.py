"""Deliveries of the candidates' access codes by e-mail (the code itself is never stored:
``candidates.access``)."""

from __future__ import annotations

from django.db import models

from candidates.models.registrations import Registration


class AccessCodeDelivery(models.Model):
    """The e-mail that took one version of a registration's access code to the candidate.

    A log, like the access log: written by the task queue (``candidates.tasks``), never edited by hand, so
    it has no history of its own (the registration's history says who reissued a code, and when). One row
    per registration and version: a task run twice sends nothing the second time.
    """

    class Status(models.TextChoices):
        SENT = "sent", "Enviado"
        FAILED = "failed", "Falhou (nova tentativa programada, se houver)"

    registration = models.ForeignKey(
        Registration,
        verbose_name="inscrição",
        on_delete=models.CASCADE,
        related_name="access_code_deliveries",
    )
    version = models.PositiveSmallIntegerField("versão do código")
    recipient = models.EmailField("destinatário")
    status = models.CharField("situação", max_length=10, choices=Status.choices)
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    sent_at = models.DateTimeField("enviado em", null=True, blank=True)
    error = models.TextField("erro da última tentativa", blank=True)

    class Meta:
        verbose_name = "envio de código de acesso"
        verbose_name_plural = "envios de códigos de acesso"
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "version"], name="candidates_accesscodedelivery_once_per_version"
            ),
        ]

    def __str__(self) -> str:
        return f"Código de acesso da inscrição {self.registration_id} (versão {self.version}): {self.status}"
