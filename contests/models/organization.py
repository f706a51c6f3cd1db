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
