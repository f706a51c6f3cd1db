"""Private links without an account (the procedure's and the heteroidentification result's): the token is
signed (so an altered one is refused before any query), given to its holder once, and only its SHA-256 is
kept; a link expires and can be revoked. One home for the code both kinds of link use."""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any, Protocol

from django.core import signing
from django.db.models import QuerySet

LINK_INVALID = (
    "Este link não é válido: confira se foi copiado por inteiro. Se o problema continuar, peça um novo link "
    "ao setor jurídico."
)
LINK_EXPIRED = "Este link expirou ou foi revogado. Peça um novo link ao setor jurídico do órgão."


class LinkError(Exception):
    """A private link that cannot be used (altered, expired, revoked): its message is for the candidate."""


class PrivateLink(Protocol):
    pk: Any
    revoked_at: datetime.datetime | None
    expires_at: datetime.datetime


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_new(*, salt: str, owner_pk: int) -> str:
    """A fresh token naming its owner (the procedure, the verification); it is never stored."""
    return signing.dumps({"p": owner_pk, "n": secrets.token_urlsafe(24)}, salt=salt, compress=True)


def usable_at(link: PrivateLink, moment: datetime.datetime) -> bool:
    return link.revoked_at is None and moment < link.expires_at


def link_find(token: str, *, salt: str, links: QuerySet, owner: str, now: datetime.datetime) -> Any:
    """The usable link of ``links`` for ``token`` (whose ``owner`` foreign key the token names), or
    LinkError with the message to show (never a traceback); its last use is noted."""
    try:
        data = signing.loads(token, salt=salt)
    except signing.BadSignature:
        raise LinkError(LINK_INVALID) from None
    link = links.filter(token_hash=token_hash(token)).first()
    if link is None or not isinstance(data, dict) or data.get("p") != getattr(link, f"{owner}_id"):
        raise LinkError(LINK_INVALID)
    if not usable_at(link, now):
        raise LinkError(LINK_EXPIRED)
    links.model.objects.filter(pk=link.pk).update(last_used_at=now)  # not audited: a read, not a change
    return link
