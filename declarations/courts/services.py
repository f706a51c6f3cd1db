"""Writes of court orders (issue 22): record an order (its CNJ number checked and its court decoded, its file
kept in private storage), and change its status by the moves ``rules`` allows.

Every write is keyword-only, atomic, locks the order's row and names who acted in history.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from candidates.models import Registration
from contests.audit import User, audited_save
from contests.models import Contest, Position
from declarations.courts import cnj, rules
from declarations.courts.effects import order_effects_on_status
from declarations.courts.selectors import compliance_deadline, locked
from declarations.models import CourtOrder
from declarations.procedure.services import attachment_check

MAX_GROUP = 5000  # a collective order reaching more candidates than this is recorded by scope, not by name


def _refuse(message: str, field: str | None = None) -> None:
    if message:
        raise ValidationError({field: message} if field else message)


def case_number_check(text: str, *, today: datetime.date) -> cnj.CaseNumber:
    """The CNJ number ``text``, checked (``ValidationError`` on ``case_number`` with the reason)."""
    try:
        return cnj.parse(text, current_year=today.year)
    except cnj.CaseNumberError as error:
        raise ValidationError({"case_number": str(error)}) from None


def _scope_check(
    *,
    contest: Contest,
    scope: rules.Scope,
    effect: rules.Effect,
    position: Position | None,
    list_name: str,
    registrations: Sequence[Registration],
) -> None:
    if position is not None and position.contest_id != contest.pk:
        _refuse(f"O cargo {position.code} não é do concurso {contest}.", "position")
    foreign = [r for r in registrations if r.contest_id != contest.pk]
    if foreign:
        _refuse(f"A inscrição {foreign[0].number} não é do concurso {contest}.", "registrations")
    if scope in (rules.Scope.POSITION, rules.Scope.LIST) and position is None:
        _refuse("Informe o cargo que a ordem alcança.", "position")
    if scope is rules.Scope.LIST and not list_name:
        _refuse("Informe a lista que a ordem alcança.", "list_name")
    if scope is not rules.Scope.LIST and list_name:
        _refuse("A lista só se informa quando a ordem alcança uma lista.", "list_name")
    if scope is rules.Scope.CONTEST and position is not None:
        _refuse("Uma ordem sobre todo o concurso não tem cargo.", "position")
    if scope is rules.Scope.CANDIDATE and len(registrations) != 1:
        _refuse("Uma ordem sobre um candidato alcança exatamente uma inscrição.", "registrations")
    if scope is rules.Scope.GROUP and len(registrations) < 2:
        _refuse("Uma ordem coletiva alcança duas ou mais inscrições.", "registrations")
    if scope not in rules.PERSONAL_SCOPES and registrations:
        _refuse("Inscrições só se informam quando a ordem alcança um candidato ou um grupo.", "registrations")
    if len(registrations) > MAX_GROUP:
        _refuse(
            f"Mais de {MAX_GROUP} inscrições: registre a ordem pelo seu alcance (concurso, cargo ou lista)."
        )
    if position is not None and any(r.position_id != position.pk for r in registrations):
        _refuse(f"Há inscrições de outro cargo que não {position.code}.", "registrations")
    if effect in rules.PERSONAL_EFFECTS and scope not in rules.PERSONAL_SCOPES:
        _refuse(
            f"O efeito “{rules.EFFECT_LABELS[effect]}” recai sobre candidatos: o alcance é um candidato ou um "
            "grupo de candidatos.",
            "scope",
        )


@transaction.atomic
def court_order_record(
    *,
    contest: Contest,
    case_number: str,
    secret: bool = False,
    court: str,
    body: str,
    kind: str,
    decided_on: datetime.date,
    notified_on: datetime.date,
    compliance_days: int,
    compliance_unit: str,
    effect: str,
    scope: str,
    position: Position | None,
    list_name: str,
    registrations: Sequence[Registration],
    duration: str,
    until: datetime.date | None,
    summary: str,
    upload: UploadedFile,
    by: User,
    today: datetime.date,
) -> CourtOrder:
    """Record an order of a court on ``contest``, ``vigente``. Its effects are complied with apart
    (``declarations.courts.effects``)."""
    number = case_number_check(case_number, today=today)
    kind_, effect_, scope_, duration_ = (
        rules.Kind(kind),
        rules.Effect(effect),
        rules.Scope(scope),
        rules.Duration(duration),
    )
    if decided_on > today:
        _refuse("A data da decisão não pode ser futura.", "decided_on")
    if notified_on < decided_on:
        _refuse("A intimação não pode ser anterior à decisão.", "notified_on")
    if notified_on > today:
        _refuse("A data da intimação não pode ser futura.", "notified_on")
    if number.year > decided_on.year:
        _refuse(f"O processo é de {number.year}: a decisão não pode ser de {decided_on.year}.", "decided_on")
    if compliance_unit not in CourtOrder.DeadlineUnit.values:
        _refuse("Escolha dias corridos ou dias úteis.", "compliance_unit")
    try:
        compliance_deadline(notified_on, compliance_days, compliance_unit)
    except ValueError as error:
        _refuse(str(error), "compliance_days")
    if duration_ is rules.Duration.UNTIL_DATE:
        if until is None:
            _refuse("Informe até quando a ordem vigora.", "until")
        elif until <= decided_on:
            _refuse("A data final da vigência deve ser posterior à decisão.", "until")
    elif until is not None:
        _refuse("A data final só se informa quando a ordem vigora até uma data.", "until")
    if not summary.strip():
        _refuse("Resuma o que a decisão determina.", "summary")
    if not body.strip():
        _refuse("Informe o órgão julgador (a vara, a turma ou a câmara).", "body")
    _scope_check(
        contest=contest,
        scope=scope_,
        effect=effect_,
        position=position,
        list_name=list_name,
        registrations=registrations,
    )
    content_type = attachment_check(upload)
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    order = CourtOrder(
        contest=contest,
        case_number=str(number),
        secret=secret,
        court_code=number.court.code,
        court=court.strip() or f"{number.court.name} ({number.court.acronym})",
        body=body.strip(),
        kind=kind_.value,
        decided_on=decided_on,
        notified_on=notified_on,
        compliance_days=compliance_days,
        compliance_unit=compliance_unit,
        effect=effect_.value,
        scope=scope_.value,
        position=position,
        list_name=list_name,
        duration=duration_.value,
        until=until,
        summary=summary.strip(),
        file_name=(upload.name or "decisao")[:200],
        file_type=content_type,
        file_size=upload.size or 0,
        file_sha256=digest.hexdigest(),
        recorded_by=by,
    )
    order.file.save(f"{contest.slug}-{secrets.token_hex(8)}", upload, save=False)
    audited_save(order, by=by, reason="Ordem judicial registrada")
    if registrations:
        # django-simple-history writes a second row for the m2m change: it says what it added.
        order._history_user = by  # type: ignore[attr-defined]  # read by django-simple-history (m2m rows)
        order._change_reason = "Candidatos alcançados: " + ", ".join(  # type: ignore[attr-defined]
            r.number for r in registrations
        )
        order.registrations.set(registrations)
    return order


@transaction.atomic
def court_order_status(
    *,
    order: CourtOrder,
    status: str,
    decided_on: datetime.date,
    note: str,
    by: User,
    today: datetime.date,
) -> CourtOrder:
    """Move ``order`` to ``status`` by a later decision of ``decided_on`` (``note``: which decision and what
    it said), as ``rules`` allows; final statuses never change."""
    order = locked(order)
    target = rules.Status(status)
    _refuse(rules.transition_error(rules.Status(order.status), target), "status")
    if decided_on > today:
        _refuse("A data da decisão não pode ser futura.", "decided_on")
    if decided_on < order.decided_on:
        _refuse(
            f"A decisão que muda a situação não pode ser anterior à própria ordem ({order.decided_on:%d/%m/%Y}).",
            "decided_on",
        )
    if order.status_on is not None and decided_on < order.status_on:
        _refuse(
            f"A decisão não pode ser anterior à última mudança de situação ({order.status_on:%d/%m/%Y}).",
            "decided_on",
        )
    if not note.strip():
        _refuse("Identifique a decisão (espécie, órgão, o que decidiu).", "note")
    previous = order.get_status_display()
    order.status = target.value
    order.status_on = decided_on
    order.status_note = note.strip()
    audited_save(order, by=by, reason=f"Situação: {previous} → {rules.STATUS_LABELS[target]}")
    # What complying with the order did follows its fate: released on confirmation or transit, undone from
    # the start on revocation or reform (declarations.courts.effects).
    order_effects_on_status(order=order, by=by, today=today)
    return order
