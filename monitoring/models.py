"""A report the law orders, once filed (issue 23): which policy, which period, biennial (periodic) or final,
when it was filed, and where the document is. The filed ones silence their warning on Pendências
(``contests.law_term.warnings``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from contests import law_term
from contests.models import Policy


class FiledReport(models.Model):
    class Kind(models.TextChoices):
        PERIODIC = law_term.PERIODIC, "Relatório periódico (bienal)"
        FINAL = law_term.FINAL, "Relatório final"

    policy = models.ForeignKey(
        Policy, on_delete=models.PROTECT, related_name="filed_reports", verbose_name="política (lei)"
    )
    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.PERIODIC)
    number = models.PositiveSmallIntegerField(
        "número", default=1, help_text="1º, 2º… relatório periódico; 1 para o relatório final."
    )
    period_start = models.DateField("início do período")
    period_end = models.DateField("fim do período")
    filed_on = models.DateField("entregue em")
    document = models.CharField(
        "documento", max_length=200, help_text="Número do ofício, processo ou endereço da publicação."
    )
    notes = models.TextField("observações", blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="registrado por"
    )
    created_at = models.DateTimeField("registrado em", auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = "relatório da lei entregue"
        verbose_name_plural = "relatórios da lei entregues"
        ordering = ("policy", "-filed_on", "pk")
        constraints = [
            models.UniqueConstraint(fields=("policy", "kind", "number"), name="filed_report_once"),
            models.CheckConstraint(
                condition=models.Q(period_end__gte=models.F("period_start")), name="filed_report_period"
            ),
        ]
        permissions = [("view_law_report", "Ver os relatórios da lei (somente agregados)")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} nº {self.number} — {self.policy}"

    @property
    def key(self) -> tuple[str, int]:
        return (self.kind, self.number)


def filed_keys(policy: Policy) -> frozenset[tuple[str, int]]:
    """The reports of ``policy`` already filed, as ``contests.law_term`` keys them."""
    return frozenset(FiledReport.objects.filter(policy=policy).values_list("kind", "number"))


class LawReport(models.Model):
    """A report of the law generated as an act (issue 23): the scope it covers, the section the monitoring
    body writes, the figures as published (aggregates, privacy applied: the open data serves them) and the
    published document (signed, versioned, verifiable, ``contests.documents``)."""

    policy = models.ForeignKey(
        Policy, on_delete=models.PROTECT, related_name="law_reports", verbose_name="política (lei)"
    )
    kind = models.CharField("tipo", max_length=10, choices=FiledReport.Kind.choices)
    number = models.PositiveSmallIntegerField("número", default=1)
    period_start = models.DateField("início do período")
    period_end = models.DateField("fim do período")
    contests = models.JSONField("concursos", default=list, blank=True)
    conclusions = models.TextField("conclusões")
    recommendation = models.TextField("recomendação sobre a prorrogação", blank=True)
    rows = models.JSONField("figuras publicadas", default=list)
    document = models.OneToOneField(
        "contests.Document", on_delete=models.PROTECT, related_name="law_report", verbose_name="documento"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="gerado por"
    )
    created_at = models.DateTimeField("gerado em", auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = "relatório da lei gerado"
        verbose_name_plural = "relatórios da lei gerados"
        ordering = ("policy", "kind", "number", "-created_at")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(period_end__gte=models.F("period_start")), name="law_report_period"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} nº {self.number} — {self.policy} (versão {self.document.version})"

    @property
    def subject(self) -> str:
        return f"{self.kind}-{self.number}"
