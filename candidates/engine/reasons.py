"""Why each seat of a call went to its nominee (RULES.md §4), as data and in Portuguese (``Reason``).

PURE module: standard library, ``contests.quotas`` and the other pure modules of ``candidates`` only.
Internal to ``candidates.engine.seating``: the explanation is written once the call is settled, when
everything it quotes (places on the lists, the schedule, a held candidate's other seat) is fixed.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, NamedTuple

from candidates.engine.journal import Fill, Hold, Via
from candidates.engine.records import ANNULLED, END_OF_LIST, NO_SHOW, WITHDRAWN, Reason, ordinal
from candidates.engine.schedule import (
    EVERY_NTH,
    OPEN,
    PCD,
    PROJECTED,
    RACIAL,
    RESERVES,
    explain_kind,
    percent_text,
    share_text,
)

if TYPE_CHECKING:
    from candidates.engine.seating import Seating

_FREED_BY = {
    WITHDRAWN: "desistência de {}",
    NO_SHOW: "{} não tomou posse",
    ANNULLED: "anulação da nomeação de {}",
    END_OF_LIST: "pedido de {} para ir ao fim da lista",
}


class _Seat(NamedTuple):
    text: str
    moved_to: tuple[int, ...] = ()
    freed_by: str = ""


class _Share(NamedTuple):
    percent: str = ""
    base: int = 0
    exact: str = ""
    reserved: int = 0


_VIA_VALUES = {via: via.value for via in Via}
_OPEN_SEAT = _Seat("ampla concorrência")  # a new open seat no reserve wanted (``explain_kind``'s text)
_NO_SHARE = _Share()


class _Choice(NamedTuple):
    text: str
    citation: str = ""
    list_position: int = 0


def seat_reason(seating: Seating, fill: Fill, cut: int | None, open_count: int, hold: Hold | None) -> Reason:
    """Why this fill (RULES §4): the seat's kind, the §2 figures it comes from, who took it and why.

    ``cut``: the general entry of the first candidate beyond open competition (``projected``);
    ``open_count``: the open seats of the schedule; ``hold``: the fill's candidate's hold, if any.
    """
    params = seating.params
    kind, via = fill.kind, fill.via
    seat = _seat(seating, fill)
    g_pos = seating.position(OPEN, fill.candidate)
    if via is Via.OWED:
        choice = _owed_choice(seating, fill)
    elif kind == OPEN:
        choice = _open_choice(seating, fill.candidate, g_pos)
    elif via is Via.REVERTED:
        choice = _reverted_choice(seating, kind, fill.candidate, g_pos)
    else:
        choice = _reserved_choice(seating, fill, cut, open_count, g_pos)
        if via is Via.HELD and hold is not None:
            choice = _held(seating, fill, hold, choice)
    share = _share(seating, fill)
    landed = hold if via is Via.HELD and kind != OPEN else None
    # Positional, in the order of ``Reason``'s fields (a call with 19 keywords costs 2 µs more, once
    # per nomination); the tests of the reason as data (test_allocation) pin the order.
    return Reason(
        fill.seat,  # seat
        kind,  # kind
        OPEN if via is Via.REVERTED or kind == OPEN else kind,  # list
        _VIA_VALUES[via],  # via (``via.value``, an Enum property, costs a Python call)
        choice.citation,  # citation
        share.percent,  # percent
        share.base,  # base
        share.exact,  # exact
        share.reserved,  # reserved
        g_pos,  # general_position
        choice.list_position,  # list_position
        open_count if params.open_competition_rule == PROJECTED else 0,  # open_seats
        fill.contenders,  # collided_with
        seat.moved_to,  # moved_to
        seat.freed_by,  # freed_by
        landed.landed_seat if landed else 0,  # landed_seat
        landed.landed_kind if landed else "",  # landed_kind
        seat.text,  # seat_text
        choice.text,  # choice_text
    )


def compensation_note(seating: Seating, seat: int, c: int) -> str:
    """What a compensation appends to the nomination's why (RULES §4, ``compensation``): the open seat
    being filled, the nominee's place on the general list (fixed during a call)."""
    return (
        f"; compensada ao preencher a {ordinal(seat, True)} vaga: a ampla concorrência alcançou "
        f"{seating.candidates[c].id} ({seating.general_place(c)}), que passa a contar na ampla "
        f"concorrência{seating.params.cite('open_competition')}"
    )


def _seat(seating: Seating, fill: Fill) -> _Seat:
    """The seat's kind: for a new seat, from the schedule, with the reserves it beat and where each went
    (RULES §4); for a freed one, that it keeps its kind, and what freed it (SM art. 4 §4; AR art. 3 §2)."""
    params = seating.params
    seat, kind = fill.seat, fill.kind
    if not fill.new:
        ended = seating.last_ended.get(seat)
        freed_by = ""
        if ended is not None:
            prev = seating.nominations[ended]
            freed_by = _FREED_BY[prev.status].format(prev.candidate)
        text = "ampla concorrência" if kind == OPEN else f"mantém a reserva a {params.label(kind)}"
        return _Seat(text, (), freed_by)
    if kind == OPEN and not fill.contenders:
        return _OPEN_SEAT
    text = explain_kind(params, seat, seating.n, kind, made_up=fill.made_up)
    moved: list[int] = []
    for other in fill.contenders:
        to = seating.loser_seat(seat, other)
        moved.append(to or 0)
        where = f"passa para a {ordinal(to, True)}" if to else "aguarda novas vagas"
        text += f" (a reserva a {params.label(other)} também tinha direito a esta vaga: {where})"
    return _Seat(text, moved_to=tuple(moved))


def _share(seating: Seating, fill: Fill) -> _Share:
    """The RULES §2 figures a reserved seat's kind comes from: p of ``base`` = ``exact`` → ``reserved``;
    ``base`` is the whole ``n`` for a made-up seat and for the racial seats of every k-th (AR art. 1 §3),
    else the seat's own number (the proportional order)."""
    params = seating.params
    kind = fill.kind
    rule = params.rule(kind) if kind != OPEN else None
    if rule is None:
        return _NO_SHARE
    whole = fill.made_up or (kind == RACIAL and params.order == EVERY_NTH)
    base = seating.n if whole else fill.seat
    reserved = params.count(kind, seating.n) if whole else params.share(kind, fill.seat, seating.n)
    return _Share(percent_text(rule), base, share_text(rule, base), reserved)


def _owed_choice(seating: Seating, fill: Fill) -> _Choice:
    """A seat paid to an owed candidate (RULES §4 item 7, ``next_seat``): before anyone else, in the order
    of the nominations lost, whatever their rank."""
    c = fill.candidate
    name = seating.candidates[c].id
    record = seating.owed_record(c)
    order, ground = (record[1], record[2]) if record else (0, "")
    lost = seating.nominations[order - 1] if 0 < order <= len(seating.nominations) else None
    if lost is not None and lost.displaced:
        text = (
            f"devida a {name}, cuja {order}ª nomeação ({ordinal(lost.seat, True)} vaga) foi anulada para "
            "restabelecer a nomeação de um(a) candidato(a) reintegrado(a)"
        )
    else:
        text = f"devida a {name}, reintegrado(a) {ground or 'ao concurso'}"
        if lost is not None:
            text += f", cuja {order}ª nomeação ({ordinal(lost.seat, True)} vaga) fora anulada"
    text += "; vaga devida, paga antes de qualquer outro candidato"
    return _Choice(text)


def _open_choice(seating: Seating, c: int, g_pos: int) -> _Choice:
    """An open seat: the best of the general list not yet nominated, a cotista too, who then does not
    take up the reserve (SM art. 4 caput and §3)."""
    params = seating.params
    name = seating.candidates[c].id
    text = f"{name} é o {seating.general_place(c, g_pos)} e o primeiro ainda não nomeado"
    if not (seating.is_on(RACIAL, c) or seating.is_on(PCD, c)):
        return _Choice(text)
    text += f" (cotista na ampla concorrência: não ocupa a reserva{params.cite('open_competition')})"
    return _Choice(text, params.citation("open_competition"))


def _reverted_choice(seating: Seating, kind: str, c: int, g_pos: int) -> _Choice:
    """A reserved seat nobody qualified for reverts to open competition (SM art. 4 §5; AR art. 1 §6)."""
    params = seating.params
    name = seating.candidates[c].id
    beyond = " fora da ampla concorrência" if params.open_competition_rule == PROJECTED else ""
    text = (
        f"ninguém da lista de {params.label(kind)}{beyond} disponível: a vaga reverte à "
        f"ampla concorrência{params.cite('reversion')}; {name} é o {seating.general_place(c, g_pos)} "
        "e o primeiro ainda não nomeado"
    )
    return _Choice(text, params.citation("reversion"))


def _reserved_choice(seating: Seating, fill: Fill, cut: int | None, open_count: int, g_pos: int) -> _Choice:
    """A reserved seat: the best of its list who qualifies; under ``projected``, counted among those
    beyond the open seats of the schedule (SM art. 4 §3, "não serão computados")."""
    params = seating.params
    kind, c = fill.kind, fill.candidate
    name = seating.candidates[c].id
    label = params.label(kind)
    citation = params.citation("order")
    if params.open_competition_rule == PROJECTED and cut is not None:
        lst = seating.lists[kind]
        assert lst.gpos is not None
        start = bisect_left(lst.gpos, cut)
        place = lst.alive.prefix(lst.cur[c] + 1) - lst.alive.prefix(start)
        text = (
            f"{name} é o {ordinal(place)} da lista de {label} fora da ampla concorrência "
            f"({seating.general_place(c, g_pos)}, além das {open_count} vagas de ampla concorrência)"
        )
        return _Choice(text, citation, place)
    place = seating.position(kind, c)
    text = f"{name} é o {ordinal(place)} da lista de {label}"
    if place > 1:
        text += " e o primeiro ainda não nomeado"
    return _Choice(text, citation, place)


def _held(seating: Seating, fill: Fill, hold: Hold, choice: _Choice) -> _Choice:
    """A dual candidate called in the same call to both reserves keeps the list they chose at
    registration, or the policy's default (SM art. 4 §7; RULES §4 item 3)."""
    params = seating.params
    kind = fill.kind
    if seating.candidates[fill.candidate].prefers in RESERVES:
        why_this = "a reserva escolhida na inscrição"
    else:
        why_this = f"sem opção manifestada, a reserva a {params.label(kind)}{params.cite('dual')}"
    text = choice.text + (
        f"; convocado na mesma chamada também à {ordinal(hold.landed_seat, True)} vaga (reservada "
        f"a {params.label(hold.landed_kind)}), fica com a lista de {params.label(kind)}: {why_this}"
    )
    return _Choice(text, params.citation("dual"), choice.list_position)
