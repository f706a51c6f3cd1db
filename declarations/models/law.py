"""The procedure's and the heteroidentification commission's law (RULES §5): the parameters of a policy
version that only this app reads, kept beside it, one row per version. A new version of the policy copies its
row; a version a published contest uses is locked, and its row with it (``declarations.law``)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from contests.models import Policy
from declarations.deadlines import MAX_DAYS


class ProcedureLaw(models.Model):
    """What a self-declaration's challenge follows under one policy version: the consequence of a
    non-confirmation, the commissions' sizes, the effects of falsity and the procedure's deadlines."""

    class NonConfirmation(models.TextChoices):
        OPEN_PROCEDURE = "open_procedure", "Abre processo administrativo (a não confirmação é indício)"
        KEEP_OPEN = "keep_open", "Sai da reserva e permanece na ampla concorrência"
        ELIMINATE = "eliminate", "Eliminação do concurso"

    class NoShow(models.TextChoices):
        KEEP_OPEN = "keep_open", "Sai da reserva e permanece na ampla concorrência"
        ELIMINATE = "eliminate", "Eliminação do concurso"

    class FalsityEffect(models.TextChoices):
        FINAL = "final", "Quando a decisão se torna definitiva (após recursos)"
        FIRST_DECISION = "first_decision", "Desde a primeira decisão (recurso sem efeito suspensivo)"

    class NomineeFalsityEffect(models.TextChoices):
        NOMINATION = "nomination", "Anulação da nomeação"
        ADMISSION = "admission", "Anulação da admissão ao serviço público"

    policy = models.OneToOneField(
        Policy, verbose_name="política de reserva", on_delete=models.PROTECT, related_name="procedure_law"
    )
    # Self-declaration and its challenge (RULES §5).
    non_confirmation = models.CharField(
        "consequência da não confirmação",
        max_length=20,
        choices=NonConfirmation.choices,
        default=NonConfirmation.OPEN_PROCEDURE,
        help_text="Heteroidentificação: SM art. 3º §3º e AR art. 2º punem a falsidade apurada em "
        "processo; a não confirmação é indício. Lei 15.142 art. 3º §2º: sai da reserva e fica na ampla.",
    )
    # Heteroidentification (RULES §5): optional per contest (EditalText.uses_heteroidentification).
    hetero_commission_size = models.PositiveSmallIntegerField(
        "membros da comissão de heteroidentificação",
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(15)],
        help_text="Padrão 5, diversa em gênero e cor (STF, ADC 41/DF: heteroidentificação com devido processo).",
    )
    hetero_appeal_commission_size = models.PositiveSmallIntegerField(
        "membros da comissão recursal",
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(15)],
        help_text="Padrão 3, sem membro em comum com a comissão de heteroidentificação.",
    )
    hetero_appeal_days = models.PositiveSmallIntegerField(
        "prazo de recurso da heteroidentificação (dias)",
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DAYS)],
        help_text="Contado da comunicação do resultado, em dias corridos (Lei 9.784 art. 66); "
        "padrão de 10 dias como o art. 59.",
    )
    hetero_no_show = models.CharField(
        "consequência da ausência à heteroidentificação",
        max_length=20,
        choices=NoShow.choices,
        default=NoShow.KEEP_OPEN,
        help_text="A consequência que o edital dá a quem não comparece; aplicada expressamente, "
        "nunca em silêncio. Padrão: sai da reserva e fica na ampla (a ausência não prova falsidade).",
    )
    hetero_second_call = models.BooleanField(
        "segunda chamada por ausência justificada",
        default=False,
        help_text="Quando o edital prevê nova sessão para quem faltou por motivo justificado e comprovado "
        "(atestado médico, por exemplo), como é comum nos editais: a justificativa é registrada e o candidato "
        "é chamado a uma sessão posterior, cujo resultado é o definitivo. Sem previsão no edital, não há "
        "segunda chamada (isonomia entre os candidatos).",
    )
    good_faith_keeps_open = models.BooleanField(
        "não confirmado sem má-fé permanece na ampla",
        default=False,
        help_text="Modelo da Lei 15.142: sai só da lista reservada.",
    )
    falsity_effect = models.CharField(
        "efeitos da decisão de falsidade",
        max_length=20,
        choices=FalsityEffect.choices,
        default=FalsityEffect.FINAL,
        help_text="SM art. 3º §3º e AR art. 2º: após o procedimento; Lei 9.784 art. 61 (recurso sem efeito "
        "suspensivo, salvo concessão).",
    )
    nominee_falsity_effect = models.CharField(
        "efeito da falsidade sobre quem já foi nomeado",
        max_length=20,
        choices=NomineeFalsityEffect.choices,
        default=NomineeFalsityEffect.NOMINATION,
        help_text="SM art. 3º §3º: anulação da nomeação; AR art. 2º: anulação da admissão ao serviço público. "
        "Dá o texto do ato público de efeitos.",
    )
    # The procedure on a false declaration (RULES §5; Lei 9.784 where the municipality has no law of its own).
    defence_days = models.PositiveSmallIntegerField(
        "prazo de defesa (dias)",
        default=10,
        help_text="Lei 9.784 art. 24 (supletivo: 5 dias).",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    evidence_notice_business_days = models.PositiveSmallIntegerField(
        "antecedência da intimação para provas (dias úteis)",
        default=3,
        help_text="Lei 9.784 art. 41.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    final_statement_days = models.PositiveSmallIntegerField(
        "prazo de alegações finais (dias)",
        default=10,
        help_text="Lei 9.784 art. 44.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    decision_days = models.PositiveSmallIntegerField(
        "prazo para decidir (dias)",
        default=30,
        help_text="Lei 9.784 art. 49.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    decision_extension_days = models.PositiveSmallIntegerField(
        "prorrogação do prazo para decidir (dias)",
        default=30,
        help_text="Lei 9.784 art. 49, uma vez, motivada.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    appeal_days = models.PositiveSmallIntegerField(
        "prazo de recurso (dias)",
        default=10,
        help_text="Lei 9.784 art. 59.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    reconsideration_days = models.PositiveSmallIntegerField(
        "prazo de reconsideração (dias)",
        default=5,
        help_text="Lei 9.784 art. 56 §1º.",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    appeal_decision_days = models.PositiveSmallIntegerField(
        "prazo para julgar o recurso (dias)",
        default=30,
        help_text="Lei 9.784 art. 59 §1º (+30 §2º).",
        validators=[MaxValueValidator(MAX_DAYS)],
    )
    appeal_instances = models.PositiveSmallIntegerField(
        "instâncias administrativas",
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(3)],
        help_text="Lei 9.784 art. 57: até três instâncias.",
    )
    electronic_notice_basis = models.TextField(
        "base legal da intimação eletrônica",
        blank=True,
        help_text="Cláusula do edital aceita pelo candidato ou norma municipal. Vazio: intimação eletrônica "
        "com ciência tácita não é admitida.",
    )
    tacit_acknowledgement_days = models.PositiveSmallIntegerField(
        "ciência tácita após (dias)",
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_DAYS)],
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "regras do processo e da heteroidentificação"
        verbose_name_plural = "regras do processo e da heteroidentificação"
        constraints = [
            models.CheckConstraint(
                condition=Q(appeal_instances__gte=1) & Q(appeal_instances__lte=3),
                name="declarations_procedurelaw_appeal_instances_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Regras do processo e da heteroidentificação – {self.policy}"

    def get_absolute_url(self) -> str:
        return self.policy.get_absolute_url()
