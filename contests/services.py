"""Writes to the contests app. Every business write goes through here and records who acted.

Each service is keyword-only, atomic, validates with ``full_clean()`` and sets ``_history_user`` so the
history row names the user (also from a command or the shell). A change the public site shows (the
organisation's data; a contest whose edital is published: its data, status, homologation, validity, positions
and vacancies) is recorded once per service through ``contests.publication.publication_record``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q, Sum
from django.urls import reverse
from django.utils import timezone

from contests import lifecycle, policy_parts
from contests.audit import User, assign, audited_delete, audited_save
from contests.models import (
    POLICY_LOCKED,
    Authority,
    Contest,
    Holiday,
    Organization,
    Policy,
    Position,
    Publication,
    Signatory,
    VacancyOpening,
    vacancies_bound_refusal,
)
from contests.publication import contest_url, publication_record
from contests.wording import plural


def _field_labels(model: type[Contest] | type[Position], names: list[str]) -> list[str]:
    """The fields' names as people read them ("título", "denominação")."""
    return [str(getattr(model._meta.get_field(name), "verbose_name", name)) for name in names]


# Policies --------------------------------------------------------------------------------------------


# What the policy's parts (``contests.policy_parts``) are given: per part's accessor, its fields' new values.
PartsData = Mapping[str, Mapping[str, Any]]


def _parts_data(parts: PartsData | None) -> PartsData:
    unknown = set(parts or {}) - {part.accessor for part in policy_parts.parts()}
    if unknown:
        raise ValueError(f"Partes da política desconhecidas: {sorted(unknown)}")
    return parts or {}


@transaction.atomic
def policy_create(*, by: User | None, data: Mapping[str, Any], parts: PartsData | None = None) -> Policy:
    """A new policy, with its parts (the procedure's law: ``parts["procedure_law"]`` over the defaults)."""
    parts = _parts_data(parts)
    policy = Policy(**data)
    audited_save(policy, by=by, reason="Política criada")
    for part in policy_parts.parts():
        part.create(policy=policy, by=by, data=parts.get(part.accessor, {}), copy_from=None)
    return policy


@transaction.atomic
def policy_update(
    *, policy: Policy, by: User | None, data: Mapping[str, Any], parts: PartsData | None = None
) -> Policy:
    """Edit a policy and its parts, unless a published contest uses it: then a new version must be made."""
    parts = _parts_data(parts)
    policy = Policy.objects.select_for_update().get(pk=policy.pk)
    if policy.is_used_by_published_contest():
        raise ValidationError(POLICY_LOCKED)
    if assign(policy, data):
        audited_save(policy, by=by, reason="Política alterada")
    for part in policy_parts.parts():
        if part.accessor in parts:
            part.update(policy=policy, by=by, data=parts[part.accessor])
    return policy


@transaction.atomic
def policy_new_version(
    *,
    policy: Policy,
    by: User | None,
    data: Mapping[str, Any] | None = None,
    parts: PartsData | None = None,
) -> Policy:
    """Copy ``policy`` and its parts as its next version (a published contest keeps the version it used)."""
    parts = _parts_data(parts)
    base = Policy.objects.select_for_update().get(pk=policy.pk)
    root = base
    while root.previous_version is not None:
        root = root.previous_version
    # Every version of the law, whatever branch it came from: the next number is one past the highest.
    family = Policy.objects.filter(Q(slug=root.slug) | Q(slug__regex=rf"^{re.escape(root.slug)}-v[0-9]+$"))
    latest = family.aggregate(latest=Max("version"))["latest"] or base.version
    root_slug = root.slug
    new = Policy.objects.get(pk=base.pk)
    new.pk = None
    new.id = None
    new._state.adding = True
    new.version = latest + 1
    new.slug = f"{root_slug}-v{new.version}"
    new.previous_version = base
    for field, value in (data or {}).items():
        setattr(new, field, value)
    audited_save(new, by=by, reason=f"Nova versão de {base}")
    for part in policy_parts.parts():
        part.create(policy=new, by=by, data=parts.get(part.accessor, {}), copy_from=base)
    return new


# Organization and holidays ---------------------------------------------------------------------------


@transaction.atomic
def organization_save(*, by: User | None, data: Mapping[str, Any]) -> Organization:
    organization = Organization.objects.select_for_update().order_by("pk").first() or Organization()
    changed = assign(organization, data)
    audited_save(organization, by=by, reason="Dados da organização")
    if changed:  # every public page's frame shows the organisation
        publication_record(
            contest=None,
            kind=Publication.Kind.ORGANIZATION,
            title="Dados da organização atualizados",
            by=by,
            url=reverse("public:home"),
        )
    return organization


AUTHORITY_FIELDS = ("name", "office", "competence", "delegated", "valid_from", "valid_until")


@transaction.atomic
def authority_save(
    *, by: User | None, data: Mapping[str, Any], authority: Authority | None = None
) -> Authority:
    """Record an authority (``authority`` None) or correct one: name, office, the act of competence or
    delegation, and its term. History names who changed what."""
    row = Authority.objects.select_for_update().get(pk=authority.pk) if authority else Authority()
    changed = assign(row, {key: data[key] for key in AUTHORITY_FIELDS if key in data})
    if changed or row.pk is None:
        reason = "Autoridade registrada" if row.pk is None else "Autoridade: " + ", ".join(changed)
        audited_save(row, by=by, reason=reason)
    return row


@transaction.atomic
def authority_end_term(*, by: User | None, authority: Authority, until: datetime.date) -> Authority:
    """End an authority's term (or delegation) on ``until``, its last day in office. The kinds of act it
    still signs then need another authority: ``signatory_for`` refuses it for any later date."""
    row = Authority.objects.select_for_update().get(pk=authority.pk)
    row.valid_until = until
    audited_save(row, by=by, reason=f"Fim do exercício em {until:%d/%m/%Y}")
    return row


@transaction.atomic
def signatories_save(
    *, by: User | None, data: Mapping[str, Authority | None], today: datetime.date
) -> list[Signatory]:
    """Record who signs each kind of act (``data``: kind → the authority, None for nobody: each
    publication form then asks). Only an authority in office ``today`` may be assigned. History names who
    changed it."""
    unknown = set(data) - set(Signatory.Kind.values)
    if unknown:
        raise ValidationError(f"Espécies de ato desconhecidas: {', '.join(sorted(unknown))}.")
    errors: dict[str, list[str]] = {}
    for kind, authority in data.items():
        if authority is not None and not authority.in_force(today):
            errors.setdefault(kind, []).append(
                f"{authority} não está em exercício hoje ({today:%d/%m/%Y}): designe uma autoridade em "
                "exercício."
            )
    if errors:
        raise ValidationError(errors)
    saved = []
    for kind, authority in data.items():
        label = Signatory.Kind(kind).label
        row = Signatory.objects.select_for_update().filter(kind=kind).first()
        if authority is None:
            if row is not None:
                audited_delete(row, by=by, reason=f"Quem assina: {label} (nenhuma autoridade)")
            continue
        row = row or Signatory(kind=kind)
        if row.pk is None or row.authority_id != authority.pk:
            row.authority = authority
            audited_save(row, by=by, reason=f"Quem assina: {label}")
        saved.append(row)
    return saved


@transaction.atomic
def holiday_save(*, by: User | None, data: Mapping[str, Any], holiday: Holiday | None = None) -> Holiday:
    holiday = holiday or Holiday()
    assign(holiday, data)
    audited_save(holiday, by=by)
    return holiday


@transaction.atomic
def holiday_delete(*, holiday: Holiday, by: User | None) -> None:
    audited_delete(holiday, by=by, reason="Feriado excluído")


# Contests --------------------------------------------------------------------------------------------


_LIFECYCLE_FIELDS = ("status", "edital_published_on", "homologation_date", "final_result_published_on")


def _refuse_lifecycle_fields(data: Mapping[str, Any]) -> None:
    if any(field in data for field in _LIFECYCLE_FIELDS):
        # Each move has its own service, checked against the lifecycle; its dates are permanent.
        raise ValidationError(
            "A situação e as datas de publicação e de homologação mudam pelos seus próprios formulários."
        )


@transaction.atomic
def contest_create(*, by: User | None, data: Mapping[str, Any]) -> Contest:
    """Create a contest in draft: every later status comes through ``contest_set_status``."""
    _refuse_lifecycle_fields(data)
    contest = Contest(**data)
    audited_save(contest, by=by, reason="Concurso criado")
    return contest


@transaction.atomic
def contest_update(*, contest: Contest, by: User | None, data: Mapping[str, Any]) -> Contest:
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    _refuse_lifecycle_fields(data)
    if contest.edital_published and "policy" in data and data["policy"] != contest.policy:
        raise ValidationError(
            {"policy": "A política de um concurso com edital publicado não pode ser trocada."}
        )
    if contest.edital_published and "slug" in data and data["slug"] != contest.slug:
        raise ValidationError(
            {
                "slug": "O identificador de um concurso com edital publicado não muda: os endereços já publicados "
                "deixariam de funcionar."
            }
        )
    changed = assign(contest, data)
    if not changed:
        return contest
    audited_save(contest, by=by, reason="Concurso alterado")
    if contest.edital_published:
        publication_record(
            contest=contest,
            kind=Publication.Kind.CONTEST,
            title=f"Dados do concurso alterados: {', '.join(_field_labels(Contest, changed))}",
            by=by,
            url=contest_url(contest),
        )
    return contest


@transaction.atomic
def contest_set_status(
    *,
    contest: Contest,
    status: str,
    by: User | None,
    on: datetime.date | None = None,
    record_publication: bool = True,
    today: datetime.date | None = None,
) -> Contest:
    """Move the contest along its lifecycle; leaving draft records the edital's publication on ``on``
    (today by default), for good. ``record_publication``: False when the caller records the publication
    itself (the edital's publication, which records its document). ``today`` (by default the local date)
    is checked against the edital's registration period (``lifecycle.status_date_refusal``)."""
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    if status not in Contest.Status.values:
        raise ValidationError("Situação desconhecida.")
    facts = contest.lifecycle_facts
    reason = lifecycle.refusal(contest.status, status, facts) or lifecycle.status_date_refusal(
        status, today or timezone.localdate(), contest.schedule
    )
    if reason:
        raise ValidationError(reason)
    if lifecycle.records_publication(status, facts):
        contest.edital_published_on = on or timezone.localdate()
    contest.status = status
    audited_save(contest, by=by, reason=f"Situação: {contest.get_status_display()}")
    if record_publication and contest.edital_published:
        publication_record(
            contest=contest,
            kind=Publication.Kind.CONTEST,
            title=f"Situação do concurso: {contest.get_status_display()}",
            by=by,
            url=contest_url(contest),
        )
    return contest


@transaction.atomic
def contest_homologate(
    *,
    contest: Contest,
    by: User | None,
    date: datetime.date,
    act: str,
    gazette: str = "",
    validity_months: int = 24,
) -> Contest:
    """Record the homologation: from it runs the validity (CF art. 37 III, up to two years).

    A lawful move of the lifecycle: the edital must be published, and the homologation is never undone.
    """
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    if contest.is_homologated:
        raise ValidationError("O concurso já está homologado.")
    reason = lifecycle.refusal(
        contest.status, Contest.Status.HOMOLOGATED, contest.lifecycle_facts, homologation_date=date
    )
    if reason:
        raise ValidationError(reason)
    if not act.strip():
        raise ValidationError({"homologation_act": "Informe o ato de homologação."})
    when = lifecycle.homologation_date_refusal(date, contest.schedule, contest.lifecycle_facts)
    contest.homologation_date = date
    contest.homologation_act = act.strip()
    contest.homologation_gazette = gazette.strip()
    contest.validity_months = validity_months
    contest.status = Contest.Status.HOMOLOGATED
    errors: dict[str, list[str]] = {}
    try:
        contest.full_clean()
    except ValidationError as error:
        errors = error.message_dict
    if when:
        errors = {**errors, "homologation_date": [*errors.get("homologation_date", []), when]}
    if errors:
        raise ValidationError(errors)
    audited_save(contest, by=by, reason="Concurso homologado")
    publication_record(
        contest=contest,
        kind=Publication.Kind.CONTEST,
        title=f"Homologação do concurso em {date:%d/%m/%Y} ({contest.homologation_act})",
        by=by,
        url=contest_url(contest),
    )
    return contest


@transaction.atomic
def contest_record_final_result(*, contest: Contest, by: User | None, on: datetime.date) -> Contest:
    """Record, for good, the day the contest's first final list was published (the service that publishes
    the list calls it): the homologation is dated from it (``lifecycle.homologation_date_refusal``)."""
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    if contest.final_result_published_on is not None:
        return contest
    contest.final_result_published_on = on
    audited_save(contest, by=by, reason="Resultado final publicado")
    return contest


@transaction.atomic
def contest_extend_validity(*, contest: Contest, by: User | None, act: str) -> Contest:
    """Extend the validity once, for the same period (CF art. 37 III)."""
    contest = Contest.objects.select_for_update().get(pk=contest.pk)
    if not contest.homologation_date:
        raise ValidationError("Só um concurso homologado tem validade a prorrogar.")
    if contest.validity_extended:
        raise ValidationError("A validade só pode ser prorrogada uma vez (CF art. 37, III).")
    if not act.strip():
        raise ValidationError({"validity_extension_act": "Informe o ato de prorrogação."})
    contest.validity_extended = True
    contest.validity_extension_act = act.strip()
    audited_save(contest, by=by, reason="Validade prorrogada")
    publication_record(
        contest=contest,
        kind=Publication.Kind.CONTEST,
        title=f"Validade do concurso prorrogada até {contest.validity_end:%d/%m/%Y} ({contest.validity_extension_act})",
        by=by,
        url=contest_url(contest),
    )
    return contest


# Positions and vacancies -----------------------------------------------------------------------------


def _position_changed(position: Position, *, by: User | None, what: str) -> None:
    """A position of a contest whose edital is published changed: its public pages show it."""
    contest = position.contest
    if contest.edital_published:
        publication_record(
            contest=contest,
            kind=Publication.Kind.POSITION,
            title=f"{what}: {position}",
            by=by,
            url=contest_url(contest),
        )


@transaction.atomic
def position_create(
    *, contest: Contest, by: User | None, data: Mapping[str, Any], edital_vacancies: int | None = None
) -> Position:
    """Create a position with its edital vacancies (0 for a reserve-only list)."""
    position = Position(contest=contest, **data)
    audited_save(position, by=by, reason="Cargo criado")
    if edital_vacancies is not None:
        _opening_create(
            position=position,
            by=by,
            data={"kind": VacancyOpening.Kind.EDITAL, "count": edital_vacancies, "date": contest.edital_date},
        )
    _position_changed(position, by=by, what="Cargo criado")
    return position


@transaction.atomic
def position_update(
    *, position: Position, by: User | None, data: Mapping[str, Any], edital_vacancies: int | None = None
) -> Position:
    """Edit a position and, when ``edital_vacancies`` is given, its edital vacancies, in one transaction."""
    position = Position.objects.select_for_update().get(pk=position.pk)
    changed = _field_labels(Position, assign(position, data))
    if changed:
        audited_save(position, by=by, reason="Cargo alterado")
    if edital_vacancies is not None:
        edital = VacancyOpening.objects.filter(position=position, kind=VacancyOpening.Kind.EDITAL).first()
        if edital is None:
            _opening_create(
                position=position,
                by=by,
                data={
                    "kind": VacancyOpening.Kind.EDITAL,
                    "count": edital_vacancies,
                    "date": position.contest.edital_date,
                },
            )
            changed.append("vagas do edital")
        elif edital.count != edital_vacancies:
            _opening_update(opening=edital, by=by, data={"count": edital_vacancies})
            changed.append("vagas do edital")
    if changed:
        _position_changed(position, by=by, what=f"Cargo alterado ({', '.join(changed)})")
    return position


def _check_opening(opening: VacancyOpening, contest: Contest) -> None:
    if opening.count is not None and opening.count < 0:
        raise ValidationError({"count": "O número de vagas não pode ser negativo."})
    if opening.count is not None:
        others = (
            VacancyOpening.objects.filter(position_id=opening.position_id)
            .exclude(pk=opening.pk)
            .aggregate(total=Sum("count"))["total"]
            or 0
        )
        refusal = vacancies_bound_refusal(others + opening.count, already=others)
        if refusal:
            raise ValidationError({"count": refusal})
    if opening.kind == VacancyOpening.Kind.LATER:
        if not contest.homologation_date:
            raise ValidationError(
                "Vagas abertas durante a validade só podem ser registradas depois da homologação; "
                "antes dela, altere as vagas do edital."
            )
        if opening.date and not contest.is_valid_on(opening.date):
            end = contest.validity_end
            raise ValidationError(
                {
                    "date": f"A data deve estar dentro da validade do concurso "
                    f"({contest.homologation_date:%d/%m/%Y} a {end:%d/%m/%Y})."
                }
            )


def _opening_title(opening: VacancyOpening, position: Position, *, changed: bool = False) -> str:
    if changed:
        return f"Vagas alteradas em {position.title}: {opening}"
    if opening.kind == VacancyOpening.Kind.LATER:
        act = f" ({opening.act})" if opening.act else ""
        return f"Abertura de {plural(opening.count, 'vaga', 'vagas')} em {position.title}{act}"
    return f"Vagas do edital em {position.title}: {opening.count}"


def _opening_published(
    opening: VacancyOpening, position: Position, *, by: User | None, changed: bool
) -> None:
    contest = position.contest
    if contest.edital_published:  # before it, the public site shows nothing of the contest
        publication_record(
            contest=contest,
            kind=Publication.Kind.VACANCY_OPENING,
            title=_opening_title(opening, position, changed=changed),
            by=by,
            url=contest_url(contest),
        )


@transaction.atomic
def vacancy_opening_create(*, position: Position, by: User | None, data: Mapping[str, Any]) -> VacancyOpening:
    """Add vacancies to a position: the edital's, or an opening during validity (SM art. 1 §1).

    The position row is locked so two clerks adding openings at once both count. Idempotent per
    ``data["form_token"]``: the opening that token already created is returned, nothing is added.
    """
    opening, created = _opening_create(position=position, by=by, data=data)
    if created:
        _opening_published(opening, opening.position, by=by, changed=False)
    return opening


def _opening_create(
    *, position: Position, by: User | None, data: Mapping[str, Any]
) -> tuple[VacancyOpening, bool]:
    """``vacancy_opening_create`` without its publication (a position's service records its own): the
    opening, and whether it is new."""
    position = Position.objects.select_for_update().select_related("contest").get(pk=position.pk)
    token = data.get("form_token") or ""
    if token:
        # The same submitted form again (a double click, a reload): what it opened, nothing more.
        repeated = VacancyOpening.objects.filter(form_token=token).first()
        if repeated is not None and repeated.position_id != position.pk:
            raise ValidationError("Este formulário pertence a outro cargo: abra-o de novo a partir deste.")
        if repeated is not None:
            return repeated, False
    opening = VacancyOpening(position=position, **data)
    _check_opening(opening, position.contest)
    if (
        opening.kind == VacancyOpening.Kind.EDITAL
        and VacancyOpening.objects.filter(position=position, kind=VacancyOpening.Kind.EDITAL).exists()
    ):
        raise ValidationError("Este cargo já tem as vagas do edital; altere-as em vez de criar outras.")
    audited_save(opening, by=by, reason="Vagas registradas")
    return opening, True


@transaction.atomic
def vacancy_opening_update(
    *, opening: VacancyOpening, by: User | None, data: Mapping[str, Any]
) -> VacancyOpening:
    opening, changed = _opening_update(opening=opening, by=by, data=data)
    if changed:
        _opening_published(opening, opening.position, by=by, changed=True)
    return opening


def _opening_update(
    *, opening: VacancyOpening, by: User | None, data: Mapping[str, Any]
) -> tuple[VacancyOpening, bool]:
    opening = (
        VacancyOpening.objects.select_for_update().select_related("position__contest").get(pk=opening.pk)
    )
    contest = opening.position.contest
    if opening.kind == VacancyOpening.Kind.EDITAL and contest.edital_vacancies_frozen:
        raise ValidationError(
            "As vagas do edital não podem ser alteradas depois das inscrições: registre uma abertura de vagas."
        )
    if not assign(opening, data):
        return opening, False
    _check_opening(opening, contest)
    audited_save(opening, by=by, reason="Vagas alteradas")
    return opening, True


@transaction.atomic
def vacancy_opening_delete(*, opening: VacancyOpening, by: User | None) -> None:
    # Locked and read afresh: a publication recorded meanwhile must be seen. Nothing public changes (no
    # publication to record): the public site shows no contest before its edital is published.
    contest = Contest.objects.select_for_update().get(pk=opening.position.contest_id)
    if contest.edital_published:
        raise ValidationError(
            "Vagas só podem ser excluídas antes da publicação do edital: depois dela, o edital as fixou."
        )
    audited_delete(opening, by=by, reason="Vagas excluídas")
