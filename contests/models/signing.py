"""The organisation's signing certificate (issue 20): the A1 certificate (PKCS#12) Gestão uploads, kept
encrypted at rest with its password (``contests.documents.certificates``). One is in use at a time; a
replaced one stays as a row (what it was, when, by whom) with its secrets erased."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords


class SigningCertificate(models.Model):
    # Both secrets are Fernet tokens; history never copies them.
    pkcs12 = models.BinaryField("arquivo PKCS#12 cifrado", editable=False, default=b"")
    password = models.BinaryField("senha cifrada", editable=False, default=b"")
    subject = models.CharField("titular", max_length=500)
    common_name = models.CharField("nome do titular", max_length=300)
    issuer = models.CharField("emissor", max_length=500)
    serial = models.CharField("número de série", max_length=100)
    not_before = models.DateTimeField("válido desde")
    not_after = models.DateTimeField("válido até")
    active = models.BooleanField(
        "em uso",
        default=True,
        help_text="O certificado que assina os documentos publicados (Lei 14.063/2020, art. 5º, §2º, I: "
        "assinatura qualificada, ICP-Brasil, nos atos do chefe do Poder).",
    )
    uploaded_at = models.DateTimeField("enviado em")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="enviado por",
    )
    replaced_at = models.DateTimeField("substituído em", null=True, blank=True)

    history = HistoricalRecords(excluded_fields=["pkcs12", "password"])

    class Meta:
        verbose_name = "certificado de assinatura"
        verbose_name_plural = "certificados de assinatura"
        constraints = [
            models.UniqueConstraint(
                fields=["active"], condition=Q(active=True), name="contests_signingcertificate_one_active"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.common_name} (série {self.serial})"

    @classmethod
    def current(cls) -> SigningCertificate | None:
        return cls.objects.filter(active=True).first()
