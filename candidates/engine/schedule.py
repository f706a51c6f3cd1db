"""The seat schedule of a position: which kind (open, racial, pcd) each seat is (RULES.md §4).

PURE module: standard library and ``contests.quotas`` only (a test enforces it).

Seats are numbered 1, 2, 3, … in the order they are filled; ``n`` is the number of vacancies open so far
(cumulative, RULES §2). The kind of seat ``s`` depends only on the policy, ``n`` and the kinds of the
seats before it::

    served_L    = seats 1..s−1 of kind L
    target_L(s) = count_L(s)                                          proportional (SM art. 5)
                = min(count_L(n), max(floor(s / k), count_L(n) − (n − s)))
                                                                      every k-th (AR art. 3 §1)
    seat s is of kind L if target_L(s) − served_L > 0; the larger deficit wins, then the priority.

``count_L(s)`` takes its proportion at ``s`` and tests its threshold on ``n``. Only the racial list
follows the every k-th order; the PcD list is always proportional. Reserves are always delivered: where
two lists want the same seat, the latest open seats up to ``n`` make up the loser's count (``project``).

``Params`` (the policy as the engines see it) lives here because both the schedule and the allocation
engine (``candidates.engine.allocation``) read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from contests.quotas import (
    QuotaError,
    ReserveRule,
    Rounding,
    format_percent,
    threshold_count,
    validate_rules,
)
from contests.wording import format_fraction

OPEN = "open"
RACIAL = "racial"
PCD = "pcd"
KINDS = (OPEN, RACIAL, PCD)
RESERVES = (RACIAL, PCD)

PROPORTIONAL = "proportional"
EVERY_NTH = "every_nth"
ORDERS = (PROPORTIONAL, EVERY_NTH)

PROJECTED = "projected"
COMPENSATION = "compensation"
ACTUAL = "actual"
OPEN_COMPETITION_RULES = (PROJECTED, COMPENSATION, ACTUAL)

CHOOSE = "choose"
LARGER_ONLY = "larger_only"
DUAL_RULES = (CHOOSE, LARGER_ONLY)

# How a seat owed to a reinstated candidate is paid (RULES §4 item 7).
NEXT_SEAT = "next_seat"
OWN_SEAT = "own_seat"
REINSTATEMENT_RULES = (NEXT_SEAT, OWN_SEAT)

# Keys of ``Params.citations`` the explanations use (the policy's own article numbers).
CITATION_KEYS = (
    "order",
    "open_competition",
    "withdrawal",
    "reversion",
    "dual",
    "rounding",
    "threshold",
    "carry",
)


def default_priority(order: str) -> tuple[str, ...]:
    """The collision priority a policy that names none gets (RULES §4): PcD first in the proportional
    order (the first PcD seat stays at the 5th nomination, STF MS 30.861); racial first for every k-th
    (AR art. 3 §1 fixes the 5th vacancy for negros e índios)."""
    return (RACIAL, PCD) if order == EVERY_NTH else (PCD, RACIAL)


class AllocationError(ValueError):
    """An event or parameter the engine cannot apply; the message is Portuguese, for the user."""


class _Count:
    """``ReserveRule.count`` in integer arithmetic: called once or twice per seat, it must be cheap.

    The test suite checks it against ``ReserveRule.count`` (the reference of RULES §2).
    """

    __slots__ = ("cap_den", "cap_num", "den", "num", "rounding", "threshold")

    def __init__(self, rule: ReserveRule) -> None:
        share = rule.percent / 100
        self.num, self.den = share.numerator, share.denominator
        self.rounding = rule.rounding
        self.threshold = rule.threshold
        if rule.cap_percent is None:
            self.cap_num = self.cap_den = 0
        else:
            cap = rule.cap_percent / 100
            self.cap_num, self.cap_den = cap.numerator, cap.denominator

    def __call__(self, n: int, basis: int) -> int:
        if n <= 0 or basis < self.threshold:
            return 0
        x = self.num * n
        if self.rounding is Rounding.HALF_UP:
            value = (2 * x + self.den) // (2 * self.den)
        elif self.rounding is Rounding.UP:
            value = -(-x // self.den)
        else:
            value = x // self.den
        if self.cap_den:
            value = min(value, self.cap_num * n // self.cap_den)
        return min(value, n)

    def many(self, lo: int, hi: int, basis: int) -> list[int]:
        """``[self(m, basis) for m in range(lo, hi)]`` for ``lo ≥ 1``: the same arithmetic, a comprehension
        per step with the branches taken once (a schedule asks every seat up to ``n``)."""
        seats = range(lo, hi)
        if basis < self.threshold:
            return [0] * len(seats)
        num, den = self.num, self.den
        if self.rounding is Rounding.HALF_UP:
            values = [(2 * num * m + den) // (2 * den) for m in seats]
        elif self.rounding is Rounding.UP:
            values = [-(-num * m // den) for m in seats]
        else:
            values = [num * m // den for m in seats]
        if self.cap_den:
            cap_num, cap_den = self.cap_num, self.cap_den
            values = [min(v, cap_num * m // cap_den) for v, m in zip(values, seats, strict=True)]
        return [min(v, m) for v, m in zip(values, seats, strict=True)]


@dataclass(frozen=True)
class Params:
    """The policy's parameters the allocation engine needs (RULES §1, §4).

    ``threshold_extra``: vacancies of the contest's other positions, added to the count the racial
    threshold is tested on when the policy counts it on the whole contest (``threshold_basis``).
    ``citations``: the policy's articles, keys in ``CITATION_KEYS``, quoted in the explanations.
    ``reinstatement``: how a seat owed to a reinstated candidate is paid (RULES §4 item 7), ``next_seat``
    or ``own_seat``.
    """

    racial: ReserveRule
    pcd: ReserveRule | None = None
    order: str = PROPORTIONAL
    nth: int = 5
    priority: tuple[str, ...] = ()
    open_competition_rule: str = PROJECTED
    dual_rule: str = CHOOSE
    dual_default: str = RACIAL
    group_label: str = "negros"
    threshold_extra: int = 0
    citations: tuple[tuple[str, str], ...] = ()
    reinstatement: str = NEXT_SEAT
    _counts: tuple[_Count, _Count | None] = field(init=False, repr=False, compare=False, hash=False)
    # n → seat → its targets (``seat_targets``), for the last n asked about.
    _targets: dict[int, dict[int, tuple[int, int]]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.racial, ReserveRule):
            raise AllocationError("Regra da reserva racial inválida.")
        if self.pcd is not None and not isinstance(self.pcd, ReserveRule):
            raise AllocationError("Regra da reserva para pessoas com deficiência inválida.")
        try:
            validate_rules(self.racial, self.pcd)
        except QuotaError as exc:
            raise AllocationError(str(exc)) from None
        if self.order not in ORDERS:
            raise AllocationError(
                f"Ordem de nomeação desconhecida: {self.order!r} (use proportional ou every_nth)."
            )
        if isinstance(self.nth, bool) or not isinstance(self.nth, int) or self.nth < 1:
            raise AllocationError("O k da ordem 'a cada k nomeações' deve ser um inteiro maior que zero.")
        priority = tuple(self.priority) or default_priority(self.order)
        if sorted(priority) != sorted(RESERVES):
            raise AllocationError('A prioridade deve listar as duas reservas, ex.: ["pcd", "racial"].')
        object.__setattr__(self, "priority", priority)
        if self.open_competition_rule not in OPEN_COMPETITION_RULES:
            raise AllocationError(
                f"Regra de ampla concorrência desconhecida: {self.open_competition_rule!r} "
                "(use projected, compensation ou actual)."
            )
        if self.dual_rule not in DUAL_RULES:
            raise AllocationError(
                f"Regra de dupla reserva desconhecida: {self.dual_rule!r} (use choose ou larger_only)."
            )
        if self.dual_default not in RESERVES:
            raise AllocationError(f"Opção padrão desconhecida: {self.dual_default!r} (use racial ou pcd).")
        if self.reinstatement not in REINSTATEMENT_RULES:
            raise AllocationError(
                f"Regra de reintegração desconhecida: {self.reinstatement!r} (use next_seat ou own_seat)."
            )
        extra = self.threshold_extra
        if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
            raise AllocationError("As vagas dos demais cargos não podem ser negativas.")
        citations = self.citations.items() if isinstance(self.citations, Mapping) else self.citations
        object.__setattr__(self, "citations", tuple(sorted((str(k), str(v)) for k, v in citations if v)))
        object.__setattr__(self, "_counts", (_Count(self.racial), _Count(self.pcd) if self.pcd else None))
        object.__setattr__(self, "_targets", {})

    # Counts (RULES §2) -------------------------------------------------------------------------------

    def threshold_count(self, n: int) -> int | None:
        """What the racial threshold is tested on with ``n`` vacancies offered (``quotas.threshold_count``,
        SM art. 1 §2): the position's, or with ``threshold_extra`` the contest's. The engine knows the
        contest only by its other positions' vacancies: with none, both readings test ``n``."""
        extra = self.threshold_extra
        return threshold_count(n, on_contest=extra > 0, other_vacancies=extra)

    def threshold_basis(self, n: int) -> int:
        """The vacancies the racial threshold is tested on with ``n`` offered: ``threshold_count``, which
        is ``n`` itself on the position."""
        if not self.threshold_extra:
            return n  # ``threshold_count`` is None on the position: asked per seat, so not asked here
        count = self.threshold_count(n)
        return n if count is None else count

    def racial_count(self, m: int) -> int:
        """racial(m), the threshold tested on the position or, with ``threshold_extra``, on the contest."""
        return self._counts[0](m, self.threshold_basis(m))

    def pcd_count(self, m: int) -> int:
        """pcd(m): Decreto 9.508 art. 1 §3 (any fraction up), capped (Lei 8.112 art. 5 §2)."""
        counter = self._counts[1]
        return counter(m, m) if counter is not None else 0

    def count(self, kind: str, m: int) -> int:
        """count_L(m) of RULES §2: the reserve of ``m`` vacancies."""
        return self.racial_count(m) if kind == RACIAL else self.pcd_count(m)

    def share(self, kind: str, s: int, n: int) -> int:
        """count_L(s) as the proportional order takes it (RULES §4): the proportion at seat ``s``, the
        threshold tested on ``n``, the vacancies offered (SM art. 1 §2), not on ``s``."""
        if kind == RACIAL:
            return self._counts[0](s, self.threshold_basis(n))
        counter = self._counts[1]
        return counter(s, n) if counter is not None else 0

    def rule(self, kind: str) -> ReserveRule | None:
        return self.racial if kind == RACIAL else self.pcd

    def citation(self, key: str) -> str:
        """The policy's article for ``key`` (``"art. 3º §1º"``), or ``""`` when the policy names none."""
        return next((value for name, value in self.citations if name == key), "")

    def cite(self, key: str) -> str:
        """The policy's article for ``key`` as ``", art. 4º §5º"``, or ``""`` when the policy names none."""
        for name, value in self.citations:
            if name == key:
                return f", {value}"
        return ""

    def label(self, kind: str) -> str:
        """Who a list is for, in Portuguese: ``negros``, ``pessoas com deficiência``, …"""
        if kind == RACIAL:
            return self.group_label
        if kind == PCD:
            return "pessoas com deficiência"
        return "ampla concorrência"

    @property
    def reserves(self) -> tuple[str, ...]:
        return (RACIAL, PCD) if self.pcd is not None else (RACIAL,)


# The schedule ---------------------------------------------------------------------------------------


def target(params: Params, kind: str, s: int, n: int) -> int:
    """target_L(s) of RULES §4: reserved seats of ``kind`` owed among seats 1..s with ``n`` open.

    Proportional (SM art. 5, alternation and proportionality): ``count_L(s)``, the §2 proportion taken
    at ``s`` with its threshold tested on ``n``, the vacancies offered (SM art. 1 §2). Every k-th (AR
    art. 3 §1, racial list only): ``floor(s / k)``, but the last seats make up what ``count_L(n)`` owes
    beyond it, never more than ``count_L(n)``.
    """
    if kind == RACIAL and params.order == EVERY_NTH:
        owed = params.racial_count(n)
        return min(owed, max(s // params.nth, owed - (n - s)))
    return params.share(kind, s, n)


def next_kind(
    params: Params, s: int, n: int, served_racial: int, served_pcd: int
) -> tuple[str, tuple[str, ...]]:
    """Kind of seat ``s`` by the greedy rule of RULES §4, given the seats of each kind before it, and the
    reserves it beat.

    A seat is reserved to the list with the larger deficit; equal deficits go by ``params.priority``
    (default: PcD first in the proportional order, STF MS 30.861; racial first for every k-th, AR art.
    3 §1). The second element names the other reserves that also had a deficit here (a collision).
    This is one step: ``project`` adds the make-up that keeps the reserves delivered.
    """
    t_racial, t_pcd = seat_targets(params, s, n)
    return kind_by_deficits(params, t_racial - served_racial, t_pcd - served_pcd)


def seat_targets(params: Params, s: int, n: int) -> tuple[int, int]:
    """(target_racial(s), target_pcd(s)) with ``n`` open: what ``next_kind`` compares the seats served
    with. They depend on the policy, ``s`` and ``n`` only, and the same seats are asked about again and
    again (a seat created again after a rollback, the schedule projected for each call's reasons): the
    policy keeps them for the last ``n``."""
    memo = params._targets.get(n)
    if memo is None:
        memo = _targets_memo(params, n)
    pair = memo.get(s)
    if pair is None:
        if s < 1:
            pair = memo[s] = (
                target(params, RACIAL, s, n),
                params.share(PCD, s, n) if params.pcd is not None else 0,
            )
        else:
            _fill_targets(params, memo, s, n)
            pair = memo[s]
    return pair


_TARGETS_BLOCK = 1024  # seats whose targets a miss computes at once: their neighbours are asked next


def _fill_targets(params: Params, memo: dict[int, tuple[int, int]], s: int, n: int) -> None:
    """Put in ``memo`` the targets of the block of ``_TARGETS_BLOCK`` seats holding ``s`` (seats
    ``j·B + 1`` to ``(j + 1)·B``, none beyond ``n`` but ``s`` itself): ``target`` and ``Params.share``
    computed a block at a time (``_Count.many``). Aligned, so a walk down the seats (``Foresight``'s
    ``_most_open``) misses once a block, as a walk up does."""
    start = s - (s - 1) % _TARGETS_BLOCK
    seats = range(start, max(s, min(n, start + _TARGETS_BLOCK - 1)) + 1)
    racial_counter, pcd_counter = params._counts
    if params.order == EVERY_NTH:  # every k-th (Angra dos Reis): one seat at a time, by ``target``
        racial = [target(params, RACIAL, m, n) for m in seats]
    else:
        racial = racial_counter.many(seats.start, seats.stop, params.threshold_basis(n))
    pcd = pcd_counter.many(seats.start, seats.stop, n) if pcd_counter is not None else [0] * len(seats)
    memo.update(zip(seats, zip(racial, pcd, strict=True), strict=True))


def _targets_memo(params: Params, n: int) -> dict[int, tuple[int, int]]:
    """The policy's memo of ``seat_targets`` for ``n`` (the one for the last ``n`` asked about)."""
    memo = params._targets.get(n)
    if memo is None:
        params._targets.clear()
        memo = params._targets[n] = {}
    return memo


def kind_by_deficits(params: Params, d_racial: int, d_pcd: int) -> tuple[str, tuple[str, ...]]:
    """``next_kind`` given each reserve's deficit at the seat (its target less the seats served)."""
    if d_racial <= 0 and d_pcd <= 0:
        return OPEN, ()
    if d_racial > 0 and d_pcd > 0:
        # The larger deficit wins; equal deficits go by the policy's priority.
        winner = (RACIAL if d_racial > d_pcd else PCD) if d_racial != d_pcd else params.priority[0]
        return winner, (PCD if winner == RACIAL else RACIAL,)
    return (RACIAL if d_racial > 0 else PCD), ()


class Projection(NamedTuple):
    """The schedule for the ``n`` vacancies open now, with what explains it.

    ``kinds``: seat s at index s−1, kept kinds then projected ones. ``collisions``: projected seat →
    the reserves that also wanted it and lost. ``made_up``: projected seat → the list it was given to
    by the make-up ("reserves always delivered"). ``first_made_up``: the lowest such seat (``n + 1``
    when none): the greedy rule alone decides the kinds of the seats before it.
    """

    kinds: list[str]
    collisions: dict[int, tuple[str, ...]]
    made_up: dict[int, str]
    first_made_up: int


def project(params: Params, kept: Sequence[str], n: int) -> list[str]:
    """The schedule for the ``n`` vacancies open now (RULES §4): the kept kinds, then the kinds the other
    seats would get if created one by one, ``n`` seats in all.

    Seats already created keep their kind for good; the seats not yet created are scheduled with the
    current ``n`` (for every k-th the target depends on ``n``). ``kept`` longer than ``n`` is returned
    whole (it cannot happen through the engine, which never creates more seats than vacancies).
    """
    return project_detailed(params, kept, n).kinds


def seat_rule(params: Params, kept: Sequence[str], n: int) -> Projection:
    """The rule of RULES §4 applied when seat ``s = len(kept) + 1`` is created ("Reserves always
    delivered"): the greedy rule gives seats s..n their kinds in turn; then every list L left with fewer
    than ``count_L(n)`` seats among 1..n takes the latest open seats among s..n, latest first, one list
    after the other in priority order. Seat s takes the kind it then has; the later seats are only a
    projection (each is decided again when it is created). A shortfall the kept kinds leave (no open
    seat left to give) waits for more vacancies.
    """
    kinds = list(kept)
    start = len(kinds) + 1
    collisions: dict[int, tuple[str, ...]] = {}
    served_racial = kinds.count(RACIAL)
    served_pcd = kinds.count(PCD)
    memo = _targets_memo(params, n)
    for s in range(start, n + 1):
        # ``next_kind``, its targets read from the policy's memo (a loop over every seat left).
        pair = memo.get(s) or seat_targets(params, s, n)
        kind, contenders = kind_by_deficits(params, pair[0] - served_racial, pair[1] - served_pcd)
        if kind == RACIAL:
            served_racial += 1
        elif kind == PCD:
            served_pcd += 1
        if contenders:
            collisions[s] = contenders
        kinds.append(kind)
    made_up: dict[int, str] = {}
    served = {RACIAL: served_racial, PCD: served_pcd}
    seat = n  # the make-up walks back from the last seat; seats it passed are no longer open
    for name in params.priority:
        if name not in params.reserves:
            continue
        short = params.count(name, n) - served[name]
        while short > 0 and seat >= start:
            if kinds[seat - 1] == OPEN:
                kinds[seat - 1] = name
                made_up[seat] = name
                short -= 1
            seat -= 1
    return Projection(kinds, collisions, made_up, min(made_up, default=n + 1))


def project_detailed(params: Params, kept: Sequence[str], n: int) -> Projection:
    """``project`` with its collisions and made-up seats.

    Created one by one, the seats take the kinds of one application of ``seat_rule`` up to its first
    made-up seat (the greedy rule decides them alike); from there the rule is applied again to the
    seats created so far. A collision seen on a seat that keeps the kind it was projected with is
    kept, to explain that seat.
    """
    kinds = list(kept)
    seen: dict[int, tuple[tuple[str, ...], str]] = {}  # seat → (losers, the kind it was projected with)
    made_up: dict[int, str] = {}
    while len(kinds) < n:
        step = seat_rule(params, kinds, n)
        upto = min(step.first_made_up, n)
        for seat, losers in step.collisions.items():
            seen.setdefault(seat, (losers, step.kinds[seat - 1]))
        for seat in range(len(kinds) + 1, upto + 1):
            if seat in step.made_up:
                made_up[seat] = step.made_up[seat]
        kinds.extend(step.kinds[len(kinds) : upto])
    collisions = {seat: losers for seat, (losers, kind) in seen.items() if kinds[seat - 1] == kind}
    return Projection(kinds, collisions, made_up, min(made_up, default=n + 1))


def schedule(params: Params, n: int) -> list[str]:
    """The schedule of a position whose ``n`` vacancies were all open before any seat was created."""
    return project(params, (), n)


def reserved_seats(params: Params, kind: str, n: int) -> list[int]:
    """Seat numbers of ``kind`` in ``schedule(params, n)`` (the published series: 3, 8, 13, …)."""
    return [s for s, k in enumerate(schedule(params, n), start=1) if k == kind]


def kind_label(kind: str, group_label: str) -> str:
    """How every screen names a seat's kind: ``Ampla concorrência``, ``Reservada a negros`` (the policy's
    group, e.g. ``negros e índios``), ``Reservada a pessoas com deficiência``."""
    if kind == RACIAL:
        return f"Reservada a {group_label}"
    if kind == PCD:
        return "Reservada a pessoas com deficiência"
    return "Ampla concorrência"


def list_label(kind: str, group_label: str) -> str:
    """A classification list's one name, on the staff screens, the candidate's page, the public site, the
    PDFs and the open data: ``Lista geral (ampla concorrência, cotistas incluídos)``, ``Lista reservada a
    negros``, ``Lista reservada a pessoas com deficiência``; ``Fora das listas`` for a line in none."""
    if kind in (RACIAL, PCD):
        return "Lista " + kind_label(kind, group_label).lower()
    if kind == OPEN:
        return "Lista geral (ampla concorrência, cotistas incluídos)"
    return "Fora das listas"


def explain_kind(params: Params, s: int, n: int, kind: str, *, made_up: bool = False) -> str:
    """Why seat ``s`` is of ``kind``, in Portuguese (``"reservada a negros; 20% de 3 = 0,6 → 1"``).

    ``made_up``: the seat was given to its list so that the reserve of the ``n`` vacancies is delivered
    (RULES §4, two lists wanting the same seat).
    """
    if kind == OPEN:
        return "ampla concorrência"
    rule = params.rule(kind)
    assert rule is not None
    percent = percent_text(rule)
    if not made_up and (kind != RACIAL or params.order != EVERY_NTH):
        exact = share_text(rule, s)
        return f"reservada a {params.label(kind)}; {percent} de {s} = {exact} → {params.share(kind, s, n)}"
    owed = params.count(kind, n)
    formula = f"{percent} de {n} = {share_text(rule, n)} → {owed}"
    if made_up:
        return (
            f"reservada a {params.label(kind)}: a vaga que a outra reserva ocupou passa para esta, e as "
            f"últimas vagas completam a reserva ({formula})"
        )
    k = params.nth  # the racial reserve of an every-k-th order (Angra dos Reis), the only case left
    if s % k == 0 and s // k <= owed:
        return (
            f"reservada a {params.label(kind)}: a {k}ª de cada {k} nomeações{params.cite('order')} "
            f"({formula})"
        )
    return (
        f"reservada a {params.label(kind)}: as últimas vagas completam a reserva{params.cite('order')} "
        f"({formula})"
    )


def loser_seat(params: Params, seat: int, loser: str, kinds: Sequence[str]) -> int | None:
    """Where the reserve that lost seat ``seat`` in a collision gets its seat in the schedule ``kinds``
    for ``n = len(kinds)`` vacancies: the next seat of its kind, or the one the make-up gave it before
    ``seat``; ``None`` when its count waits for more vacancies (RULES §4, "Reserves always delivered")."""
    later = next((s for s in range(seat + 1, len(kinds) + 1) if kinds[s - 1] == loser), None)
    if later is not None:
        return later
    if kinds.count(loser) < params.count(loser, len(kinds)):
        return None
    return next((s for s in range(seat - 1, 0, -1) if kinds[s - 1] == loser), None)


def collision_text(params: Params, seat: int, winner: str, loser: str, kinds: Sequence[str]) -> str:
    """A collision in words, for screens: "a 5ª vaga é reservada a negros e índios (art. 3º §1º); a vaga
    de pessoas com deficiência passa para a 4ª"."""
    if winner == RACIAL:
        citation = params.citation("order")
        why = f" ({citation})" if citation else ""
    else:
        why = " (prioridade da política; STF, MS 30.861: a 1ª vaga de pessoa com deficiência na 5ª nomeação)"
    moved = loser_seat(params, seat, loser, kinds)
    where = f"passa para a {moved}ª" if moved else "aguarda novas vagas"
    lost = "a vaga de pessoa com deficiência" if loser == PCD else f"a vaga reservada a {params.label(loser)}"
    return f"a {seat}ª vaga é reservada a {params.label(winner)}{why}; {lost} {where}"


def collisions_explained(params: Params, kept: Sequence[str], n: int) -> list[str]:
    """Every collision of the schedule for ``n`` vacancies (seats not yet created), in words."""
    projection = project_detailed(params, kept, n)
    return [
        collision_text(params, seat, projection.kinds[seat - 1], loser, projection.kinds)
        for seat, losers in sorted(projection.collisions.items())
        for loser in losers
        if projection.kinds[seat - 1] != loser
    ]


def percent_text(rule: ReserveRule) -> str:
    """``format_percent(rule.percent)`` (``"20%"``), kept per percentage: one call per reserved seat
    explained, and a percentage has one text. Kept by numerator and denominator: a ``Fraction``'s own
    hash is computed in Python at every call."""
    percent = rule.percent
    return _percent_text(percent.numerator, percent.denominator)


@lru_cache(maxsize=64)
def _percent_text(numerator: int, denominator: int) -> str:
    return format_percent(Fraction(numerator, denominator))


def share_text(rule: ReserveRule, m: int) -> str:
    """p · m written with a decimal comma: ``format_fraction(rule.exact(m))``, with integer arithmetic for a whole percentage (one call per
    reserved seat explained: thousands in a large call)."""
    if rule.percent.denominator != 1:
        return format_fraction(rule.exact(m))
    whole, cents = divmod(rule.percent.numerator * m, 100)
    return str(whole) if not cents else f"{whole},{cents:02d}".rstrip("0")
