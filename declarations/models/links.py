"""The private link without an account, the fields both kinds keep once (the procedure's link for the
candidate or their representative, the heteroidentification result's link for the candidate): only the
token's hash is kept, a link expires and can be revoked. ``declarations.links`` issues, revokes and resolves
both kinds."""

from __future__ import annotations

import datetime

from django.db import models


class PrivateLink(models.Model):
    name = models.CharField("nome", max_length=200)
    email = models.EmailField("e-mail", blank=True)
    token_hash = models.CharField("hash do token", max_length=64, unique=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    expires_at = models.DateTimeField("expira em")
    revoked_at = models.DateTimeField("revogado em", null=True, blank=True)
    last_used_at = models.DateTimeField("último uso", null=True, blank=True)

    class Meta:
        abstract = True

    def usable_at(self, moment: datetime.datetime) -> bool:
        return self.revoked_at is None and moment < self.expires_at
