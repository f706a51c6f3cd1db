"""The signature block of an act: who signs it, in which office, under which act of competence.

Every act's template renders its block with ``{% include "pdf/_signature.html" %}``, reading ``signature``
(one ``SignatureBlock``) from its context, or ``{% include "pdf/_signature.html" with signature=s %}`` for
one of several (a commission's members). Who signs each kind of act is the organisation's data
(``contests.Signatory``): the authority, never the clerk who prepared the act (recorded in the history).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass


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


def signature_block(name: str, office: str, *, on: datetime.date | None = None) -> SignatureBlock:
    """The block for an act signed by ``name`` in ``office`` on ``on`` (the act's date): what the publication
    form recorded, completed with what the organisation records about that authority (the act of
    competence or delegation in force on that date)."""
    return SignatureBlock(name.strip(), office.strip())
