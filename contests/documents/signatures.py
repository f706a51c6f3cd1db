"""The signature block of an act: who signs it, in which office, under which act of competence.

Every act's template renders its block with ``{% include "pdf/_signature.html" %}``, reading ``signature``
(one ``SignatureBlock``) from its context, or ``{% include "pdf/_signature.html" with signature=s %}`` for
one of several (a commission's members). Who signs each kind of act is the organisation's data
(``contests.Authority``, assigned per kind by ``contests.Signatory``): the authority, never the clerk who
prepared the act (recorded in the history as "Elaborado por").
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils import timezone

from contests.documents import heading
from contests.models import Authority, Organization, Signatory


@dataclass(frozen=True)
class SignatureBlock:
    name: str
    office: str
    # The act giving the competence or delegating it, printed under the office when there is one:
    # "Portaria nº 12/2025 (delegação de competência)".
    competence: str = ""
    # What the signer does in this act when several sign ("Presidente da comissão", "Membro").
    role: str = ""

    def __bool__(self) -> bool:
        return bool(self.name.strip())


class NoSignatory(ValidationError):
    """No authority is assigned to a kind of act, or the one assigned is not in office on the act's date."""


def _authority(name: str, office: str, on: datetime.date) -> Authority | None:
    """The authority recorded with this name and office whose term covers ``on`` (the latest appointed,
    should two terms overlap)."""
    return (
        Authority.in_force_on(on)
        .filter(name__iexact=name, office__iexact=office)
        .order_by("-valid_from", "-pk")
        .first()
    )


def signature_block(name: str, office: str, *, on: datetime.date | None = None) -> SignatureBlock:
    """The block for an act signed by ``name`` in ``office`` on ``on`` (the act's date): what the publication
    form recorded, completed with what the organisation records about that authority (the act of
    competence or delegation in force on that date). A signer the organisation does not record (a
    substitute typed on the form) is printed as typed, without a competence line. ``on`` None (an act not
    dated yet, a draft): today."""
    name, office = name.strip(), office.strip()
    day = on or timezone.localdate()
    authority = _authority(name, office, day) if name and office else None
    return SignatureBlock(name, office, authority.signature_competence if authority else "")


def signatory_for(kind: str, *, on: datetime.date) -> SignatureBlock:
    """The block of the authority assigned to ``kind`` (a ``Signatory.Kind``) and in office on ``on``.
    ``NoSignatory`` (a ``ValidationError`` naming the kind of act) when none is assigned or its term does not
    cover that date."""
    label = Signatory.Kind(kind).label
    row = Signatory.objects.select_related("authority").filter(kind=kind).first()
    if row is None:
        raise NoSignatory(
            f"Nenhuma autoridade foi designada para assinar: {label}. A Gestão a designa em Organização › "
            "Autoridades."
        )
    authority = row.authority
    if not authority.in_force(on):
        raise NoSignatory(
            f"A autoridade designada para assinar ({label}), {authority}, não está em exercício em "
            f"{on:%d/%m/%Y}. A Gestão designa quem a substitui em Organização › Autoridades."
        )
    return SignatureBlock(authority.name, authority.office, authority.signature_competence)


def preamble(signature: SignatureBlock) -> str:
    """The opening words of an act signed with ``signature``, for the organisation: "O PRESIDENTE DA CÂMARA
    MUNICIPAL DE SANTA MARIA, no uso das atribuições que lhe confere a Lei Orgânica do Município"
    (``heading.authority_preamble``). Every act's preamble comes from here."""
    organization = Organization.current()
    return heading.authority_preamble(
        signature.office,
        signature.competence,
        organization_name=organization.name if organization else "",
        municipality=organization.municipality if organization else "",
    )
