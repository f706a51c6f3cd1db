"""Nominations and the engine-state snapshot per position (AllocationLedger)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse
from simple_history.models import HistoricalRecords

from candidates.engine.schedule import kind_label
from candidates.models.registrations import Registration
from candidates.models.results import ListName, ResultRun
from contests.models import Position
from contests.models.checks import ChecksInOneQuery


def nomination_name(nominee: str, seat: int) -> str:
    """ "Nomeação de Maria da Silva (vaga 3)": a nomination as every screen names it."""
    return f"Nomeação de {nominee} (vaga {seat})"


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


class Nomination(ChecksInOneQuery, models.Model):
    """A nomination act for one seat of a position, and what became of it (RULES §4)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Nomeação ativa (aguardando posse)"
        TOOK_OFFICE = "took_office", "Tomou posse"
        WITHDRAWN = "withdrawn", "Desistente"
        NO_SHOW = "no_show", "Não tomou posse (nomeação sem efeito)"
        ANNULLED = "annulled", "Nomeação anulada"
        END_OF_LIST = "end_of_list", "Foi para o fim da lista"
        ON_HOLD = "on_hold", "Vaga reservada por ordem judicial (sub judice)"

    # The nominee holds the seat; on hold: kept by a court order, not refilled (RULES §4 item 8).
    HOLDING = (Status.ACTIVE, Status.TOOK_OFFICE, Status.ON_HOLD)

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
        help_text="1ª, 2ª, … nomeação do cargo (Lei 15.142 art. 9º §2º, onde a política o adota).",
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
    reinstated = models.BooleanField(
        "reintegração",
        default=False,
        help_text="Vaga devida a candidato reintegrado por decisão revista, ou nomeação anulada e "
        "restabelecida (regra da política: próxima vaga ou própria vaga).",
    )
    displaced = models.BooleanField(
        "desfeita por restabelecimento",
        default=False,
        help_text="Anulada porque a nomeação anterior da mesma vaga foi restabelecida (regra da própria "
        "vaga); o nomeado recebe a próxima vaga.",
    )
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
    notified_email = models.BooleanField(
        "e-mail",
        default=False,
        help_text="Escolhido só para quem tem e-mail; enviado quando há data de envio.",
    )
    email_sent_at = models.DateTimeField("e-mail entregue ao servidor de envio em", null=True, blank=True)
    email_error = models.CharField("último erro do envio do e-mail", max_length=300, blank=True)
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
                condition=Q(status__in=["active", "took_office", "on_hold"]),
                name="candidates_nomination_one_holder_per_seat",
            ),
            models.UniqueConstraint(
                fields=["position", "registration"],
                condition=Q(status__in=["active", "took_office", "on_hold"]),
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
        # Named by its nominee, as breadcrumbs, titles, history and the audit trail show it. The
        # kind's wording needs the policy's group (``seat_kind_label``): not worth a query per string.
        return nomination_name(self.registration.candidate.display_name, self.seat)

    def get_absolute_url(self) -> str:
        return reverse(
            "candidates:nomination_detail", args=[self.position.contest.slug, self.position_id, self.pk]
        )

    @property
    def seat_kind_label(self) -> str:
        """The seat's kind as every screen names it (``Reservada a negros e índios``)."""
        return kind_label(self.seat_kind, self.position.contest.policy.group_label)

    @property
    def source_list_label(self) -> str:
        """The list the nominee was called from, in the same words as the seats (``Ampla concorrência``,
        ``Reservada a negros``, ``Reservada a pessoas com deficiência``)."""
        return kind_label(self.source_list, self.position.contest.policy.group_label)

    @property
    def holds_seat(self) -> bool:
        return self.status in self.HOLDING

    @property
    def publication_date(self):
        return self.gazette_date or self.act_date
