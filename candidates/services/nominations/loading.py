"""The engine's state for a position: loaded from its ledger with the published final run's roster,
brought up to date with what happened elsewhere (vacancies opened, registrations eliminated, withdrawn or
excluded from the reserves), and saved with the ``Nomination`` rows brought in line with it; the checks
every write shares (validity, the preview's version), and the record of what the public now sees."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from simple_history.utils import bulk_create_with_history

from candidates.engine import allocation
from candidates.engine_params import params_following_contest, params_for_position
from candidates.models import AllocationLedger, Nomination, Registration, ResultEntry, ResultRun
from candidates.services.results import final_run_for
from contests.audit import User, audited_save
from contests.models import Contest, Position
from contests.publication import publication_record
from contests.wording import plural

ID_PREFIX = "inscrição "

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
    act_overrides: dict[int, dict] | None = None,
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
    # A seat taken back (RULES §4 item 7, ``own_seat``): the nomination that leaves it is saved before the
    # one that takes it again (one holder per seat at every moment).
    changed.sort(key=lambda pair: pair[1].status in allocation.HOLDING)
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
            row.reinstated = nom.reinstated
            row.displaced = nom.displaced
            row.why = nom.why
            if status_changed and row.status in Nomination.HOLDING:
                row.ended_on = None  # restored (RULES §4 item 7)
                row.end_reason = ""
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
                reinstated=nom.reinstated,
                status=nom.status,
                why=nom.why,
                **{**act, **(act_overrides or {}).get(loaded.reg_of[nom.candidate], {})},
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


def _published(position: Position, *, kind: str, title: str, by: User | None) -> None:
    """The position's public nomination order (its page, CSV and JSON) changed: recorded as a publication,
    seen by the public once the transaction commits. Every write that changes a ``Nomination`` row calls it:
    a call writes them in bulk, which no signal would report."""
    publication_record(
        contest=position.contest,
        kind=kind,
        title=title,
        by=by,
        url=reverse("public:nominations", args=[position.contest.slug, position.pk]),
    )
