"""Phases and scores: Phase, PhaseResult, TieBreakCriterion, ImportMapping."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from simple_history.models import HistoricalRecords

from candidates.engine.ranking import CutQuota, RankingError, cut_quota
from candidates.models.registrations import ImportedHistory, Registration, score_field
from contests.models import Contest
from contests.models.checks import ChecksInOneQuery
from contests.wording import decimal_comma


class Phase(ChecksInOneQuery, models.Model):
    """A phase of the contest's exams, in order, with its weight, maximum, pass mark and cut-off."""

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.CASCADE, related_name="phases"
    )
    name = models.CharField("nome", max_length=100)
    order = models.PositiveSmallIntegerField("ordem")
    weight = models.DecimalField(
        "peso",
        max_digits=6,
        decimal_places=3,
        default=Decimal(1),
        validators=[MinValueValidator(Decimal(0))],
        help_text="Peso na nota final, conforme o edital.",
    )
    max_score = score_field("nota máxima")
    pass_mark = score_field(
        "nota mínima",
        null=True,
        blank=True,
        help_text="Abaixo dela o candidato sai de todas as listas, cotistas inclusive (SM art. 4º §2º). "
        "Vazia: fase só classificatória.",
    )
    cutoff = models.PositiveIntegerField(
        "nota de corte: K",
        null=True,
        blank=True,
        help_text="Passam os K melhores; os cotistas concorrem ao corte em lista própria (SM art. 4º §1º). "
        "Vazio: sem corte.",
    )
    cutoff_open = models.PositiveIntegerField(
        "K da ampla concorrência", null=True, blank=True, help_text="Vazio: K menos os das reservas."
    )
    cutoff_racial = models.PositiveIntegerField(
        "K da reserva racial",
        null=True,
        blank=True,
        help_text="SM art. 4º §1º. Vazio: a fórmula da reserva aplicada a K.",
    )
    cutoff_pcd = models.PositiveIntegerField(
        "K da reserva PcD", null=True, blank=True, help_text="Vazio: a fórmula da reserva PcD aplicada a K."
    )

    starts_on = models.DateField(
        "início",
        null=True,
        blank=True,
        help_text="Data da prova ou início do período da fase (cronograma do edital). Um reintegrado que "
        "estava fora das listas nesta data recebe novo prazo para a fase.",
    )
    ends_on = models.DateField(
        "fim", null=True, blank=True, help_text="Último dia do período da fase; vazio numa fase de um só dia."
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "fase"
        verbose_name_plural = "fases"
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "order"], name="candidates_phase_unique_order_per_contest"
            ),
            models.UniqueConstraint(
                fields=["contest", "name"], name="candidates_phase_unique_name_per_contest"
            ),
            models.CheckConstraint(condition=Q(max_score__gt=0), name="candidates_phase_max_score_positive"),
            models.CheckConstraint(
                condition=Q(pass_mark__isnull=True)
                | (Q(pass_mark__gte=0) & Q(pass_mark__lte=F("max_score"))),
                name="candidates_phase_pass_mark_within_max",
            ),
            models.CheckConstraint(condition=Q(weight__gte=0), name="candidates_phase_weight_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.order}ª fase: {self.name}"

    def clean(self) -> None:
        if self.pass_mark is not None and self.max_score is not None and self.pass_mark > self.max_score:
            raise ValidationError({"pass_mark": "A nota mínima não pode passar da nota máxima."})
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": "O fim da fase não pode ser anterior ao início."})
        if self.ends_on and not self.starts_on:
            raise ValidationError({"starts_on": "Informe o início da fase."})
        per_list = [k for k in (self.cutoff_open, self.cutoff_racial, self.cutoff_pcd) if k is not None]
        if per_list and self.cutoff is None:
            raise ValidationError({"cutoff": "Informe o K total para dividi-lo entre as listas."})
        if self.cutoff is not None and self.contest_id is not None:
            try:
                self.cut_quota()
            except RankingError as error:
                raise ValidationError({"cutoff": str(error)}) from None

    def cut_quota(self, contest: Contest | None = None) -> CutQuota | None:
        """The K of each list in force (the edital's, else the default split: RULES §3), or None without
        a cut-off. ``contest``: the phase's, already read (its policy and PcD reserve decide the split)."""
        if self.cutoff is None:
            return None
        contest = contest or self.contest
        given = (("open", self.cutoff_open), ("racial", self.cutoff_racial), ("pcd", self.cutoff_pcd))
        return cut_quota(
            self.cutoff,
            racial=contest.policy.racial_rule(),
            pcd=contest.pcd_rule(),
            quota={name: value for name, value in given if value is not None},
        )


class PhaseResult(ChecksInOneQuery, models.Model):
    """A registration's score in one phase, or its absence."""

    registration = models.ForeignKey(
        Registration,
        verbose_name="inscrição",
        on_delete=models.CASCADE,
        related_name="phase_results",
        db_index=False,  # the unique (registration, phase) constraint starts with it
    )
    phase = models.ForeignKey(Phase, verbose_name="fase", on_delete=models.PROTECT, related_name="results")
    score = score_field("nota", null=True, blank=True, help_text="Vazia: não corrigida ou ausente.")
    absent = models.BooleanField("ausente", default=False)

    history = ImportedHistory(no_db_index=["phase"])

    class Meta:
        verbose_name = "resultado de fase"
        verbose_name_plural = "resultados de fase"
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "phase"], name="candidates_phaseresult_unique_registration_phase"
            ),
            models.CheckConstraint(
                condition=Q(score__isnull=True) | Q(score__gte=0),
                name="candidates_phaseresult_score_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(absent=False) | Q(score__isnull=True),
                name="candidates_phaseresult_absent_has_no_score",
            ),
        ]

    def __str__(self) -> str:
        # Decimal comma: this string titles the score's rows in the registration's history.
        value = (
            "ausente"
            if self.absent
            else (decimal_comma(self.score) if self.score is not None else "sem nota")
        )
        return f"{self.registration} – {self.phase.name}: {value}"

    def clean(self) -> None:
        if self.absent and self.score is not None:
            raise ValidationError({"score": "Um candidato ausente não tem nota."})
        if self.score is not None and self.phase_id and self.score > self.phase.max_score:
            raise ValidationError(
                {"score": f"A nota passa da nota máxima da fase ({decimal_comma(self.phase.max_score)})."}
            )


class TieBreakCriterion(models.Model):
    """One of the contest's ordered tie-break criteria (RULES §3: the last is always deterministic)."""

    class Kind(models.TextChoices):
        ELDERLY = "elderly", "Idade (60 anos ou mais), a maior primeiro"
        PHASE_SCORE = "phase_score", "Maior nota na fase"
        OLDER = "older", "Maior idade"
        JURY_SERVICE = "jury_service", "Exercício da função de jurado"
        INSCRIPTION_NUMBER = "inscription_number", "Menor número de inscrição"

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.CASCADE, related_name="tie_break_criteria"
    )
    order = models.PositiveSmallIntegerField("ordem")
    kind = models.CharField(
        "critério",
        max_length=30,
        choices=Kind.choices,
        help_text="Idade de 60 anos ou mais é sempre o primeiro (Estatuto da Pessoa Idosa, art. 27, "
        "parágrafo único); jurado: CPP art. 440; o número de inscrição é sempre o último.",
    )
    phase = models.ForeignKey(
        Phase, verbose_name="fase", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "critério de desempate"
        verbose_name_plural = "critérios de desempate"
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "order"], name="candidates_tiebreakcriterion_unique_order_per_contest"
            ),
            models.UniqueConstraint(
                fields=["contest", "kind"],
                condition=~Q(kind="phase_score"),
                name="candidates_tiebreakcriterion_unique_kind_per_contest",
            ),
            models.UniqueConstraint(
                fields=["contest", "phase"],
                condition=Q(kind="phase_score"),
                name="candidates_tiebreakcriterion_unique_phase_per_contest",
            ),
            models.CheckConstraint(
                condition=(Q(kind="phase_score") & Q(phase__isnull=False))
                | (~Q(kind="phase_score") & Q(phase__isnull=True)),
                name="candidates_tiebreakcriterion_phase_iff_phase_score",
            ),
        ]

    def __str__(self) -> str:
        label = self.get_kind_display()
        return f"{self.order}º {label}: {self.phase.name}" if self.phase else f"{self.order}º {label}"


class ImportMapping(models.Model):
    """The columns of the organiser's files mapped to fields, saved per contest and reused next time."""

    contest = models.OneToOneField(
        Contest, verbose_name="concurso", on_delete=models.CASCADE, related_name="import_mapping"
    )
    columns = models.JSONField(
        "colunas",
        default=dict,
        blank=True,
        help_text='Cabeçalho da coluna → campo, ex.: {"Nota Objetiva": "phase:Nota Objetiva", "Obs": ""} '
        "(vazio: coluna ignorada).",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "mapeamento de importação"
        verbose_name_plural = "mapeamentos de importação"

    def __str__(self) -> str:
        return f"Mapeamento de colunas: {self.contest}"


# Results and nominations -----------------------------------------------------------------------------
