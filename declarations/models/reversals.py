"""The reversal of a decision of falsity whose effects were applied (RULES §5; Lei 9.784 arts. 61, 64, 65,
53): the event the reinstatement of the registration follows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from declarations.models.procedures import Procedure, ProcedureAct


class ProcedureReversal(models.Model):
    """A decision of falsity whose effects had been applied (from the first decision, art. 61, or on the
    final decision) was reversed: by reconsideration (art. 56 §1º), the superior's decision on appeal
    (art. 64), a revision (art. 65) or an annulment (art. 53). Records the reversing act, its day and what
    was undone; the registration's reinstatement is called from it (``procedure.reversals``)."""

    procedure = models.ForeignKey(
        Procedure, verbose_name="processo", on_delete=models.PROTECT, related_name="reversals"
    )
    act = models.OneToOneField(
        ProcedureAct,
        verbose_name="ato que reverteu a decisão",
        on_delete=models.PROTECT,
        related_name="reversal",
    )
    on = models.DateField("data")
    effects_applied_on = models.DateField("efeitos aplicados em")
    previous_status = models.CharField("situação da inscrição antes dos efeitos", max_length=30, blank=True)
    undone = models.TextField("o que foi desfeito")
    recorded_at = models.DateTimeField("registrado em", auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="registrado por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "reversão de decisão"
        verbose_name_plural = "reversões de decisões"

    def __str__(self) -> str:
        return f"{self.procedure}: reversão em {self.on:%d/%m/%Y}"
