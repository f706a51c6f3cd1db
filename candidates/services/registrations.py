"""Writes to the candidates app. Every business write goes through here and records who acted.

Keyword-only, atomic, validated with ``full_clean()`` (through ``audited_save``), history naming ``by``.
Imports of files are in ``candidates.services.imports`` (bulk writes, same rules); dates that rules depend on
(``declared_on``, ``on``) are passed in, never read from the clock here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from candidates.engine import eligibility
from candidates.models import (
    Candidate,
    ImportMapping,
    Phase,
    PhaseResult,
    Registration,
    Reserve,
    SelfDeclaration,
    TieBreakCriterion,
)
from candidates.services.access import access_code_send_later
from candidates.services.names import names_changed
from candidates.services.phases import phase_create  # noqa: F401  # its callers import it from here
from contests.audit import User, assign, audited_delete, audited_save, log_access
from contests.models import Contest

CANDIDATE_FIELDS = ("full_name", "social_name", "cpf", "birth_date", "email", "phone", "address")
REGISTRATION_FIELDS = (
    "position",
    "number",
    "registered_on",
    "pcd_reserve",
    "preferred_reserve",
    "jury_service",
    "final_score",
)
SENSITIVE_PERMISSION = "candidates.view_sensitive"


# Candidates ------------------------------------------------------------------------------------------


@transaction.atomic
def candidate_create(*, by: User | None, data: Mapping[str, Any]) -> Candidate:
    candidate = Candidate()
    assign(candidate, data, allowed=CANDIDATE_FIELDS)
    audited_save(candidate, by=by, reason="Candidato cadastrado")
    return candidate


@transaction.atomic
def candidate_update(*, candidate: Candidate, by: User | None, data: Mapping[str, Any]) -> Candidate:
    candidate = Candidate.objects.select_for_update().get(pk=candidate.pk)
    names = (candidate.full_name, candidate.social_name)
    if assign(candidate, data, allowed=CANDIDATE_FIELDS):
        audited_save(candidate, by=by, reason="Dados do candidato alterados")
        if (candidate.full_name, candidate.social_name) != names:
            names_changed(candidate_ids=[candidate.pk], by=by)
    return candidate


# Registrations ---------------------------------------------------------------------------------------

# A unique constraint that another clerk's write, committed after our validation, made us break: the field
# the form shows the refusal on, and the refusal.
RACED_CONSTRAINTS = {
    "candidates_candidate_unique_cpf": (
        "cpf",
        "Este CPF acabou de ser cadastrado por outro usuário. Confira a lista de inscrições e envie de novo "
        "para ligar a inscrição ao mesmo candidato.",
    ),
    "candidates_registration_unique_number_per_contest": (
        "number",
        "Este número de inscrição acabou de ser usado por outro usuário neste concurso. Use outro número.",
    ),
    "candidates_registration_unique_candidate_per_position": (
        "position",
        "Outro usuário acabou de inscrever este candidato neste cargo.",
    ),
}


@contextmanager
def _refusing_raced_duplicates() -> Iterator[None]:
    """Turn the unique-constraint violation of two clerks writing the same CPF or number at once into a
    ``ValidationError`` on the field. ``full_clean()`` checks uniqueness first, but between that check and
    the insert the other clerk may commit; the database refuses the second, and the savepoint keeps the
    outer transaction usable until the refusal rolls it back."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        for name, (field, message) in RACED_CONSTRAINTS.items():
            if name in str(error):
                raise ValidationError({field: message}, code="unique") from error
        raise


@transaction.atomic
def registration_create(
    *,
    contest: Contest,
    candidate: Candidate,
    by: User | None,
    data: Mapping[str, Any],
    racial_category: str | None = None,
    declared_on: datetime.date | None = None,
) -> Registration:
    """Register ``candidate``; with ``racial_category`` (``""`` for "negro" without distinction) the
    self-declaration is created in the same transaction (SM art. 3; AR art. 1 §4).

    ``declared_on`` defaults to the registration date; a registration or option dated after the
    registrations closed is refused.
    """
    registration = Registration(contest=contest, candidate=candidate)
    assign(registration, data, allowed=REGISTRATION_FIELDS)
    end = contest.registration_end
    refusal = eligibility.registration_date_refusal(registration.registered_on, registration_end=end)
    if refusal:
        raise ValidationError({"registered_on": refusal})
    registration.racial_reserve = racial_category is not None
    if registration.racial_reserve:
        declared_on = declared_on or registration.registered_on
        refusal = eligibility.declaration_date_refusal(declared_on, registration_end=end)
        if refusal:
            raise ValidationError({"declared_on": refusal})
    audited_save(registration, by=by, reason="Inscrição registrada")
    if racial_category is not None:  # the racial reserve, chosen above
        declaration = SelfDeclaration(
            registration=registration, category=racial_category, declared_on=declared_on
        )
        audited_save(declaration, by=by, reason="Autodeclaração feita na inscrição")
    access_code_send_later(registration=registration)
    return registration


@transaction.atomic
def registration_update(
    *, registration: Registration, by: User | None, data: Mapping[str, Any]
) -> Registration:
    """Edit a registration; the racial option changes only through the self-declaration services."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if assign(registration, data, allowed=REGISTRATION_FIELDS):
        audited_save(registration, by=by, reason="Inscrição alterada")
    return registration


@transaction.atomic
def registration_set_status(
    *, registration: Registration, status: str, by: User | None, reason: str
) -> Registration:
    """Withdrawal, elimination, exclusion from the reserves, cancellation (or back to active), with a reason.

    The bare write: it leaves the position's seats alone. Outside the nomination services, change a
    status through ``candidates.services.status.registration_change_status``, which syncs the seats."""
    if not reason.strip():
        raise ValidationError("Informe o motivo da mudança de situação.")
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if status not in Registration.Status.values:
        raise ValidationError(f"Situação desconhecida: {status}.")
    if registration.status != status:
        registration.status = status
        audited_save(registration, by=by, reason=f"{Registration.Status(status).label}: {reason.strip()}")
    return registration


# Self-declaration ------------------------------------------------------------------------------------


def _locked(registration: Registration) -> tuple[Registration, SelfDeclaration | None]:
    registration = (
        Registration.objects.select_for_update().select_related("contest__policy").get(pk=registration.pk)
    )
    declaration = SelfDeclaration.objects.select_for_update().filter(registration=registration).first()
    return registration, declaration


@transaction.atomic
def self_declaration_add(
    *, registration: Registration, category: str, declared_on: datetime.date, by: User | None
) -> SelfDeclaration:
    """The candidate opts for the racial reserve (again) while registrations are open."""
    registration, declaration = _locked(registration)
    refusal = eligibility.racial_option_refusal(
        eligibility.OptionChange.ADD, on=declared_on, registration_end=registration.contest.registration_end
    )
    if refusal:
        raise ValidationError(refusal)
    if declaration is not None and declaration.is_active:
        raise ValidationError("Esta inscrição já tem autodeclaração ativa.")
    declaration = declaration or SelfDeclaration(registration=registration)
    declaration.category = category
    declaration.declared_on = declared_on
    declaration.status = SelfDeclaration.Status.ACTIVE
    declaration.ended_on = None
    audited_save(declaration, by=by, reason="Opção pela reserva racial")
    registration.racial_reserve = True
    audited_save(registration, by=by, reason="Opção pela reserva racial")
    return declaration


@transaction.atomic
def self_declaration_give_up(
    *, registration: Registration, by: User | None, on: datetime.date, reason: str = ""
) -> SelfDeclaration:
    """The candidate gives the reserve up and stays in open competition (RULES §5)."""
    registration, declaration = _locked(registration)
    if declaration is None or not declaration.is_active:
        raise ValidationError("Esta inscrição não tem autodeclaração ativa.")
    declaration.status = SelfDeclaration.Status.GIVEN_UP
    declaration.ended_on = on
    text = f"Renúncia à reserva racial{': ' + reason.strip() if reason.strip() else ''}"
    audited_save(declaration, by=by, reason=text)
    registration.racial_reserve = False
    if registration.preferred_reserve == Reserve.RACIAL:
        registration.preferred_reserve = ""
    audited_save(registration, by=by, reason=text)
    return declaration


@transaction.atomic
def self_declaration_correct(
    *,
    registration: Registration,
    by: User | None,
    justification: str,
    on: datetime.date,
    racial: bool,
    category: str = "",
    declared_on: datetime.date | None = None,
) -> SelfDeclaration | None:
    """A clerk corrects a typing error in the racial option or its category, at any time, with a
    justification kept on the declaration and in history (RULES §5)."""
    justification = justification.strip()
    if len(justification) < 10:
        raise ValidationError({"justification": "Justifique a correção (ao menos 10 caracteres)."})
    registration, declaration = _locked(registration)
    before = (registration.racial_reserve, registration.preferred_reserve)
    reason = f"Correção de erro de digitação: {justification}"
    if racial:
        declaration = declaration or SelfDeclaration(registration=registration)
        declaration.category = category
        declaration.declared_on = declared_on or declaration.declared_on
        declaration.status = SelfDeclaration.Status.ACTIVE
        declaration.ended_on = None
        declaration.justification = justification
    elif declaration is None or not declaration.is_active:
        raise ValidationError("Não há opção pela reserva racial a corrigir.")
    else:
        declaration.status = SelfDeclaration.Status.CORRECTED
        declaration.ended_on = on
        declaration.justification = justification
        if registration.preferred_reserve == Reserve.RACIAL:
            registration.preferred_reserve = ""
    audited_save(declaration, by=by, reason=reason)
    registration.racial_reserve = racial
    if (registration.racial_reserve, registration.preferred_reserve) != before:
        audited_save(registration, by=by, reason=reason)
    return declaration


# Sensitive data --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SensitiveDetails:
    racial_reserve: bool
    category: str
    declared_on: datetime.date | None
    declaration_status: str
    pcd_reserve: bool


def registration_sensitive_details(
    *, registration: Registration, user: User, request=None
) -> SensitiveDetails:
    """The declaration and PcD condition of a registration, for users allowed to see them; logged (LGPD)."""
    if not user.has_perm(SENSITIVE_PERMISSION):
        raise PermissionDenied("Sem permissão para ver dados sensíveis.")
    declaration = SelfDeclaration.objects.filter(registration=registration).first()
    log_access(
        user=user,
        obj=registration,
        action="view_sensitive",
        detail="autodeclaração e condição PcD",
        request=request,
    )
    return SensitiveDetails(
        racial_reserve=registration.racial_reserve,
        category=declaration.category_label if declaration else "",
        declared_on=declaration.declared_on if declaration else None,
        declaration_status=declaration.get_status_display() if declaration else "",
        pcd_reserve=registration.pcd_reserve,
    )


# Phases, results, tie-break --------------------------------------------------------------------------


@transaction.atomic
def phase_result_set(
    *,
    registration: Registration,
    phase: Phase,
    by: User | None,
    score: Decimal | None = None,
    absent: bool = False,
    reason: str = "",
) -> PhaseResult:
    """Record (or correct) a score or an absence; the registration's ``absent`` follows its results."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if phase.contest_id != registration.contest_id:
        raise ValidationError("A fase não pertence ao concurso da inscrição.")
    result = PhaseResult.objects.filter(registration=registration, phase=phase).first() or PhaseResult(
        registration=registration, phase=phase
    )
    if result.pk is None or (result.score, result.absent) != (score, absent):
        result.score, result.absent = score, absent
        audited_save(result, by=by, reason=reason or "Nota registrada")
    is_absent = registration.phase_results.filter(absent=True).exists()
    if registration.absent != is_absent:
        registration.absent = is_absent
        audited_save(registration, by=by, reason="Ausência registrada" if is_absent else "Ausência retirada")
    return result


DEFAULT_TIE_BREAK = (TieBreakCriterion.Kind.ELDERLY, TieBreakCriterion.Kind.INSCRIPTION_NUMBER)


@transaction.atomic
def tie_break_criteria_set(
    *, contest: Contest, by: User | None, criteria: Sequence[tuple[str, Phase | None]]
) -> list[TieBreakCriterion]:
    """Replace the contest's tie-break criteria by the edital's, in order.

    Age of 60 or more always comes first (Estatuto da Pessoa Idosa, art. 27, parágrafo único) and the
    inscription number always last (a deterministic end): both are added where the list lacks them.
    """
    Contest.objects.select_for_update().get(pk=contest.pk)
    kinds = [(kind, phase) for kind, phase in criteria if kind not in DEFAULT_TIE_BREAK]
    full = [(TieBreakCriterion.Kind.ELDERLY, None), *kinds, (TieBreakCriterion.Kind.INSCRIPTION_NUMBER, None)]
    seen: set[tuple[str, int | None]] = set()
    for kind, phase in full:
        if kind not in TieBreakCriterion.Kind.values:
            raise ValidationError(f"Critério desconhecido: {kind}.")
        if (kind == TieBreakCriterion.Kind.PHASE_SCORE) != (phase is not None):
            raise ValidationError("Indique a fase somente no critério de maior nota na fase.")
        if phase is not None and phase.contest_id != contest.pk:
            raise ValidationError("A fase não pertence a este concurso.")
        key = (kind, phase.pk if phase else None)
        if key in seen:
            raise ValidationError("Critério repetido.")
        seen.add(key)
    for old in TieBreakCriterion.objects.filter(contest=contest):
        audited_delete(old, by=by, reason="Critérios de desempate redefinidos")
    created = []
    for order, (kind, phase) in enumerate(full, start=1):
        criterion = TieBreakCriterion(contest=contest, order=order, kind=kind, phase=phase)
        audited_save(criterion, by=by, reason="Critérios de desempate redefinidos")
        created.append(criterion)
    return created


def tie_break_criteria(contest: Contest) -> list[tuple[str, int | None]]:
    """``(kind, phase id)`` in order: the contest's, or the default (elderly, then inscription number)."""
    stored: list[tuple[str, int | None]] = list(
        contest.tie_break_criteria.order_by("order").values_list("kind", "phase_id")
    )
    return stored or [(kind, None) for kind in DEFAULT_TIE_BREAK]


# Import mapping --------------------------------------------------------------------------------------


@transaction.atomic
def import_mapping_save(*, contest: Contest, by: User | None, columns: Mapping[str, str]) -> ImportMapping:
    """Merge ``columns`` into the contest's saved mapping (headers of earlier files are kept)."""
    mapping = ImportMapping.objects.select_for_update().filter(contest=contest).first()
    mapping = mapping or ImportMapping(contest=contest)
    merged = {**mapping.columns, **columns}
    if merged != mapping.columns or mapping.pk is None:
        mapping.columns = merged
        audited_save(mapping, by=by, reason="Mapeamento de colunas salvo")
    return mapping


# Registrations typed in by a clerk -------------------------------------------------------------------


@transaction.atomic
def registration_register(
    *,
    contest: Contest,
    by: User | None,
    candidate_data: Mapping[str, Any],
    data: Mapping[str, Any],
    racial_category: str | None = None,
    declared_on: datetime.date | None = None,
) -> Registration:
    """A registration typed in from the candidate's form: the candidate found by CPF (the data filled in
    replaces theirs; a blank field keeps what is stored) or created, then the registration and, with
    ``racial_category``, its self-declaration, all in one transaction (nothing is kept if one is refused)."""
    with _refusing_raced_duplicates():
        candidate = Candidate.objects.select_for_update().filter(cpf=candidate_data.get("cpf", "")).first()
        if candidate is None:
            candidate = candidate_create(by=by, data=candidate_data)
        else:
            filled = {name: value for name, value in candidate_data.items() if value not in (None, "")}
            candidate = candidate_update(candidate=candidate, by=by, data=filled)
        return registration_create(
            contest=contest,
            candidate=candidate,
            by=by,
            data=data,
            racial_category=racial_category,
            declared_on=declared_on,
        )


@transaction.atomic
def registration_edit(
    *,
    registration: Registration,
    by: User | None,
    candidate_data: Mapping[str, Any],
    data: Mapping[str, Any],
) -> Registration:
    """The candidate's data and the registration's in one transaction; the racial option changes only
    through the self-declaration services (add, give up, justified correction)."""
    with _refusing_raced_duplicates():
        candidate_update(candidate=registration.candidate, by=by, data=candidate_data)
        return registration_update(registration=registration, by=by, data=data)
