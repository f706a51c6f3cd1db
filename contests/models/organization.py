"""The organisation this installation serves, and its holidays and office closures."""

from __future__ import annotations

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

    history = HistoricalRecords()

    class Meta:
        verbose_name = "organização"
        verbose_name_plural = "organização"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def current(cls) -> Organization | None:
        return cls.objects.order_by("pk").first()


class Signatory(models.Model):
    """Who signs each kind of act for the organisation (DESIGN.md point 11: every act is signed by the
    authority the organisation records for that kind of act; the clerk who prepared it is in the history).

    Prefilled into each publication form, where it may still be changed for one act (a substitute
    signing in the holder's absence)."""

    class Kind(models.TextChoices):
        EDITAL = "edital", "Edital e retificações"
        RESULT_LIST = "result_list", "Listas de classificação"
        NOMINATION_ACT = "nomination_act", "Atos de nomeação"
        PROCEDURE = "procedure", "Atos do processo administrativo sobre a autodeclaração"
        HETEROIDENTIFICATION = "heteroidentification", "Atos da heteroidentificação"

    kind = models.CharField("espécie de ato", max_length=30, choices=Kind.choices, unique=True)
    name = models.CharField("quem assina", max_length=200, blank=True)
    office = models.CharField("cargo de quem assina", max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = "autoridade que assina"
        verbose_name_plural = "autoridades que assinam"

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()}: {self.name}, {self.office}" if self.name else self.get_kind_display()
        )

    @classmethod
    def for_kind(cls, kind: str) -> tuple[str, str]:
        """The name and office recorded for ``kind`` ("" and "" when none is)."""
        row = cls.objects.filter(kind=kind).values_list("name", "office").first()
        return (row[0], row[1]) if row else ("", "")


class Holiday(models.Model):
    """A municipal holiday or office closure (national and state holidays come from ``holidays``)."""

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", "Feriado municipal"
        CLOSURE = "closure", "Ponto facultativo / expediente suspenso"

    class Period(models.TextChoices):
        FULL = "full", "Dia inteiro"
        MORNING = "morning", "Somente manhã"
        AFTERNOON = "afternoon", "Somente tarde"

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
