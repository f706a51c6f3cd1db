"""The organisation this installation serves: its authorities (who signs which act), holidays and office
closures."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from simple_history.models import HistoricalRecords


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
    morning_closure_extends_deadlines = models.BooleanField(
        "expediente suspenso só pela manhã prorroga prazos",
        default=False,
        help_text="A Lei 9.784/1999, art. 66 §1º, prorroga o prazo que vence em dia sem expediente ou com "
        "expediente encerrado antes da hora normal; o dia em que o expediente só começa à tarde não está "
        "entre esses casos e conta como dia útil. Marque só se lei ou decreto municipal também prorroga os "
        "prazos nesse caso (cite a norma no ato do ponto facultativo).",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "organização"
        verbose_name_plural = "organização"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def current(cls) -> Organization | None:
        return cls.objects.order_by("pk").first()


class Authority(models.Model):
    """An authority of the organisation: who holds an office and under which act, from when to when. Acts are
    signed in its name (DESIGN.md point 11); the clerk who prepared an act is recorded as "Elaborado por".

    A delegation (Lei 9.784 arts. 12 a 14) is an authority too: the delegate's office, the act of delegation
    as its competence, and its term; an act decided by delegation says so (art. 14 §3º)."""

    name = models.CharField("nome", max_length=200)
    office = models.CharField(
        "cargo", max_length=200, help_text="Como consta na assinatura: “Presidente da Câmara Municipal”."
    )
    competence = models.CharField(
        "ato de competência",
        max_length=300,
        blank=True,
        help_text="A norma que dá a competência ou o ato que a delega, impresso sob o cargo: “Lei Orgânica do "
        "Município, art. 35”, “Portaria nº 12/2025”.",
    )
    delegated = models.BooleanField(
        "competência delegada",
        default=False,
        help_text="Exerce a competência por delegação: cada ato diz que foi praticado por delegação "
        "(Lei 9.784/1999, art. 14 §3º).",
    )
    valid_from = models.DateField("em exercício desde")
    valid_until = models.DateField(
        "em exercício até",
        null=True,
        blank=True,
        help_text="Fim do mandato, da designação ou da delegação; em branco enquanto durar.",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "autoridade"
        verbose_name_plural = "autoridades"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(valid_until__isnull=True)
                | models.Q(valid_until__gte=models.F("valid_from")),
                name="contests_authority_term_ends_after_start",
                violation_error_message="O fim do exercício não pode ser anterior ao início.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name}, {self.office}"

    def clean(self) -> None:
        if (
            self.valid_until is not None
            and self.valid_from is not None
            and self.valid_until < self.valid_from
        ):
            raise ValidationError(
                {"valid_until": "O fim do exercício não pode ser anterior ao início (“em exercício desde”)."}
            )

    def in_force(self, on: datetime.date) -> bool:
        """Whether the term covers ``on`` (both ends included)."""
        return self.valid_from <= on and (self.valid_until is None or on <= self.valid_until)

    @property
    def signature_competence(self) -> str:
        """The line printed under the office: the act of competence, and for a delegate that it acts by
        delegation (Lei 9.784 art. 14 §3º)."""
        competence = self.competence.strip()
        if not self.delegated or "delega" in competence.lower():
            return competence
        return f"Por delegação de competência: {competence}" if competence else "Por delegação de competência"

    @classmethod
    def in_force_on(cls, on: datetime.date) -> models.QuerySet[Authority]:
        return cls.objects.filter(
            models.Q(valid_until__isnull=True) | models.Q(valid_until__gte=on), valid_from__lte=on
        )


class Signatory(models.Model):
    """Who signs each kind of act for the organisation: one authority per kind (DESIGN.md point 11; the
    clerk who prepared the act is recorded in the history as "Elaborado por", never as the signer).

    Prefilled into each publication form, where it may still be changed for one act (a substitute signing
    in the holder's absence); the procedure's acts and the act of effects are signed by it directly."""

    class Kind(models.TextChoices):
        EDITAL = "edital", "Edital e retificações"
        RESULT_LIST = "result_list", "Listas de classificação"
        NOMINATION_ACT = "nomination_act", "Atos de nomeação"
        PROCEDURE = "procedure", "Processo sobre a autodeclaração: instauração, intimações e decisões"
        PROCEDURE_APPEAL = "procedure_appeal", "Processo sobre a autodeclaração: decisão do recurso"
        PROCEDURE_EFFECTS = "procedure_effects", "Ato público dos efeitos da decisão sobre a autodeclaração"
        HETEROIDENTIFICATION = (
            "heteroidentification",
            "Atos públicos da heteroidentificação (aviso e registro do sorteio, convocação, resultado)",
        )

    kind = models.CharField("espécie de ato", max_length=30, choices=Kind.choices, unique=True)
    authority = models.ForeignKey(
        Authority,
        verbose_name="autoridade que assina",
        on_delete=models.PROTECT,
        related_name="signatories",
        help_text="Em exercício na data de cada ato; na decisão do recurso, a autoridade superior à que "
        "decidiu (Lei 9.784/1999, art. 56 §1º).",
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = "autoridade que assina"
        verbose_name_plural = "autoridades que assinam"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.authority}"


class Holiday(models.Model):
    """A municipal holiday or office closure (national and state holidays come from ``holidays``)."""

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", "Feriado municipal"
        CLOSURE = "closure", "Ponto facultativo / expediente suspenso"

    class Period(models.TextChoices):
        FULL = "full", "Dia inteiro"
        # When the office is closed: in the morning only, it opens late (a business day, Lei 9.784 art. 66
        # §1º, unless ``Organization.morning_closure_extends_deadlines``); in the afternoon only, it closes
        # early (a deadline ending that day moves to the next business day, §1º).
        MORNING = "morning", "Somente manhã (expediente só à tarde)"
        AFTERNOON = "afternoon", "Somente tarde (expediente encerrado antes da hora normal)"

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
