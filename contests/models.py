"""The law and the contest: Policy, Organization, Holiday, Contest, Position, VacancyOpening, AccessLog."""

from __future__ import annotations

import calendar
import datetime
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q, Sum
from django.urls import reverse
from simple_history.models import HistoricalRecords

from contests import quotas

PERCENT_VALIDATORS = [MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))]


def add_years(day: datetime.date, years: int) -> datetime.date:
    """Same day ``years`` later (29/02 → 28/02 when the year has none)."""
    return add_months(day, 12 * years)


def add_months(day: datetime.date, months: int) -> datetime.date:
    """Date to date (to the month's last day when the date does not exist)."""
    month_index = day.month - 1 + months
    year = day.year + month_index // 12
    month = month_index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return day.replace(year=year, month=month, day=min(day.day, last))


class Policy(models.Model):
    """A law's parameters (RULES.md §1), versioned by dates. Two founding laws are seeded."""

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

    class DualDefault(models.TextChoices):
        RACIAL = "racial", "Reserva racial"
        PCD = "pcd", "Reserva para pessoas com deficiência"

    class NonConfirmation(models.TextChoices):
        OPEN_PROCEDURE = "open_procedure", "Abre processo administrativo (a não confirmação é indício)"
        KEEP_OPEN = "keep_open", "Sai da reserva e permanece na ampla concorrência"
        ELIMINATE = "eliminate", "Eliminação do concurso"

    class FalsityEffect(models.TextChoices):
        FINAL = "final", "Quando a decisão se torna definitiva (após recursos)"
        FIRST_DECISION = "first_decision", "Desde a primeira decisão (recurso sem efeito suspensivo)"

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
        default=Priority.PCD_FIRST,
        help_text="Quando a mesma vaga caberia às duas reservas (STF, MS 30.861: 1ª vaga PcD na 5ª nomeação).",
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
    nomination_order_is_seniority = models.BooleanField(
        "ordem de nomeação vale como classificação na carreira",
        default=False,
        help_text="Lei 15.142 art. 9º §2º, onde a lei municipal adota a regra.",
    )
    # Self-declaration and its challenge (RULES §5).
    non_confirmation = models.CharField(
        "consequência da não confirmação",
        max_length=20,
        choices=NonConfirmation.choices,
        default=NonConfirmation.OPEN_PROCEDURE,
        help_text="SM art. 3º §3º e AR art. 2º punem a falsidade apurada em processo; a não confirmação é indício.",
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
    defence_days = models.PositiveSmallIntegerField(
        "prazo de defesa (dias)", default=10, help_text="Lei 9.784 art. 24 (supletivo: 5 dias)."
    )
    evidence_notice_business_days = models.PositiveSmallIntegerField(
        "antecedência da intimação para provas (dias úteis)", default=3, help_text="Lei 9.784 art. 41."
    )
    final_statement_days = models.PositiveSmallIntegerField(
        "prazo de alegações finais (dias)", default=10, help_text="Lei 9.784 art. 44."
    )
    decision_days = models.PositiveSmallIntegerField(
        "prazo para decidir (dias)", default=30, help_text="Lei 9.784 art. 49."
    )
    decision_extension_days = models.PositiveSmallIntegerField(
        "prorrogação do prazo para decidir (dias)",
        default=30,
        help_text="Lei 9.784 art. 49, uma vez, motivada.",
    )
    appeal_days = models.PositiveSmallIntegerField(
        "prazo de recurso (dias)", default=10, help_text="Lei 9.784 art. 59."
    )
    reconsideration_days = models.PositiveSmallIntegerField(
        "prazo de reconsideração (dias)", default=5, help_text="Lei 9.784 art. 56 §1º."
    )
    appeal_decision_days = models.PositiveSmallIntegerField(
        "prazo para julgar o recurso (dias)", default=30, help_text="Lei 9.784 art. 59 §1º (+30 §2º)."
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
        "ciência tácita após (dias)", null=True, blank=True
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
            models.CheckConstraint(
                condition=Q(appeal_instances__gte=1) & Q(appeal_instances__lte=3),
                name="contests_policy_appeal_instances_range",
            ),
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

    @property
    def end_date(self) -> datetime.date | None:
        """Last day the law is in force (exclusive end of its duration, or its revocation)."""
        ends = []
        if self.duration_years and self.start_date:
            ends.append(add_years(self.start_date, self.duration_years) - datetime.timedelta(days=1))
        if self.revoked_on:
            ends.append(self.revoked_on - datetime.timedelta(days=1))
        return min(ends) if ends else None

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
        start = self.start_date
        if start and day < start:
            if self.excludes_prior_editais:
                return (
                    f"A lei não se aplica a editais publicados antes da sua vigência ({start:%d/%m/%Y}), "
                    "AR art. 5º §2º."
                )
            return f"A política só vigora a partir de {start:%d/%m/%Y}; o edital é de {day:%d/%m/%Y}."
        end = self.end_date
        if end and day > end:
            return f"A política vigorou até {end:%d/%m/%Y}; o edital é de {day:%d/%m/%Y}."
        return ""

    # Rules as pure values ------------------------------------------------------------------------------

    @property
    def percent_fraction(self) -> Fraction:
        return quotas.to_fraction(self.percent)

    def racial_rule(self) -> quotas.ReserveRule:
        return quotas.ReserveRule(
            percent=self.percent_fraction, threshold=self.threshold, rounding=self.rounding
        )

    def citations(self) -> dict[str, str]:
        return {
            "threshold": self.citation_threshold,
            "rounding": self.citation_rounding,
            "carry": self.citation_carry,
        }

    def is_used_by_published_contest(self) -> bool:
        return self.contests.exclude(status=Contest.Status.DRAFT).exists()


class Organization(models.Model):
    """The body running contests in this installation (for headers of documents and pages)."""

    name = models.CharField("nome", max_length=200)
    short_name = models.CharField("sigla ou nome curto", max_length=60, blank=True)
    municipality = models.CharField("município", max_length=120)
    state = models.CharField(
        "UF",
        max_length=2,
        validators=[RegexValidator(r"^[A-Z]{2}$", "Informe a UF com duas letras maiúsculas.")],
    )
    cnpj = models.CharField("CNPJ", max_length=18, blank=True)
    address = models.TextField("endereço", blank=True)
    phone = models.CharField("telefone", max_length=40, blank=True)
    email = models.EmailField("e-mail", blank=True)
    website = models.URLField("sítio", blank=True)
    dpo_name = models.CharField("encarregado de dados (LGPD)", max_length=200, blank=True)
    dpo_email = models.EmailField("e-mail do encarregado", blank=True)
    dpo_phone = models.CharField("telefone do encarregado", max_length=40, blank=True)
    logo = models.ImageField("brasão ou logotipo", upload_to="organization/", blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "organização"
        verbose_name_plural = "organização"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def current(cls) -> Organization | None:
        return cls.objects.order_by("pk").first()


class Holiday(models.Model):
    """A municipal holiday or office closure (national and state holidays come from ``holidays``)."""

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", "Feriado municipal"
        CLOSURE = "closure", "Ponto facultativo / expediente suspenso"

    class Period(models.TextChoices):
        FULL = "full", "Dia inteiro"
        MORNING = "morning", "Somente manhã"
        AFTERNOON = "afternoon", "Somente tarde"

    date = models.DateField("data")
    name = models.CharField("descrição", max_length=200)
    kind = models.CharField("tipo", max_length=10, choices=Kind.choices, default=Kind.HOLIDAY)
    period = models.CharField("período", max_length=10, choices=Period.choices, default=Period.FULL)
    recurring = models.BooleanField("repete todo ano", default=False)
    act = models.CharField("ato", max_length=200, blank=True, help_text="Lei ou decreto que o institui.")

    history = HistoricalRecords()

    class Meta:
        verbose_name = "feriado ou ponto facultativo"
        verbose_name_plural = "feriados e pontos facultativos"
        constraints = [
            models.UniqueConstraint(fields=["date", "name"], name="contests_holiday_unique_date_name")
        ]

    def __str__(self) -> str:
        return f"{self.date:%d/%m/%Y} {self.name}"

    @property
    def is_full_day(self) -> bool:
        """Only a full-day closure removes a business day (Lei 9.784 art. 66 §1: no business hours)."""
        return self.period == self.Period.FULL


class Contest(models.Model):
    """A concurso público: its policy, PcD parameters, schedule, homologation and validity."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Em elaboração"
        PUBLISHED = "published", "Edital publicado"
        REGISTRATION = "registration", "Inscrições abertas"
        IN_PROGRESS = "in_progress", "Em andamento"
        HOMOLOGATED = "homologated", "Homologado"
        CLOSED = "closed", "Encerrado"
        CANCELLED = "cancelled", "Cancelado"

    slug = models.SlugField("identificador", max_length=80, unique=True)
    number = models.CharField("número", max_length=20, help_text="Número do edital de abertura, ex.: 1.")
    year = models.PositiveSmallIntegerField(
        "ano", validators=[MinValueValidator(1988), MaxValueValidator(2200)]
    )
    title = models.CharField("título", max_length=200)
    policy = models.ForeignKey(
        Policy, verbose_name="política de reserva", on_delete=models.PROTECT, related_name="contests"
    )
    edital_date = models.DateField(
        "data de publicação do edital",
        help_text="Define a política aplicável (AR art. 5º §2º: a lei não se aplica a editais anteriores).",
    )
    registration_start = models.DateField("início das inscrições", null=True, blank=True)
    registration_end = models.DateField(
        "fim das inscrições",
        null=True,
        blank=True,
        help_text="Depois dele não se acrescenta a opção pela reserva (autodeclaração no ato da inscrição, "
        "SM art. 3º; AR art. 1º §4º).",
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.DRAFT)
    # PcD reserve: parameters from the municipality's own statute (RULES §2).
    pcd_percent = models.DecimalField(
        "percentual PcD",
        max_digits=5,
        decimal_places=2,
        default=Decimal(5),
        validators=PERCENT_VALIDATORS,
        help_text="Decreto 9.508/2018 art. 1º: no mínimo 5%. 0: sem reserva para pessoas com deficiência.",
    )
    pcd_rounding = models.CharField(
        "arredondamento PcD",
        max_length=10,
        choices=Policy.Rounding.choices,
        default=Policy.Rounding.UP,
        help_text="Decreto 9.508/2018 art. 1º §3º: fração para cima.",
    )
    pcd_cap_percent = models.DecimalField(
        "limite máximo PcD",
        max_digits=5,
        decimal_places=2,
        default=Decimal(20),
        validators=PERCENT_VALIDATORS,
        help_text="Lei 8.112 art. 5º §2º: até 20% (STF, MS 30.861).",
    )
    pcd_threshold = models.PositiveSmallIntegerField(
        "mínimo de vagas para reserva PcD", default=1, help_text="Conforme o estatuto municipal; 1: sempre."
    )
    office_deadline_days = models.PositiveSmallIntegerField(
        "prazo para posse (dias)",
        default=30,
        validators=[MinValueValidator(1)],
        help_text="Contado da publicação da nomeação (Lei 8.112 art. 13 §1º, por analogia, ou o estatuto local).",
    )
    # Homologation and validity (CF art. 37 III).
    homologation_date = models.DateField("data da homologação", null=True, blank=True)
    homologation_act = models.CharField("ato de homologação", max_length=200, blank=True)
    homologation_gazette = models.CharField(
        "edição do diário oficial (homologação)", max_length=120, blank=True
    )
    validity_months = models.PositiveSmallIntegerField(
        "validade (meses)",
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(24)],
        help_text="CF art. 37, III: até dois anos a partir da homologação.",
    )
    validity_extended = models.BooleanField(
        "validade prorrogada", default=False, help_text="CF art. 37, III: uma vez, por igual período."
    )
    validity_extension_act = models.CharField("ato de prorrogação", max_length=200, blank=True)
    notes = models.TextField("observações", blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "concurso"
        verbose_name_plural = "concursos"
        permissions = [
            ("homologate_contest", "Pode homologar concursos"),
            ("view_contest_history", "Pode ver o histórico de alterações"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["number", "year"], name="contests_contest_unique_number_year"),
            models.CheckConstraint(
                condition=Q(pcd_percent__gte=0) & Q(pcd_percent__lte=100),
                name="contests_contest_pcd_percent_range",
            ),
            models.CheckConstraint(
                condition=Q(pcd_cap_percent__gte=0) & Q(pcd_cap_percent__lte=100),
                name="contests_contest_pcd_cap_range",
            ),
            models.CheckConstraint(
                condition=Q(validity_months__gte=1) & Q(validity_months__lte=24),
                name="contests_contest_validity_at_most_two_years",
            ),
            models.CheckConstraint(
                condition=Q(registration_end__isnull=True)
                | Q(registration_start__isnull=True)
                | Q(registration_end__gte=models.F("registration_start")),
                name="contests_contest_registration_dates_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"Concurso {self.number}/{self.year}: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("contests:detail", args=[self.slug])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.policy_id and self.edital_date:
            refusal = self.policy.refusal_for_edital_date(self.edital_date)
            if refusal:
                errors["policy"] = refusal
        if self.policy_id and self.pcd_percent is not None and self.pcd_cap_percent is not None:
            # The same ceiling quotas.validate_rules uses: the PcD cap when there is a PcD reserve.
            ceiling = self.pcd_cap_percent if self.pcd_percent else Decimal(0)
            if self.policy.percent + ceiling > 100:
                errors["pcd_cap_percent"] = (
                    "O percentual da reserva racial somado ao limite da reserva PcD não pode passar de 100%."
                )
        if (
            self.registration_start
            and self.registration_end
            and self.registration_end < self.registration_start
        ):
            errors["registration_end"] = "O fim das inscrições não pode ser anterior ao início."
        if self.homologation_date and self.edital_date and self.homologation_date < self.edital_date:
            errors["homologation_date"] = "A homologação não pode ser anterior ao edital."
        if self.validity_months is not None and not 1 <= self.validity_months <= 24:
            errors["validity_months"] = "A validade do concurso é de até 2 anos (CF art. 37, III)."
        if errors:
            raise ValidationError(errors)

    # Rules as pure values ------------------------------------------------------------------------------

    def pcd_rule(self) -> quotas.ReserveRule | None:
        if not self.pcd_percent:
            return None
        return quotas.ReserveRule(
            percent=quotas.to_fraction(self.pcd_percent),
            threshold=self.pcd_threshold,
            rounding=self.pcd_rounding,
            cap_percent=quotas.to_fraction(self.pcd_cap_percent),
        )

    @property
    def total_vacancies(self) -> int:
        return (
            VacancyOpening.objects.filter(position__contest=self).aggregate(total=Sum("count"))["total"] or 0
        )

    # Validity ------------------------------------------------------------------------------------------

    @property
    def validity_end(self) -> datetime.date | None:
        """Last day of validity: homologation + validity (+ the same again when extended), CF art. 37 III.

        Counted as legal periods are (Código Civil art. 132 caput and §3º; Lei 810/1949 art. 1º; Lei 9.784
        art. 66 §3º): the day of the homologation is excluded and a period of months or years ends on the
        day of the same number, so homologation on 01/06/2026 with 24 months runs until 01/06/2028.
        """
        if not self.homologation_date:
            return None
        months = self.validity_months * (2 if self.validity_extended else 1)
        return add_months(self.homologation_date, months)

    def is_valid_on(self, day: datetime.date) -> bool:
        end = self.validity_end
        return bool(self.homologation_date and end and self.homologation_date <= day <= end)

    @property
    def is_homologated(self) -> bool:
        return self.homologation_date is not None

    def registrations_closed_on(self, day: datetime.date) -> bool:
        return bool(self.registration_end and day > self.registration_end)


class Position(models.Model):
    """A cargo or emprego with its own vacancies and lists (SM art. 1 §1 and art. 2: reserve per position)."""

    class PostKind(models.TextChoices):
        CARGO_EFETIVO = "cargo_efetivo", "Cargo efetivo"
        EMPREGO_PUBLICO = "emprego_publico", "Emprego público"

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.CASCADE, related_name="positions"
    )
    code = models.CharField(
        "código",
        max_length=20,
        validators=[RegexValidator(r"^[A-Za-z0-9_.-]+$", "Use letras, números, ponto, hífen ou sublinhado.")],
    )
    title = models.CharField("denominação", max_length=200)
    requirements = models.TextField("requisitos", blank=True)
    salary = models.DecimalField(
        "vencimento (R$)",
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0))],
    )
    workload_hours = models.PositiveSmallIntegerField(
        "carga horária semanal (h)", null=True, blank=True, validators=[MaxValueValidator(60)]
    )
    post_kind = models.CharField(
        "natureza", max_length=20, choices=PostKind.choices, default=PostKind.CARGO_EFETIVO
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "cargo"
        verbose_name_plural = "cargos"
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "code"], name="contests_position_unique_code_per_contest"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} – {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("contests:position_detail", args=[self.contest.slug, self.pk])

    @property
    def vacancies(self) -> int:
        """Cumulative vacancies: the edital's plus every opening during validity (SM art. 1 §1)."""
        cached = getattr(self, "_vacancies", None)
        if cached is not None:
            return cached
        return self.openings.aggregate(total=Sum("count"))["total"] or 0

    def reservation(self, *, vacancies: int | None = None) -> quotas.Reservation:
        """The quota engine's answer for this position (delegates to the pure module)."""
        contest = self.contest
        policy = contest.policy
        n = self.vacancies if vacancies is None else vacancies
        threshold_count = None
        if policy.threshold_basis == Policy.ThresholdBasis.CONTEST:
            threshold_count = contest.total_vacancies - self.vacancies + n
        return quotas.reservation(
            n,
            policy.racial_rule(),
            contest.pcd_rule(),
            threshold_count=threshold_count,
            citations=policy.citations(),
            group_label=policy.group_label,
        )


class VacancyOpening(models.Model):
    """The edital's vacancies of a position, or an opening during validity (SM art. 1 §1)."""

    class Kind(models.TextChoices):
        EDITAL = "edital", "Vagas do edital"
        LATER = "later", "Vagas abertas durante a validade"

    position = models.ForeignKey(
        Position, verbose_name="cargo", on_delete=models.CASCADE, related_name="openings"
    )
    kind = models.CharField("origem", max_length=10, choices=Kind.choices, default=Kind.EDITAL)
    count = models.PositiveIntegerField(
        "número de vagas",
        help_text="O edital pode ter 0 vagas (cadastro reserva); as abertas depois somam ao total do cargo "
        "e a reserva é recalculada sobre o acumulado (SM art. 1º §§1º e 4º).",
    )
    date = models.DateField("data")
    act = models.CharField("ato", max_length=200, blank=True, help_text="Ato que criou ou abriu as vagas.")
    note = models.TextField("observação", blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "abertura de vagas"
        verbose_name_plural = "aberturas de vagas"
        constraints = [
            models.UniqueConstraint(
                fields=["position"],
                condition=Q(kind="edital"),
                name="contests_vacancyopening_one_edital_per_position",
            ),
            models.CheckConstraint(
                condition=Q(kind="edital") | Q(count__gte=1), name="contests_vacancyopening_later_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.count} ({self.date:%d/%m/%Y})"


class AccessLog(models.Model):
    """Who viewed which sensitive record, and when (LGPD). Append-only: written by ``log_access``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="usuário",
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField("quando", auto_now_add=True, db_index=True)
    action = models.CharField("ação", max_length=40, default="view")
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField("registro", max_length=64)
    object_repr = models.CharField("descrição", max_length=200)
    detail = models.CharField("detalhe", max_length=200, blank=True)
    ip_address = models.GenericIPAddressField("endereço IP", null=True, blank=True)

    class Meta:
        verbose_name = "registro de acesso"
        verbose_name_plural = "registros de acesso"
        indexes = [models.Index(fields=["content_type", "object_id"], name="contests_accesslog_object")]

    def __str__(self) -> str:
        return f"{self.at:%d/%m/%Y %H:%M} {self.user} {self.action} {self.object_repr}"
