"""The procedure's notices (Lei 9.784 art. 26), hearings (art. 41) and the art. 54 warning.

PURE module: no Django, no project import but the pure ``contests.calendar``; split from ``rules`` (the
flow of acts), which this module does not need.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from enum import StrEnum

from contests.calendar import add_years
from declarations.procedure import rules
from declarations.procedure.rules import Policy, _fmt

# Notices (art. 26) ----------------------------------------------------------------------------------------


class Means(StrEnum):
    EMAIL = "email"
    LETTER = "letter"
    IN_PERSON = "in_person"
    GAZETTE = "gazette"


GAZETTE_ONLY_WHEN_UNREACHABLE = (
    "A intimação por publicação oficial só cabe quando o candidato não é localizado (interessado "
    "indeterminado, desconhecido ou com domicílio indefinido, Lei 9.784 art. 26 §4º): tente antes um meio "
    "que assegure a ciência (§3º)."
)
GAZETTE_NEEDS_EDITION = "Informe a edição e a página do diário oficial em que a intimação foi publicada."


def notice_refusal(
    means: Means, *, candidate_unreachable: bool, gazette_edition: str = "", gazette_page: str = ""
) -> str:
    """Why a notice by ``means`` may not be recorded (Portuguese), or ''. Art. 26 §§3º–4º."""
    if means is Means.GAZETTE:
        if not candidate_unreachable:
            return GAZETTE_ONLY_WHEN_UNREACHABLE
        if not gazette_edition.strip() or not gazette_page.strip():
            return GAZETTE_NEEDS_EDITION
    return ""


# A notice's effect never precedes the notice itself (art. 26): the day it was issued (sent, handed over,
# sent to the gazette), the day an e-mail reached the mail server, the opening of the case.
BEFORE_OPENING = "A ciência não pode ser anterior à instauração do processo ({opened})."
BEFORE_ISSUE = (
    "A ciência não pode ser anterior à expedição da intimação ({issued}): uma intimação não produz efeito "
    "antes de existir (Lei 9.784 art. 26)."
)
LETTER_BEFORE_SENDING = (
    "O aviso de recebimento não pode ser anterior ao envio da carta ({issued}): a carta não foi recebida "
    "antes de ser enviada (Lei 9.784 art. 26 §3º)."
)
EMAIL_NOT_DELIVERED = (
    "A mensagem eletrônica ainda não foi entregue ao servidor de e-mail: não há ciência a registrar antes "
    "da entrega (Lei 9.784 art. 26 §3º). Aguarde o envio ou intime por outro meio."
)
EMAIL_BEFORE_DELIVERY = (
    "A ciência da mensagem eletrônica não pode ser anterior à sua entrega ({delivered}): o candidato não "
    "tomou ciência de uma mensagem que ainda não havia recebido (Lei 9.784 art. 26 §3º)."
)
GAZETTE_BEFORE_OPENING = (
    "A publicação oficial não pode ser anterior à instauração do processo ({opened}): a data é a da edição "
    "do diário oficial que publicou esta intimação (Lei 9.784 art. 26 §4º)."
)
GAZETTE_BEFORE_ISSUE = (
    "A publicação oficial não pode ser anterior à expedição da intimação ({issued}): a data é a da edição "
    "do diário oficial que publicou esta intimação (Lei 9.784 art. 26 §4º)."
)


def notice_effect_refusal(
    means: Means,
    *,
    effect_on: datetime.date,
    issued_on: datetime.date,
    opened_on: datetime.date,
    delivered_on: datetime.date | None = None,
    staff_recorded: bool = True,
) -> str:
    """Why a notice by ``means`` issued on ``issued_on`` may not take effect on ``effect_on`` (Portuguese),
    or '' (art. 26): never before the case was opened nor before the notice was issued; a letter's receipt
    never before it was sent; an e-mail's acknowledgement recorded by staff (``staff_recorded``: the
    candidate's own, through the link, is the day they give it) only once the message was delivered
    (``delivered_on``, the day it reached the mail server) and never before that day; a publication in the
    gazette, on the edition's date."""
    opened, issued = _fmt(opened_on), _fmt(issued_on)
    if means is Means.GAZETTE:
        if effect_on < opened_on:
            return GAZETTE_BEFORE_OPENING.format(opened=opened)
        return GAZETTE_BEFORE_ISSUE.format(issued=issued) if effect_on < issued_on else ""
    if effect_on < opened_on:
        return BEFORE_OPENING.format(opened=opened)
    if means is Means.EMAIL and staff_recorded:
        if delivered_on is None:
            return EMAIL_NOT_DELIVERED
        if effect_on < delivered_on:
            return EMAIL_BEFORE_DELIVERY.format(delivered=_fmt(delivered_on))
    if effect_on < issued_on:
        return (LETTER_BEFORE_SENDING if means is Means.LETTER else BEFORE_ISSUE).format(issued=issued)
    return ""


def tacit_acknowledgement_offered(policy: Policy) -> bool:
    """Tacit acknowledgement of an electronic notice only where a legal basis is recorded (RULES §5)."""
    return bool(policy.electronic_notice_basis.strip()) and bool(policy.tacit_acknowledgement_days)


def awaiting_notices(acts: Sequence[rules.ActRecord]) -> tuple[int, ...]:
    """The indices of the notices still awaiting their effect (acknowledgement, receipt, publication) for
    an act not yet notified by another means: one per means tried, in order."""
    return tuple(
        i
        for i, a in enumerate(acts)
        if a.kind in rules.NOTICES
        and a.on is None
        and rules.notified_index(a.kind, acts) < i  # a notice of an act since replaced is spent
        and not rules.notice_in_effect(a.kind, acts)
    )


# Art. 54 ---------------------------------------------------------------------------------------------------

ART54_WARNING = (
    "Atenção: o ato favorável ao candidato ({what}, de {day}) tem mais de cinco anos. A Administração decai "
    "do direito de anulá-lo, salvo comprovada má-fé (Lei 9.784 art. 54): a má-fé precisa ser provada nos autos."
)


def five_years_after(day: datetime.date) -> datetime.date:
    """Same date five years later (29/02 → 28/02); 31/12/9999 when that passes the calendar (no warning)."""
    return add_years(day, 5)


def art54_warning(favourable_act_on: datetime.date, today: datetime.date, what: str = "inscrição") -> str:
    """The art. 54 warning when the favourable act is more than five years old on ``today``, else ''."""
    if today > five_years_after(favourable_act_on):
        return ART54_WARNING.format(what=what, day=_fmt(favourable_act_on))
    return ""


# Hearings (art. 41) ----------------------------------------------------------------------------------------

HEARING_NOTICE_LATE = (
    "A intimação para a audiência ou diligência de {hearing} precisava produzir efeito até {latest}, com pelo "
    "menos {k} dias úteis de antecedência (Lei 9.784 art. 41); produziria efeito em {notified}. Designe nova "
    "data e intime de novo."
)


def hearing_notice_refusal(
    *,
    notified_on: datetime.date,
    hearing_on: datetime.date,
    latest_notice_on: datetime.date,
    business_days: int,
) -> str:
    """Why a hearing (or diligence) whose notice takes effect on ``notified_on`` (the notice's effect date:
    receipt, acknowledgement, publication, not the day the act is typed) may not be held on ``hearing_on``,
    or ''.

    ``latest_notice_on`` is ``declarations.deadlines.latest_notice_day(hearing_on, business_days, calendar)``:
    k full business days strictly between the notice and the hearing (arts. 26 §2º and 41).
    """
    if notified_on > latest_notice_on:
        return HEARING_NOTICE_LATE.format(
            hearing=_fmt(hearing_on),
            latest=_fmt(latest_notice_on),
            k=business_days,
            notified=_fmt(notified_on),
        )
    return ""
