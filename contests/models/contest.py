"""Contest, Position and VacancyOpening."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q, Sum
from django.urls import reverse
from simple_history.models import HistoricalRecords

from contests import lifecycle, quotas
from contests.calendar import add_months
from contests.models.checks import ChecksInOneQuery
from contests.models.organization import Organization
from contests.models.policy import PERCENT_VALIDATORS, Policy
from contests.wording import thousands


def edital_published_q(prefix: str = "") -> Q:
    """The query form of ``Contest.edital_published`` (``prefix`` reaches it through a relation)."""
    return Q(**{f"{prefix}edital_published_on__isnull": False})


class ContestQuerySet(models.QuerySet):
    def edital_published(self) -> ContestQuerySet:
        return self.filter(edital_published_q())


class Contest(ChecksInOneQuery, models.Model):
    """A concurso público: its policy, PcD parameters, schedule, homologation and validity."""

    class Status(models.TextChoices):
        # The lifecycle (which status may follow which) lives in contests/lifecycle.py.
        DRAFT = lifecycle.Status.DRAFT.value, lifecycle.LABELS[lifecycle.Status.DRAFT]
        PUBLISHED = lifecycle.Status.PUBLISHED.value, lifecycle.LABELS[lifecycle.Status.PUBLISHED]
        REGISTRATION = lifecycle.Status.REGISTRATION.value, lifecycle.LABELS[lifecycle.Status.REGISTRATION]
        IN_PROGRESS = lifecycle.Status.IN_PROGRESS.value, lifecycle.LABELS[lifecycle.Status.IN_PROGRESS]
        HOMOLOGATED = lifecycle.Status.HOMOLOGATED.value, lifecycle.LABELS[lifecycle.Status.HOMOLOGATED]
        CLOSED = lifecycle.Status.CLOSED.value, lifecycle.LABELS[lifecycle.Status.CLOSED]
        CANCELLED = lifecycle.Status.CANCELLED.value, lifecycle.LABELS[lifecycle.Status.CANCELLED]

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
    edital_published_on = models.DateField(
        "publicação do edital registrada em",
        null=True,
        blank=True,
        editable=False,
        help_text="Dia em que o concurso saiu de “Em elaboração”. Permanente: desde então a política, o "
        "identificador e as vagas do edital ficam fixados, qualquer que seja a situação (vinculação ao "
        "edital; AR art. 5º §2º).",
    )
    final_result_published_on = models.DateField(
        "resultado final publicado em",
        null=True,
        blank=True,
        editable=False,
        help_text="Dia em que a primeira lista final foi publicada. Permanente: a homologação, que aprova o "
        "resultado (CF art. 37, III), só se registra a partir dele.",
    )
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
    office_deadline_basis = models.CharField(
        "fundamento do prazo para posse",
        max_length=200,
        blank=True,
        default="do Estatuto dos Servidores do Município",
        help_text="Completa “nos termos …” no artigo do prazo para posse da portaria de nomeação, ex.: “do art. "
        "13, §1º, da Lei Complementar nº 90/2012 (Estatuto dos Servidores)”. Vazio: o ato não cita fundamento.",
    )
    office_place = models.TextField(
        "local e contato para a posse",
        blank=True,
        help_text="Unidade de pessoal onde o nomeado se apresenta: endereço, horário, telefone e e-mail; "
        "impresso na comunicação de nomeação.",
    )
    office_requirements = models.TextField(
        "documentos e exames para a posse",
        blank=True,
        help_text="Um item por linha: documentos a apresentar e exames (inclusive o exame médico admissional) "
        "exigidos para a posse, conforme o edital e o estatuto; impressos na comunicação de nomeação.",
    )
    # Appeals against a preliminary result: what the edital fixes, printed in the edital and on each
    # preliminary list with the deadline counted from its publication (Lei 9.784 art. 66).
    result_appeal_days = models.PositiveSmallIntegerField(
        "prazo de recurso contra o resultado preliminar",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="O prazo que o edital fixa. Vazio: o prazo de recurso da política (Lei 9.784/1999, art. 59: "
        "10 dias).",
    )
    result_appeal_business_days = models.BooleanField(
        "prazo de recurso em dias úteis",
        default=False,
        help_text="Desmarcado: dias corridos (Lei 9.784/1999, art. 66 §2º).",
    )
    appeal_channel = models.TextField(
        "como se apresenta o recurso",
        blank=True,
        help_text="Ex.: por requerimento dirigido à comissão do concurso, protocolado na sede da Câmara ou "
        "enviado ao e-mail concursos@…. Vazio: protocolo na sede e e-mail da organização.",
    )
    minimum_final_score = models.DecimalField(
        "nota final mínima para aprovação",
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0))],
        help_text="O mínimo para aprovação que o edital fixa (SM art. 4º §2º): abaixo dele o candidato sai de "
        "todas as listas finais, cotistas inclusive. Vazia: o edital não fixa nota final mínima.",
    )
    # Homologation and validity (CF art. 37 III).
    homologation_date = models.DateField(
        "data da homologação",
        null=True,
        blank=True,
        help_text="Permanente: aprova o resultado e dá início à validade (CF art. 37, III).",
    )
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

    objects = ContestQuerySet.as_manager()
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
                condition=Q(minimum_final_score__isnull=True) | Q(minimum_final_score__gte=0),
                name="contests_contest_minimum_final_score_not_negative",
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
            models.CheckConstraint(
                condition=Q(homologation_date__isnull=True) | Q(edital_published_on__isnull=False),
                name="contests_contest_homologated_after_publication",
                violation_error_message="Só se homologa um concurso com edital publicado.",
            ),
        ]

    def __str__(self) -> str:
        return f"Concurso {self.number}/{self.year}: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("contests:detail", args=[self.slug])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.policy_id and self.edital_date:
            edital_refusal = self.policy.refusal_for_edital_date(self.edital_date)
            if edital_refusal:
                errors["policy"] = edital_refusal
        if self.policy_id and self.policy.percent is not None:
            refusal = quotas.reserves_sum_refusal(self.policy.percent, self.pcd_percent, self.pcd_cap_percent)
            if refusal:
                errors["pcd_cap_percent"] = refusal
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
            rounding=quotas.Rounding(self.pcd_rounding),
            cap_percent=quotas.to_fraction(self.pcd_cap_percent),
        )

    @property
    def office_requirement_items(self) -> list[str]:
        """The documents and examinations to take office, one per line of ``office_requirements``."""
        return [
            line.strip(" \t-–•;") for line in self.office_requirements.splitlines() if line.strip(" \t-–•;")
        ]

    @property
    def total_vacancies(self) -> int:
        """Every position's cumulative vacancies; a list page that has summed them already sets
        ``_total_vacancies`` so that each position's reservation does not count them again."""
        cached = getattr(self, "_total_vacancies", None)
        if cached is not None:
            return cached
        return (
            VacancyOpening.objects.filter(position__contest=self).aggregate(total=Sum("count"))["total"] or 0
        )

    def result_appeal_period(self) -> tuple[int, bool]:
        """(amount, in business days) of the appeal against a preliminary result: the edital's, or the
        policy's appeal period in calendar days (Lei 9.784/1999, art. 59)."""
        if self.result_appeal_days:
            return self.result_appeal_days, self.result_appeal_business_days
        law = getattr(self.policy, "procedure_law", None)
        return (law.appeal_days if law is not None else 10), False

    def result_appeal_channel_text(self) -> str:
        """How an appeal is filed, as the acts say it: the contest's channel, or the organisation's seat
        and e-mail ("" when neither is recorded)."""
        if self.appeal_channel.strip():
            return " ".join(self.appeal_channel.split()).rstrip(".")
        organization = Organization.current()
        if organization is None:
            return ""
        ways = []
        if organization.address.strip():
            ways.append(f"protocolado no endereço {' '.join(organization.address.split())}")
        if organization.email:
            ways.append(f"enviado ao e-mail {organization.email}")
        return "por requerimento " + " ou ".join(ways) if ways else ""

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
        # Past the calendar (a homologation typed before the dates were bounded): date.max, no end.
        return add_months(self.homologation_date, months)

    def is_valid_on(self, day: datetime.date) -> bool:
        end = self.validity_end
        return bool(self.homologation_date and end and self.homologation_date <= day <= end)

    @property
    def is_homologated(self) -> bool:
        return self.lifecycle_facts.homologated

    # Lifecycle (contests/lifecycle.py) -------------------------------------------------------------------

    @property
    def lifecycle_facts(self) -> lifecycle.Facts:
        return lifecycle.Facts(
            edital_published_on=self.edital_published_on,
            homologated_on=self.homologation_date,
            final_result_published_on=self.final_result_published_on,
        )

    @property
    def schedule(self) -> lifecycle.Schedule:
        """The edital's registration period, for the lifecycle's date rules."""
        return lifecycle.Schedule(
            registration_start=self.registration_start, registration_end=self.registration_end
        )

    @property
    def edital_published(self) -> bool:
        """The one answer to "is this contest's edital published?": a permanent date, never the status.

        Queries ask the same through ``edital_published_q``.
        """
        return self.lifecycle_facts.edital_published

    @property
    def edital_vacancies_frozen(self) -> bool:
        return lifecycle.edital_vacancies_frozen(self.status, self.lifecycle_facts)

    def allowed_statuses(self) -> tuple[lifecycle.Status, ...]:
        return lifecycle.allowed(self.status, self.lifecycle_facts)

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
    legal_regime = models.CharField(
        "regime jurídico",
        max_length=200,
        default="estatutário",
        help_text="Como a portaria de nomeação o escreve depois de “sob o regime jurídico”: “estatutário” (o "
        "estatuto dos servidores do município) ou, para emprego público, “celetista (Consolidação das Leis do "
        "Trabalho)” (CF art. 39; lei municipal do regime).",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "cargo"
        verbose_name_plural = "cargos"
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "code"], name="contests_position_unique_code_per_contest"
            ),
            # What a registration's foreign key to its position and contest refers to (candidates, migration
            # 0029): one check per row instead of two.
            models.UniqueConstraint(fields=["id", "contest"], name="contests_position_unique_id_contest"),
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

    def threshold_extra(self, *, contest_vacancies: int | None = None, own: int | None = None) -> int:
        """The other positions' vacancies SM art. 1 §2's threshold also counts for this one now
        (``quotas.threshold_extra``): none unless the policy counts it on the contest (no query then).
        ``contest_vacancies`` and ``own``: the counts when the caller has them (a table of every position,
        as of a date); read from the database otherwise."""
        contest = self.contest
        if contest.policy.threshold_basis != Policy.ThresholdBasis.CONTEST:
            return 0
        if contest_vacancies is None:
            contest_vacancies, own = contest.total_vacancies, self.vacancies
        return quotas.threshold_extra(
            on_contest=True,
            contest_vacancies=contest_vacancies,
            position_vacancies=self.vacancies if own is None else own,
        )

    def reservation(
        self, *, vacancies: int | None = None, contest_vacancies: int | None = None
    ) -> quotas.Reservation:
        """The quota engine's answer for this position (delegates to the pure module).

        ``vacancies``: a count to try instead of the position's own (the preview). ``contest_vacancies``: the
        contest's vacancies, every position's, when the caller has counted them (a table of all positions,
        as of a date); ``vacancies`` is then this position's count in that same table, and nothing is read
        again."""
        contest = self.contest
        policy = contest.policy
        n = self.vacancies if vacancies is None else vacancies
        on_contest = policy.threshold_basis == Policy.ThresholdBasis.CONTEST
        return quotas.reservation(
            n,
            policy.racial_rule(),
            contest.pcd_rule(),
            threshold_count=quotas.threshold_count(
                n,
                on_contest=on_contest,
                other_vacancies=self.threshold_extra(
                    contest_vacancies=contest_vacancies, own=None if contest_vacancies is None else n
                ),
            ),
            citations=policy.citations(),
            group_label=policy.group_label,
        )


def vacancies_bound_refusal(total: int, *, already: int = 0) -> str:
    """The one home of the bound on a position's vacancies (``settings.MAX_VACANCIES_PER_POSITION``):
    the refusal when ``total`` (the edital's and the later openings summed) passes it, else ''."""
    bound = settings.MAX_VACANCIES_PER_POSITION
    if total <= bound:
        return ""
    text = f"Um cargo tem no máximo {thousands(bound)} vagas"
    if already:
        return f"{text}, somadas as do edital e as abertas depois; este já tem {thousands(already)}."
    return f"{text}."


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
    form_token = models.CharField(
        "identificador do envio",
        max_length=64,
        blank=True,
        editable=False,
        help_text="Gerado com o formulário: o mesmo envio repetido não abre as vagas de novo.",
    )

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
            models.UniqueConstraint(
                fields=["form_token"],
                condition=~Q(form_token=""),
                name="contests_vacancyopening_one_per_form_token",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.count} ({self.date:%d/%m/%Y})"
