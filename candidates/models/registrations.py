"""People and registrations: Candidate, Registration, SelfDeclaration (made at registration)."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from candidates.engine import eligibility
from candidates.validators import format_cpf, mask_cpf, validate_cpf
from contests.models import Contest, Policy, Position
from contests.models.checks import ChecksInOneQuery

SCORE_MAX_DIGITS = 8
SCORE_DECIMAL_PLACES = 2


class ImportedHistory(HistoricalRecords):
    """The history of the models an import writes in bulk (hundreds of thousands of rows at a time): no
    database constraint on the user (Django still applies ``on_delete``) and no index on the date or the
    user. Every read of these histories is by object (``id``, or the registration of a score), ordered by
    date within it (the audit trail's count of registrations created scans, as it did); the rows of a user
    are looked up only when a user is deleted (a scan, rare). Each index costs an import one insertion per
    row: these two, ≈ 0.4 s of PostgreSQL's CPU for 100,000 registrations (768,000 insertions)."""

    def __init__(self, **kwargs):
        super().__init__(user_db_constraint=False, **kwargs)

    def get_extra_fields(self, model, fields):
        extra = super().get_extra_fields(model, fields)
        extra["history_date"].db_index = False
        return extra

    def _get_history_user_fields(self):  # django-simple-history 3.13's, pinned in requirements.txt
        fields = super()._get_history_user_fields()
        fields["history_user"].db_index = False
        return fields


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

    history = ImportedHistory()

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

    @property
    def cpf_masked(self) -> str:
        """The CPF as lists show it (LGPD): ``***.881.690-**``."""
        return mask_cpf(self.cpf)


class Registration(ChecksInOneQuery, models.Model):
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

    # No index of their own: the unique constraints below start with them. On PostgreSQL one foreign key
    # holds both, (position, contest) -> the position's (id, contest) (migration 0029): the position exists
    # and is the contest's, the contest exists through the position's own key; an import checks it once per
    # row rather than twice (100,000 checks fewer, ≈ 0.4 s of PostgreSQL's CPU for 100,000 rows).
    contest = models.ForeignKey(
        Contest,
        verbose_name="concurso",
        on_delete=models.PROTECT,
        related_name="registrations",
        db_index=False,
        db_constraint=False,
    )
    position = models.ForeignKey(
        Position,
        verbose_name="cargo",
        on_delete=models.PROTECT,
        related_name="registrations",
        db_index=False,
        db_constraint=False,
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
    access_code_version = models.PositiveSmallIntegerField(
        "versão do código de acesso",
        default=1,
        help_text="O código de acesso do candidato à sua página pública é calculado a partir da inscrição e "
        "desta versão (nunca é guardado); a reemissão soma 1 e o código anterior deixa de valer.",
    )

    # Imports write their history rows in bulk (COPY): no index on the foreign keys either (history is read
    # by registration id).
    history = ImportedHistory(no_db_index=["contest", "position", "candidate"])

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
        refusal = eligibility.preferred_reserve_refusal(
            self.preferred_reserve,
            chosen=eligibility.reserves_chosen(racial=self.racial_reserve, pcd=self.pcd_reserve),
        )
        if refusal:
            errors["preferred_reserve"] = refusal
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
        help_text="Obrigatória quando a Secretaria corrige um erro de digitação; fica no histórico.",
    )

    history = ImportedHistory(no_db_index=["registration"])

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

    def clean(self) -> None:
        # An active declaration names a category the contest's policy accepts; one given up or
        # corrected keeps what it said.
        if self.is_active and self.registration_id:
            refusal = self.check_category(self.registration.contest.policy)
            if refusal:
                raise ValidationError({"category": refusal})

    def check_category(self, policy: Policy) -> str | None:
        """Why the category is not one ``policy`` accepts, or None (``eligibility.category_refusal``)."""
        return category_refusal_for(self.category, policy)


def category_refusal_for(category: str, policy: Policy) -> str | None:
    """``eligibility.category_refusal`` for a policy row (its groups, the labels of ``Policy.Group``)."""
    return eligibility.category_refusal(
        category, groups=policy.beneficiary_groups or [], labels=dict(Policy.Group.choices)
    )
