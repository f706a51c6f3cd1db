"""The allocation engine: lists, nomination order and who fills each seat, and why (RULES.md §3–§4).

PURE: the standard library and ``contests.quotas`` only, plus the pure helper modules it is split into
(``candidates.engine.ranking``: lists and tie-breaks; ``candidates.engine.schedule``: seat kinds and
``Params``; ``candidates.engine.records``: statuses, ``Nomination``, events; ``candidates.engine.seating``:
who fills each seat, on the lists of ``candidates.engine.list_index``, with its ``journal`` and ``reasons``;
``candidates.engine.serialisation``: records as JSON-able data; ``candidates.engine.fenwick``). No Django;
dates and everything else are passed in. A test enforces it.
Import everything from here: the split is an implementation detail.

Public API
==========

Input
-----
``Params(racial, pcd=None, order="proportional", nth=5, priority=(),
open_competition_rule="projected", dual_rule="choose", dual_default="racial", group_label="negros",
threshold_extra=0, citations=())``
    The policy as the engine sees it (``racial``/``pcd`` are ``contests.quotas.ReserveRule``, re-exported
    here). The Django app builds it with ``candidates.engine_params.params_for_contest`` or
    ``params_from_policy``.
    ``priority=()`` takes the order's default (RULES §4): ``("pcd", "racial")`` for the proportional
    order, ``("racial", "pcd")`` for every k-th.
``Candidate(id, lists=frozenset(), prefers=None)``
    An approved candidate: the reserves opted for at registration (``"racial"``, ``"pcd"``) and the
    one chosen for a simultaneous call to both. The engine takes them in general classification order.

Ranking (``candidates.engine.ranking``, re-exported here)
    ``rank(applicants, *, registration_end, criteria=(), pass_mark=None) -> list[Applicant]``,
    ``passing(applicants, pass_mark)``, ``tie_break_reason(a, b, *, registration_end, criteria=())``,
    ``phase_cut(ranked, k, *, racial, pcd=None, quota=None, score=None, labels=None) -> Cut`` (the Ks
    of each list from ``cut_quota(k, *, racial, pcd=None, quota=None) -> CutQuota``),
    ``classification_lists(ranked, *, excluded=()) -> Lists``, ``to_candidates(ranked)``;
    criteria ``PhaseScore(phase)``, ``OlderFirst()``, ``JuryService()``.

Events (frozen; ``event_from_dict({"call": 5})`` / ``event_to_dict(event)``)
    ``Call(count)``, ``OpenVacancies(count)``, ``Withdraw(candidate)``, ``NoShow(candidate)``,
    ``Eliminate(candidate)``, ``ExcludeFromReserve(candidate)``, ``EndOfList(candidate)``,
    ``TookOffice(candidate)``, ``Reinstate(candidate, ground="")``, ``CourtHold(candidate)``,
    ``CourtRelease(candidate)`` (RULES §4 items 7–8: ``candidates.engine.reinstatement``).

State and transitions
---------------------
``initial_state(candidates, params, *, vacancies=0) -> State``
``apply(state, event) -> tuple[State, Change]``: one event; the old state is left unchanged.
``apply_all(state, events) -> tuple[State, tuple[Change, ...]]`` and ``replay(state, events) -> State``:
    replaying every event from the start gives the same state as applying them one by one.
``preview_call(state, count) -> Change``: who the next call would nominate, and why, without
    applying it (the app shows it before a clerk confirms the call).

``State`` (frozen, compared by value): ``params``, ``roster``, ``vacancies``, ``seats`` (kinds of the
seats created so far; seat s at index s−1), ``nominations`` (``Nomination``, in order), ``removed``
((candidate, ``withdrawn``|``no_show``|``eliminated``) in order), ``excluded`` (off the reserved lists),
``end_of_list`` (requests, in order), ``removals`` (eliminations and exclusions a ``Reinstate`` may
undo), ``owed`` (seats owed, RULES §4 item 7), ``court_holds`` (item 8). Queries: ``schedule()`` (kinds for the ``n`` open vacancies: kept
then projected), ``reservation()`` (``quotas.Reservation`` for ``n``), ``lists()`` (classification lists
now: ``{"open": [...], "racial": [...], "pcd": [...]}``), ``active_nomination(candidate)``.
``to_dict(include_candidates=True)`` gives plain JSON-able data; ``State.from_dict(data, candidates=None)``
restores it (pass ``candidates`` when the dict was saved without them).

``Nomination(order, seat, kind, candidate, list, status, why, reverted, compensated, reason)``;
statuses ``active``, ``took_office``, ``withdrawn``, ``no_show``, ``annulled``, ``end_of_list``,
``on_hold``; flags ``reinstated`` and ``displaced``.
``reason`` is a ``Reason`` (kind, list, via, citation, the §2 figures, places on the lists, collision,
freed seat, a held candidate's other seat): screens format it (``Reason.detail()``) rather than slicing
``why`` (which is ``Reason.text()`` plus, after a compensation, its note).
``Change(event, nominated, changed, freed_seats, vacancies, stopped, messages)``: the new nominations,
the earlier ones whose status or list changed (compensation), seats freed, and Portuguese messages.

Persisting and restoring (the Django app)
-----------------------------------------
Save ``state.to_dict(include_candidates=False)`` (JSON) after every event, with the ``Nomination`` rows
(``nominated`` rows are new, keyed by ``order``; ``changed`` rows update the row with the same
``order``). Restore with ``State.from_dict(data, candidates=roster)``, ``roster`` being the same ranked
candidates (same published result run) in the same order; then ``apply`` the next event, or
``preview_call`` first to show who would be called and why. The snapshot is the record: it keeps the
nominations exactly as decided. Replaying the event log from ``initial_state`` gives the same state
(tests pin it), which is how to recompute on a *new* roster (a new result run).

Errors: ``AllocationError`` (a ``ValueError``) with a Portuguese message for an event that cannot apply
(unknown candidate, a withdrawal after taking office, …); the state is then unchanged.

Performance
-----------
A state carries a private index (Fenwick trees over the lists) handed to the state ``apply`` returns, so
a run of events costs O(log n) per seat. Applying an event to an older state (or to a state restored
with ``from_dict``) rebuilds the index first, in O(n).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from candidates.engine import reinstatement
from candidates.engine.ranking import (
    Applicant,
    Candidate,
    Cut,
    CutQuota,
    JuryService,
    Lists,
    OlderFirst,
    PhaseScore,
    classification_lists,
    cut_quota,
    passing,
    phase_cut,
    rank,
    tie_break_reason,
    to_candidates,
)
from candidates.engine.records import (
    ACTIVE,
    ANNULLED,
    ELIMINATED,
    END_OF_LIST,
    HOLDING,
    NO_SHOW,
    ON_HOLD,
    STATUSES,
    TOOK_OFFICE,
    WITHDRAWN,
    Call,
    CourtHold,
    CourtRelease,
    Eliminate,
    EndOfList,
    Event,
    ExcludeFromReserve,
    Nomination,
    NoShow,
    OpenVacancies,
    Reason,
    Reinstate,
    Roster,
    TookOffice,
    Withdraw,
    _CandidateEvent,
    _count,
    event_from_dict,
    event_to_dict,
    ordinal,
)
from candidates.engine.schedule import (
    ACTUAL,
    CHOOSE,
    COMPENSATION,
    EVERY_NTH,
    KINDS,
    LARGER_ONLY,
    NEXT_SEAT,
    OPEN,
    OWN_SEAT,
    PCD,
    PROJECTED,
    PROPORTIONAL,
    RACIAL,
    RESERVES,
    AllocationError,
    Params,
    next_kind,
    project,
    reserved_seats,
    schedule,
)
from candidates.engine.seating import Seating
from candidates.engine.serialisation import (
    candidate_from_dict,
    candidate_to_dict,
    nomination_from_dict,
    params_from_dict,
    params_to_dict,
)
from contests.quotas import Reservation, ReserveRule, reservation
from contests.wording import plural

__all__ = [
    "ACTIVE",
    "ACTUAL",
    "ANNULLED",
    "CHOOSE",
    "COMPENSATION",
    "ELIMINATED",
    "END_OF_LIST",
    "EVERY_NTH",
    "HOLDING",
    "KINDS",
    "LARGER_ONLY",
    "NEXT_SEAT",
    "NO_SHOW",
    "ON_HOLD",
    "OPEN",
    "OWN_SEAT",
    "PCD",
    "PROJECTED",
    "PROPORTIONAL",
    "RACIAL",
    "TOOK_OFFICE",
    "WITHDRAWN",
    "AllocationError",
    "Applicant",
    "Call",
    "Candidate",
    "Change",
    "CourtHold",
    "CourtRelease",
    "Cut",
    "CutQuota",
    "Eliminate",
    "EndOfList",
    "Event",
    "ExcludeFromReserve",
    "JuryService",
    "Lists",
    "NoShow",
    "Nomination",
    "OlderFirst",
    "OpenVacancies",
    "Params",
    "PhaseScore",
    "Reason",
    "Reinstate",
    "ReserveRule",
    "Roster",
    "State",
    "TookOffice",
    "Withdraw",
    "apply",
    "apply_all",
    "classification_lists",
    "cut_quota",
    "event_from_dict",
    "event_to_dict",
    "initial_state",
    "next_kind",
    "params_from_dict",
    "params_to_dict",
    "passing",
    "phase_cut",
    "preview_call",
    "project",
    "rank",
    "replay",
    "reserved_seats",
    "schedule",
    "tie_break_reason",
    "to_candidates",
]

FORMAT = "cotas.allocation/1"


# Roster, state, change ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What one event changed: new nominations, earlier ones changed, seats freed, messages."""

    event: Event
    nominated: tuple[Nomination, ...] = ()
    changed: tuple[Nomination, ...] = ()
    freed_seats: tuple[int, ...] = ()
    vacancies: int = 0
    stopped: bool = False
    messages: tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    """A position's allocation after some events: plain data, compared by value (see the module doc)."""

    params: Params
    roster: Roster
    vacancies: int = 0
    seats: tuple[str, ...] = ()
    nominations: tuple[Nomination, ...] = ()
    removed: tuple[tuple[str, str], ...] = ()
    excluded: tuple[str, ...] = ()
    end_of_list: tuple[str, ...] = ()
    removals: tuple[tuple[str, str, int], ...] = ()
    owed: tuple[tuple[str, int, str], ...] = ()
    court_holds: tuple[str, ...] = ()
    _seating: Seating | None = field(default=None, repr=False, compare=False, hash=False)

    # Queries ------------------------------------------------------------------------------------------

    def schedule(self) -> list[str]:
        """Kinds of the seats for the ``n`` vacancies open now: kept kinds, then projected (RULES §4)."""
        return project(self.params, self.seats, self.vacancies)

    def reservation(self) -> Reservation:
        """RULES §2 for the vacancies open now, with the carried fraction."""
        return reservation(
            self.vacancies,
            self.params.racial,
            self.params.pcd,
            threshold_count=self.params.threshold_count(self.vacancies),
            citations=dict(self.params.citations),
            group_label=self.params.group_label,
        )

    def lists(self) -> dict[str, list[str]]:
        """The classification lists now: nominees stay on them; withdrawn and eliminated candidates
        are off every list, excluded ones off the reserved lists; end-of-list requests at the end."""
        seating = _borrow(self)
        return {name: seating.list_ids(name) for name in (OPEN, *self.params.reserves)}

    def active_nomination(self, candidate: str) -> Nomination | None:
        for nom in reversed(self.nominations):
            if nom.candidate == candidate and nom.status in HOLDING:
                return nom
        return None

    # Serialisation ------------------------------------------------------------------------------------

    def to_dict(self, *, include_candidates: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "params": params_to_dict(self.params)}
        if include_candidates:
            data["candidates"] = [candidate_to_dict(c) for c in self.roster.candidates]
        data.update(
            vacancies=self.vacancies,
            seats=list(self.seats),
            nominations=[n.to_dict(with_reason=True) for n in self.nominations],
            removed=[list(pair) for pair in self.removed],
            excluded=list(self.excluded),
            end_of_list=list(self.end_of_list),
        )
        # RULES §4 items 7–8, only when there is something (snapshots made before them stay the same).
        if self.removals:
            data["removals"] = [list(r) for r in self.removals]
        if self.owed:
            data["owed"] = [list(o) for o in self.owed]
        if self.court_holds:
            data["court_holds"] = list(self.court_holds)
        return data

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, candidates: Iterable[Candidate] | Roster | None = None
    ) -> State:
        """Restore ``to_dict``'s output; ``candidates`` when it was saved without them."""
        try:
            if data.get("format") != FORMAT:
                raise AllocationError("Formato de estado desconhecido.")
            params = params_from_dict(data["params"])
            if candidates is None:
                roster = Roster(tuple(candidate_from_dict(c) for c in data["candidates"]))
            else:
                roster = candidates if isinstance(candidates, Roster) else Roster(tuple(candidates))
            state = cls(
                params=params,
                roster=roster,
                vacancies=_count(data["vacancies"], "abertas"),
                seats=tuple(data["seats"]),
                nominations=tuple(nomination_from_dict(n) for n in data["nominations"]),
                removed=tuple((str(a), str(b)) for a, b in data["removed"]),
                excluded=tuple(data["excluded"]),
                end_of_list=tuple(data["end_of_list"]),
                removals=tuple((str(a), str(b), int(o)) for a, b, o in data.get("removals", ())),
                owed=tuple((str(a), int(o), str(g)) for a, o, g in data.get("owed", ())),
                court_holds=tuple(str(h) for h in data.get("court_holds", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, AllocationError):
                raise
            raise AllocationError(f"Estado inválido: {exc}.") from None
        _check_state(state)
        return state


def _check_state(state: State) -> None:
    named = [n.candidate for n in state.nominations]
    named += [cid for cid, _ in state.removed] + list(state.excluded) + list(state.end_of_list)
    state.roster.locate_many(named)  # every id known, or a Portuguese error
    if len(state.seats) > state.vacancies or any(k not in KINDS for k in state.seats):
        raise AllocationError("Estado inválido: vagas criadas incoerentes.")
    holders: set[int] = set()
    people: set[str] = set()
    for i, nom in enumerate(state.nominations, start=1):
        if nom.order != i or not 1 <= nom.seat <= len(state.seats) or nom.status not in STATUSES:
            raise AllocationError(f"Estado inválido: nomeação {i}.")
        if nom.status in HOLDING:
            if nom.seat in holders or nom.candidate in people:
                raise AllocationError(f"Estado inválido: nomeação {i} duplicada.")
            holders.add(nom.seat)
            people.add(nom.candidate)
    for _, status in state.removed:
        if status not in (WITHDRAWN, NO_SHOW, ELIMINATED):
            raise AllocationError(f"Estado inválido: situação {status!r}.")


# Transitions ----------------------------------------------------------------------------------------


def initial_state(candidates: Iterable[Candidate] | Roster, params: Params, *, vacancies: int = 0) -> State:
    """A position before any nomination: its approved candidates in general order and its vacancies."""
    roster = candidates if isinstance(candidates, Roster) else Roster(tuple(candidates))
    if not isinstance(params, Params):
        raise AllocationError("Parâmetros da política inválidos.")
    return State(params=params, roster=roster, vacancies=_count(vacancies, "abertas"))


def _build(state: State) -> Seating:
    return Seating(
        state.params,
        state.roster,
        state.vacancies,
        state.seats,
        state.nominations,
        (cid for cid, _ in state.removed),
        state.excluded,
        state.end_of_list,
        state.court_holds,
        state.owed,
    )


def _borrow(state: State) -> Seating:
    """The state's index, built on first use (it stays with the state)."""
    seating = state._seating
    if seating is None:
        seating = _build(state)
        object.__setattr__(state, "_seating", seating)
    return seating


def apply(state: State, event: Event | Mapping[str, Any]) -> tuple[State, Change]:
    """Apply one event (RULES §4) and return the new state and what changed.

    The old state keeps its value; its index moves to the new state (a later use of the old state
    rebuilds one). On ``AllocationError`` nothing changed.
    """
    if not isinstance(event, Call | OpenVacancies | _CandidateEvent):
        event = event_from_dict(event)
    seating = _borrow(state)
    c = -1
    if isinstance(event, _CandidateEvent):
        c = seating.lookup(event.candidate)
        _validate(state, seating, event, c)
    # The new state takes the index. Should ``_apply`` fail half-way, the index is simply dropped and
    # the next use rebuilds one from the (unchanged) old state.
    object.__setattr__(state, "_seating", None)
    new_state, change = _apply(state, seating, event, c)
    object.__setattr__(new_state, "_seating", seating)
    return new_state, change


def _validate(state: State, seating: Seating, event: _CandidateEvent, c: int) -> None:
    """Refuse an event on a candidate who is not on the lists it needs (RULES §8), in Portuguese.

    The one home of these refusals: ``simulate`` and the app's services both go through ``apply``.
    ``Eliminate`` of a candidate already off every list is no error: it changes nothing.
    """
    name = event.candidate
    nom_index = seating.active_of.get(c)
    nom = seating.nominations[nom_index] if nom_index is not None else None
    if isinstance(event, Reinstate | CourtHold | CourtRelease):
        reinstatement.validate(state, seating, event, c)
        return
    if isinstance(event, Eliminate):
        return
    if seating.removed[c]:
        status = dict(state.removed).get(name)
        if status == ELIMINATED:
            raise AllocationError(f"{name} já está fora de todas as listas, por eliminação.")
        raise AllocationError(f"{name} já desistiu (ou não tomou posse) e está fora de todas as listas.")
    if isinstance(event, Withdraw | EndOfList) and nom is not None and nom.status == TOOK_OFFICE:
        raise AllocationError(
            f"{name} já tomou posse: a vacância posterior não é desistência; "
            "abra uma nova vaga se for o caso."
        )
    if isinstance(event, NoShow | TookOffice) and (nom is None or nom.status != ACTIVE):
        raise AllocationError(f"{name} não tem nomeação ativa aguardando posse.")
    if isinstance(event, ExcludeFromReserve) and not any(seating.is_on(r, c) for r in RESERVES):
        refusal = _not_on_a_reserve(state, seating, c)
        raise AllocationError(f"{name} {refusal}")


def _not_on_a_reserve(state: State, seating: Seating, c: int) -> str:
    """Why a candidate cannot be excluded from the reserved lists: they are on none of them."""
    if seating.excluded[c]:
        return "já foi excluído das listas reservadas."
    opted = seating.candidates[c].lists
    if not opted:
        return "não optou por nenhuma reserva: não está em nenhuma lista reservada."
    return (
        "optou só pela reserva para pessoas com deficiência, que não é prevista aqui: não está em "
        "nenhuma lista reservada."
    )


def _apply(state: State, seating: Seating, event: Event, c: int) -> tuple[State, Change]:
    if isinstance(event, Call):
        return _apply_call(state, seating, event)
    if isinstance(event, OpenVacancies):
        return _apply_open(state, seating, event)
    return _apply_to_candidate(state, seating, event, c)


def _apply_call(state: State, seating: Seating, event: Call) -> tuple[State, Change]:
    """A call: fill up to ``count`` seats (``Seating.call``, RULES §4), and say why fewer were filled."""
    first, compensated, stopped = seating.call(event.count)
    seating.journal = []
    nominated = tuple(seating.nominations[first:])
    new_state = replace(
        state, seats=tuple(seating.kinds), nominations=tuple(seating.nominations), _seating=None
    )
    if state.owed:
        new_state = reinstatement.owed_after_call(new_state, seating)
    notes: list[str] = []
    if stopped:
        notes.append("A chamada parou: não há mais candidatos aprovados a convocar.")
    elif len(nominated) < event.count:
        notes.append(
            f"Só havia {plural(len(nominated), 'vaga', 'vagas')} a preencher entre as "
            f"{state.vacancies} abertas."
        )
    change = Change(
        event,
        nominated=nominated,
        changed=tuple(seating.nominations[i] for i in compensated),
        vacancies=state.vacancies,
        stopped=stopped,
        messages=tuple(notes),
    )
    return new_state, change


def _apply_open(state: State, seating: Seating, event: OpenVacancies) -> tuple[State, Change]:
    """Vacancies opened during validity: the reserve is recounted on the cumulative total (SM art. 1 §1)."""
    seating.n = state.vacancies + event.count
    new_state = replace(state, vacancies=seating.n, _seating=None)
    message = (
        f"{plural(event.count, 'vaga aberta', 'vagas abertas')}: agora são {seating.n}; "
        f"reserva a {state.params.group_label}: {new_state.reservation().racial_explanation}"
    )
    return new_state, Change(event, vacancies=seating.n, messages=(message,))


def _apply_to_candidate(state: State, seating: Seating, event: Event, c: int) -> tuple[State, Change]:
    """An event on one candidate (``_ON_CANDIDATE``); a seat it frees keeps its number and kind and is
    filled by the same rule on the next call (SM art. 4 §4; AR art. 3 §2)."""
    assert isinstance(event, _CandidateEvent)  # calls and openings have their own functions
    new_state, ended, message = _ON_CANDIDATE[type(event)](state, seating, event, c)
    messages = [message]
    # A seat nobody holds now (a seat taken back under ``own_seat`` is not freed: RULES §4 item 7).
    freed = tuple(
        seating.nominations[i].seat for i in ended if seating.holder[seating.nominations[i].seat] < 0
    )
    for seat in freed:
        messages.append(
            f"A {ordinal(seat, True)} vaga fica livre e será preenchida na próxima chamada pela mesma regra."
        )
    new_state = replace(new_state, nominations=tuple(seating.nominations), _seating=None)
    change = Change(
        event,
        changed=tuple(seating.nominations[i] for i in ended),
        freed_seats=freed,
        vacancies=state.vacancies,
        messages=tuple(messages),
    )
    return new_state, change


# What an event on one candidate did: the state's records it changed, the nominations it ended, its message.
_Outcome = tuple[State, tuple[int, ...], str]


def _end(seating: Seating, c: int, status: str) -> tuple[int, ...]:
    """End ``c``'s active nomination with ``status``, if they hold one."""
    return (seating.end_nomination(c, status),) if c in seating.active_of else ()


def _took_office(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """The nominee took office: the seat is theirs; they stay on the lists (RULES §8)."""
    i = seating.active_of[c]
    seating.nominations[i] = seating.nominations[i]._replace(status=TOOK_OFFICE)
    return state, (i,), f"{event.candidate} tomou posse."


def _leave(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """A withdrawal or a no-show: off every list; an active nomination ends (SM art. 4 §4)."""
    status = WITHDRAWN if isinstance(event, Withdraw) else NO_SHOW
    ended = _end(seating, c, status)
    seating.remove(c)
    what = "desistiu" if status == WITHDRAWN else "não tomou posse"
    message = f"{event.candidate} {what} e sai de todas as listas{state.params.cite('withdrawal')}."
    state = reinstatement.forget(state, seating, c, end_hold=True)
    return replace(state, removed=(*state.removed, (event.candidate, status))), ended, message


def _eliminate(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """Falsity confirmed (SM art. 3 §3; AR art. 2): off every list; a nomination is annulled."""
    name = event.candidate
    if seating.removed[c]:
        # Already off every list: nothing changes on the lists or the seats (RULES §8); the record of
        # why they left says eliminated from now on.
        removed = tuple((cid, ELIMINATED if cid == name else s) for cid, s in state.removed)
        return (
            replace(state, removed=removed),
            (),
            f"{name} já estava fora de todas as listas: nada muda nas nomeações.",
        )
    ended = _end(seating, c, ANNULLED)
    seating.remove(c)
    state = reinstatement.forget(state, seating, c, end_hold=True)
    state = reinstatement.removed_by(state, seating, name, ELIMINATED, ended)
    return (
        replace(state, removed=(*state.removed, (name, ELIMINATED))),
        ended,
        f"{name}: eliminação do concurso; sai de todas as listas.",
    )


def _exclude(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """Off the reserved lists only (Lei 15.142 model): a nomination from a reserved list is annulled,
    one from the general list stays."""
    i = seating.active_of.get(c)
    ended = _end(seating, c, ANNULLED) if i is not None and seating.nominations[i].list in RESERVES else ()
    seating.exclude(c)
    message = f"{event.candidate} sai das listas reservadas e permanece na ampla concorrência."
    state = reinstatement.forget(state, seating, c, end_hold=False)
    state = reinstatement.removed_by(state, seating, event.candidate, reinstatement.EXCLUDED, ended)
    return replace(state, excluded=(*state.excluded, event.candidate)), ended, message


def _to_the_end(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """To the end of every list they are on (RULES §4 item 4); an active nomination ends."""
    ended = _end(seating, c, END_OF_LIST)
    seating.move_to_end(c)
    message = f"{event.candidate} vai para o fim das listas em que está."
    state = reinstatement.forget(state, seating, c, end_hold=False)
    return replace(state, end_of_list=(*state.end_of_list, event.candidate)), ended, message


_ON_CANDIDATE: dict[type[_CandidateEvent], Callable[[State, Seating, _CandidateEvent, int], _Outcome]] = {
    TookOffice: _took_office,
    Withdraw: _leave,
    NoShow: _leave,
    Eliminate: _eliminate,
    ExcludeFromReserve: _exclude,
    EndOfList: _to_the_end,
    Reinstate: reinstatement.reinstate,
    CourtHold: reinstatement.court_hold,
    CourtRelease: reinstatement.court_release,
}


def apply_all(state: State, events: Iterable[Event | Mapping[str, Any]]) -> tuple[State, tuple[Change, ...]]:
    changes = []
    for event in events:
        state, change = apply(state, event)
        changes.append(change)
    return state, tuple(changes)


def replay(state: State, events: Iterable[Event | Mapping[str, Any]]) -> State:
    """The state after ``events`` applied in order (the app's event log, from the initial state)."""
    return apply_all(state, events)[0]


def preview_call(state: State, count: int) -> Change:
    """Who ``Call(count)`` would nominate, and why, leaving ``state`` (and its index) as they were."""
    event = Call(count)
    seating = _borrow(state)
    first, compensated, stopped = seating.call(count)
    nominated = tuple(seating.nominations[first:])
    changed = tuple(seating.nominations[i] for i in compensated)
    seating.rollback(0)
    seating.journal = []
    return Change(event, nominated=nominated, changed=changed, vacancies=state.vacancies, stopped=stopped)


def explain(state: State) -> Sequence[str]:
    """Every nomination's ``why``, in order (for a report)."""
    return [f"{n.order}ª nomeação: {n.why}" for n in state.nominations]
