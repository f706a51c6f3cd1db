"""Result runs and their entries (a published run is frozen)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.timezone import localtime
from simple_history.models import HistoricalRecords

from candidates.models.registrations import Registration, score_field
from contests.models import Contest, Position
from contests.models.checks import ChecksInOneQuery


class ListName(models.TextChoices):
    """The classification lists (RULES §3): the general list and one per reserve."""

    OPEN = "open", "Ampla concorrência"
    RACIAL = "racial", "Reserva racial"
    PCD = "pcd", "Reserva para pessoas com deficiência"


PHASE_KINDS = ("phase_preliminary", "phase_final")


def _published_run_guard() -> Q:
    return Q(status="draft") | (Q(published_at__isnull=False) & ~Q(kind=""))


def _phase_kind_guard() -> Q:
    """A run after a phase is published as a phase's result, never as the contest's (nominations start
    from the contest's final result only)."""
    return (
        Q(kind="")
        | (Q(after_phase__isnull=True) & ~Q(kind__in=PHASE_KINDS))
        | (Q(after_phase__isnull=False) & Q(kind__in=PHASE_KINDS))
    )


class ResultRun(ChecksInOneQuery, models.Model):
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
        # The lists after a phase (who goes on to the next one, RULES §3), subject to appeal or definitive.
        PHASE_PRELIMINARY = "phase_preliminary", "Preliminar da fase"
        PHASE_FINAL = "phase_final", "Definitiva da fase"

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
    after_phase = models.ForeignKey(
        "candidates.Phase",
        verbose_name="após a fase",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="result_runs",
        help_text="As listas depois desta fase: quem passa para a fase seguinte (SM art. 4º §1º). Vazio: as listas "
        "finais, depois de todas as fases.",
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
            models.CheckConstraint(condition=_phase_kind_guard(), name="candidates_resultrun_phase_kind"),
        ]

    def __str__(self) -> str:
        # Named by what it is (``name``), in the history and the audit trail as on the screens.
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("candidates:result_detail", args=[self.contest.slug, self.pk])

    @property
    def name(self) -> str:
        """What the run is, in words, instead of its sequence number: "Resultado final publicado em
        30/11/2026", "Cálculo de 30/11/2026 14:05 (em revisão)"; a run of one position says which."""
        scope = f" ({self.position.code})" if self.position is not None else ""
        phase = self.after_phase.name if self.after_phase is not None else ""
        if self.published_at is not None:
            if phase:
                kind = "definitivo" if self.kind == self.Kind.PHASE_FINAL else "preliminar"
                return f"Resultado {kind} da fase {phase} publicado em {localtime(self.published_at):%d/%m/%Y}{scope}"
            kind = self.get_kind_display().lower() if self.kind else ""
            words = f"Resultado {kind} publicado" if kind else "Resultado publicado"
            return f"{words} em {localtime(self.published_at):%d/%m/%Y}{scope}"
        after = f" após a fase {phase}" if phase else ""
        return f"Cálculo{after} de {localtime(self.computed_at):%d/%m/%Y %H:%M} (em revisão){scope}"

    @classmethod
    def kind_for(cls, kind: str, *, after_phase: bool) -> str:
        """The kind a run is stored with: a run after a phase is a phase's result (preliminary or
        definitive), never the contest's, so nothing that looks for the final result finds it."""
        if not after_phase or kind in ("", *PHASE_KINDS):
            return kind
        return cls.Kind.PHASE_FINAL if kind == cls.Kind.FINAL else cls.Kind.PHASE_PRELIMINARY

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
    own (the run's history records who computed and who published). ``number`` is copied so a published
    list keeps showing what was published; ``name`` (and ``search_name``) is the person's name in effect,
    the one column that follows a later change of the civil or social name (``candidates.services.names``;
    the published PDF keeps the name it was published with).
    """

    class List(models.TextChoices):
        OPEN = "open", "Ampla concorrência"
        RACIAL = "racial", "Reserva racial"
        PCD = "pcd", "Reserva para pessoas com deficiência"
        OUT = "out", "Não classificado"

    # The composite index below serves lookups by run (and position); the run, position and registration
    # keys are those of rows read or written in the same transaction and are not re-checked by the database
    # row by row (tens of thousands per run: the position's and registration's checks took seconds, the
    # run's alone 0.7 s of the server's CPU at the commit of a run of 100,000); Django's PROTECT still
    # refuses deleting a position or registration that a run lists, and its CASCADE deletes a draft run's
    # lines with it (the only run deleted: a published one is frozen, the trigger below refuses).
    # The registration's lookups (its lines in every run: a name's change, the candidate's page, an act's
    # ranks) are served by the unique constraint, keyed by the registration first: a separate index of the
    # registration alone cost the COPY of a run of 100,000 lines 0.15 s of the server's CPU for nothing.
    run = models.ForeignKey(
        ResultRun,
        verbose_name="lista",
        on_delete=models.CASCADE,
        related_name="entries",
        db_index=False,
        db_constraint=False,
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
        db_index=False,
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
    search_name = models.CharField(
        "nome para busca",
        max_length=200,
        blank=True,
        editable=False,
        help_text="O nome em minúsculas e sem acentos (contests.text_search.fold), gravado com a linha: a busca "
        "do portal público encontra “Conceição” por “conceicao” em qualquer banco.",
    )
    why = models.TextField("por quê", blank=True)

    class Meta:
        verbose_name = "linha de lista de classificação"
        verbose_name_plural = "linhas de listas de classificação"
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "run", "list"], name="candidates_resultentry_once_per_list"
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
