"""EditalText (what the clerk writes in the edital) and Document (a published version: immutable)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from contests.models.checks import ChecksInOneQuery

IMMUTABLE = (
    "Um documento publicado não se altera nem se exclui: corrija-o por retificação (nova versão que aponta "
    "para a anterior)."
)


# The edital's own sections Secretaria writes (the edital's form and ``services.edital_text_save``): here,
# beside the model, so that the form needs no import of the services (nor of the signing's libraries).
EDITAL_FIELDS = (
    "preamble_extra",
    "requirements",
    "registration_rules",
    "exam_content",
    "other_rules",
    "schedule",
    "uses_heteroidentification",
    "signer_name",
    "signer_office",
)


class EditalText(models.Model):
    """The sections of the edital the clerk writes; everything else is generated from the contest's data."""

    contest = models.OneToOneField(
        "contests.Contest", verbose_name="concurso", on_delete=models.CASCADE, related_name="edital_text"
    )
    preamble_extra = models.TextField(
        "complemento do preâmbulo",
        blank=True,
        help_text="Autoridade que assina, atos que autorizam o concurso, entidade realizadora.",
    )
    requirements = models.TextField(
        "requisitos e condições de investidura",
        blank=True,
        help_text="Os requisitos de cada cargo já saem do cadastro do cargo; aqui, as condições gerais.",
    )
    registration_rules = models.TextField(
        "das inscrições", blank=True, help_text="Local, forma, taxa, isenção."
    )
    exam_content = models.TextField("das provas e do conteúdo programático", blank=True)
    other_rules = models.TextField("disposições gerais", blank=True)
    schedule = models.TextField(
        "cronograma",
        blank=True,
        help_text="Um evento por linha: “DD/MM/AAAA – evento” ou “DD/MM/AAAA a DD/MM/AAAA – evento”.",
    )
    uses_heteroidentification = models.BooleanField(
        "o concurso tem comissão de heteroidentificação",
        default=False,
        help_text="Nenhuma das leis fundadoras a exige; o STF a admitiu com contraditório (ADC 41).",
    )
    signer_name = models.CharField("quem assina", max_length=200, blank=True)
    signer_office = models.CharField("cargo de quem assina", max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "texto do edital"
        verbose_name_plural = "textos do edital"

    def __str__(self) -> str:
        return f"Texto do edital de {self.contest}"

    def written_sections(self) -> list[tuple[str, str]]:
        """(label, text) of what the clerk wrote, in the order of the edital."""
        return [
            ("Preâmbulo", self.preamble_extra),
            ("Requisitos", self.requirements),
            ("Inscrições", self.registration_rules),
            ("Provas", self.exam_content),
            ("Disposições gerais", self.other_rules),
        ]


class Document(ChecksInOneQuery, models.Model):
    """A published version of an act, as the PDF that was published: immutable, hashed, verifiable.

    The versions of one act share ``contest``, ``kind`` and ``subject``; a rectification is a new version
    pointing to the previous one, with a summary of what changed. No history table: a row is written once
    and records who published it and when (a history would only copy the PDF).
    """

    class Kind(models.TextChoices):
        EDITAL = "edital", "Edital de abertura"
        RESULT_LIST = "result_list", "Lista de classificação"
        NOMINATION_ACT = "nomination_act", "Ato de nomeação"
        # The procedure on a self-declaration. Its acts name the candidate and carry procedure
        # content: restricted (see RESTRICTED_KINDS). The act that ends it is public (RULES §7).
        PROCEDURE_ACT = "procedure_act", "Ato de processo administrativo"
        PROCEDURE_EFFECTS = "procedure_effects", "Ato de eliminação ou anulação (processo administrativo)"
        # The protocol receipt of a candidate's filing in a procedure: restricted like the acts; not signed
        # by a person (the system records the receipt; the document is sealed and verifiable).
        FILING_RECEIPT = "filing_receipt", "Recibo de protocolo (processo administrativo)"
        # Heteroidentification: the draw, the calls and the confirmed list are public; the minutes
        # carry opinions and are restricted.
        HETERO_DRAW = "hetero_draw", "Sorteio da comissão de heteroidentificação"
        HETERO_CALL = "hetero_call", "Convocação para heteroidentificação"
        HETERO_RESULT = "hetero_result", "Resultado da heteroidentificação"
        HETERO_MINUTES = "hetero_minutes", "Ata de sessão de heteroidentificação"
        # The law's own reports (issue 23): of a policy, not of a contest; aggregates only, public.
        LAW_REPORT = "law_report", "Relatório da lei (acompanhamento da política)"

    contest = models.ForeignKey(
        "contests.Contest",
        verbose_name="concurso",
        on_delete=models.PROTECT,
        related_name="documents",
        null=True,
        blank=True,
    )
    policy = models.ForeignKey(
        "contests.Policy",
        verbose_name="política (lei)",
        on_delete=models.PROTECT,
        related_name="documents",
        null=True,
        blank=True,
        help_text="Só nos atos da própria lei (relatórios), que não são de um concurso.",
    )
    kind = models.CharField("espécie", max_length=20, choices=Kind.choices)
    subject = models.CharField(
        "objeto",
        max_length=80,
        blank=True,
        help_text="Identifica o ato entre os da mesma espécie (ex.: a lista de um resultado).",
    )
    title = models.CharField("título", max_length=300)
    number = models.CharField(
        "número do edital",
        max_length=40,
        blank=True,
        help_text="O número do edital que o ato é, na numeração da organização (ex.: 3/2026 para “Edital nº "
        "3/2026 – Resultado preliminar”); vazio para os atos que se numeram de outro modo.",
    )
    version = models.PositiveSmallIntegerField("versão", default=1)
    previous = models.OneToOneField(
        "self",
        verbose_name="versão retificada",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rectification",
    )
    rectification_summary = models.TextField("o que a retificação altera", blank=True)
    pdf = models.BinaryField("PDF")
    sha256 = models.CharField("SHA-256", max_length=64, unique=True)
    code = models.CharField("código de verificação", max_length=12, unique=True)
    published_at = models.DateTimeField("publicado em")
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="publicado por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    gazette_edition = models.CharField("edição do diário oficial", max_length=120, blank=True)
    gazette_page = models.CharField("página do diário oficial", max_length=20, blank=True)
    signer_name = models.CharField("assinado por", max_length=200)
    signer_office = models.CharField("cargo de quem assina", max_length=200)
    signed = models.BooleanField("assinatura digital (PAdES)", default=False)
    signature_subject = models.CharField("titular do certificado", max_length=300, blank=True)
    pages = models.PositiveIntegerField("páginas", default=0)

    class Meta:
        verbose_name = "documento publicado"
        verbose_name_plural = "documentos publicados"
        permissions = [("publish_document", "Pode publicar documentos (edital, listas, atos)")]
        constraints = [
            models.UniqueConstraint(
                fields=["contest", "kind", "subject", "version"], name="contests_document_unique_version"
            ),
            models.UniqueConstraint(
                fields=["policy", "kind", "subject", "version"],
                condition=Q(contest__isnull=True),
                name="contests_document_policy_unique_version",
            ),
            models.CheckConstraint(
                condition=Q(contest__isnull=False, policy__isnull=True)
                | Q(contest__isnull=True, policy__isnull=False),
                name="contests_document_of_a_contest_or_a_policy",
            ),
            models.CheckConstraint(
                condition=(Q(version=1) & Q(previous__isnull=True))
                | (Q(version__gt=1) & Q(previous__isnull=False) & ~Q(rectification_summary="")),
                name="contests_document_rectification_points_back",
                violation_error_message="Uma retificação aponta para a versão anterior e resume o que altera.",
            ),
        ]

    def __str__(self) -> str:
        suffix = f" (retificação {self.version - 1})" if self.version > 1 else ""
        return f"{self.title}{suffix}"

    def save(self, *args: object, **kwargs: object) -> None:
        # Integrity, not business logic: a published version is written once (a database trigger refuses
        # the same, also for a shell or a queryset update).
        if not self._state.adding:
            raise ValidationError(IMMUTABLE)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("public:verify", args=[self.code])

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValidationError(IMMUTABLE)

    def versions(self) -> models.QuerySet[Document]:
        return Document.objects.filter(
            contest=self.contest_id, policy=self.policy_id, kind=self.kind, subject=self.subject
        ).order_by("version")

    @property
    def is_current(self) -> bool:
        return not Document.objects.filter(previous=self).exists()


# Kinds whose PDF carries what LGPD protects (procedure content, opinions): never listed on the public site;
# /verificar/ confirms that such a document is authentic (kind, date, hash) but never shows its title or
# serves its PDF to the public. Every other kind is a public act.
RESTRICTED_KINDS = frozenset(
    {Document.Kind.PROCEDURE_ACT, Document.Kind.FILING_RECEIPT, Document.Kind.HETERO_MINUTES}
)
