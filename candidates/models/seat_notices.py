"""The personal notices of what a reinstatement or a court order did to a candidate's place (issue 22): one
row per notice, so the clerk sees each on the registration's screen and prints its letter (the e-mail is
written from the same row; ``candidates.seat_notices``)."""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords

from candidates.models.registrations import Registration


class SeatNotice(models.Model):
    class Kind(models.TextChoices):
        REINSTATED = "reinstated", "Reintegração"
        DISPLACED = "displaced", "Nomeação desfeita: próxima vaga"
        HELD = "held", "Vaga reservada por ordem judicial"
        RELEASED = "released", "Fim da reserva judicial: posse"

    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="seat_notices"
    )
    kind = models.CharField("comunicação", max_length=20, choices=Kind.choices)
    reason = models.TextField("motivo")
    issued_on = models.DateField("data")
    history = HistoricalRecords()

    class Meta:
        verbose_name = "comunicação pessoal sobre a vaga"
        verbose_name_plural = "comunicações pessoais sobre a vaga"
        ordering = ["-issued_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} – inscrição {self.registration.number}"


class PhaseMakeUp(models.Model):
    """A phase a reinstated candidate missed while out of the lists, with their own new deadline for it
    (``candidates.engine.makeup``; written with the reinstatement's notice, printed in its letter)."""

    registration = models.ForeignKey(
        Registration, verbose_name="inscrição", on_delete=models.PROTECT, related_name="phase_make_ups"
    )
    phase = models.ForeignKey(
        "candidates.Phase", verbose_name="fase", on_delete=models.PROTECT, related_name="make_ups"
    )
    notice = models.ForeignKey(
        SeatNotice, verbose_name="comunicação", on_delete=models.PROTECT, related_name="phase_make_ups"
    )
    days = models.PositiveIntegerField("dias corridos")
    deadline = models.DateField("novo prazo até")
    history = HistoricalRecords()

    class Meta:
        verbose_name = "novo prazo de fase perdida"
        verbose_name_plural = "novos prazos de fases perdidas"
        ordering = ["notice", "phase__order"]

    def __str__(self) -> str:
        return f"{self.phase.name}: novo prazo até {self.deadline:%d/%m/%Y}"
