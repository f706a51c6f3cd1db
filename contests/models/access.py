"""AccessLog: who viewed which sensitive record, and when (LGPD)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.timezone import localtime

from contests.wording import access_action


class AccessLog(models.Model):
    """Who viewed which sensitive record, and when (LGPD). Append-only: written by ``log_access``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name="usuário",
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField("quando", auto_now_add=True, db_index=True)
    action = models.CharField("ação", max_length=40, default="view")
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField("registro", max_length=64)
    object_repr = models.CharField("descrição", max_length=200)
    detail = models.CharField("detalhe", max_length=200, blank=True)
    ip_address = models.GenericIPAddressField("endereço IP", null=True, blank=True)
    via_link = models.CharField(
        "pelo link privado de",
        max_length=60,
        blank=True,
        help_text="Quem abriu o link privado (o candidato, seu procurador), quando o acesso não foi de um usuário.",
    )

    class Meta:
        verbose_name = "registro de acesso"
        verbose_name_plural = "registros de acesso"
        indexes = [models.Index(fields=["content_type", "object_id"], name="contests_accesslog_object")]

    def __str__(self) -> str:
        return f"{localtime(self.at):%d/%m/%Y %H:%M} {self.who} {self.action_label} {self.object_repr}"

    @property
    def who(self) -> str:
        """Who accessed, as the auditor reads it: a person by full name, the holder of a private link
        ("Candidato(a), pelo link privado"), or a user since deleted."""
        if self.user is not None:
            return self.user.get_full_name() or self.user.get_username()
        if self.via_link:
            return f"{self.via_link}, pelo link privado"
        if self.action == "portal":  # rows written before the holder was recorded
            return "Candidato(a), pelo link privado"
        if self.action == "login_locked":
            return "Tentativa de entrada"
        return "(usuário excluído)"

    @property
    def action_label(self) -> str:
        """The action in words (a new action not yet worded shows its code)."""
        return access_action(self.action)
