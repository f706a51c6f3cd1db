"""Nominations of a position, seat by seat (RULES.md §4): preview, call, took office, withdrawal, no-show,
end of list, vacancies opened during validity.

Every write is ``@transaction.atomic`` and starts by locking the position's row (``select_for_update``):
two clerks calling on the same position at once are served one after the other, and the second one
continues from the state the first one left, so a seat is never filled twice nor a candidate nominated
twice (the partial unique constraints of ``Nomination`` would refuse it anyway).

Where the state lives
---------------------
The pure engine (``candidates.engine.allocation``) decides who fills each seat. Its state for a position is
kept in ``AllocationLedger.state`` as ``State.to_dict(include_candidates=False)`` (a snapshot; why a
snapshot and not an event log: see ``AllocationLedger``). The candidates are the general list of the
published final run (``ResultRun``), read again on each load, with the reserves each one is on and the
reserve preferred for a simultaneous call. In the engine a candidate is named ``"inscrição <number>"``,
so its Portuguese explanations read well.

``Nomination`` rows mirror the engine's nominations one to one (same ``order``): after each event the
rows whose engine nomination changed are updated (status, and for compensation the seat's kind and
list), and new ones are created with the act's data.

On every load the state is brought up to date with what happened elsewhere: vacancies opened on the
position's page (``contests.services.vacancy_opening_create``) are applied as ``OpenVacancies``, and a
registration eliminated, withdrawn, cancelled or excluded from the reserves (a procedure's decision, a
clerk's correction) as the matching event, so the next call never reaches someone who is off the lists.

Dates are passed in (``today``, ``act_date``, ``date``); nothing here reads the clock for a rule.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.db.models import Q
from simple_history.utils import bulk_create_with_history

from candidates.engine import allocation
from candidates.engine.schedule import project
from candidates.engine_params import params_following_contest, params_for_position
from candidates.models import AllocationLedger, Nomination, Registration, ResultEntry, ResultRun
from candidates.services.registrations import registration_set_status
from candidates.services.results import final_run_for
from contests.audit import User, audited_save
from contests.models import Contest, Position, VacancyOpening, add_days
from contests.services import vacancy_opening_create
from contests.wording import plural

ID_PREFIX = "inscrição "
MAX_CALL = 500

DEFAULT_END_REASONS: dict[str, str] = {
    Nomination.Status.ANNULLED: "Nomeação anulada: inscrição eliminada ou excluída da reserva.",
    Nomination.Status.WITHDRAWN: "Desistência registrada na inscrição.",
    Nomination.Status.NO_SHOW: "Não tomou posse no prazo: ato de nomeação tornado sem efeito.",
    Nomination.Status.END_OF_LIST: "A pedido do candidato, vai para o fim da lista.",
}


def engine_id(number: str) -> str:
    return f"{ID_PREFIX}{number}"


# Loading and saving the engine's state ----------------------------------------------------------------


@dataclass
class _Loaded:
    position: Position
    contest: Contest
    run: ResultRun
    ledger: AllocationLedger
    stored: allocation.State  # as saved: the ``Nomination`` rows match it
    state: allocation.State  # brought up to date (openings, eliminations)
    reg_of: dict[str, int]  # engine id → registration pk
    messages: list[str] = field(default_factory=list)


ROSTER_CACHE = "rosters"  # settings.CACHES: per process, thread-safe


def _run_lists(
    run: ResultRun, position: Position
) -> tuple[tuple[tuple[int, str], ...], dict[int, frozenset[str]]]:
    """The run's general list for ``position`` ((registration, number), best first) and the reserves
    each registration is on. A published run never changes (``ResultRun``), so this is cached (Django's
    cache framework, safe under threaded workers), keyed by the run, the position and the moment of
    publication (a primary key alone can come back after a rollback)."""
    key = None
    if run.is_published and run.published_at is not None:
        key = f"roster:{run.pk}:{position.pk}:{run.published_at.timestamp()}"
        cached = caches[ROSTER_CACHE].get(key)
        if cached is not None:
            return cached
    rows = (
        ResultEntry.objects.filter(run=run, position=position)
        .exclude(list=ResultEntry.List.OUT)
        .values_list("registration_id", "number", "list", "rank")
    )
    general: list[tuple[int | None, int, str]] = []  # rank, never None on a list
    lists: dict[int, set[str]] = {}
    for reg, number, name, rank in rows.iterator(chunk_size=5000):
        if name == ResultEntry.List.OPEN:
            general.append((rank, reg, number))
        else:
            lists.setdefault(reg, set()).add(name)
    general.sort()
    value = (tuple((reg, number) for _, reg, number in general), {k: frozenset(v) for k, v in lists.items()})
    if key is not None:
        caches[ROSTER_CACHE].set(key, value, timeout=None)
    return value


def _roster(
    run: ResultRun, position: Position
) -> tuple[tuple[allocation.Candidate, ...], dict[str, int], list]:
    """The run's general list for ``position`` as engine candidates (with the reserve each prefers for a
    simultaneous call, as it stands now), and the registrations whose status is no longer active."""
    general, lists = _run_lists(run, position)
    special = (
        Registration.objects.filter(position=position)
        .filter(~Q(preferred_reserve="") | ~Q(status=Registration.Status.ACTIVE))
        .values_list("pk", "preferred_reserve", "status")
    )
    prefers: dict[int, str] = {}
    unusual: list[tuple[int, str]] = []
    for pk, preferred, status in special:
        if preferred:
            prefers[pk] = preferred
        if status != Registration.Status.ACTIVE:
            unusual.append((pk, status))
    candidates = []
    reg_of: dict[str, int] = {}
    empty: frozenset[str] = frozenset()
    for reg, number in general:
        on = lists.get(reg, empty)
        prefers_reserve = prefers.get(reg)
        cid = engine_id(number)
        candidates.append(allocation.Candidate(cid, on, prefers_reserve if prefers_reserve in on else None))
        reg_of[cid] = reg
    return tuple(candidates), reg_of, unusual


def _reconcile(
    state: allocation.State, vacancies: int, unusual: list[tuple[int, str]], id_of: dict[int, str]
) -> tuple[allocation.State, list[str]]:
    """Apply what happened outside the nomination screens since the state was saved."""
    messages: list[str] = []
    if vacancies < state.vacancies:
        raise ValidationError(
            f"O cargo tem hoje {plural(vacancies, 'vaga', 'vagas')}, menos que as {state.vacancies} com que as nomeações "
            "já contam: vagas não podem ser retiradas depois de iniciadas as nomeações."
        )
    if vacancies > state.vacancies:
        state, change = allocation.apply(state, allocation.OpenVacancies(vacancies - state.vacancies))
        messages.extend(change.messages)
    removed = dict(state.removed)
    excluded = set(state.excluded)
    index = state.roster.index
    for pk, status in unusual:
        cid = id_of.get(pk)
        if cid is None:
            continue
        event: allocation.Event | None = None
        if status in (Registration.Status.ELIMINATED, Registration.Status.CANCELLED):
            if removed.get(cid) != allocation.ELIMINATED:
                event = allocation.Eliminate(cid)
        elif status == Registration.Status.WITHDRAWN:
            if cid not in removed:
                event = allocation.Withdraw(cid)
        elif (
            status == Registration.Status.EXCLUDED_FROM_RESERVE
            and cid not in excluded
            and cid not in removed
            and state.roster.candidates[index[cid]].lists
        ):
            event = allocation.ExcludeFromReserve(cid)
        if event is None:
            continue
        try:
            state, change = allocation.apply(state, event)
        except allocation.AllocationError as error:
            messages.append(f"{cid}: {error}")
            continue
        messages.extend(change.messages)
    return state, messages


def _load(position: Position, *, lock: bool) -> _Loaded:
    positions = Position.objects.select_related("contest__policy")
    if lock:
        positions = positions.select_for_update(of=("self",))
    position = positions.get(pk=position.pk)
    contest = position.contest
    ledger = AllocationLedger.objects.filter(position=position).select_related("run").first()
    run: ResultRun | None
    if ledger is not None:
        run = ledger.run
    else:
        run = final_run_for(position)
        if run is None:
            raise ValidationError(
                "Não há lista final publicada para este cargo: as nomeações saem da lista final publicada."
            )
    candidates, reg_of, unusual = _roster(run, position)
    if ledger is not None:
        stored = allocation.State.from_dict(ledger.state, candidates=candidates)
    else:
        params = params_for_position(position)
        stored = allocation.initial_state(candidates, params, vacancies=position.vacancies)
        ledger = AllocationLedger(position=position, run=run, state=stored.to_dict(include_candidates=False))
    id_of = {pk: cid for cid, pk in reg_of.items()}
    state, messages = _follow_contest(stored, position)
    state, more = _reconcile(state, position.vacancies, unusual, id_of)
    return _Loaded(position, contest, run, ledger, stored, state, reg_of, [*messages, *more])


def _follow_contest(state: allocation.State, position: Position) -> tuple[allocation.State, list[str]]:
    """With the threshold counted on the contest, vacancies opened on other positions count now, as on
    the position's page (``params_following_contest``, SM art. 1 §2)."""
    params = params_following_contest(state.params, position)
    if params == state.params:
        return state, []
    before = state.reservation()
    state = replace(state, params=params, _seating=None)
    after = state.reservation()
    if after.racial == before.racial:
        return state, []
    total = params.threshold_basis(state.vacancies)
    return state, [
        f"O concurso tem agora {plural(total, 'vaga', 'vagas')} (o mínimo para a reserva é contado no concurso"
        f"{params.cite('threshold')}): reserva a {params.group_label} neste cargo: {after.racial_explanation}"
    ]


def _check_version(loaded: _Loaded, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != loaded.ledger.version:
        raise ValidationError(
            "Outra operação foi registrada neste cargo enquanto você revisava a prévia: confira a nova prévia "
            "antes de confirmar."
        )


def _check_validity(contest: Contest, day: datetime.date) -> None:
    """Nominations only for a homologated contest, within its validity (CF art. 37 III and IV)."""
    if not contest.is_homologated:
        raise ValidationError("As nomeações só começam depois da homologação do concurso.")
    if not contest.is_valid_on(day):
        end = contest.validity_end
        raise ValidationError(
            f"{day:%d/%m/%Y} está fora da validade do concurso ({contest.homologation_date:%d/%m/%Y} a "
            f"{end:%d/%m/%Y}): não se nomeia a partir dele fora desse período."
        )


def _save(
    loaded: _Loaded,
    state: allocation.State,
    *,
    by: User | None,
    reason: str,
    act: dict | None = None,
    updates: dict[int, dict] | None = None,
    ended_on: datetime.date | None = None,
) -> list[Nomination]:
    """Store ``state`` and bring the ``Nomination`` rows in line with it; returns the rows created."""
    old = loaded.stored.nominations
    updates = updates or {}
    changed = [
        (i + 1, nom)
        for i, nom in enumerate(state.nominations[: len(old)])
        if nom != old[i] or (i + 1) in updates
    ]
    if changed:
        rows = {
            row.order: row
            for row in Nomination.objects.select_for_update().filter(
                position=loaded.position, order__in=[order for order, _ in changed]
            )
        }
        for order, nom in changed:
            row = rows[order]
            status_changed = row.status != nom.status
            row.status = nom.status
            row.seat = nom.seat
            row.seat_kind = nom.kind
            row.source_list = nom.list
            row.reverted = nom.reverted
            row.compensated = nom.compensated
            row.why = nom.why
            for name, value in updates.get(order, {}).items():
                setattr(row, name, value)
            if status_changed and row.status not in Nomination.HOLDING:
                row.ended_on = row.ended_on or ended_on
                row.end_reason = row.end_reason or DEFAULT_END_REASONS.get(row.status, "")
            audited_save(row, by=by, reason=reason)
    new = state.nominations[len(old) :]
    created: list[Nomination] = []
    if new:
        if act is None:
            raise ValidationError("Nomeações novas exigem os dados do ato.")
        created = [
            Nomination(
                position=loaded.position,
                registration_id=loaded.reg_of[nom.candidate],
                run=loaded.run,
                order=nom.order,
                seat=nom.seat,
                seat_kind=nom.kind,
                source_list=nom.list,
                reverted=nom.reverted,
                compensated=nom.compensated,
                status=nom.status,
                why=nom.why,
                **act,
            )
            for nom in new
        ]
        created = bulk_create_with_history(
            created, Nomination, batch_size=500, default_user=by, default_change_reason=reason
        )
    ledger = loaded.ledger
    ledger.state = state.to_dict(include_candidates=False)
    ledger.version += 1
    audited_save(ledger, by=by, reason=reason)
    return created


def _error(error: allocation.AllocationError) -> ValidationError:
    return ValidationError(str(error))


def _locked_nomination(nomination: Nomination) -> tuple[_Loaded, Nomination]:
    loaded = _load(nomination.position, lock=True)
    row = (
        Nomination.objects.select_for_update(of=("self",))
        .select_related("registration")
        .get(pk=nomination.pk)
    )
    if row.position_id != loaded.position.pk:
        raise ValidationError("A nomeação não é deste cargo.")
    return loaded, row


EVENTS = {
    "took_office": "A posse",
    "withdraw": "A desistência",
    "no_show": "O registro do não comparecimento",
    "end_of_list": "O pedido de reclassificação para o fim da lista",
}


def _check_event_date(row: Nomination, date: datetime.date, event: str) -> None:
    """The one home of "nothing happens to a nomination before its act" (issue 14: an end-of-list request
    dated 01/01/0001 was stored for an act of 2026): took office, withdrawal, no-show, end of list."""
    if date < row.act_date:
        raise ValidationError(
            {"date": f"{EVENTS[event]} não pode ser anterior ao ato de nomeação ({row.act_date:%d/%m/%Y})."}
        )


def _engine_id(loaded: _Loaded, nomination: Nomination) -> str:
    return engine_id(nomination.registration.number)


# Reads ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewRow:
    seat: int
    kind: str
    list: str
    registration: Registration
    reverted: bool
    compensated: bool
    why: str
    reason: allocation.Reason | None = None  # the why as data, for the screen to format


@dataclass(frozen=True)
class Preview:
    """Who the next call of ``count`` would nominate, and why, before anyone confirms it."""

    count: int
    rows: tuple[PreviewRow, ...]
    compensated: tuple[PreviewRow, ...]
    messages: tuple[str, ...]
    stopped: bool
    vacancies: int
    version: int


@transaction.atomic
def nominations_preview(*, position: Position, count: int) -> Preview:
    """Who ``nominations_call`` with ``count`` would nominate now, and why (nothing is written)."""
    if count < 1:
        raise ValidationError({"count": "Convoque ao menos uma vaga."})
    loaded = _load(position, lock=False)
    change = allocation.preview_call(loaded.state, min(count, MAX_CALL))
    regs = Registration.objects.select_related("candidate").in_bulk(
        [loaded.reg_of[n.candidate] for n in (*change.nominated, *change.changed)]
    )

    def row(nom: allocation.Nomination) -> PreviewRow:
        return PreviewRow(
            nom.seat,
            nom.kind,
            nom.list,
            regs[loaded.reg_of[nom.candidate]],
            nom.reverted,
            nom.compensated,
            nom.why,
            nom.reason,
        )

    messages = [*loaded.messages]
    if not change.nominated:
        messages.append("Não há vaga a preencher nem candidato a convocar neste cargo agora.")
    elif len(change.nominated) < count:
        messages.append(
            f"Só {plural(len(change.nominated), 'vaga pode ser preenchida', 'vagas podem ser preenchidas')} agora "
            f"({plural(loaded.state.vacancies, 'aberta', 'abertas')})."
        )
    if change.stopped:
        messages.append("A chamada para: não há mais candidatos aprovados a convocar.")
    return Preview(
        count=count,
        rows=tuple(row(n) for n in change.nominated),
        compensated=tuple(row(n) for n in change.changed),
        messages=tuple(messages),
        stopped=change.stopped,
        vacancies=loaded.state.vacancies,
        version=loaded.ledger.version,
    )


def state_for(position: Position) -> allocation.State:
    """The engine's state for ``position`` now (read only), e.g. for the lists as they stand."""
    return _load(position, lock=False).state


# Writes -----------------------------------------------------------------------------------------------


@transaction.atomic
def nominations_call(
    *,
    position: Position,
    count: int,
    act_number: str,
    act_date: datetime.date,
    by: User | None,
    gazette_edition: str = "",
    gazette_page: str = "",
    gazette_date: datetime.date | None = None,
    notified_gazette: bool = True,
    notified_email: bool = False,
    notified_letter: bool = False,
    today: datetime.date | None = None,
    expected_version: int | None = None,
) -> list[Nomination]:
    """Nominate the next ``count`` seats of ``position`` by one act (RULES §4).

    Freed seats first (lowest number first), then new ones, never more than the vacancies open. The
    deadline to take office runs from the act's publication (``gazette_date``, else ``act_date``) for the
    contest's ``office_deadline_days``. ``today`` (default: the act's date) must fall within the contest's
    validity. ``expected_version`` is the ledger version the clerk's preview showed: if another operation
    came in between, the call is refused so the clerk sees the new preview.
    """
    if count < 1:
        raise ValidationError({"count": "Convoque ao menos uma vaga."})
    if count > MAX_CALL:
        raise ValidationError({"count": f"Convoque no máximo {MAX_CALL} vagas por ato."})
    act_number = act_number.strip()
    if not act_number:
        raise ValidationError({"act_number": "Informe o número do ato de nomeação."})
    publication = gazette_date or act_date
    if publication < act_date:
        raise ValidationError({"gazette_date": "A publicação não pode ser anterior ao ato."})
    loaded = _load(position, lock=True)
    _check_validity(loaded.contest, today or act_date)
    _check_version(loaded, expected_version)
    office_deadline = add_days(publication, loaded.contest.office_deadline_days)
    if office_deadline is None:
        raise ValidationError(
            {
                "gazette_date": "Data da publicação fora do calendário: o prazo para a posse passaria do ano 9999."
            }
        )
    try:
        state, change = allocation.apply(loaded.state, allocation.Call(count))
    except allocation.AllocationError as error:
        raise _error(error) from None
    if not change.nominated:
        raise ValidationError("Não há vaga a preencher nem candidato a convocar neste cargo agora.")
    act = {
        "act_number": act_number,
        "act_date": act_date,
        "gazette_edition": gazette_edition.strip(),
        "gazette_page": gazette_page.strip(),
        "gazette_date": gazette_date,
        "notified_gazette": notified_gazette,
        "notified_email": notified_email,
        "notified_letter": notified_letter,
        "office_deadline": office_deadline,
    }
    reason = f"Nomeação: ato {act_number} de {act_date:%d/%m/%Y}"
    return _save(loaded, state, by=by, reason=reason, act=act, ended_on=today or act_date)


@transaction.atomic
def nomination_took_office(*, nomination: Nomination, date: datetime.date, by: User | None) -> Nomination:
    """The nominee took office on ``date``, within the deadline (the seat stays theirs for good)."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não aguarda posse.")
    _check_event_date(row, date, "took_office")
    if date > row.office_deadline:
        raise ValidationError(
            {
                "date": f"O prazo para a posse terminou em {row.office_deadline:%d/%m/%Y}: registre o não "
                "comparecimento (a nomeação fica sem efeito)."
            }
        )
    try:
        state, _ = allocation.apply(loaded.state, allocation.TookOffice(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    _save(loaded, state, by=by, reason="Posse registrada", updates={row.order: {"took_office_on": date}})
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_withdraw(
    *, nomination: Nomination, statement_file: File, by: User | None, date: datetime.date, reason: str = ""
) -> Nomination:
    """The nominee withdrew before taking office, by a signed statement: off every list; the seat keeps
    its number and kind and goes to the next of the same list on the next call (SM art. 4 §4; AR art. 3
    §2)."""
    if not statement_file:
        raise ValidationError({"statement_file": "Anexe o termo de desistência assinado."})
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não cabe desistência.")
    _check_event_date(row, date, "withdraw")
    try:
        state, change = allocation.apply(loaded.state, allocation.Withdraw(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = "Desistência por termo assinado" + (f": {reason.strip()}" if reason.strip() else "")
    name = (statement_file.name or "termo").rsplit("/", 1)[-1]
    row.withdrawal_statement.save(name, statement_file, save=False)
    updates = {
        row.order: {
            "withdrawal_statement": row.withdrawal_statement.name,
            "ended_on": date,
            "end_reason": text + ". " + " ".join(change.messages[1:]),
        }
    }
    _save(loaded, state, by=by, reason=text, updates=updates)
    registration_set_status(
        registration=row.registration, status=Registration.Status.WITHDRAWN, by=by, reason=text
    )
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_no_show(
    *, nomination: Nomination, by: User | None, today: datetime.date, act_number: str = ""
) -> Nomination:
    """The deadline to take office passed without the nominee taking office: the act is made void and
    the seat is refilled on the next call, like a withdrawal."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(f"Esta nomeação está “{row.get_status_display()}”: não aguarda posse.")
    _check_event_date(row, today, "no_show")
    if today <= row.office_deadline:
        raise ValidationError(
            f"O prazo para a posse vai até {row.office_deadline:%d/%m/%Y}: o não comparecimento só pode ser "
            "registrado depois dele."
        )
    try:
        state, _ = allocation.apply(loaded.state, allocation.NoShow(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = f"Não tomou posse até {row.office_deadline:%d/%m/%Y}: ato {row.act_number} tornado sem efeito"
    if act_number.strip():
        text += f" pelo ato {act_number.strip()}"
    _save(
        loaded, state, by=by, reason=text, updates={row.order: {"ended_on": today, "end_reason": text + "."}}
    )
    registration_set_status(
        registration=row.registration, status=Registration.Status.WITHDRAWN, by=by, reason=text
    )
    row.refresh_from_db()
    return row


@transaction.atomic
def nomination_end_of_list(
    *, nomination: Nomination, by: User | None, date: datetime.date, reason: str = ""
) -> Nomination:
    """At the nominee's request, where the edital allows it: the nomination ends, the seat is refilled
    like a withdrawal and the candidate goes to the end of every list they are on (RULES §4 item 4)."""
    loaded, row = _locked_nomination(nomination)
    if row.status != Nomination.Status.ACTIVE:
        raise ValidationError(
            f"Esta nomeação está “{row.get_status_display()}”: não cabe ir ao fim da lista."
        )
    _check_event_date(row, date, "end_of_list")
    try:
        state, _ = allocation.apply(loaded.state, allocation.EndOfList(_engine_id(loaded, row)))
    except allocation.AllocationError as error:
        raise _error(error) from None
    text = "Pedido de reclassificação para o fim da lista" + (f": {reason.strip()}" if reason.strip() else "")
    _save(
        loaded, state, by=by, reason=text, updates={row.order: {"ended_on": date, "end_reason": text + "."}}
    )
    row.refresh_from_db()
    return row


@transaction.atomic
def nominations_sync(
    *, position: Position, by: User | None, today: datetime.date, reason: str = ""
) -> list[str]:
    """Apply now what happened elsewhere to ``position``'s nominations (an elimination or exclusion
    decided in a procedure, a withdrawal recorded on the registration, vacancies opened on the position's
    page): a nomination it ends is annulled or withdrawn at once instead of at the next call. A status
    change reaches it through ``candidates.services.status.registration_change_status`` (DESIGN.md: a
    decision that eliminates a candidate re-runs the allocation). Returns the engine's messages."""
    if not AllocationLedger.objects.filter(position=position).exists():
        return []  # no nomination yet: the next call starts from the current data anyway
    loaded = _load(position, lock=True)
    if loaded.state == loaded.stored:
        return []
    text = " ".join(loaded.messages)
    text = f"{reason}. {text}" if reason else f"Atualização: {text}"
    _save(loaded, loaded.state, by=by, reason=text[:300], ended_on=today)
    return loaded.messages


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
    submission again opens nothing and returns the first opening with ``repeated`` set."""
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
