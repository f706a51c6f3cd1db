"""Who decides: a deciding act (decision, reconsideration, decision on appeal) is signed by the authority
chosen on its form among the organisation's authorities in office on the act's date (``contests.Authority``,
Organização › Autoridades), offered with the one the organisation designates for that kind of act
(``contests.Signatory``) chosen by default. The act's PDF is signed by the chosen one
(``documents.act_signer``)."""

from __future__ import annotations

import datetime

from django.db.models import QuerySet

from contests.models import Authority, Signatory
from declarations.procedure import rules

# The kind of the organisation's designation for each deciding act: the decision on appeal is the
# superior's (Lei 9.784 art. 56 §1º); the others, the authority's that conducts the procedure.
DESIGNATION = {rules.Act.SUPERIOR_DECISION: Signatory.Kind.PROCEDURE_APPEAL}


def deciding_authorities(on: datetime.date) -> QuerySet[Authority]:
    """The organisation's authorities in office on ``on``, by name."""
    return Authority.in_force_on(on).order_by("name", "-valid_from", "pk")


def designated_authority(kind: rules.Act, *, on: datetime.date) -> Authority | None:
    """The authority the organisation designates to sign ``kind``, if it is in office on ``on``."""
    row = (
        Signatory.objects.select_related("authority")
        .filter(kind=DESIGNATION.get(kind, Signatory.Kind.PROCEDURE))
        .first()
    )
    return row.authority if row is not None and row.authority.in_force(on) else None


def authority_refusal(authority: Authority | None, *, kind: rules.Act, on: datetime.date) -> str:
    """Why ``authority`` cannot sign an act of ``kind`` dated ``on``, or '' (none chosen: the designated
    one signs)."""
    if authority is None:
        return ""
    if kind not in rules.DECIDING_ACTS:
        return "Só as decisões são assinadas pela autoridade escolhida no formulário."
    if not authority.in_force(on):
        return (
            f"{authority} não está em exercício em {on:%d/%m/%Y}: escolha uma autoridade em exercício na data "
            "da decisão (Organização › Autoridades)."
        )
    return ""
