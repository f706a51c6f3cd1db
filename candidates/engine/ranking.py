"""Classification lists: ranking with tie-breaks, pass mark and phase cut-offs per list (RULES.md §3).

PURE module: standard library and ``contests.quotas`` only (a test enforces it). Dates are passed in,
never ``today()``.

- **General list (ampla concorrência)**: every approved candidate, cotistas included, by score, then
  the tie-breaks: a candidate aged 60 or more on the last day of registration first, the oldest first
  (Estatuto do Idoso, Lei 10.741/2003 art. 27 sole paragraph); then the edital's criteria in order
  (``PhaseScore``, ``OlderFirst``, ``JuryService``); the inscription number last, so the order is total.
- **Reserved lists**: the candidates who opted for the reserve at registration and were not excluded
  from it, in the same relative order.
- **Pass mark** (SM art. 4 §2): below the minimum → on no list.
- **Phase cut-off per list** (SM art. 4 §1): the best ``K_open`` of the general list, then for each
  reserve the best ``K_L`` of its list not already through; ties with the last one let through pass too.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from contests.quotas import ReserveRule, format_percent, reservation, round_fraction, to_fraction
from contests.wording import format_fraction

RACIAL = "racial"
PCD = "pcd"
RESERVE_NAMES = (RACIAL, PCD)
_RESERVE_SET = frozenset(RESERVE_NAMES)
ELDERLY_AGE = 60  # Estatuto do Idoso art. 1: pessoas com idade igual ou superior a 60 anos

Score = Fraction | Decimal | int | str


class RankingError(ValueError):
    """Data the ranking cannot use (message in Portuguese)."""


class Candidate(NamedTuple):
    """An approved candidate as the allocation engine sees them: id, the reserves opted for, and the
    reserve chosen at registration for a simultaneous call to both (SM art. 4 §7; ``None``: the
    policy's default). The engine receives them in general classification order, the best first.

    A named tuple, not a dataclass: a national contest builds a million of them (``lists`` should be a
    ``frozenset``; the engine's roster converts any other iterable)."""

    id: str
    lists: frozenset[str] = frozenset()
    prefers: str | None = None


def to_score(value: Score) -> Fraction:
    """A score as an exact value (``"7,5"``, ``Decimal("7.5")``, ``15``); floats are refused."""
    if isinstance(value, bool | float):
        raise RankingError(f"Nota inválida: {value!r} (use número exato ou texto).")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | Decimal):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.strip().replace(",", "."))
        except (ValueError, ZeroDivisionError):
            raise RankingError(f"Nota inválida: {value!r}.") from None
    raise RankingError(f"Nota inválida: {value!r}.")


@dataclass(frozen=True)
class Applicant:
    """One registration with its results, as the ranking needs it."""

    id: str
    inscription: int | str
    score: Fraction
    birth_date: datetime.date | None = None
    phase_scores: tuple[tuple[str, Fraction], ...] = ()
    jury_service: bool = False
    lists: frozenset[str] = frozenset()
    prefers: str | None = None

    def __post_init__(self) -> None:
        if type(self.score) is not Fraction:
            object.__setattr__(self, "score", to_score(self.score))
        phases: Iterable[tuple[Any, Any]] = self.phase_scores
        if type(phases) is not tuple:
            phases = phases.items() if isinstance(phases, Mapping) else phases
        # (str(k), to_score(v)), without the calls where they change nothing (a list of 100,000 builds them).
        scores = [
            (k if type(k) is str else str(k), v if type(v) is Fraction else to_score(v)) for k, v in phases
        ]
        object.__setattr__(self, "phase_scores", tuple(sorted(scores)))
        if type(self.lists) is not frozenset:
            object.__setattr__(self, "lists", frozenset(self.lists))
        unknown = self.lists - _RESERVE_SET
        if unknown:
            raise RankingError(f"Reserva desconhecida para {self.id}: {', '.join(sorted(unknown))}.")
        if self.prefers is not None and self.prefers not in self.lists:
            raise RankingError(f"{self.id} prefere uma reserva ({self.prefers}) a que não concorre.")

    @classmethod
    def normalised(
        cls,
        id: str,
        inscription: int | str,
        score: Fraction,
        birth_date: datetime.date | None,
        phase_scores: tuple[tuple[str, Fraction], ...],
        jury_service: bool,
        lists: frozenset[str],
        prefers: str | None,
    ) -> Applicant:
        """The applicant of values already in the form ``__post_init__`` leaves them (``score`` and the
        phase scores ``Fraction``s, the phase scores sorted by name, ``lists`` a frozenset of known
        reserves, ``prefers`` None or one of them): equal to ``Applicant(...)`` of the same values, built
        without the conversions and checks that would change nothing (the lists of 100,000 build them)."""
        applicant = object.__new__(cls)
        applicant.__dict__.update(
            id=id,
            inscription=inscription,
            score=score,
            birth_date=birth_date,
            phase_scores=phase_scores,
            jury_service=jury_service,
            lists=lists,
            prefers=prefers,
        )
        return applicant

    def phase_score(self, phase: str) -> Fraction | None:
        for name, value in self.phase_scores:
            if name == phase:
                return value
        return None


# Tie-break criteria of the edital --------------------------------------------------------------------


@dataclass(frozen=True)
class PhaseScore:
    """Higher score in the named phase first (e.g. the written exam)."""

    phase: str

    def key(self, a: Applicant) -> tuple[int, Fraction]:
        value = a.phase_score(self.phase)
        return (1, Fraction(0)) if value is None else (0, -value)

    def describe(self) -> str:
        return f"maior nota na fase {self.phase}"


@dataclass(frozen=True)
class OlderFirst:
    """Older birth date first (a common edital criterion after the Estatuto do Idoso's)."""

    def key(self, a: Applicant) -> tuple[int, int]:
        return (1, 0) if a.birth_date is None else (0, a.birth_date.toordinal())

    def describe(self) -> str:
        return "maior idade"


@dataclass(frozen=True)
class JuryService:
    """Served as a juror first (CPP art. 440: preference in public-service contests)."""

    def key(self, a: Applicant) -> int:
        return 0 if a.jury_service else 1

    def describe(self) -> str:
        return "exercício da função de jurado (CPP art. 440)"


Criterion = PhaseScore | OlderFirst | JuryService


def criteria_from_kinds(items: Iterable[tuple[str, str | None]]) -> tuple[Criterion, ...]:
    """The edital's criteria from ``(kind, phase)`` pairs as the app stores them (``TieBreakCriterion``).

    ``elderly`` and ``inscription_number`` are implicit (always first and always last) and skipped.
    """
    found: list[Criterion] = []
    for kind, phase in items:
        if kind in ("elderly", "inscription_number"):
            continue
        if kind == "phase_score":
            if not phase:
                raise RankingError("O critério de maior nota na fase exige a fase.")
            found.append(PhaseScore(phase))
        elif kind == "older":
            found.append(OlderFirst())
        elif kind == "jury_service":
            found.append(JuryService())
        else:
            raise RankingError(f"Critério de desempate desconhecido: {kind!r}.")
    return tuple(found)


def age_on(birth: datetime.date, day: datetime.date) -> int:
    """Completed years on ``day`` (born on 29/02: the birthday falls on 01/03 in common years)."""
    years = day.year - birth.year
    if (day.month, day.day) < (birth.month, birth.day):
        years -= 1
    return years


def is_elderly(a: Applicant, registration_end: datetime.date) -> bool:
    """Aged 60 or more on the last day of registration (Estatuto do Idoso art. 27 sole paragraph)."""
    return a.birth_date is not None and _elderly_on(a.birth_date, registration_end)


@lru_cache(maxsize=65_536)
def _elderly_on(birth: datetime.date, day: datetime.date) -> bool:
    """``is_elderly`` of a birth date (a list of 100,000 asks it of every line and of both sides of each tie,
    for some 20,000 distinct birth dates)."""
    return age_on(birth, day) >= ELDERLY_AGE


def _inscription_key(value: int | str) -> tuple[int, int, str]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (0, value, "")
    text = str(value).strip()
    if text.isdigit():
        return (0, int(text), "")
    return (1, 0, text)


def rank_key(
    a: Applicant, *, registration_end: datetime.date, criteria: Sequence[Criterion] = ()
) -> tuple[object, ...]:
    """The sort key of the general list: score, elderly first (oldest first), criteria, inscription."""
    return (-a.score, *_tie_key(a, registration_end, criteria))


def _tie_key(
    a: Applicant, registration_end: datetime.date, criteria: Sequence[Criterion]
) -> tuple[object, ...]:
    """``rank_key`` after the score: what decides between equal scores."""
    elderly = (0, a.birth_date.toordinal()) if is_elderly(a, registration_end) else (1, 0)  # type: ignore[union-attr]
    return (elderly, *(c.key(a) for c in criteria), _inscription_key(a.inscription))


def rank(
    applicants: Iterable[Applicant],
    *,
    registration_end: datetime.date,
    criteria: Sequence[Criterion] = (),
    pass_mark: Score | None = None,
) -> list[Applicant]:
    """The general list: those reaching ``pass_mark`` (SM art. 4 §2), best first, total order.

    Duplicate ids or inscription numbers are refused: the last criterion must decide every tie.
    """
    people = list(applicants)
    # Each inscription's key made once, for the uniqueness check and the sort (a list of 100,000 made it
    # twice per line).
    inscriptions = [_inscription_key(a.inscription) for a in people]
    _check_unique(people, inscriptions)
    if pass_mark is not None:
        kept = [i for i, a in enumerate(people) if reaches_pass_mark(a.score, pass_mark)]
        people = [people[i] for i in kept]
        inscriptions = [inscriptions[i] for i in kept]
    # ``rank_key``'s order, with the score's place among the distinct scores (best first) in place of the
    # score itself: the same order, compared as integers (a Fraction compares in Python, slowly, and a
    # sort of 100,000 makes a couple of million comparisons).
    # Keyed by (numerator, denominator), which equal Fractions share (they are kept in lowest terms) and
    # which hash in C.
    distinct = {a.score.as_integer_ratio(): a.score for a in people}
    place = {ratio: i for i, ratio in enumerate(sorted(distinct, key=distinct.__getitem__, reverse=True))}
    # The keys made in one comprehension, ``_tie_key`` written out (a call per line and per part was most of
    # the time of the ranking of 100,000); the inscription's key is last and unique, so no two keys are equal.
    elderly_on = _elderly_on
    keys = [
        (
            place[a.score.as_integer_ratio()],
            (0, a.birth_date.toordinal())
            if a.birth_date is not None and elderly_on(a.birth_date, registration_end)
            else (1, 0),
            *(c.key(a) for c in criteria),
            inscription,
        )
        for a, inscription in zip(people, inscriptions, strict=True)
    ]
    return [people[i] for i in sorted(range(len(people)), key=keys.__getitem__)]


def reaches_pass_mark(score: Score, pass_mark: Score | None) -> bool:
    """SM art. 4 §2: only who reaches the edital's minimum takes part (a cotista too); at the mark passes."""
    if pass_mark is None:
        return True
    if type(score) is Decimal and type(pass_mark) is Decimal:
        return score >= pass_mark  # exact already, and compared in C (the lists of 100,000 ask it often)
    return to_score(score) >= to_score(pass_mark)


def passing(applicants: Iterable[Applicant], pass_mark: Score) -> list[Applicant]:
    """Those at or above the edital's minimum; the others are on no list (SM art. 4 §2)."""
    return [a for a in applicants if reaches_pass_mark(a.score, pass_mark)]


# The last tie-break, which decides every tie the others leave.
BY_INSCRIPTION = "número de inscrição (último critério, torna a ordem total)"


def tie_break_reason(
    a: Applicant, b: Applicant, *, registration_end: datetime.date, criteria: Sequence[Criterion] = ()
) -> str:
    """Why ``a`` ranks before ``b``, in Portuguese (for the published list and for appeals)."""
    if a.score is not b.score and a.score != b.score:  # equal scores are often one Fraction (cached)
        return "maior nota final"
    ea, eb = is_elderly(a, registration_end), is_elderly(b, registration_end)
    if ea or eb:
        if ea and not eb:
            return (
                "idoso (60 anos ou mais no último dia de inscrição): Estatuto do Idoso, art. 27, "
                "parágrafo único"
            )
        if ea and eb and a.birth_date != b.birth_date:
            return "ambos idosos, o mais velho primeiro: Estatuto do Idoso, art. 27, parágrafo único"
    for criterion in criteria:
        if criterion.key(a) != criterion.key(b):
            return f"critério de desempate do edital: {criterion.describe()}"
    return BY_INSCRIPTION


def _check_unique(people: Sequence[Applicant], inscriptions: Sequence[tuple[int, int, str]]) -> None:
    """Refuse a repeated id or inscription number (``inscriptions``: each one's ``_inscription_key``)."""
    if len({a.id for a in people}) == len(people) and len(set(inscriptions)) == len(inscriptions):
        return  # the usual case, told by the sets' sizes (built in C)
    seen: set[str] = set()
    keys: set[tuple[int, int, str]] = set()
    for a, key in zip(people, inscriptions, strict=True):
        if a.id in seen:
            raise RankingError(f"Candidato repetido: {a.id}.")
        seen.add(a.id)
        if key in keys:
            raise RankingError(f"Número de inscrição repetido: {a.inscription}.")
        keys.add(key)


# Lists --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lists:
    """The classification lists (ids, best first): general, and one per reserve."""

    general: tuple[str, ...]
    racial: tuple[str, ...] = ()
    pcd: tuple[str, ...] = ()


def classification_lists(ranked: Sequence[Applicant], *, excluded: Iterable[str] = ()) -> Lists:
    """General and reserved lists from the ranked applicants (RULES §3); ``excluded``: off the reserves."""
    off = set(excluded)
    return Lists(
        general=tuple(a.id for a in ranked),
        racial=tuple(a.id for a in ranked if RACIAL in a.lists and a.id not in off),
        pcd=tuple(a.id for a in ranked if PCD in a.lists and a.id not in off),
    )


def to_candidates(ranked: Sequence[Applicant]) -> tuple[Candidate, ...]:
    """The allocation engine's input, in general classification order."""
    return tuple(Candidate(a.id, a.lists, a.prefers) for a in ranked)


# Phase cut-off per list (SM art. 4 §1) ----------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """Who a phase lets through: ``passed`` in phase order; ``by_list`` the ids let through on each list
    (``open``, ``racial``, ``pcd``), ties at the cut included; ``quota`` the K of each list."""

    passed: tuple[str, ...]
    by_list: tuple[tuple[str, tuple[str, ...]], ...]
    quota: tuple[tuple[str, int], ...]
    explanation: str = ""

    def on(self, name: str) -> tuple[str, ...]:
        return dict(self.by_list).get(name, ())


def _final_score(a: Applicant) -> Fraction:
    return a.score


class CutQuota(NamedTuple):
    """The K of each list of a phase's cut-off (SM art. 4 §1, RULES §3), and where each came from:
    ``set_by_edital`` names the lists whose K the edital set; the others follow the default split."""

    open: int
    racial: int
    pcd: int
    set_by_edital: frozenset[str]

    @property
    def total(self) -> int:
        return self.open + self.racial + self.pcd

    def of(self, name: str) -> int:
        return {"open": self.open, RACIAL: self.racial, PCD: self.pcd}[name]


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RankingError(f"Número de classificados inválido para a lista {name}.")
    return value


def cut_quota(
    k: int, *, racial: ReserveRule, pcd: ReserveRule | None = None, quota: Mapping[str, int] | None = None
) -> CutQuota:
    """The K of each list for a phase that lets ``k`` through (SM art. 4 §1, RULES §3, "Phase cut-off per
    list").

    The edital sets the Ks in ``quota`` (keys ``open``, ``racial``, ``pcd``). A reserve's K left out
    takes the reserve formula of §2 applied to ``k`` (``K_racial = racial(k)``, ``K_pcd = pcd(k)``);
    ``K_open`` left out is ``k`` minus the reserves' Ks in force, set or default, so ``k`` candidates
    (plus ties) go on. Without a PcD reserve (``pcd`` None) its K is 0 whatever ``quota`` says.
    """
    k = _count("total", k)
    given = dict(quota or {})
    for name, count in given.items():
        if name not in ("open", *RESERVE_NAMES):
            raise RankingError(f"Lista desconhecida na nota de corte: {name}.")
        _count(name, count)
    if pcd is None:
        given.pop(PCD, None)
    split = reservation(k, racial, pcd)
    k_racial = given.get(RACIAL, split.racial)
    k_pcd = given.get(PCD, split.pcd) if pcd is not None else 0
    if "open" in given:
        k_open = given["open"]
    else:
        k_open = k - k_racial - k_pcd
        if k_open < 0:
            raise RankingError(
                f"Os classificados das listas reservadas ({k_racial + k_pcd}) passam do total da fase ({k})."
            )
    return CutQuota(k_open, k_racial, k_pcd, frozenset(given))


def cut_explanation(quota: CutQuota, labels: Mapping[str, str], reserves: Sequence[str]) -> str:
    """The cut-off of a phase in words, naming only the contest's reserves (``labels``: reserve → who
    it is for, e.g. ``negros``)."""
    parts = [f"{_best(quota.open)} da lista geral (ampla concorrência)"]
    for name in reserves:
        count = quota.of(name)
        among = " entre os que não passaram pela lista geral" if count else ""
        parts.append(f"{_best(count)} da lista reservada a {labels[name]}{among}")
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]
    return (
        f"Passam desta fase {listed}, além dos empatados com o último classificado de cada lista "
        "(SM art. 4º §1º)."
    )


def describe_cut_quota(
    k: int,
    split: CutQuota,
    *,
    racial: ReserveRule,
    pcd: ReserveRule | None = None,
    labels: Mapping[str, str] | None = None,
) -> list[tuple[str, int, str]]:
    """Each list's K with where it comes from, in Portuguese, for the screen where the edital's phases
    are set up: ``(list label, K, why)``, the reserves first (the open K depends on them)."""
    names = {**DEFAULT_LABELS, **(labels or {})}
    rows = []
    for name, rule in ((RACIAL, racial), (PCD, pcd)):
        if rule is None:
            continue
        count = split.of(name)
        if name in split.set_by_edital:
            why = "fixado pelo edital"
        elif k < rule.threshold:
            why = f"a reserva só se aplica a partir de {rule.threshold}: K {k} não reserva lugar"
        else:
            rounded = round_fraction(rule.exact(k), rule.rounding)
            why = f"{format_percent(rule.percent)} de {k} = {format_fraction(rule.exact(k))} → {rounded}"
            if count < rounded:
                why += f", limitado a {format_percent(to_fraction(rule.cap_percent or 0))} de K: {count}"
            why += " (a fórmula da reserva de vagas, aplicada a K)"
        rows.append((f"Lista reservada a {names[name]}", count, why))
    if "open" in split.set_by_edital:
        open_why = "fixado pelo edital"
    else:
        reserved = " − ".join(str(count) for _, count, _ in rows)
        open_why = (
            f"K menos os das listas reservadas: {k} − {reserved} = {split.open}" if rows else "K inteiro"
        )
    return [("Lista geral (ampla concorrência)", split.open, open_why), *rows]


def _best(n: int) -> str:
    if n == 0:
        return "nenhum candidato"
    return "o melhor" if n == 1 else f"os {n} melhores"


DEFAULT_LABELS = {RACIAL: "negros", PCD: "pessoas com deficiência"}


def phase_cut(
    ranked: Sequence[Applicant],
    k: int,
    *,
    racial: ReserveRule,
    pcd: ReserveRule | None = None,
    quota: Mapping[str, int] | None = None,
    score: Callable[[Applicant], Fraction] | str | None = None,
    labels: Mapping[str, str] | None = None,
) -> Cut:
    """A phase that lets only the best ``k`` through, per list (SM art. 4 §1, RULES §3).

    ``ranked`` is the phase's classification (best first). The best ``K_open`` of the general list
    pass; then, for each reserve, the best ``K_L`` of its list who did not already pass on the general
    list. Whoever ties with the last one let through on a list (same ``score``) passes too. The Ks
    come from ``cut_quota`` (the edital's, else the default split). ``score``: the phase's name (its
    phase score), a function, or ``None`` for the applicant's score. ``labels``: who each reserve is
    for, in the explanation (the policy's group, e.g. ``negros e índios``).
    """
    value: Callable[[Applicant], Fraction]
    if score is None:
        value = _final_score
    elif isinstance(score, str):
        phase = score

        def by_phase(a: Applicant) -> Fraction:
            got = a.phase_score(phase)
            return got if got is not None else Fraction(-(10**18))

        value = by_phase
    else:
        value = score
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise RankingError("O número de classificados na fase deve ser um inteiro não negativo.")
    split = cut_quota(k, racial=racial, pcd=pcd, quota=quota)
    reserves = RESERVE_NAMES if pcd is not None else (RACIAL,)

    through = _best_with_ties(list(ranked), split.open, value)
    on_general = set(through)
    by_list = [("open", tuple(through))]
    for name in reserves:
        members = [a for a in ranked if name in a.lists and a.id not in on_general]
        got = _best_with_ties(members, split.of(name), value)
        by_list.append((name, tuple(got)))
    passed_ids = {i for _, ids in by_list for i in ids}
    passed = tuple(a.id for a in ranked if a.id in passed_ids)
    names = ("open", *reserves)
    return Cut(
        passed=passed,
        by_list=tuple(by_list),
        quota=tuple(sorted((name, split.of(name)) for name in names)),
        explanation=cut_explanation(split, {**DEFAULT_LABELS, **(labels or {})}, reserves),
    )


def _best_with_ties(members: list[Applicant], k: int, value: Callable[[Applicant], Fraction]) -> list[str]:
    if k <= 0 or not members:
        return []
    chosen = members[:k]
    last = value(chosen[-1])
    chosen.extend(a for a in members[k:] if value(a) == last)
    return [a.id for a in chosen]
