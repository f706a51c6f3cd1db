"""Deliveries of the candidates' access codes, by e-mail or by printed letter (the code itself is never
stored: ``candidates.access``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from candidates.models.registrations import Registration


class AccessCodeDelivery(models.Model):
    """How one version of a registration's access code went to the candidate: the e-mail (written by the
    task queue, ``candidates.tasks``, "enviado" only once the mail backend took the message), or the letter
    (written when a clerk prints it, ``candidates.services.access``: "carta impressa", since what happens to
    the paper afterwards is the clerk's to do, and the app never claims it was delivered).

    A log, like the access log: never edited by hand, so it has no history of its own (the registration's
    history says who reissued a code, and when). One row per registration, version and channel: a task run
    twice sends nothing the second time; a letter printed again counts one more print.
    """

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail"
        LETTER = "letter", "Carta impressa"

    class Status(models.TextChoices):
        SENT = "sent", "Enviado"
        FAILED = "failed", "Falhou (nova tentativa programada, se houver)"
        PRINTED = "printed", "Carta impressa para entrega"

    registration = models.ForeignKey(
        Registration,
        verbose_name="inscrição",
        on_delete=models.CASCADE,
        related_name="access_code_deliveries",
    )
    version = models.PositiveSmallIntegerField("versão do código")
    channel = models.CharField("meio", max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    recipient = models.EmailField("destinatário", blank=True)
    status = models.CharField("situação", max_length=10, choices=Status.choices)
    attempts = models.PositiveSmallIntegerField("tentativas (ou impressões)", default=0)
    sent_at = models.DateTimeField("enviado (ou impresso) em", null=True, blank=True)
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="impresso por",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    error = models.TextField("erro da última tentativa", blank=True)

    class Meta:
        verbose_name = "envio de código de acesso"
        verbose_name_plural = "envios de códigos de acesso"
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "version", "channel"],
                name="candidates_accesscodedelivery_once_per_version_channel",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Código de acesso da inscrição {self.registration_id} (versão {self.version}, {self.channel}): "
            f"{self.status}"
        )


class AccessCodeFailure(models.Model):
    """One wrong access code typed on the public 'Minha inscrição' page: the throttle's memory
    (``candidates.services.access_throttle``), in the database so that every worker process counts the same
    tries and a recycled worker forgets none. Neither the number nor the address is kept in clear: their
    keyed hashes only. Rows older than the longest window are deleted as new ones come; a counter, not a
    record, so it has no history.
    """

    at = models.DateTimeField("em", db_index=True)
    registration_key = models.CharField("inscrição (hash)", max_length=32)
    address_key = models.CharField("endereço (hash)", max_length=32)

    class Meta:
        verbose_name = "código de acesso errado"
        verbose_name_plural = "códigos de acesso errados"
        indexes = [
            models.Index(fields=["registration_key", "at"], name="candidates_acf_registration"),
            models.Index(fields=["address_key", "at"], name="candidates_acf_address"),
        ]

    def __str__(self) -> str:
        return f"Código de acesso errado em {self.at:%d/%m/%Y %H:%M}"
