"""The candidate's private links, without an account (RULES §5): the procedure's (the candidate or their
representative follows the case, acknowledges notices and files) and the heteroidentification result's (the
candidate reads the result and appeals). One service for both kinds of ``PrivateLink``:

- **issue** (``link_issue`` for a procedure, ``hetero_link_issue`` for a verification): the token is signed
  with the kind's salt and names its owner (so an altered one is refused before any query), is given to its
  holder once and only its SHA-256 is kept; the link expires after ``PROCEDURE_LINK_DAYS``;
- **revoke** (``link_revoke``), either kind; and **revoke on resend** (``link_supersede``): a new link for
  the same holder revokes the ones sent before, so a link sent to a mistyped address, or forwarded, stops
  working when the next one goes out (issue 25, N2). Issued for a screen or a letter, the new link replaces
  the old at once; sent by e-mail, once the message has left (a failed send leaves the old link working);
- **resolve by token** (``link_resolve``, ``hetero_link_resolve``): the usable link, or ``LinkError`` with
  the message for the candidate (never a traceback); its last use is noted.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse

from contests.audit import User, audited_save
from declarations.models import (
    Attachment,
    PrivateLink,
    Procedure,
    ProcedureLink,
    Verification,
    VerificationLink,
)

LINK_INVALID = (
    "Este link não é válido: confira se foi copiado por inteiro. Se o problema continuar, peça um novo link "
    "ao setor jurídico."
)
LINK_EXPIRED = "Este link expirou ou foi revogado. Peça um novo link ao setor jurídico do órgão."


class LinkError(Exception):
    """A private link that cannot be used (altered, expired, revoked): its message is for the candidate."""


@dataclass(frozen=True)
class Kind:
    salt: str  # a token of one kind is never valid as the other (changing it voids the links issued)
    owner: str  # the foreign key the token names


KINDS: dict[type[PrivateLink], Kind] = {
    ProcedureLink: Kind(salt="declarations.procedure-link", owner="procedure"),
    VerificationLink: Kind(salt="declarations.hetero-link", owner="verification"),
}

L = TypeVar("L", bound=PrivateLink)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def link_url(view: str, token: str) -> str:
    """The absolute address of the private page ``view`` for ``token``, for an e-mail (no request to build
    it from: the site's address is a setting)."""
    return settings.PUBLIC_BASE_URL + reverse(view, args=[token])


# Issue --------------------------------------------------------------------------------------------------


def _issue(
    link: L, *, by: User | None, now: datetime.datetime, reason: str, supersede: bool = True
) -> tuple[L, str]:
    """Give ``link`` (unsaved, its owner and holder set) a fresh token and its expiry, and save it; with
    ``supersede``, the links sent before to the same holder stop working."""
    kind = KINDS[type(link)]
    owner_pk = getattr(link, f"{kind.owner}_id")
    token = signing.dumps({"p": owner_pk, "n": secrets.token_urlsafe(24)}, salt=kind.salt, compress=True)
    link.token_hash = token_hash(token)
    link.expires_at = now + datetime.timedelta(days=settings.PROCEDURE_LINK_DAYS)
    audited_save(link, by=by, reason=reason)
    if supersede:
        link_supersede(link=link, by=by, now=now)
    return link, token


@transaction.atomic
def link_issue(
    *,
    procedure: Procedure,
    holder: str,
    name: str,
    email: str = "",
    by: User | None,
    now: datetime.datetime,
    power_of_attorney: Attachment | None = None,
    supersede: bool = True,
) -> tuple[ProcedureLink, str]:
    """A new private link to ``procedure`` for the candidate or their representative (who needs a power of
    attorney, Lei 9.784 art. 3º IV); the token is returned once (for the e-mail), only its hash kept."""
    if holder == ProcedureLink.Holder.REPRESENTATIVE and power_of_attorney is None:
        raise ValidationError("O procurador precisa de procuração anexada (Lei 9.784 art. 3º IV).")
    link = ProcedureLink(
        procedure=procedure,
        holder=holder,
        name=name.strip()[:200],
        email=email,
        power_of_attorney=power_of_attorney,
    )
    return _issue(link, by=by, now=now, reason="Link privado emitido", supersede=supersede)


@transaction.atomic
def hetero_link_issue(
    *,
    verification: Verification,
    by: User | None,
    now: datetime.datetime,
    email: str = "",
    supersede: bool = True,
) -> tuple[VerificationLink, str]:
    """A new private link to ``verification``'s result for its candidate; the token is returned once."""
    candidate = verification.registration.candidate
    link = VerificationLink(verification=verification, name=candidate.display_name[:200], email=email)
    return _issue(
        link, by=by, now=now, reason="Link privado da heteroidentificação emitido", supersede=supersede
    )


# Revoke -------------------------------------------------------------------------------------------------


@transaction.atomic
def link_revoke(
    *, link: L, by: User | None, now: datetime.datetime, reason: str = "Link privado revogado"
) -> L:
    if link.revoked_at is None:
        link.revoked_at = now
        audited_save(link, by=by, reason=reason)
    return link


def _same_holder(link: PrivateLink) -> QuerySet[Any]:
    """The other links of ``link``'s owner to the same holder: the candidate's (a procedure's or a
    verification's), or the same representative's."""
    if isinstance(link, ProcedureLink):
        procedure_links = ProcedureLink.objects.filter(procedure_id=link.procedure_id, holder=link.holder)
        if link.holder == ProcedureLink.Holder.REPRESENTATIVE:
            procedure_links = procedure_links.filter(name__iexact=link.name)
        return procedure_links.exclude(pk=link.pk)
    assert isinstance(link, VerificationLink)
    return VerificationLink.objects.filter(verification_id=link.verification_id).exclude(pk=link.pk)


@transaction.atomic
def link_supersede(*, link: PrivateLink, by: User | None, now: datetime.datetime) -> int:
    """Revoke the links sent to ``link``'s holder before it (still usable); how many."""
    older = list(
        _same_holder(link)
        .select_for_update()
        .filter(revoked_at__isnull=True, created_at__lte=link.created_at)
    )
    for other in older:
        link_revoke(link=other, by=by, now=now, reason="Link privado revogado: substituído por um novo")
    return len(older)


# Resolve ------------------------------------------------------------------------------------------------


def _resolve(token: str, *, links: QuerySet[L], now: datetime.datetime) -> L:
    """The usable link of ``links`` for ``token``, or LinkError; its last use is noted."""
    kind = KINDS[links.model]
    try:
        data = signing.loads(token, salt=kind.salt)
    except signing.BadSignature:
        raise LinkError(LINK_INVALID) from None
    link = links.filter(token_hash=token_hash(token)).first()
    if link is None or not isinstance(data, dict) or data.get("p") != getattr(link, f"{kind.owner}_id"):
        raise LinkError(LINK_INVALID)
    if not link.usable_at(now):
        raise LinkError(LINK_EXPIRED)
    links.model._default_manager.filter(pk=link.pk).update(last_used_at=now)  # not audited: a read
    return link


def link_resolve(token: str, *, now: datetime.datetime) -> ProcedureLink:
    """The usable procedure link for ``token``, with the case it opens."""
    links = ProcedureLink.objects.select_related(
        "procedure__registration__candidate", "procedure__registration__contest"
    )
    return _resolve(token, links=links, now=now)


def hetero_link_resolve(token: str, *, now: datetime.datetime) -> VerificationLink:
    """The usable heteroidentification link for ``token``, with the verification it shows."""
    links = VerificationLink.objects.select_related(
        "verification__registration__candidate",
        "verification__registration__contest__policy",
        "verification__session__commission",
    )
    return _resolve(token, links=links, now=now)
