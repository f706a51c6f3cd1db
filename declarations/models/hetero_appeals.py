"""What the candidate joins to the appeal against the commission's decision (files checked by content,
hashed, kept in the restricted storage), and the second call of a candidate whose absence was justified
(RULES §5; the policy's ``hetero_second_call``). Both with history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from declarations.models.heteroidentification import Appeal, Verification
from declarations.models.procedures import EXTENSIONS, procedure_storage


class AppealAttachment(models.Model):
    """A file the candidate joined to the appeal: PDF or image (checked by content), hashed, private."""

    appeal = models.ForeignKey(
        Appeal, verbose_name="recurso", on_delete=models.PROTECT, related_name="attachments"
    )
    file = models.FileField("arquivo", storage=procedure_storage, upload_to="recursos-hetero/%Y/%m/")
    name = models.CharField("nome original", max_length=200)
    content_type = models.CharField("tipo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField("SHA-256", max_length=64)
    uploaded_at = models.DateTimeField("enviado em", auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "anexo do recurso da heteroidentificação"
        verbose_name_plural = "anexos do recurso da heteroidentificação"

    def __str__(self) -> str:
        return self.name

    @property
    def download_name(self) -> str:
        """The original name with the extension of the type found in its content, never the one typed."""
        stem = self.name.rsplit(".", 1)[0] if "." in self.name else self.name
        return f"{stem or 'arquivo'}{EXTENSIONS.get(self.content_type, '')}"


class SecondCall(models.Model):
    """A candidate absent from a session, whose documented justification was accepted, called to a later
    session of the same commission: the new verification's result is the final one (``final_state``)."""

    absent = models.OneToOneField(
        Verification,
        verbose_name="verificação da ausência",
        on_delete=models.PROTECT,
        related_name="second_call",
    )
    verification = models.OneToOneField(
        Verification,
        verbose_name="verificação da segunda chamada",
        on_delete=models.PROTECT,
        related_name="second_call_of",
    )
    justification = models.TextField(
        "justificativa da ausência", help_text="O motivo e o documento que o comprova (atestado, etc.)."
    )
    recorded_at = models.DateTimeField("registrada em")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="registrada por", on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "segunda chamada da heteroidentificação"
        verbose_name_plural = "segundas chamadas da heteroidentificação"

    def __str__(self) -> str:
        return f"Segunda chamada de {self.absent.registration.number}"
