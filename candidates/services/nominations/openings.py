"""Vacancies opened during the contest's validity (SM art. 1 §1): the reserve recounted on the cumulative
total and the seats not yet created scheduled again."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates.engine import allocation
from candidates.engine.schedule import project
from candidates.engine_params import params_following_contest, params_for_position
from candidates.models import AllocationLedger
from candidates.services.nominations.loading import _check_validity, _load, _save
from contests.audit import User
from contests.models import Position, VacancyOpening
from contests.services import vacancy_opening_create
from contests.wording import plural


@dataclass(frozen=True)
class Opening:
    opening: VacancyOpening
    before: tuple[str, ...]
    after: tuple[str, ...]
    messages: tuple[str, ...]
    repeated: bool = False  # the same submitted form again: nothing was opened


@transaction.atomic
def vacancies_open(
    *,
    position: Position,
    count: int,
    date: datetime.date,
    act: str,
    by: User | None,
    note: str = "",
    form_token: str = "",
) -> Opening:
    """Open ``count`` vacancies during validity (SM art. 1 §1): the reserve is recounted on the cumulative
    total, fraction carried (§4), and the seats not yet created are scheduled again; seats already
    created keep their kind. Idempotent per ``form_token`` (the form's one-time token): the same
    submission again opens nothing and returns the first opening with ``repeated`` set. The opening is
    recorded as a publication by ``vacancy_opening_create`` (the seats and the reserve the public pages
    show move with it)."""
    if count < 1:
        raise ValidationError({"count": "Abra ao menos uma vaga."})
    locked = (
        Position.objects.select_for_update(of=("self",)).select_related("contest__policy").get(pk=position.pk)
    )
    _check_validity(locked.contest, date)
    ledger = AllocationLedger.objects.filter(position=locked).first()
    if ledger is not None:
        params = params_following_contest(allocation.params_from_dict(ledger.state["params"]), locked)
        kept = tuple(ledger.state["seats"])
    else:
        params = params_for_position(locked)
        kept = ()
    before = project(params, kept, locked.vacancies)
    if form_token and VacancyOpening.objects.filter(position=locked, form_token=form_token).exists():
        repeated = VacancyOpening.objects.get(form_token=form_token)
        return Opening(repeated, tuple(before), tuple(before), (), repeated=True)
    opening = vacancy_opening_create(
        position=locked,
        by=by,
        data={
            "kind": VacancyOpening.Kind.LATER,
            "count": count,
            "date": date,
            "act": act.strip(),
            "note": note,
            "form_token": form_token,
        },
    )
    messages: list[str] = []
    if ledger is not None:
        loaded = _load(locked, lock=True)
        messages = loaded.messages
        _save(
            loaded, loaded.state, by=by, reason=f"Abertura de {plural(count, 'vaga', 'vagas')}: {act.strip()}"
        )
        after = loaded.state.schedule()
    else:
        after = project(params_for_position(locked), (), locked.vacancies + count)
    return Opening(opening, tuple(before), tuple(after), tuple(messages))
