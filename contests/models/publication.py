"""Publication: one line per change the public sees (an edital, a list, a nomination act, vacancies opened…)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.timezone import localtime

APPEND_ONLY = "Uma publicação registrada não se altera nem se exclui: registre uma nova."


class Publication(models.Model):
    """A change the public sees, as one line: what kind of act, a short title, where the public sees it,
    when and by whom. Written only by ``contests.publication.publication_record`` (which also moves the
    public pages' cache on); append-only, with no history of its own: the row is the record. It feeds the
    contest's audit trail and its Atom feed, so its title never carries a CPF nor the name of a procedure's
    party (RULES §7)."""

    class Kind(models.TextChoices):
        EDITAL = "edital", "Publicação do edital"
        DOCUMENT = "document", "Publicação de documento"
        RECTIFICATION = "rectification", "Retificação"
        RESULT_LIST = "result_list", "Lista de classificação"
        NOMINATION_CALL = "nomination_call", "Nomeação"
        # Took office, withdrawal, no-show, end of list, annulment: the nomination order changes.
        NOMINATION_EVENT = "nomination_event", "Ocorrência na ordem de nomeação"
        VACANCY_OPENING = "vacancy_opening", "Vagas"
        HETEROIDENTIFICATION = "heteroidentification", "Ato de heteroidentificação"
        PROCEDURE_EFFECTS = "procedure_effects", "Efeitos de processo administrativo"
        # Status, homologation, validity extension, the contest's published data.
        CONTEST = "contest", "Concurso"
        POSITION = "position", "Cargo"
        ORGANIZATION = "organization", "Dados da organização"

    contest = models.ForeignKey(
        "contests.Contest",
        verbose_name="concurso",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="publications",
        help_text="Vazio para o que vale para todo o portal (os dados da organização).",
    )
    kind = models.CharField("espécie", max_length=30, choices=Kind.choices)
    title = models.CharField("título", max_length=300)
    url = models.CharField(
        "endereço", max_length=500, blank=True, help_text="Onde o público vê o que mudou (caminho no portal)."
    )
    at = models.DateTimeField("quando")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="por",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = "publicação"
        verbose_name_plural = "publicações"
        indexes = [models.Index(fields=["contest", "-at"], name="contests_publication_when")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(title=""),
                name="contests_publication_titled",
                violation_error_message="Uma publicação tem título.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} ({localtime(self.at):%d/%m/%Y %H:%M})"

    def save(self, *args: object, **kwargs: object) -> None:
        # Integrity, not business logic: the record is written once.
        if not self._state.adding:
            raise ValidationError(APPEND_ONLY)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValidationError(APPEND_ONLY)


class PublicGeneration(models.Model):
    """The public pages' generation when it cannot live in the public cache: several worker processes
    (``WEB_CONCURRENCY`` > 1), each with a cache of its own (``contests.public_generation``). One row; a
    counter, not a record, so it has no history."""

    value = models.BigIntegerField("geração")

    class Meta:
        verbose_name = "geração das páginas públicas"
        verbose_name_plural = "gerações das páginas públicas"

    def __str__(self) -> str:
        return f"Geração {self.value} das páginas públicas"
