"""The law as data: Policy (a law's parameters, versioned by dates) and the date helpers it uses."""

from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from contests import law_term, quotas
from contests.models.checks import ChecksInOneQuery

PERCENT_VALIDATORS = [MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))]
# Why a version a published contest uses refuses a change (its parts kept by other apps say the same).
POLICY_LOCKED = "Esta política é usada por um concurso com edital publicado e não pode ser alterada: crie uma nova versão."


class Policy(ChecksInOneQuery, models.Model):
    """A law's parameters (RULES.md §1), versioned by dates. Two founding laws are seeded.

    The procedure's and the heteroidentification commission's law (RULES §5) is read by ``declarations``
    alone and kept there, one row per version, reached as ``policy.procedure_law``.
    """

    class ActKind(models.TextChoices):
        LEI = "lei", "Lei"
        LEI_COMPLEMENTAR = "lei_complementar", "Lei Complementar"
        PROJETO_DE_LEI = "projeto_de_lei", "Projeto de Lei"
        DECRETO = "decreto", "Decreto"
        RESOLUCAO = "resolucao", "Resolução"

    class Group(models.TextChoices):
        PRETA = "preta", "Preta"
        PARDA = "parda", "Parda"
        INDIGENA = "indigena", "Indígena"
        QUILOMBOLA = "quilombola", "Quilombola"

    class ThresholdBasis(models.TextChoices):
        POSITION = "position", "Vagas do cargo"
        CONTEST = "contest", "Vagas do concurso"

    class Rounding(models.TextChoices):
        HALF_UP = "half_up", "Meio para cima (fração ≥ 0,5 sobe, < 0,5 desce)"
        UP = "up", "Qualquer fração para cima"
        DOWN = "down", "Qualquer fração para baixo"

    class NominationOrder(models.TextChoices):
        PROPORTIONAL = "proportional", "Alternância e proporcionalidade"
        EVERY_NTH = "every_nth", "A cada k nomeações, a k-ésima ao cotista"

    class Priority(models.TextChoices):
        BY_ORDER = (
            "by_order",
            "Conforme a ordem: PcD antes na proporcional, cotista racial antes na a cada k nomeações",
        )
        PCD_FIRST = "pcd_first", "Pessoa com deficiência antes de cotista racial"
        RACIAL_FIRST = "racial_first", "Cotista racial antes de pessoa com deficiência"

    class OpenCompetitionRule(models.TextChoices):
        PROJECTED = "projected", "Projetada: cotista dentro das vagas de ampla concorrência não usa a reserva"
        COMPENSATION = (
            "compensation",
            "Compensação: cotista nomeado na reserva passa à ampla quando alcançado",
        )
        ACTUAL = "actual", "Efetiva: só não conta o cotista efetivamente nomeado em vaga de ampla"

    class DualRule(models.TextChoices):
        CHOOSE = "choose", "Concorre às duas reservas; escolhe quando convocado às duas ao mesmo tempo"
        LARGER_ONLY = "larger_only", "Classificado somente na reserva maior (Decreto 12.536)"

    class Reinstatement(models.TextChoices):
        NEXT_SEAT = (
            "next_seat",
            "Próxima vaga: o reintegrado recebe a primeira vaga das próximas convocações; o substituto a mantém",
        )
        OWN_SEAT = (
            "own_seat",
            "Própria vaga: a nomeação anulada volta à sua vaga; a posterior é desfeita e o substituto recebe "
            "a próxima vaga",
        )

    class DualDefault(models.TextChoices):
        RACIAL = "racial", "Reserva racial"
        PCD = "pcd", "Reserva para pessoas com deficiência"

    slug = models.SlugField("identificador", max_length=80, unique=True)
    name = models.CharField("nome", max_length=200)
    version = models.PositiveSmallIntegerField("versão", default=1)
    previous_version = models.ForeignKey(
        "self",
        verbose_name="versão anterior",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="next_versions",
    )
    # The law as enacted.
    jurisdiction = models.CharField("ente", max_length=200, help_text="Município e UF, ex.: Santa Maria/RS.")
    act_kind = models.CharField("espécie do ato", max_length=20, choices=ActKind.choices, default=ActKind.LEI)
    act_number = models.CharField("número do ato", max_length=40, blank=True, help_text="Ex.: 9247/2021.")
    publication_date = models.DateField(
        "data de publicação",
        null=True,
        blank=True,
        help_text="Vazia quando o texto disponível não a informa.",
    )
    effective_date = models.DateField(
        "início da vigência",
        null=True,
        blank=True,
        help_text="SM art. 6º e AR art. 6º: vigência na data da publicação. Vazia quando desconhecida.",
    )
    gazette_edition = models.CharField("edição do diário oficial", max_length=120, blank=True)
    duration_years = models.PositiveSmallIntegerField(
        "vigência (anos)",
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text="AR art. 5º: a lei vigorará por dez anos. Vazio: sem prazo.",
    )
    revoked_on = models.DateField("revogada em", null=True, blank=True)
    covered_bodies = models.TextField(
        "órgãos abrangidos",
        blank=True,
        help_text="De quem são os concursos: SM art. 1º (Câmara Municipal); AR art. 1º (Executivo e indireta).",
    )
    covered_posts = models.TextField(
        "cargos abrangidos", blank=True, help_text="Cargos efetivos; empregos públicos (AR art. 1º)."
    )
    excludes_prior_editais = models.BooleanField(
        "não se aplica a editais publicados antes da vigência",
        default=False,
        help_text="AR art. 5º §2º.",
    )
    # Beneficiaries and the reserve (RULES §1, §2).
    beneficiary_groups = models.JSONField(
        "grupos beneficiários",
        default=list,
        help_text="Categorias do IBGE aceitas na autodeclaração: SM art. 3º (pretos e pardos); AR art. 1º "
        "(negros e índios, uma lista conjunta).",
    )
    group_label = models.CharField(
        "designação dos beneficiários",
        max_length=80,
        default="negros",
        help_text="Como a lei os chama, ex.: negros; negros e índios.",
    )
    percent = models.DecimalField(
        "percentual reservado",
        max_digits=5,
        decimal_places=2,
        validators=PERCENT_VALIDATORS,
        help_text="SM art. 1º e AR art. 1º: 20%.",
    )
    threshold = models.PositiveSmallIntegerField(
        "mínimo de vagas para reservar",
        default=0,
        help_text="SM art. 1º §2º: reserva quando as vagas forem 3 ou mais. 0: sempre.",
    )
    threshold_basis = models.CharField(
        "mínimo contado sobre",
        max_length=10,
        choices=ThresholdBasis.choices,
        default=ThresholdBasis.POSITION,
        help_text="SM art. 1º §2º fala das vagas do concurso; a leitura padrão (prática federal) é o cargo.",
    )
    rounding = models.CharField(
        "arredondamento",
        max_length=10,
        choices=Rounding.choices,
        default=Rounding.HALF_UP,
        help_text="SM art. 1º §3º; AR art. 1º §1º.",
    )
    carries_fraction = models.BooleanField(
        "fração considerada em novas nomeações",
        default=True,
        help_text="SM art. 1º §4º: a reserva é sempre calculada sobre o total acumulado de vagas do cargo.",
    )
    # Nomination order (RULES §4).
    nomination_order = models.CharField(
        "ordem de nomeação",
        max_length=20,
        choices=NominationOrder.choices,
        default=NominationOrder.PROPORTIONAL,
        help_text="SM art. 5º: alternância e proporcionalidade; AR art. 3º §1º: a quinta de cada cinco.",
    )
    nth = models.PositiveSmallIntegerField(
        "k (a cada k nomeações)",
        default=5,
        validators=[MinValueValidator(1)],
        help_text="AR art. 3º §1º: 5.",
    )
    priority = models.CharField(
        "prioridade em colisão",
        max_length=20,
        choices=Priority.choices,
        default=Priority.BY_ORDER,
        help_text=(
            "Quando a mesma vaga caberia às duas reservas. Conforme a ordem: na proporcional, PcD "
            "antes (STF, MS 30.861: 1ª vaga PcD na 5ª nomeação); a cada k nomeações, cotista racial antes "
            "(AR art. 3º §1º fixa a 5ª vaga para negros e índios)."
        ),
    )
    open_competition_rule = models.CharField(
        "cotista na ampla concorrência",
        max_length=20,
        choices=OpenCompetitionRule.choices,
        default=OpenCompetitionRule.PROJECTED,
        help_text="SM art. 4º §3º: aprovados dentro das vagas de ampla não contam para a reserva.",
    )
    dual_rule = models.CharField(
        "candidato nas duas reservas",
        max_length=20,
        choices=DualRule.choices,
        default=DualRule.CHOOSE,
        help_text="SM art. 4º §§6º–7º.",
    )
    dual_default = models.CharField(
        "opção padrão na convocação simultânea",
        max_length=10,
        choices=DualDefault.choices,
        default=DualDefault.RACIAL,
        help_text="SM art. 4º §7º: sem opção, nomeado nas vagas destinadas aos negros.",
    )
    dual_keeps_pcd_rights = models.BooleanField(
        "mantém os direitos de PcD",
        default=True,
        help_text="SM art. 4º §8º (que cita o §3º onde quer dizer o §7º).",
    )
    reinstatement = models.CharField(
        "vaga de quem é reintegrado",
        max_length=10,
        choices=Reinstatement.choices,
        default=Reinstatement.NEXT_SEAT,
        help_text=(
            "Quando uma decisão que tirou o candidato das listas é revista (reconsideração, recurso, revisão "
            "ou ordem judicial) e a sua nomeação fora anulada, ele volta à posição original e recebe uma vaga. "
            "Próxima vaga (padrão): a nomeação do substituto foi lícita quando feita, de boa-fé, e fica (Lei "
            "9.784 art. 54; proteção da confiança); o reintegrado é chamado antes de qualquer outro nas "
            "próximas convocações. Própria vaga: a anulação revista é nula desde a origem (Súmula 473 do STF; "
            "Lei 9.784 art. 53), a nomeação volta à sua vaga e o substituto, desfeita a dele, recebe a "
            "próxima vaga."
        ),
    )
    nomination_order_is_seniority = models.BooleanField(
        "ordem de nomeação vale como classificação na carreira",
        default=False,
        help_text="Lei 15.142 art. 9º §2º, onde a lei municipal adota a regra.",
    )
    # Monitoring.
    monitoring_body = models.CharField(
        "órgão de acompanhamento",
        max_length=200,
        blank=True,
        help_text="AR art. 5º: Secretaria Municipal de Assistência Social.",
    )
    monitoring_interval_years = models.PositiveSmallIntegerField(
        "relatório a cada (anos)", null=True, blank=True, help_text="AR art. 5º: a cada dois anos."
    )
    final_report_quarter = models.PositiveSmallIntegerField(
        "relatório final no trimestre do último ano",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text="AR art. 5º §1º: no primeiro trimestre do último ano de vigência (1). Vazio: sem relatório final.",
    )
    term_warning_days = models.PositiveSmallIntegerField(
        "avisar do fim da vigência com antecedência de (dias)",
        default=365,
        help_text="Em Pendências, o aviso do fim da vigência aparece a partir de tantos dias antes.",
    )
    report_warning_days = models.PositiveSmallIntegerField(
        "avisar dos relatórios com antecedência de (dias)",
        default=60,
        help_text="Em Pendências, cada relatório devido aparece a partir de tantos dias antes do seu prazo.",
    )
    citation_term = models.CharField(
        "artigo da vigência e dos relatórios", max_length=80, blank=True, help_text="AR: art. 5º."
    )
    citation_prior_editais = models.CharField(
        "artigo dos editais anteriores", max_length=80, blank=True, help_text="AR: art. 5º §2º."
    )
    candidate_guidance = models.TextField(
        "orientação aos candidatos",
        blank=True,
        help_text="AR art. 4º: a entidade realizadora orienta os candidatos sobre as vagas reservadas.",
    )
    # Citations used in explanations and documents.
    citation_reserve = models.CharField("artigo da reserva", max_length=80, blank=True)
    citation_threshold = models.CharField("artigo do mínimo de vagas", max_length=80, blank=True)
    citation_rounding = models.CharField("artigo do arredondamento", max_length=80, blank=True)
    citation_carry = models.CharField("artigo da fração", max_length=80, blank=True)
    citation_order = models.CharField("artigo da ordem de nomeação", max_length=80, blank=True)
    citation_falsity = models.CharField("artigo da declaração falsa", max_length=80, blank=True)
    notes = models.TextField("observações", blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "política de reserva"
        verbose_name_plural = "políticas de reserva"
        ordering = ["name", "-version"]
        permissions = [("view_policy_list", "Pode consultar as políticas de reserva")]
        constraints = [
            models.CheckConstraint(
                condition=Q(percent__gte=0) & Q(percent__lte=100), name="contests_policy_percent_range"
            ),
            models.CheckConstraint(condition=Q(nth__gte=1), name="contests_policy_nth_positive"),
        ]

    def __str__(self) -> str:
        suffix = f" (v{self.version})" if self.version > 1 else ""
        return f"{self.name}{suffix}"

    def get_absolute_url(self) -> str:
        return reverse("contests:policy_detail", args=[self.slug])

    def clean(self) -> None:
        errors = {}
        if self.percent is not None and not 0 <= self.percent <= 100:
            errors["percent"] = "O percentual deve estar entre 0 e 100."
        if self.effective_date and self.publication_date and self.effective_date < self.publication_date:
            errors["effective_date"] = "A vigência não pode começar antes da publicação."
        if self.revoked_on and self.start_date and self.revoked_on < self.start_date:
            errors["revoked_on"] = "A revogação não pode ser anterior ao início da vigência."
        unknown = set(self.beneficiary_groups or []) - set(self.Group.values)
        if not self.beneficiary_groups:
            errors["beneficiary_groups"] = "Informe ao menos um grupo beneficiário."
        elif unknown:
            errors["beneficiary_groups"] = f"Grupos desconhecidos: {', '.join(sorted(unknown))}."
        if errors:
            raise ValidationError(errors)

    # Validity ------------------------------------------------------------------------------------------

    @property
    def start_date(self) -> datetime.date | None:
        return self.effective_date or self.publication_date

    def term(self) -> law_term.Term:
        """The law's lifetime as pure data (``contests.law_term``)."""
        return law_term.Term(
            start=self.start_date,
            duration_years=self.duration_years,
            revoked_on=self.revoked_on,
            report_interval_years=self.monitoring_interval_years,
            final_report_quarter=self.final_report_quarter,
            excludes_prior_editais=self.excludes_prior_editais,
            citation_term=self.citation_term,
            citation_prior_editais=self.citation_prior_editais,
        )

    @property
    def end_date(self) -> datetime.date | None:
        """Last day the law is in force (exclusive end of its duration, or its revocation)."""
        return law_term.end(self.term())

    @property
    def missing_dates(self) -> list[str]:
        missing = []
        if not self.publication_date:
            missing.append("data de publicação")
        if not self.effective_date:
            missing.append("início da vigência")
        return missing

    @property
    def missing_dates_warning(self) -> str:
        if not self.missing_dates:
            return ""
        return (
            f"O texto disponível desta lei não informa: {', '.join(self.missing_dates)}. A política é "
            "tratada como vigente, mas confira as datas com o ato publicado antes de publicar editais."
        )

    def in_force_on(self, day: datetime.date) -> bool:
        """Whether a contest whose edital is published on ``day`` is governed by this law.

        Unknown dates count as in force (RULES §1); AR art. 5 §2 excludes editais published before.
        """
        start = self.start_date
        if start and day < start:
            return False
        end = self.end_date
        return not (end and day > end)

    def refusal_for_edital_date(self, day: datetime.date) -> str:
        """Portuguese reason why a contest with edital on ``day`` cannot use this policy, or ''."""
        return law_term.refusal_for_edital(self.term(), day)

    # Rules as pure values ------------------------------------------------------------------------------

    @property
    def percent_fraction(self) -> Fraction:
        return quotas.to_fraction(self.percent)

    def racial_rule(self) -> quotas.ReserveRule:
        return quotas.ReserveRule(
            percent=self.percent_fraction, threshold=self.threshold, rounding=quotas.Rounding(self.rounding)
        )

    def citations(self) -> dict[str, str]:
        return {
            "threshold": self.citation_threshold,
            "rounding": self.citation_rounding,
            "carry": self.citation_carry,
        }

    def is_used_by_published_contest(self) -> bool:
        """Locked in place once a contest's edital is published with it (the date, never the status)."""
        return self.contests.edital_published().exists()
