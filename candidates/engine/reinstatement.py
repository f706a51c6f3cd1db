"""Reinstatement and court holds (RULES.md §4 items 7 and 8): the events ``reinstate``, ``court_hold`` and
``court_release`` of ``candidates.engine.allocation``.

PURE module: standard library and the other pure modules of ``candidates.engine`` only. Internal to
``candidates.engine.allocation``, which re-exports the events and applies them like every other event
(replayed from the start, they give the same state). The seats owed are paid by the call itself
(``candidates.engine.seating``: an owed candidate who qualifies for a seat's kind takes it first).

The state keeps three records for these items: ``removals`` (each elimination or exclusion from the
reserve not yet undone, with the nomination it annulled), ``owed`` (who is owed a seat, in the order of
the nominations they lost, with the decision that reinstated them) and ``court_holds``.

Readings where RULES §4 is silent (a municipal lawyer's):
- "Original rank" is the place the candidate had on each list when removed (an end-of-list request made
  before the removal stands: it was their own act).
- A withdrawal or a no-show is the candidate's own act: a candidate who withdrew after being reinstated,
  or after an exclusion, cannot be reinstated (the latest removal is theirs).
- ``own_seat`` displaces only a later nomination that is still active or on hold: one whose nominee took
  office stays (an investiture is undone only by its own act, not by this engine); the reinstated
  candidate is then owed a seat as under ``next_seat``.
- A restored nomination takes the seat's current kind and the list of that kind, without the
  ``reverted``/``compensated`` marks of the annulled one (those described how it was first filled).
- An exclusion from the reserve does not end a court hold (the candidate stays in open competition and
  the order may still protect them); an end-of-list request does not end it either.
- A court hold on a nominee who already took office changes nothing on the seat (only an active
  nomination goes on hold).
"""

from __future__ import annotations

import heapq
from dataclasses import replace
from typing import TYPE_CHECKING

from candidates.engine.records import (
    ACTIVE,
    ANNULLED,
    ELIMINATED,
    ON_HOLD,
    CourtHold,
    CourtRelease,
    Reinstate,
    _CandidateEvent,
    ordinal,
)
from candidates.engine.schedule import COMPENSATION, OWN_SEAT, RESERVES, AllocationError

if TYPE_CHECKING:
    from candidates.engine.allocation import State
    from candidates.engine.seating import Seating

EXCLUDED = "excluded"  # a removal from the reserved lists only (``exclude_from_reserve``)

_Outcome = tuple["State", tuple[int, ...], str]


# Validation (RULES §8's bad scenarios) ----------------------------------------------------------------


def validate(state: State, seating: Seating, event: _CandidateEvent, c: int) -> None:
    name = event.candidate
    if isinstance(event, Reinstate):
        latest = _latest_removal(state, name)
        if seating.removed[c] and (latest is None or state.removals[latest][1] != ELIMINATED):
            raise AllocationError(
                f"{name} desistiu (ou não tomou posse): a desistência é ato do próprio candidato e não "
                "se reintegra."
            )
        if latest is None:
            raise AllocationError(
                f"{name} não tem eliminação nem exclusão da reserva a desfazer: nada a reintegrar."
            )
    elif isinstance(event, CourtHold):
        if seating.removed[c]:
            raise AllocationError(
                f"{name} está fora de todas as listas (desistência ou eliminação): não há vaga a "
                "reservar por ordem judicial; reintegre-o(a) antes, se for o caso."
            )
        if c in seating.under_hold:
            raise AllocationError(f"{name} já está sob ordem judicial de reserva de vaga.")
    elif isinstance(event, CourtRelease) and c not in seating.under_hold:
        raise AllocationError(f"{name} não está sob ordem judicial de reserva de vaga: nada a liberar.")


def _latest_removal(state: State, name: str) -> int | None:
    for k in range(len(state.removals) - 1, -1, -1):
        if state.removals[k][0] == name:
            return k
    return None


# Bookkeeping the other events call ----------------------------------------------------------------


def removed_by(state: State, seating: Seating, name: str, what: str, ended: tuple[int, ...]) -> State:
    """Record an elimination or an exclusion (``what``) that ``reinstate`` may undo, with the nomination
    it annulled (its order, 0 for none)."""
    order = seating.nominations[ended[0]].order if ended else 0
    return replace(state, removals=(*state.removals, (name, what, order)))


def forget(state: State, seating: Seating, c: int, *, end_hold: bool) -> State:
    """Removed again, or at the end of the lists at their request: owed nothing more (RULES §4 item 7);
    an elimination or a withdrawal also ends a court hold (item 8)."""
    name = seating.candidates[c].id
    if any(o[0] == c for o in seating.owed):
        seating.owed = [o for o in seating.owed if o[0] != c]
        state = replace(state, owed=tuple(o for o in state.owed if o[0] != name))
    if end_hold and c in seating.under_hold:
        seating.under_hold.discard(c)
        state = replace(state, court_holds=tuple(h for h in state.court_holds if h != name))
    return state


def owed_after_call(state: State, seating: Seating) -> State:
    """After a call: whoever holds a nomination again is owed nothing more."""
    seating.settle_owed()
    people = seating.candidates
    return replace(state, owed=tuple((people[c].id, order, ground) for c, order, ground in seating.owed))


def _owe(state: State, seating: Seating, c: int, order: int, ground: str) -> State:
    """``c`` is owed a seat, in the order of the nomination they lost (RULES §4 item 7)."""
    seating.owed.append((c, order, ground))
    seating.owed.sort(key=lambda o: o[1])
    people = seating.candidates
    return replace(state, owed=tuple((people[x].id, o, g) for x, o, g in seating.owed))


# The events ---------------------------------------------------------------------------------------


def reinstate(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """Undo the latest elimination or exclusion from the reserve; a nomination it annulled is owed back
    by the policy's ``reinstatement`` rule (RULES §4 item 7)."""
    assert isinstance(event, Reinstate)
    name = event.candidate
    k = _latest_removal(state, name)
    assert k is not None  # ``validate`` refused it otherwise
    _, what, order = state.removals[k]
    state = replace(state, removals=state.removals[:k] + state.removals[k + 1 :])
    if what == ELIMINATED:
        seating.restore(c)
        j = max(i for i, pair in enumerate(state.removed) if pair == (name, ELIMINATED))
        state = replace(state, removed=state.removed[:j] + state.removed[j + 1 :])
        message = f"{name} é reintegrado(a): volta a todas as listas de que a eliminação o(a) tirou, na posição que tinha."
    else:
        seating.include(c)
        j = max(i for i, cid in enumerate(state.excluded) if cid == name)
        state = replace(state, excluded=state.excluded[:j] + state.excluded[j + 1 :])
        message = f"{name} é reintegrado(a) às listas reservadas, na posição que tinha."
    if not order or c in seating.active_of:
        return state, (), message  # no nomination lost, or one held again: owed nothing
    if state.params.reinstatement == OWN_SEAT:
        return _own_seat(state, seating, c, order, event.ground, message)
    state = _owe(state, seating, c, order, event.ground)
    message += (
        f" A {order}ª nomeação lhe é devida: a próxima chamada lhe dá a primeira vaga a que concorre, antes "
        "de qualquer outro candidato (regra da próxima vaga)."
    )
    return state, (), message


def _own_seat(state: State, seating: Seating, c: int, order: int, ground: str, message: str) -> _Outcome:
    """``own_seat``: the lost nomination takes its seat again; a later nomination still active or on hold
    there is annulled (``displaced``) and its nominee owed a seat; an earlier one stays, and the
    reinstated candidate is owed a seat instead."""
    i = order - 1
    lost = seating.nominations[i]
    seat = lost.seat
    h = seating.holder[seat]
    changed: list[int] = []
    if h >= 0:
        holder = seating.nominations[h]
        if holder.order < order or holder.status not in (ACTIVE, ON_HOLD):
            state = _owe(state, seating, c, order, ground)
            message += (
                f" A {ordinal(seat, True)} vaga está com a {holder.order}ª nomeação, que fica: a {order}ª "
                "nomeação lhe é devida na próxima chamada."
            )
            return state, (), message
        d = seating.lookup(holder.candidate)
        seating.end_nomination(d, ANNULLED)
        seating.nominations[h] = seating.nominations[h]._replace(
            displaced=True,
            why=f"{holder.why}; anulada: a {ordinal(seat, True)} vaga volta a {lost.candidate}, reintegrado(a)",
        )
        state = _owe(state, seating, d, holder.order, "")
        changed.append(h)
        message += f" {holder.candidate} deixa a {ordinal(seat, True)} vaga e lhe é devida outra vaga."
    kind = seating.kinds[seat - 1]
    status = ON_HOLD if c in seating.under_hold else ACTIVE
    suffix = f"; restabelecida: reintegrado(a) {ground or 'ao concurso'}, retoma a própria vaga"
    seating.nominations[i] = lost._replace(
        kind=kind,
        list=kind,
        status=status,
        reverted=False,
        compensated=False,
        reinstated=True,
        why=lost.why + suffix,
    )
    seating._set_avail(c, -1)
    seating.holding[c] = 1
    seating.active_of[c] = i
    seating.holder[seat] = i
    if seat in seating.freed:
        seating.freed.remove(seat)
        heapq.heapify(seating.freed)
    if kind in RESERVES and state.params.open_competition_rule == COMPENSATION:
        heapq.heappush(seating.comp_heap, (seating.general.cur[c], seat, c))
    changed.append(i)
    message += f" A {order}ª nomeação é restabelecida na {ordinal(seat, True)} vaga (regra da própria vaga)."
    return state, tuple(changed), message


def court_hold(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """A court order keeps the seat (RULES §4 item 8): an active nomination goes on hold; a seat that
    reaches the candidate later is kept on hold, not refilled."""
    name = event.candidate
    seating.under_hold.add(c)
    state = replace(state, court_holds=(*state.court_holds, name))
    i = seating.active_of.get(c)
    if i is not None and seating.nominations[i].status == ACTIVE:
        seating.nominations[i] = seating.nominations[i]._replace(status=ON_HOLD)
        return (
            state,
            (i,),
            f"{name}: ordem judicial de reserva de vaga; a nomeação fica suspensa (sub judice).",
        )
    return state, (), f"{name}: ordem judicial de reserva de vaga; a vaga que o(a) alcançar fica suspensa."


def court_release(state: State, seating: Seating, event: _CandidateEvent, c: int) -> _Outcome:
    """The court hold ends (RULES §4 item 8): a nomination on hold becomes active."""
    name = event.candidate
    seating.under_hold.discard(c)
    state = replace(state, court_holds=tuple(h for h in state.court_holds if h != name))
    i = seating.active_of.get(c)
    if i is not None and seating.nominations[i].status == ON_HOLD:
        seating.nominations[i] = seating.nominations[i]._replace(status=ACTIVE)
        return state, (i,), f"{name}: fim da reserva judicial; a nomeação passa a ativa."
    return state, (), f"{name}: fim da reserva judicial; concorre como antes."
