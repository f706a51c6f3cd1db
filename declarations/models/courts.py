"""Court orders as records (issue 22): an order of a court on a contest, what it commands, for whom, for
how long and how it stands, with the decision's file kept in private storage (like the procedures'
attachments). The statuses and their moves are ``declarations.courts.rules``'s; the CNJ number is checked
by ``declarations.courts.cnj`` (in the service: the model keeps what was accepted)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from candidates.models import Registration
from candidates.models.results import ListName
from contests.models import Contest, Position
from contests.models.checks import ChecksInOneQuery
from declarations.courts import rules
from declarations.models.procedures import procedure_storage

KIND_CHOICES = [(k.value, rules.KIND_LABELS[k]) for k in rules.Kind]
EFFECT_CHOICES = [(e.value, rules.EFFECT_LABELS[e]) for e in rules.Effect]
SCOPE_CHOICES = [(s.value, rules.SCOPE_LABELS[s]) for s in rules.Scope]
DURATION_CHOICES = [(d.value, rules.DURATION_LABELS[d]) for d in rules.Duration]
STATUS_CHOICES = [(s.value, rules.STATUS_LABELS[s]) for s in rules.Status]


class CourtOrder(ChecksInOneQuery, models.Model):
    """An order of a court that the organisation must comply with in a contest (liminar, tutela de urgência,
    sentença, acórdão, acordo homologado)."""

    class DeadlineUnit(models.TextChoices):
        DAYS = "days", "dias corridos"
        BUSINESS_DAYS = "business-days", "dias úteis"

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.PROTECT, related_name="court_orders"
    )
    case_number = models.CharField(
        "número do processo", max_length=25, help_text="Numeração única do CNJ: NNNNNNN-DD.AAAA.J.TR.OOOO."
    )
    secret = models.BooleanField(
        "segredo de justiça",
        default=False,
        help_text="Processo em segredo de justiça: o ato público cita só a decisão judicial, sem o número.",
    )
    court_code = models.CharField("código do tribunal (J.TR)", max_length=5)
    court = models.CharField(
        "tribunal", max_length=200, help_text="Deduzido do número (J.TR); pode ser corrigido."
    )
    body = models.CharField("órgão julgador", max_length=200, help_text="A vara, a turma ou a câmara.")
    kind = models.CharField("espécie de decisão", max_length=20, choices=KIND_CHOICES)
    decided_on = models.DateField("data da decisão")
    notified_on = models.DateField("data da intimação do órgão")
    compliance_days = models.PositiveSmallIntegerField("prazo de cumprimento")
    compliance_unit = models.CharField(
        "unidade do prazo", max_length=20, choices=DeadlineUnit.choices, default=DeadlineUnit.DAYS
    )
    effect = models.CharField("efeito", max_length=30, choices=EFFECT_CHOICES)
    scope = models.CharField("alcance", max_length=20, choices=SCOPE_CHOICES)
    position = models.ForeignKey(
        Position,
        verbose_name="cargo",
        on_delete=models.PROTECT,
        related_name="court_orders",
        null=True,
        blank=True,
    )
    list_name = models.CharField("lista", max_length=10, choices=ListName.choices, blank=True)
    registrations = models.ManyToManyField(
        Registration, verbose_name="candidatos alcançados", related_name="court_orders", blank=True
    )
    duration = models.CharField("duração", max_length=20, choices=DURATION_CHOICES)
    until = models.DateField("vigente até", null=True, blank=True)
    summary = models.TextField("o que a decisão determina", help_text="O dispositivo, resumido.")
    status = models.CharField(
        "situação", max_length=20, choices=STATUS_CHOICES, default=rules.Status.IN_FORCE.value
    )
    status_on = models.DateField("data da decisão que mudou a situação", null=True, blank=True)
    status_note = models.TextField("decisão que mudou a situação", blank=True)
    file = models.FileField("arquivo da decisão", storage=procedure_storage, upload_to="ordens/%Y/%m/")
    file_name = models.CharField("nome original do arquivo", max_length=200)
    file_type = models.CharField("tipo do arquivo", max_length=40)
    file_size = models.PositiveIntegerField("tamanho (bytes)")
    file_sha256 = models.CharField("SHA-256 do arquivo", max_length=64)
    recorded_at = models.DateTimeField("registrada em", auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="registrada por",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
    )

    history = HistoricalRecords(m2m_fields=[registrations])

    class Meta:
        verbose_name = "ordem judicial"
        verbose_name_plural = "ordens judiciais"
        ordering = ["-decided_on", "-pk"]
        permissions = [("record_court_order", "Pode registrar ordens judiciais e mudar a sua situação")]
        constraints = [
            models.CheckConstraint(
                condition=Q(duration=rules.Duration.UNTIL_DATE.value, until__isnull=False)
                | (~Q(duration=rules.Duration.UNTIL_DATE.value) & Q(until__isnull=True)),
                name="court_order_until_date_iff_duration_date",
            ),
            models.CheckConstraint(
                condition=Q(notified_on__gte=models.F("decided_on")),
                name="court_order_notified_after_decision",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} no processo nº {self.case_number}"

    def get_absolute_url(self) -> str:
        return reverse("declarations:court_order", args=[self.pk])

    @property
    def in_effect(self) -> bool:
        return rules.Status(self.status) in rules.IN_EFFECT


class CourtOrderEffect(models.Model):
    """What complying with an order did to one candidate: the engine events applied (``reinstate``,
    ``court_hold``, ``court_release``, or the removal applied again when the order fell), in order, and the
    removal the order reversed (so that its fall applies it again, RULES §4 item 8)."""

    order = models.ForeignKey(
        CourtOrder, verbose_name="ordem judicial", on_delete=models.PROTECT, related_name="effects"
    )
    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="court_order_effects"
    )
    removed_by = models.CharField("remoção revertida", max_length=30, blank=True)
    events = models.JSONField("eventos aplicados", default=list, blank=True)
    applied_on = models.DateField("cumprida em")

    history = HistoricalRecords()

    class Meta:
        verbose_name = "efeito de ordem judicial"
        verbose_name_plural = "efeitos de ordens judiciais"
        constraints = [
            models.UniqueConstraint(fields=["order", "registration"], name="court_order_effect_once"),
        ]

    def __str__(self) -> str:
        return f"{self.order}: {self.registration}"
