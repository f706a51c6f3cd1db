"""The protocol receipt of each filing by the candidate or their representative through the private link
(defence, evidence, final statement, appeal, a power of attorney): its number in the year, the moment it was
received, what was filed and the SHA-256 of the text and of every file, and its PDF (a restricted document,
``Document.Kind.FILING_RECEIPT``)."""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords


class FilingReceiptCounter(models.Model):
    """The last protocol number of a year: its row is locked while a number is taken (like the procedures'
    counter), so two filings at once get consecutive numbers (the unique constraint backs it)."""

    year = models.PositiveSmallIntegerField("ano", primary_key=True)
    last = models.PositiveIntegerField("último número", default=0)

    class Meta:
        verbose_name = "contador de protocolos"
        verbose_name_plural = "contadores de protocolos"

    def __str__(self) -> str:
        return f"{self.year}: {self.last}"


class FilingReceipt(models.Model):
    """The receipt of one filing: "Protocolo nº 000123/2026", sequential in the year of its receipt
    (America/Sao_Paulo)."""

    act = models.OneToOneField(
        "declarations.ProcedureAct",
        verbose_name="ato protocolado",
        on_delete=models.PROTECT,
        related_name="receipt",
    )
    year = models.PositiveSmallIntegerField("ano")
    number = models.PositiveIntegerField("número", help_text="Sequencial no ano, dado pelo banco de dados.")
    received_at = models.DateTimeField("recebido em")
    filed_by = models.CharField("apresentado por", max_length=200)
    what = models.CharField("o que foi apresentado", max_length=200)
    text_sha256 = models.CharField("SHA-256 do texto", max_length=64, blank=True)
    # [{"name": ..., "size": ..., "sha256": ...}] of every file, as received (the attachments' own hashes).
    files = models.JSONField("arquivos", default=list, blank=True)
    document = models.OneToOneField(
        "contests.Document",
        verbose_name="recibo (PDF)",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="filing_receipt",
    )
    recipient = models.EmailField("enviado por e-mail a", blank=True)
    emailed_at = models.DateTimeField("e-mail enviado em", null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "recibo de protocolo"
        verbose_name_plural = "recibos de protocolo"
        constraints = [
            models.UniqueConstraint(fields=["year", "number"], name="declarations_receipt_unique_number")
        ]

    def __str__(self) -> str:
        return f"Protocolo nº {self.protocol}"

    @property
    def protocol(self) -> str:
        """ "000123/2026"."""
        return f"{self.number:06d}/{self.year}"
