"""People, registrations, results, lists and nominations (see DESIGN.md).

This module stores data; the rules that rank, cut and nominate live in the pure engine
``candidates/engine/allocation.py``. Writes go through ``candidates/services/registrations.py`` (and the importer).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from candidates.engine.schedule import kind_label
from candidates.validators import format_cpf, validate_cpf
from contests.models import Contest, Policy, Position

SCORE_MAX_DIGITS = 8
SCORE_DECIMAL_PLACES = 2
SCORE_QUANTUM = Decimal("0.01")


def score_field(verbose_name: str, **kwargs) -> models.DecimalField:
    return models.DecimalField(
        verbose_name,
        max_digits=SCORE_MAX_DIGITS,
        decimal_places=SCORE_DECIMAL_PLACES,
        validators=[MinValueValidator(Decimal(0))],
        **kwargs,
    )


class Reserve(models.TextChoices):
    """The reserved lists a registration may opt for (RULES §3)."""

    RACIAL = "racial", "Reserva racial"
    PCD = "pcd", "Reserva para pessoas com deficiência"


class Candidate(models.Model):
    """A person, across contests: identified by the CPF."""

    full_name = models.CharField("nome civil", max_length=200)
    social_name = models.CharField(
        "nome social",
        max_length=200,
        blank=True,
        help_text="Decreto 8.727/2016 (e norma municipal, se houver): quando informado, é o nome exibido no "
        "lugar do nome civil em telas, listas e atos.",
    )
    cpf = models.CharField(
        "CPF",
        max_length=11,
        validators=[validate_cpf],
        help_text="Somente os 11 dígitos. Dado pessoal (LGPD): nunca publicado.",
    )
    birth_date = models.DateField(
        "data de nascimento",
        null=True,
        blank=True,
        help_text="Desempate: Estatuto da Pessoa Idosa (Lei 10.741/2003) art. 27, parágrafo único, para quem "
        "tem 60 anos ou mais; depois, a maior idade, se o edital o prevê.",
    )
    email = models.EmailField("e-mail", blank=True)
    phone = models.CharField("telefone", max_length=40, blank=True)
    address = models.TextField(
        "endereço para intimações",
        blank=True,
        help_text="Lei 9.784/1999 art. 26 §3º: a intimação se faz por meio que assegure a ciência do "
        "interessado.",
    )

    history = HistoricalRecords(user_db_constraint=False)

    class Meta:
        verbose_name = "candidato"
        verbose_name_plural = "candidatos"
        constraints = [
            models.UniqueConstraint(fields=["cpf"], name="candidates_candidate_unique_cpf"),
            models.CheckConstraint(
                condition=Q(cpf__regex=r"^[0-9]{11}$"), name="candidates_candidate_cpf_digits"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The social name where given, else the civil name."""
        return self.social_name or self.full_name

    @property
    def cpf_formatted(self) -> str:
        return format_cpf(self.cpf)


class Registration(models.Model):
    """A candidate's inscrição in one position of one contest, with the reserves chosen at registration."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Ativa"
        EXCLUDED_FROM_RESERVE = (
            "excluded_from_reserve",
            "Excluída das reservas (permanece na ampla concorrência)",
        )
        WITHDRAWN = "withdrawn", "Desistente"
        ELIMINATED = "eliminated", "Eliminada"
        CANCELLED = "cancelled", "Cancelada (inscrição indeferida)"

    # No index of their own: the unique constraints below start with them.
    contest = models.ForeignKey(
        Contest,
        verbose_name="concurso",
        on_delete=models.PROTECT,
        related_name="registrations",
        db_index=False,
    )
    position = models.ForeignKey(
        Position, verbose_name="cargo", on_delete=models.PROTECT, related_name="registrations", db_index=False
    )
    candidate = models.ForeignKey(
        Candidate, verbose_name="candidato", on_delete=models.PROTECT, related_name="registrations"
    )
    number = models.CharField(
        "número de inscrição",
        max_length=30,
        validators=[RegexValidator(r"^[0-9A-Za-z./-]+$", "Use letras, números, ponto, barra ou hífen.")],
        help_text="Único no concurso; é o último critério de desempate.",
    )
    registered_on = models.DateField("data da inscrição", null=True, blank=True)
    racial_reserve = models.BooleanField(
        "concorre à reserva racial",
        default=False,
        help_text="Opção feita no ato da inscrição, com a autodeclaração (SM art. 3º; AR art. 1º §4º), "
        "válida só para este concurso; não pode ser acrescentada depois do fim das inscrições.",
    )
    pcd_reserve = models.BooleanField(
        "concorre à reserva para pessoas com deficiência",
        default=False,
        help_text="Decreto 9.508/2018 art. 1º; SM art. 4º §6º: pode concorrer também à reserva racial.",
    )
    preferred_reserve = models.CharField(
        "reserva preferida na convocação simultânea",
        max_length=10,
        choices=Reserve.choices,
        blank=True,
        help_text="SM art. 4º §7º: quem é convocado às duas reservas ao mesmo tempo escolhe; vazio: a opção "
        "padrão da política (racial em SM).",
    )
    status = models.CharField("situação", max_length=30, choices=Status.choices, default=Status.ACTIVE)
    jury_service = models.BooleanField(
        "exerceu a função de jurado",
        default=False,
        help_text="CPP art. 440: critério de desempate, quando o edital o prevê.",
    )
    final_score = score_field(
        "nota final",
        null=True,
        blank=True,
        help_text="Como informada pela organizadora; vazia quando calculada a partir das fases.",
    )
    absent = models.BooleanField(
        "ausente", default=False, help_text="Faltou a alguma prova (eliminado, conforme o edital)."
    )

    # Imports write their history rows in bulk (COPY): no index on the foreign keys (history is read by
    # registration id) and no database constraint on the user (Django still applies on_delete).
    history = HistoricalRecords(no_db_index=["contest", "position", "candidate"], user_db_constraint=False)

    class Meta:
        verbose_name = "inscrição"
        verbose_name_plural = "inscrições"
        permissions = [("import_registrations", "Pode importar inscrições e notas")]
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "number"], name="candidates_registration_unique_number_per_contest"
            ),
            models.UniqueConstraint(
                fields=["position", "candidate"], name="candidates_registration_unique_candidate_per_position"
            ),
            models.CheckConstraint(
                condition=Q(preferred_reserve="")
                | Q(preferred_reserve="racial", racial_reserve=True)
                | Q(preferred_reserve="pcd", pcd_reserve=True),
                name="candidates_registration_preferred_reserve_chosen",
            ),
            models.CheckConstraint(
                condition=Q(final_score__isnull=True) | Q(final_score__gte=0),
                name="candidates_registration_final_score_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Inscrição {self.number}"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.position_id and self.contest_id and self.position.contest_id != self.contest_id:
            errors["position"] = "O cargo não pertence a este concurso."
        if self.preferred_reserve == Reserve.RACIAL and not self.racial_reserve:
            errors["preferred_reserve"] = (
                "A reserva preferida deve ser uma das escolhidas (aqui, a racial não é)."
            )
        elif self.preferred_reserve == Reserve.PCD and not self.pcd_reserve:
            errors["preferred_reserve"] = (
                "A reserva preferida deve ser uma das escolhidas (aqui, a PcD não é)."
            )
        if errors:
            raise ValidationError(errors)


class SelfDeclaration(models.Model):
    """The autodeclaração made at registration for the racial reserve.

    It lives here, not in ``declarations``, because it is created in the same transaction as its
    registration and the apps depend one way (declarations → candidates): a Verification or Procedure
    there points to it.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Ativa"
        GIVEN_UP = "given_up", "Renunciada (o candidato permanece na ampla concorrência)"
        CORRECTED = "corrected", "Anulada por correção de erro de digitação"

    registration = models.OneToOneField(
        Registration, verbose_name="inscrição", on_delete=models.CASCADE, related_name="self_declaration"
    )
    category = models.CharField(
        "categoria declarada",
        max_length=20,
        choices=Policy.Group.choices,
        blank=True,
        help_text="Categoria do IBGE entre as beneficiárias da política (SM art. 3º: pretos e pardos; "
        "AR art. 1º: negros e índios). Vazia: a organizadora não a informou (negro, sem distinguir preto "
        "e pardo).",
    )
    declared_on = models.DateField(
        "data da declaração",
        null=True,
        blank=True,
        help_text="No ato da inscrição (SM art. 3º; AR art. 1º §4º), até o fim das inscrições. Vazia: não "
        "informada pela organizadora.",
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.ACTIVE)
    ended_on = models.DateField("data da renúncia ou correção", null=True, blank=True)
    justification = models.TextField(
        "justificativa da correção",
        blank=True,
        help_text="Obrigatória quando a Secretaria corrige um erro de digitação (RULES §5); fica no "
        "histórico.",
    )

    history = HistoricalRecords(no_db_index=["registration"], user_db_constraint=False)

    class Meta:
        verbose_name = "autodeclaração"
        verbose_name_plural = "autodeclarações"
        permissions = [
            (
                "view_sensitive",
                "Pode ver autodeclarações e a condição de pessoa com deficiência (dado sensível)",
            )
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="corrected") | ~Q(justification=""),
                name="candidates_selfdeclaration_correction_justified",
            ),
        ]

    def __str__(self) -> str:
        return f"Autodeclaração da inscrição {self.registration.number}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def category_label(self) -> str:
        return self.get_category_display() if self.category else "Negra (preta ou parda, não informada)"

    def check_category(self, policy: Policy) -> str:
        """Portuguese reason why the category is not one the policy's groups allow, or ''."""
        groups = set(policy.beneficiary_groups or [])
        if self.category and self.category not in groups:
            allowed = ", ".join(Policy.Group(g).label.lower() for g in policy.beneficiary_groups)
            label = self.get_category_display().lower()
            return f"A categoria {label} não é beneficiária desta política ({allowed})."
        if not self.category and not groups & {Policy.Group.PRETA, Policy.Group.PARDA}:
            return "Informe a categoria: a política não abrange pretos e pardos."
        return ""


class Phase(models.Model):
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
        help_text="SM art. 4º §1º. Vazio: a fórmula da reserva aplicada a K (RULES §3).",
    )
    cutoff_pcd = models.PositiveIntegerField(
        "K da reserva PcD", null=True, blank=True, help_text="Vazio: a fórmula da reserva PcD aplicada a K."
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
        per_list = [k for k in (self.cutoff_open, self.cutoff_racial, self.cutoff_pcd) if k is not None]
        if per_list and self.cutoff is None:
            raise ValidationError({"cutoff": "Informe o K total para dividi-lo entre as listas."})


class PhaseResult(models.Model):
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

    history = HistoricalRecords(no_db_index=["phase"], user_db_constraint=False)

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
        value = "ausente" if self.absent else (self.score if self.score is not None else "sem nota")
        return f"{self.registration} – {self.phase.name}: {value}"

    def clean(self) -> None:
        if self.absent and self.score is not None:
            raise ValidationError({"score": "Um candidato ausente não tem nota."})
        if self.score is not None and self.phase_id and self.score > self.phase.max_score:
            raise ValidationError({"score": f"A nota passa da nota máxima da fase ({self.phase.max_score})."})


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
        return f"{self.order}º {label}: {self.phase.name}" if self.phase_id else f"{self.order}º {label}"


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


class ListName(models.TextChoices):
    """The classification lists (RULES §3): the general list and one per reserve."""

    OPEN = "open", "Ampla concorrência"
    RACIAL = "racial", "Reserva racial"
    PCD = "pcd", "Reserva para pessoas com deficiência"


def _published_run_guard() -> Q:
    return Q(status="draft") | (Q(published_at__isnull=False) & ~Q(kind=""))


class ResultRun(models.Model):
    """A classification computed by the engine (``candidates.services.results``), frozen once published.

    A run covers the whole contest or one position. Its entries (``ResultEntry``) are written once, in
    bulk, when it is computed; publishing freezes them: no service changes an entry, a published run
    cannot be deleted and, on PostgreSQL, a trigger refuses any UPDATE or DELETE of a published run's
    entries (migration ``0004_results_guard``). A later change (a score corrected, an elimination) makes
    a new run; ``previous`` is the published run it is compared with (who moved, and why).
    """

    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", "Preliminar"
        FINAL = "final", "Final"

    class Status(models.TextChoices):
        DRAFT = "draft", "Rascunho (em revisão)"
        PUBLISHED = "published", "Publicada"

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.PROTECT, related_name="result_runs"
    )
    position = models.ForeignKey(
        Position,
        verbose_name="cargo",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="result_runs",
        help_text="Vazio: todos os cargos do concurso.",
    )
    number = models.PositiveIntegerField("número", help_text="Sequencial no concurso.")
    kind = models.CharField(
        "espécie",
        max_length=20,
        choices=Kind.choices,
        blank=True,
        help_text="Preliminar (sujeita a recurso) ou final (a que a homologação confirma e de que saem as "
        "nomeações).",
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.DRAFT)
    computed_at = models.DateTimeField("calculada em")
    computed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="calculada por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    published_at = models.DateTimeField("publicada em", null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="publicada por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    inputs_hash = models.CharField(
        "resumo dos dados de entrada",
        max_length=64,
        help_text="SHA-256 das inscrições, notas, fases, critérios e parâmetros da política usados no cálculo: "
        "a mesma entrada dá o mesmo resumo.",
    )
    previous = models.ForeignKey(
        "self",
        verbose_name="lista anterior",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="A última lista publicada do mesmo alcance quando esta foi calculada.",
    )
    summary = models.JSONField("resumo", default=dict, blank=True)
    notes = models.TextField("observações", blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "lista de classificação"
        verbose_name_plural = "listas de classificação"
        permissions = [("publish_resultrun", "Pode publicar listas de classificação (preliminar ou final)")]
        constraints = [
            models.UniqueConstraint(fields=["contest", "number"], name="candidates_resultrun_unique_number"),
            models.CheckConstraint(
                condition=_published_run_guard(), name="candidates_resultrun_published_complete"
            ),
        ]

    def __str__(self) -> str:
        kind = self.get_kind_display().lower() if self.kind else "em revisão"
        scope = f"{self.position.code}" if self.position_id else "todos os cargos"
        return f"Lista {self.number} ({kind}, {scope})"

    def get_absolute_url(self) -> str:
        return reverse("candidates:result_detail", args=[self.contest.slug, self.pk])

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @property
    def is_final(self) -> bool:
        return self.is_published and self.kind == self.Kind.FINAL

    def covers(self, position: Position) -> bool:
        return self.position_id is None or self.position_id == position.pk


class ResultEntry(models.Model):
    """One line of a run: a registration's place on one list, or why it is on none (``list`` ``out``).

    Written in bulk when the run is computed and never changed (see ``ResultRun``): no history of its
    own (the run's history records who computed and who published), no update service. ``number`` and
    ``name`` are copied so a published list keeps showing what was published.
    """

    class List(models.TextChoices):
        OPEN = "open", "Ampla concorrência"
        RACIAL = "racial", "Reserva racial"
        PCD = "pcd", "Reserva para pessoas com deficiência"
        OUT = "out", "Não classificado"

    # The composite index below serves lookups by run (and position); the position and registration keys
    # are copied from rows read in the same transaction and are not re-checked by the database row by row
    # (tens of thousands per run: that check alone took seconds); Django's PROTECT still refuses deleting a
    # position or registration that a run lists.
    run = models.ForeignKey(
        ResultRun, verbose_name="lista", on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    position = models.ForeignKey(
        Position,
        verbose_name="cargo",
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    registration = models.ForeignKey(
        Registration,
        verbose_name="inscrição",
        on_delete=models.PROTECT,
        related_name="result_entries",
        db_constraint=False,
    )
    list = models.CharField("lista", max_length=10, choices=List.choices)
    rank = models.PositiveIntegerField(
        "classificação na lista", null=True, blank=True, help_text="Vazia para quem não está em lista alguma."
    )
    general_rank = models.PositiveIntegerField("classificação geral", null=True, blank=True)
    score = score_field("nota final", null=True, blank=True)
    number = models.CharField("número de inscrição", max_length=30)
    name = models.CharField("nome", max_length=200)
    why = models.TextField("por quê", blank=True)

    class Meta:
        verbose_name = "linha de lista de classificação"
        verbose_name_plural = "linhas de listas de classificação"
        constraints = [
            models.UniqueConstraint(
                fields=["run", "registration", "list"], name="candidates_resultentry_once_per_list"
            ),
            models.CheckConstraint(
                condition=(Q(list="out") & Q(rank__isnull=True))
                | (~Q(list="out") & Q(rank__gte=1) & Q(general_rank__gte=1)),
                name="candidates_resultentry_rank_iff_listed",
            ),
        ]
        indexes = [
            models.Index(fields=["run", "position", "list", "rank"], name="candidates_entry_list_rank")
        ]

    def __str__(self) -> str:
        if self.list == self.List.OUT:
            return f"{self.number}: não classificado"
        return f"{self.number}: {self.rank}º ({self.get_list_display()})"


class AllocationLedger(models.Model):
    """The allocation engine's state for one position's nominations, so every call continues it.

    We store a **snapshot**, ``candidates.engine.allocation.State.to_dict(include_candidates=False)``, after
    each change, rather than an event log to replay: the snapshot keeps the seats' kinds, the
    nominations and the removals exactly as they were decided, so a later fix in the engine never
    reinterprets seats already filled (RULES §4 item 5: a nomination once made is never reinterpreted),
    and loading costs the same after ten events or ten thousand. The candidates are not in the
    snapshot: they are the general list of ``run`` (a published final run), read again on load
    (``candidates.services.nominations``). The history of this row (one version per change, naming the user)
    is the log of every state. ``version`` grows by one per change, so a confirmation screen can tell
    that another clerk acted since it showed its preview.
    """

    position = models.OneToOneField(
        Position, verbose_name="cargo", on_delete=models.PROTECT, related_name="allocation_ledger"
    )
    run = models.ForeignKey(
        ResultRun,
        verbose_name="lista final",
        on_delete=models.PROTECT,
        related_name="ledgers",
        help_text="A lista final publicada de que saem as nomeações deste cargo.",
    )
    state = models.JSONField("estado da alocação", default=dict)
    version = models.PositiveIntegerField("versão", default=0)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "estado das nomeações do cargo"
        verbose_name_plural = "estados das nomeações dos cargos"

    def __str__(self) -> str:
        return f"Nomeações de {self.position} (versão {self.version})"


class Nomination(models.Model):
    """A nomination act for one seat of a position, and what became of it (RULES §4)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Nomeação ativa (aguardando posse)"
        TOOK_OFFICE = "took_office", "Tomou posse"
        WITHDRAWN = "withdrawn", "Desistente"
        NO_SHOW = "no_show", "Não tomou posse (nomeação sem efeito)"
        ANNULLED = "annulled", "Nomeação anulada"
        END_OF_LIST = "end_of_list", "Foi para o fim da lista"

    HOLDING = (Status.ACTIVE, Status.TOOK_OFFICE)

    position = models.ForeignKey(
        Position, verbose_name="cargo", on_delete=models.PROTECT, related_name="nominations"
    )
    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="nominations"
    )
    run = models.ForeignKey(
        ResultRun, verbose_name="lista final", on_delete=models.PROTECT, related_name="nominations"
    )
    order = models.PositiveIntegerField(
        "ordem de nomeação",
        help_text="1ª, 2ª, … nomeação do cargo (RULES §4 item 6; Lei 15.142 art. 9º §2º onde a política o "
        "adota).",
    )
    seat = models.PositiveIntegerField("vaga", help_text="Número da vaga na ordem de nomeação do cargo.")
    seat_kind = models.CharField(
        "tipo da vaga",
        max_length=10,
        choices=ListName.choices,
        help_text="Alternância e proporcionalidade (SM art. 5º) ou a k-ésima (AR art. 3º §1º).",
    )
    source_list = models.CharField("lista de origem", max_length=10, choices=ListName.choices)
    reverted = models.BooleanField(
        "vaga revertida",
        default=False,
        help_text="Vaga reservada sem cotista disponível, preenchida pela ampla concorrência (SM art. 4º §5º).",
    )
    compensated = models.BooleanField(
        "compensada",
        default=False,
        help_text="Nomeado na reserva e depois alcançado pela ampla concorrência (regra de compensação).",
    )
    status = models.CharField("situação", max_length=20, choices=Status.choices, default=Status.ACTIVE)
    why = models.TextField("por quê", blank=True)
    # The act.
    act_number = models.CharField("número do ato", max_length=60)
    act_date = models.DateField("data do ato")
    gazette_edition = models.CharField("edição do diário oficial", max_length=120, blank=True)
    gazette_page = models.CharField("página", max_length=20, blank=True)
    gazette_date = models.DateField(
        "data da publicação", null=True, blank=True, help_text="Vazia: a data do ato."
    )
    # Notice to the candidate.
    notified_gazette = models.BooleanField("publicação no diário oficial", default=True)
    notified_email = models.BooleanField("e-mail", default=False)
    notified_letter = models.BooleanField("carta com aviso de recebimento", default=False)
    letter_received_on = models.DateField("recebimento da carta", null=True, blank=True)
    office_deadline = models.DateField(
        "prazo para posse",
        help_text="Data da publicação mais o prazo do concurso (padrão 30 dias; Lei 8.112 art. 13 §1º, por "
        "analogia, ou o estatuto local).",
    )
    took_office_on = models.DateField("data da posse", null=True, blank=True)
    ended_on = models.DateField("data do encerramento", null=True, blank=True)
    end_reason = models.TextField("motivo do encerramento", blank=True)
    withdrawal_statement = models.FileField(
        "termo de desistência assinado",
        upload_to="nominations/withdrawals/%Y/%m/",
        blank=True,
        help_text="SM art. 4º §4º; AR art. 3º §2º: a vaga do desistente vai ao próximo da mesma lista.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "nomeação"
        verbose_name_plural = "nomeações"
        permissions = [
            (
                "call_nomination",
                "Pode convocar e nomear candidatos e registrar posse, desistência e não posse",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["position", "order"], name="candidates_nomination_unique_order"),
            models.UniqueConstraint(
                fields=["position", "seat"],
                condition=Q(status__in=["active", "took_office"]),
                name="candidates_nomination_one_holder_per_seat",
            ),
            models.UniqueConstraint(
                fields=["position", "registration"],
                condition=Q(status__in=["active", "took_office"]),
                name="candidates_nomination_one_active_per_registration",
            ),
            models.CheckConstraint(
                condition=Q(seat__gte=1) & Q(order__gte=1), name="candidates_nomination_numbered"
            ),
            models.CheckConstraint(
                condition=~Q(status="took_office") | Q(took_office_on__isnull=False),
                name="candidates_nomination_took_office_dated",
            ),
            models.CheckConstraint(
                condition=~Q(status="withdrawn") | ~Q(withdrawal_statement=""),
                name="candidates_nomination_withdrawal_signed",
            ),
        ]

    def __str__(self) -> str:
        # The kind's wording needs the policy's group (``seat_kind_label``): not worth a query per string.
        return f"{self.order}ª nomeação: {self.seat}ª vaga"

    def get_absolute_url(self) -> str:
        return reverse(
            "candidates:nomination_detail", args=[self.position.contest.slug, self.position_id, self.pk]
        )

    @property
    def seat_kind_label(self) -> str:
        """The seat's kind as every screen names it (``Reservada a negros e índios``)."""
        return kind_label(self.seat_kind, self.position.contest.policy.group_label)

    @property
    def holds_seat(self) -> bool:
        return self.status in self.HOLDING

    @property
    def publication_date(self):
        return self.gazette_date or self.act_date
