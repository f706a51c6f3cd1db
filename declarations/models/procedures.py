"""Procedure (the case on a suspected false self-declaration), its acts, their attachments, and the private
links through which the candidate and their representative take part without an account (RULES §5)."""

from __future__ import annotations

import datetime
from dataclasses import asdict

from django.conf import settings
from django.core.files.storage import Storage, storages
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from simple_history.models import HistoricalRecords

from candidates.models import Registration
from declarations.models.law import ProcedureLaw
from declarations.models.links import PrivateLink
from declarations.procedure import appeals, notices, rules
from declarations.procedure import rules_labels as labels


def procedure_storage() -> Storage:
    """The private storage (outside MEDIA_ROOT, never served by URL): only a permission-checked view reads it."""
    return storages["procedures"]


def policy_snapshot(law: ProcedureLaw) -> dict:
    """The procedure parameters of the policy's law at the opening, kept on the case (a later change of the
    policy does not change the deadlines of a running case)."""
    return asdict(
        rules.Policy(
            defence_days=law.defence_days,
            final_statement_days=law.final_statement_days,
            decision_days=law.decision_days,
            decision_extension_days=law.decision_extension_days,
            appeal_days=law.appeal_days,
            reconsideration_days=law.reconsideration_days,
            appeal_decision_days=law.appeal_decision_days,
            hearing_notice_business_days=law.evidence_notice_business_days,
            appeal_instances=law.appeal_instances,
            effects_from_first_decision=law.falsity_effect == ProcedureLaw.FalsityEffect.FIRST_DECISION,
            electronic_notice_basis=law.electronic_notice_basis,
            tacit_acknowledgement_days=law.tacit_acknowledgement_days,
        )
    )


# The pure module's enums, with their Portuguese labels, as field choices.
KIND_CHOICES = [(a.value, labels.ACT_LABELS[a]) for a in rules.Act]
OUTCOME_CHOICES = [(o.value, labels.OUTCOME_LABELS[o]) for o in rules.Outcome]
MEANS_CHOICES = [(m.value, labels.MEANS_LABELS[m]) for m in notices.Means]
STANDING_CHOICES = [(s.value, appeals.STANDING_LABELS[s]) for s in appeals.Standing]
GROUND_CHOICES = [(g.value, appeals.GROUND_LABELS[g]) for g in appeals.Ground]


class ProcedureCounter(models.Model):
    """The last procedure number of a year: its row is locked (select_for_update) while a number is taken,
    so two clerks opening at once get consecutive numbers (the unique constraint on Procedure backs it)."""

    year = models.PositiveSmallIntegerField("ano", primary_key=True)
    last = models.PositiveIntegerField("último número", default=0)

    class Meta:
        verbose_name = "numeração de processos"
        verbose_name_plural = "numeração de processos"

    def __str__(self) -> str:
        return f"{self.year}: {self.last}"


class Procedure(models.Model):
    """A procedure on a suspected false self-declaration (SM art. 3º §3º, AR art. 2º; Lei 9.784)."""

    class Origin(models.TextChoices):
        COMPLAINT = "complaint", "Denúncia"
        EX_OFFICIO = "ex_officio", "De ofício"
        COMMISSION = "commission", "Não confirmação pela comissão de heteroidentificação"

    class Status(models.TextChoices):
        OPEN = "open", "Em andamento"
        DECIDED = "decided", "Decidido (sujeito a recurso)"
        CLOSED = "closed", "Encerrado"

    year = models.PositiveSmallIntegerField("ano")
    number = models.PositiveIntegerField("número", help_text="Sequencial no ano, dado pelo banco de dados.")
    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="procedures"
    )
    origin = models.CharField("origem", max_length=20, choices=Origin.choices)
    complainant = models.TextField(
        "denunciante",
        blank=True,
        help_text="Identidade e contato do denunciante: nunca mostrados ao candidato (LGPD; Lei 9.784 art. 46).",
    )
    facts = models.TextField("fatos", help_text="Os fatos que motivam a instauração (Lei 9.784 art. 6º III).")
    parameters = models.JSONField(
        "prazos e regras",
        default=dict,
        help_text="Prazos da política vigente na instauração (Lei 9.784 arts. 24, 44, 49, 56, 57, 59).",
    )
    status = models.CharField("situação", max_length=10, choices=Status.choices, default=Status.OPEN)
    outcome = models.CharField(
        "resultado vigente",
        max_length=10,
        blank=True,
        choices=OUTCOME_CHOICES,
    )
    effects_applied_on = models.DateField("efeitos aplicados em", null=True, blank=True)
    effects_previous_status = models.CharField(
        "situação da inscrição antes dos efeitos",
        max_length=30,
        blank=True,
        help_text="Para desfazer os efeitos se uma decisão posterior julgar improcedente (Lei 9.784 arts. 61 e 64).",
    )
    prosecutor_referral = models.TextField(
        "encaminhamento ao Ministério Público",
        blank=True,
        help_text="Ofício, data e destinatário (declaração falsa pode ser crime, CP art. 299).",
    )
    opened_on = models.DateField("instaurado em")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="instaurado por", on_delete=models.PROTECT, related_name="+"
    )
    form_token = models.CharField(
        "identificador do envio",
        max_length=64,
        blank=True,
        editable=False,
        help_text="Gerado com o formulário de instauração: o mesmo envio repetido não instaura outro processo.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "processo administrativo"
        verbose_name_plural = "processos administrativos"
        permissions = [
            ("conduct_procedure", "Pode conduzir processos administrativos (atos, intimações, decisões)"),
            ("view_procedure_status", "Pode ver a situação dos processos de uma inscrição"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["year", "number"], name="declarations_procedure_unique_number_per_year"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="declarations_procedure_number_positive"),
            # One procedure in progress per registration and cause: six "Instaurar" at once opened six.
            models.UniqueConstraint(
                fields=["registration", "origin"],
                condition=~Q(status="closed"),
                name="declarations_procedure_one_open_per_registration_and_origin",
            ),
            models.UniqueConstraint(
                fields=["form_token"],
                condition=~Q(form_token=""),
                name="declarations_procedure_one_per_form_token",
            ),
        ]

    def __str__(self) -> str:
        return f"PA nº {self.number}/{self.year}"

    def get_absolute_url(self) -> str:
        return reverse("declarations:detail", args=[self.year, self.number])

    @property
    def policy(self) -> rules.Policy:
        return rules.Policy(**self.parameters)


class ProcedureAct(models.Model):
    """One act of the procedure: who, when, the text, and the deadline it starts (procedure.STARTS)."""

    class Delivery(models.TextChoices):
        NONE = "", "—"
        QUEUED = "queued", "Na fila de envio"
        SENT = "sent", "Enviada"
        FAILED = "failed", "Falhou (nova tentativa agendada)"
        PRINTED = "printed", "Carta impressa (aguarda o aviso de recebimento)"

    procedure = models.ForeignKey(
        Procedure, verbose_name="processo", on_delete=models.PROTECT, related_name="acts"
    )
    kind = models.CharField("ato", max_length=30, choices=KIND_CHOICES)
    on = models.DateField(
        "data",
        null=True,
        blank=True,
        help_text="Para uma intimação, o dia em que produziu efeito (ciência, recebimento, publicação; Lei "
        "9.784 art. 26): vazia enquanto a aguarda; o prazo conta a partir dela (art. 66).",
    )
    recorded_at = models.DateTimeField("registrado em", auto_now_add=True)
    issued_on = models.DateField(
        "expedida em",
        null=True,
        blank=True,
        help_text="Para uma intimação, o dia em que foi expedida (enviada, entregue ou remetida à publicação): "
        "a data em que produz efeito nunca é anterior a ela (Lei 9.784 art. 26).",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="registrado por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    filed_by = models.CharField(
        "apresentado por",
        max_length=200,
        blank=True,
        help_text="O candidato ou seu procurador (Lei 9.784 art. 3º IV).",
    )
    text = models.TextField("texto", blank=True)
    outcome = models.CharField("resultado", max_length=10, blank=True, choices=OUTCOME_CHOICES)
    # Notices (art. 26).
    means = models.CharField("meio", max_length=10, blank=True, choices=MEANS_CHOICES)
    recipient = models.EmailField("destinatário", blank=True)
    gazette_edition = models.CharField("edição do diário oficial", max_length=60, blank=True)
    gazette_page = models.CharField("página", max_length=20, blank=True)
    delivery = models.CharField("entrega da mensagem", max_length=10, blank=True, choices=Delivery.choices)
    delivered_at = models.DateTimeField("entregue ao servidor de e-mail em", null=True, blank=True)
    delivery_attempts = models.PositiveSmallIntegerField("tentativas de envio", default=0)
    delivery_error = models.TextField("último erro de envio", blank=True)
    # Hearings (art. 41).
    hearing_on = models.DateField("data da audiência", null=True, blank=True)
    # Who signs a deciding act: the authority chosen on its form among the organisation's (empty: the one
    # the organisation designates for the kind of act, ``contests.Signatory``).
    authority = models.ForeignKey(
        "contests.Authority",
        verbose_name="autoridade que decide e assina",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    hearing_time = models.TimeField("hora da audiência", null=True, blank=True)
    hearing_place = models.CharField(
        "local da audiência",
        max_length=200,
        blank=True,
        help_text="Da audiência ou da diligência: a intimação menciona data, hora e local (Lei 9.784 art. 41).",
    )
    # Appeals (arts. 58 and 63).
    standing = models.CharField(
        "legitimidade do recorrente",
        max_length=20,
        blank=True,
        choices=STANDING_CHOICES,
        help_text="Quem recorre (Lei 9.784 art. 58): vazio, o próprio candidato.",
    )
    ground = models.CharField(
        "motivo do não conhecimento",
        max_length=20,
        blank=True,
        choices=GROUND_CHOICES,
        help_text="Lei 9.784 art. 63, I a IV.",
    )
    # The act's document as published (PDF, hashed, verifiable; restricted kind: never on the public site).
    document = models.OneToOneField(
        "contests.Document",
        verbose_name="documento",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="procedure_act",
        help_text="Portaria, intimação, decisão ou certidão em PDF, publicada como documento restrito.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "ato do processo"
        verbose_name_plural = "atos do processo"
        indexes = [models.Index(fields=["procedure", "recorded_at"], name="declarations_act_timeline")]

    def __str__(self) -> str:
        return f"{self.procedure}: {self.get_kind_display()}"

    def record(self) -> rules.ActRecord:
        return rules.ActRecord(
            rules.Act(self.kind),
            self.on,
            rules.Outcome(self.outcome) if self.outcome else None,
            third_party=appeals.is_third_party(self.standing),
        )

    @property
    def is_notice(self) -> bool:
        return rules.Act(self.kind) in rules.NOTICES

    @property
    def issued_day(self) -> datetime.date:
        """The day a notice was issued (recorded, for a notice issued before the day was kept)."""
        return self.issued_on or timezone.localdate(self.recorded_at)

    @property
    def has_document(self) -> bool:
        return rules.Act(self.kind) in rules.DOCUMENTED_ACTS


# The extension of each content type an attachment may have (its type is found in its content).
EXTENSIONS = {"application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp"}


class Attachment(models.Model):
    """A file joined to an act: PDF or image (checked by content), hashed, kept in private storage."""

    act = models.ForeignKey(
        ProcedureAct, verbose_name="ato", on_delete=models.PROTECT, related_name="attachments"
    )
    file = models.FileField("arquivo", storage=procedure_storage, upload_to="%Y/%m/")
    name = models.CharField("nome original", max_length=200)
    content_type = models.CharField("tipo", max_length=40)
    size = models.PositiveIntegerField("tamanho (bytes)")
    sha256 = models.CharField("SHA-256", max_length=64)
    protected = models.BooleanField(
        "contém dados protegidos de terceiros",
        default=False,
        help_text="Não é mostrado ao candidato (Lei 9.784 art. 46: ressalvados dados de terceiros).",
    )
    uploaded_at = models.DateTimeField("enviado em", auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "anexo"
        verbose_name_plural = "anexos"

    def __str__(self) -> str:
        return self.name

    @property
    def download_name(self) -> str:
        """The original name with the extension of the type found in its content, never the one typed: a
        PDF/HTML polyglot uploaded as ``prova.html`` downloads as ``prova.pdf``."""
        stem = self.name.rsplit(".", 1)[0] if "." in self.name else self.name
        return f"{stem or 'arquivo'}{EXTENSIONS.get(self.content_type, '')}"


class ProcedureLink(PrivateLink):
    """A private link to a procedure for the candidate or their representative (``PrivateLink``)."""

    class Holder(models.TextChoices):
        CANDIDATE = "candidate", "Candidato"
        REPRESENTATIVE = "representative", "Procurador"

    procedure = models.ForeignKey(
        Procedure, verbose_name="processo", on_delete=models.PROTECT, related_name="links"
    )
    holder = models.CharField("titular", max_length=20, choices=Holder.choices)
    power_of_attorney = models.ForeignKey(
        Attachment,
        verbose_name="procuração",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Lei 9.784 art. 3º IV.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "link privado"
        verbose_name_plural = "links privados"

    def __str__(self) -> str:
        return f"{self.procedure}: {self.get_holder_display()} {self.name}"
