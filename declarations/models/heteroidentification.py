"""Heteroidentification (RULES §5): a contest's commissions and their members, the auditable draw of members,
the sessions candidates are called to, one verification per called registration, the members' reasoned
opinions, and the candidate's appeal. The rules live in ``declarations.hetero.rules`` and
``declarations.hetero.draw`` (pure); these rows keep what happened, with history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from simple_history.models import HistoricalRecords

from candidates.models import Registration
from contests.models import Contest
from declarations.hetero import rules
from declarations.models.links import PrivateLink
from declarations.models.procedures import Procedure, procedure_storage

KIND_CHOICES = [(k.value, rules.KIND_LABELS[k].capitalize()) for k in rules.Kind]
BASIS_CHOICES = [
    (rules.Basis.PHENOTYPE.value, "Fenótipo"),
    (rules.Basis.COMMUNITY.value, "Pertencimento (documentos)"),
]
OUTCOME_CHOICES = [(o.value, rules.OUTCOME_LABELS[o]) for o in rules.Outcome]
CONSEQUENCE_CHOICES = [(c.value, rules.CONSEQUENCE_LABELS[c]) for c in rules.Consequence]


class Commission(models.Model):
    """A contest's heteroidentification commission (first instance) or its appeal commission."""

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.PROTECT, related_name="commissions"
    )
    kind = models.CharField("tipo", max_length=10, choices=KIND_CHOICES)
    size = models.PositiveSmallIntegerField(
        "número de membros",
        help_text="Padrão: 5 na comissão de heteroidentificação, 3 na recursal, conforme a política.",
    )
    formed_on = models.DateField("constituída em")
    act_reference = models.CharField(
        "ato de designação", max_length=200, blank=True, help_text="Portaria ou ato que designa os membros."
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "comissão de heteroidentificação"
        verbose_name_plural = "comissões de heteroidentificação"
        permissions = [
            (
                "manage_heteroidentification",
                "Pode constituir comissões, sortear, convocar e aplicar resultados",
            ),
            ("view_heteroidentification_status", "Pode ver a situação da heteroidentificação das inscrições"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["contest", "kind"], name="declarations_commission_one_per_kind"),
            models.CheckConstraint(condition=Q(size__gte=1), name="declarations_commission_size_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.contest}"


class CommissionMember(models.Model):
    """A member: who they are (for the diversity check) and their signed declaration of no conflict of
    interest with the candidates called."""

    commission = models.ForeignKey(
        Commission, verbose_name="comissão", on_delete=models.CASCADE, related_name="members"
    )
    name = models.CharField("nome", max_length=200)
    office = models.CharField("cargo ou função", max_length=200)
    gender = models.CharField("gênero", max_length=40)
    colour = models.CharField("cor ou raça autodeclarada", max_length=40)
    email = models.EmailField(
        "e-mail",
        blank=True,
        help_text="Para o link com que o membro define a própria senha; sem e-mail, o código de primeiro "
        "acesso é impresso e entregue em mãos.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="conta de acesso",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="commission_seats",
        help_text="Conta do papel Comissão com que o membro registra os próprios pareceres.",
    )
    no_conflict_file = models.FileField(
        "declaração de ausência de conflito de interesses",
        storage=procedure_storage,
        upload_to="comissoes/%Y/",
        blank=True,
    )
    no_conflict_signed_on = models.DateField("declaração assinada em", null=True, blank=True)
    access_notice = models.CharField(
        "entrega do acesso",
        max_length=300,
        blank=True,
        help_text="Como e quando o membro recebeu o link ou o código de primeiro acesso.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "membro de comissão"
        verbose_name_plural = "membros de comissão"
        constraints = [
            models.UniqueConstraint(
                fields=["commission", "user"], name="declarations_member_one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.office})"

    @property
    def key(self) -> str:
        """The same person in two commissions, by name (spaces and case ignored); accounts are compared too."""
        return " ".join(self.name.split()).casefold()

    def as_rule(self) -> rules.Member:
        return rules.Member(key=self.key, name=self.name, gender=self.gender, colour=self.colour)


class DrawAnnouncement(models.Model):
    """The public notice of a draw, recorded and published BEFORE any seed is accepted: the pool of eligible
    members, how many are drawn (k) and the seed's public source, with the date from which the seed is known.
    The pool and k never change; a new notice replaces this one only while no draw was performed (and, from
    the day its seed is known, only by a reasoned act: ``replacement_reason`` on the new notice), and the
    replaced one stays on record (``replaced_at``; the chain by ``replaces``)."""

    contest = models.ForeignKey(
        Contest, verbose_name="concurso", on_delete=models.PROTECT, related_name="draw_announcements"
    )
    kind = models.CharField("comissão", max_length=10, choices=KIND_CHOICES)
    pool = models.JSONField(
        "lista de sorteáveis",
        help_text="Na ordem publicada: nome, cargo, gênero, cor e conta de acesso de cada membro.",
    )
    pool_digest = models.CharField("resumo SHA-256 da lista", max_length=64)
    k = models.PositiveSmallIntegerField("número de sorteados")
    algorithm = models.CharField("algoritmo", max_length=40)
    seed_source = models.CharField(
        "fonte pública da semente",
        max_length=500,
        help_text="Ex.: resultado do concurso nº 2950 da Mega-Sena, de 05/12/2026.",
    )
    seed_known_on = models.DateField("semente conhecida a partir de")
    announced_at = models.DateTimeField("anunciado em")
    announced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="anunciado por", on_delete=models.PROTECT, related_name="+"
    )
    replaced_at = models.DateTimeField("substituído em", null=True, blank=True)
    replaces = models.OneToOneField(
        "self",
        verbose_name="aviso substituído",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
    )
    replacement_reason = models.TextField(
        "motivo da substituição",
        blank=True,
        help_text="Obrigatório quando a semente do aviso substituído já era conhecida: consta do registro "
        "do sorteio.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "aviso de sorteio"
        verbose_name_plural = "avisos de sorteio"

    def __str__(self) -> str:
        return f"Aviso de sorteio de {self.k} ({self.get_kind_display()}, {self.contest})"

    @property
    def names(self) -> list[str]:
        return [entry["name"] for entry in self.pool]

    @property
    def subject(self) -> str:
        """The published notice's subject in the documents pipeline."""
        return f"draw-announcement-{self.pk}"


class MemberDraw(models.Model):
    """The published record of a draw of members (declarations/hetero/draw.py): anyone can recompute it."""

    commission = models.ForeignKey(
        Commission, verbose_name="comissão", on_delete=models.PROTECT, related_name="draws"
    )
    seed = models.TextField("semente pública", help_text="Fixada e publicada antes do sorteio.")
    pool = models.JSONField("lista de sorteáveis", help_text="Na ordem publicada.")
    pool_digest = models.CharField("resumo SHA-256 da lista", max_length=64)
    k = models.PositiveSmallIntegerField("número de sorteados")
    algorithm = models.CharField("algoritmo", max_length=40)
    result = models.JSONField(
        "classificação", help_text="Todos, sorteados primeiro; os seguintes são suplentes."
    )
    drawn_at = models.DateTimeField("sorteado em")
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name="sorteado por", on_delete=models.PROTECT, related_name="+"
    )
    announcement = models.OneToOneField(
        DrawAnnouncement,
        verbose_name="aviso de sorteio",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="draw",
        help_text="O aviso publicado antes do sorteio, com a lista, o número de sorteados e a fonte da semente.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "sorteio de membros"
        verbose_name_plural = "sorteios de membros"

    def __str__(self) -> str:
        return f"Sorteio de {self.k} ({self.commission})"

    @property
    def drawn(self) -> list[str]:
        return list(self.result[: self.k])


class Session(models.Model):
    """A session of a commission, in person or by video, to which candidates are called."""

    commission = models.ForeignKey(
        Commission, verbose_name="comissão", on_delete=models.PROTECT, related_name="sessions"
    )
    starts_at = models.DateTimeField("data e hora")
    place = models.CharField("local", max_length=300, blank=True)
    video_link = models.URLField("link da videoconferência", blank=True)
    recording_reference = models.CharField("referência da gravação", max_length=300, blank=True)
    recording_sha256 = models.CharField("SHA-256 da gravação", max_length=64, blank=True)
    present = models.ManyToManyField(
        CommissionMember, verbose_name="membros presentes", related_name="sessions_attended", blank=True
    )
    closed_at = models.DateTimeField("encerrada em", null=True, blank=True)

    history = HistoricalRecords(m2m_fields=[present])

    class Meta:
        verbose_name = "sessão de heteroidentificação"
        verbose_name_plural = "sessões de heteroidentificação"
        permissions = [("record_opinion", "Pode registrar o próprio parecer nas sessões da sua comissão")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(place="") | ~Q(video_link=""), name="declarations_session_place_or_video"
            ),
        ]

    def __str__(self) -> str:
        return f"Sessão de {timezone.localtime(self.starts_at):%d/%m/%Y %H:%M} ({self.commission.get_kind_display()})"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class Verification(models.Model):
    """One called registration in one session: attendance, the computed result and its consequence."""

    session = models.ForeignKey(
        Session, verbose_name="sessão", on_delete=models.PROTECT, related_name="verifications"
    )
    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="verifications"
    )
    basis = models.CharField("o que se verifica", max_length=10, choices=BASIS_CHOICES)
    attended = models.BooleanField("compareceu", null=True, blank=True)
    outcome = models.CharField("resultado", max_length=20, choices=OUTCOME_CHOICES, blank=True)
    explanation = models.TextField("apuração", blank=True)
    confirming = models.PositiveSmallIntegerField("pareceres que confirmam", null=True, blank=True)
    not_confirming = models.PositiveSmallIntegerField("pareceres que não confirmam", null=True, blank=True)
    notified_on = models.DateField("candidato comunicado em", null=True, blank=True)
    appeal_deadline = models.DateField("prazo de recurso até", null=True, blank=True)
    consequence = models.CharField("consequência", max_length=20, choices=CONSEQUENCE_CHOICES, blank=True)
    consequence_applied_on = models.DateField("consequência aplicada em", null=True, blank=True)
    notice = models.CharField(
        "comunicação individual do resultado",
        max_length=300,
        blank=True,
        help_text="Como e quando o candidato não confirmado foi comunicado (e-mail com link privado).",
    )
    procedure = models.ForeignKey(
        Procedure,
        verbose_name="processo aberto",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="verifications",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "verificação de autodeclaração"
        verbose_name_plural = "verificações de autodeclaração"
        constraints = [
            models.UniqueConstraint(
                fields=["session", "registration"], name="declarations_verification_once_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration.number} em {self.session}"


class Opinion(models.Model):
    """A member's reasoned opinion: phenotype only (pretos, pardos) or community documents (indígenas)."""

    verification = models.ForeignKey(
        Verification, verbose_name="verificação", on_delete=models.PROTECT, related_name="opinions"
    )
    member = models.ForeignKey(
        CommissionMember, verbose_name="membro", on_delete=models.PROTECT, related_name="opinions"
    )
    confirms = models.BooleanField("confirma a autodeclaração")
    reasons = models.TextField("fundamentação")

    history = HistoricalRecords()

    class Meta:
        verbose_name = "parecer"
        verbose_name_plural = "pareceres"
        constraints = [
            models.UniqueConstraint(
                fields=["verification", "member"], name="declarations_opinion_one_per_member"
            ),
        ]

    def __str__(self) -> str:
        return f"Parecer de {self.member.name}"


class Appeal(models.Model):
    """The candidate's appeal against a non-confirmation, judged by the appeal commission."""

    verification = models.OneToOneField(
        Verification, verbose_name="verificação recorrida", on_delete=models.PROTECT, related_name="appeal"
    )
    reasons = models.TextField("razões do recurso")
    filed_at = models.DateTimeField("interposto em")
    judged_in = models.OneToOneField(
        Verification,
        verbose_name="verificação na comissão recursal",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="appeal_judged",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "recurso da heteroidentificação"
        verbose_name_plural = "recursos da heteroidentificação"

    def __str__(self) -> str:
        return f"Recurso de {self.verification.registration.number}"


class VerificationLink(PrivateLink):
    """The candidate's private link to their heteroidentification result, where they read it and file the
    appeal (``PrivateLink``, the procedure's mechanism)."""

    verification = models.ForeignKey(
        Verification, verbose_name="verificação", on_delete=models.PROTECT, related_name="links"
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "link privado da heteroidentificação"
        verbose_name_plural = "links privados da heteroidentificação"

    def __str__(self) -> str:
        return f"Link de {self.name} ({self.verification.registration.number})"
