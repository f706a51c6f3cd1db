"""What a registration may opt for: each rule in one function that returns the refusal, in Portuguese,
or ``None`` when the rule is met (RULES §1, §5; STYLE.md: one home per rule).

PURE module: plain values in (dates, category codes, booleans), text out. Models (``clean``), forms,
services and the importer call these functions; none of them writes the rule again. Dates are passed in:
nothing here reads the clock. The messages are full sentences; the importer shows them as they are, next
to the line and column of the file.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from functools import cache

# Category codes, as ``Policy.Group`` stores them (IBGE categories; quilombola: Lei 15.142).
PRETA = "preta"
PARDA = "parda"
INDIGENA = "indigena"
QUILOMBOLA = "quilombola"
# "Negro" is preto or pardo (IBGE; SM art. 3): a declaration may say "negra" without telling them apart.
BLACK = frozenset({PRETA, PARDA})
UNSPECIFIED_BLACK = ""

# The reserved lists a registration may opt for (RULES §3), as ``Reserve`` stores them.
RACIAL = "racial"
PCD = "pcd"
RESERVE_LABELS = {RACIAL: "reserva racial", PCD: "reserva para pessoas com deficiência"}


def _day(day: datetime.date) -> str:
    return f"{day:%d/%m/%Y}"


# Registration and the racial option in time -------------------------------------------------------------


def registration_date_refusal(
    registered_on: datetime.date | None, *, registration_end: datetime.date | None
) -> str | None:
    """A registration is made while registrations are open (the edital's period): not after its end."""
    if registered_on and registration_end and registered_on > registration_end:
        return (
            f"A inscrição de {_day(registered_on)} não pode ser posterior ao fim das inscrições "
            f"({_day(registration_end)})."
        )
    return None


def declaration_date_refusal(
    declared_on: datetime.date | None, *, registration_end: datetime.date | None
) -> str | None:
    """The self-declaration is made at registration (SM art. 3; AR art. 1 §4): one dated after the end of
    registrations is refused. An unknown date (the organiser did not send it) is not refused."""
    if declared_on and registration_end and declared_on > registration_end:
        return (
            f"A autodeclaração de {_day(declared_on)} é posterior ao fim das inscrições "
            f"({_day(registration_end)}): a opção pela reserva racial é feita no ato da inscrição."
        )
    return None


class OptionChange(StrEnum):
    """What a change does to the racial option recorded on a registration."""

    ADD = "add"  # the registration had no (active) option and gets one
    REMOVE = "remove"  # the option is taken away (not by the candidate's renunciation)
    CATEGORY = "category"  # the declared category changes (not by a clerk's justified correction)


def racial_option_refusal(
    change: OptionChange | str, *, on: datetime.date, registration_end: datetime.date | None
) -> str | None:
    """The racial option is made at registration and valid for this contest only (SM art. 3 and §1; AR
    art. 1 §4): once registrations have closed (``on`` is after ``registration_end``) it can no longer be
    added, taken away or have its category changed. What remains possible then goes through its own
    service: the candidate's renunciation, or a clerk's correction of a typing error with a justification
    (RULES §5). While registrations are open, every change is allowed."""
    if registration_end is None or on <= registration_end:
        return None
    end = _day(registration_end)
    change = OptionChange(change)
    if change is OptionChange.ADD:
        return (
            "A opção pela reserva racial é feita no ato da inscrição: não pode ser acrescentada depois do fim "
            f"das inscrições ({end}); um erro de digitação se corrige na inscrição, com justificativa."
        )
    if change is OptionChange.REMOVE:
        return (
            f"A opção pela reserva racial não pode ser retirada depois do fim das inscrições ({end}): registre "
            "a renúncia do candidato (ou a correção, com justificativa) na inscrição."
        )
    return (
        f"A categoria declarada não pode ser alterada depois do fim das inscrições ({end}): a correção se "
        "faz na inscrição, com justificativa."
    )


# The category the policy accepts -------------------------------------------------------------------------


def accepted_categories(groups: Sequence[str]) -> tuple[str, ...]:
    """The categories a declaration may name under a policy whose beneficiaries are ``groups``, in the
    policy's order, then ``UNSPECIFIED_BLACK`` ("negra", preta or parda not told apart) where the policy
    covers pretos or pardos (SM art. 3: "negros", pretos e pardos; AR art. 1: negros e índios)."""
    accepted = tuple(dict.fromkeys(groups))
    return (*accepted, UNSPECIFIED_BLACK) if BLACK & set(accepted) else accepted


def category_refusal(category: str, *, groups: Sequence[str], labels: Mapping[str, str]) -> str | None:
    """The declared ``category`` must be one of the policy's beneficiary ``groups``; a blank category
    ("negra") only where the policy covers pretos or pardos. ``labels`` names each code in Portuguese."""
    if category in accepted_categories(groups):
        return None
    allowed = ", ".join(labels.get(g, g).lower() for g in groups) or "nenhum grupo"
    if category:
        label = labels.get(category, category).lower()
        return f"A categoria {label} não é beneficiária da política do concurso ({allowed})."
    return f"Informe a categoria declarada: a política do concurso abrange {allowed}."


# The reserve preferred by a dual candidate ----------------------------------------------------------------


def preferred_reserve_refusal(preferred: str, *, chosen: Collection[str]) -> str | None:
    """A candidate on both reserves chooses one when called to both at once (SM art. 4 §7): the reserve
    preferred must be one the registration opted for (``chosen``). Blank: the policy's default."""
    if not preferred or preferred in chosen:
        return None
    label = RESERVE_LABELS.get(preferred, preferred)
    return (
        f"A reserva preferida na convocação simultânea ({label}) deve ser uma das reservas escolhidas na "
        "inscrição."
    )


@cache
def reserves_chosen(*, racial: bool, pcd: bool) -> frozenset[str]:
    """The reserves a registration opted for, as ``preferred_reserve_refusal`` takes them (one of four
    sets, made once: an import asks for every row)."""
    return frozenset(name for name, on in ((RACIAL, racial), (PCD, pcd)) if on)
