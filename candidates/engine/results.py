"""One position's classification lists from its registrations, scores and phases (RULES.md §3).

PURE: the standard library and the other modules of this package only (a test enforces it). The service
``candidates.services.results`` reads the rows from the database, calls ``compute_position`` and writes
the entries; everything that is a rule is decided here, on plain data:

- a registration that is eliminated, withdrawn or cancelled, absent, without a score where one is needed,
  below a phase's pass mark (SM art. 4 §2) or not let through a phase's cut-off, which is applied per
  list (SM art. 4 §1), is on no list; its entry (list ``out``) says why. Phase by phase: who is out at
  a phase stays out there, so an absence at a later phase never redoes an earlier cut (RULES §3);
- the final score is the organiser's when the file gave one, else the phases' scores weighted by the
  phase's weight (the edital's formula: a weighted sum); below the edital's minimum for approval, out;
- the lists after a phase (who goes on to the next) are the same computation stopped at that phase;
- the others are ranked (``ranking.rank``: score, the elderly first, the edital's criteria, the
  inscription number last) into the general list and one list per reserve, each entry with its why.

Tuned for a municipal contest of tens of thousands of registrations: rows are named tuples, scores are
converted to exact fractions once (cached: they repeat a lot).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from candidates.engine.ranking import (
    BY_INSCRIPTION,
    Applicant,
    Criterion,
    Lists,
    PhaseScore,
    RankingError,
    classification_lists,
    criteria_from_kinds,
    is_elderly,
    phase_cut,
    rank,
    reaches_pass_mark,
    tie_break_reason,
)
from candidates.engine.schedule import OPEN, PCD, RACIAL, Params
from contests.wording import decimal_comma

OUT = "out"
SCORE_PLACES = 2
SCORE_QUANTUM = Decimal(1).scaleb(-SCORE_PLACES)
# Registration statuses (``Registration.Status``) as the lists see them.
EXCLUDED_FROM_RESERVE = "excluded_from_reserve"
OUT_STATUSES = {
    "eliminated": "inscrição eliminada do concurso",
    "withdrawn": "candidato desistente",
    "cancelled": "inscrição cancelada (indeferida)",
}


class PhaseRow(NamedTuple):
    """A phase of the contest, in phase order: its pass mark (SM art. 4 §2) and cut-off per list (§1)."""

    id: int
    name: str
    weight: Decimal = Decimal(1)
    pass_mark: Decimal | None = None
    cutoff: int | None = None
    cutoff_open: int | None = None
    cutoff_racial: int | None = None
    cutoff_pcd: int | None = None


class RegistrationRow(NamedTuple):
    """A registration as the lists need it. ``phases``: phase id → (score or None, absent);
    ``position_id``: where the caller files it (the lists of one position are computed at a time)."""

    id: int
    number: str
    status: str = "active"
    racial: bool = False
    pcd: bool = False
    prefers: str = ""
    final_score: Decimal | None = None
    absent: bool = False
    jury: bool = False
    name: str = ""
    birth_date: datetime.date | None = None
    phases: Mapping[int, tuple[Decimal | None, bool]] = {}
    position_id: int = 0


class Entry(NamedTuple):
    """One line of a list: ``list`` is ``open``, ``racial``, ``pcd`` or ``out`` (rank None)."""

    registration_id: int
    list: str
    rank: int | None
    general_rank: int | None
    score: Decimal | None
    number: str
    name: str
    why: str


ENTRY_COLUMNS = Entry._fields


class PositionResult(NamedTuple):
    entries: list[Entry]
    summary: dict[str, object]


class PositionStream(NamedTuple):
    """``PositionResult`` with its lines still to be written, in order, as they are iterated (once)."""

    entries: Iterator[Entry]
    summary: dict[str, object]


def format_score(value: Fraction | Decimal | None) -> str:
    """A score as lists print it: two decimals, rounded half up, decimal comma (``7,50``); ``—`` for none."""
    if value is None:
        return "—"
    if type(value) is Fraction:
        return _fraction_text(*value.as_integer_ratio())
    return decimal_comma(value, SCORE_PLACES)


@lru_cache(maxsize=100_000)
def _fraction_text(numerator: int, denominator: int) -> str:
    """``format_score`` of a Fraction in lowest terms (scores repeat a lot: each is written once)."""
    return decimal_comma(Fraction(numerator, denominator), SCORE_PLACES)


@lru_cache(maxsize=100_000)
def _exact(value: Decimal) -> Fraction:
    """A score as the ranking needs it (exact); scores repeat a lot, so conversions are cached."""
    return Fraction(value)


def _applicant(
    reg: RegistrationRow, score: Fraction, phase_scores: dict[str, Fraction], reserves: tuple[str, ...]
) -> Applicant:
    lists = _lists(reg.racial, reg.pcd, reg.status == EXCLUDED_FROM_RESERVE, reserves)
    prefers = reg.prefers if reg.prefers in lists else None
    # Already as ``Applicant`` would make them: exact scores (``_exact``), known reserves, ``prefers`` on one.
    return Applicant.normalised(
        str(reg.id),
        reg.number,
        score,
        reg.birth_date,
        tuple(sorted(phase_scores.items())) if phase_scores else (),
        reg.jury,
        lists,
        prefers,
    )


@lru_cache(maxsize=64)
def _lists(racial: bool, pcd: bool, excluded: bool, reserves: tuple[str, ...]) -> frozenset[str]:
    """The reserves a registration is on: those it opted for that the contest has, none if excluded."""
    if excluded:
        return frozenset()
    return frozenset(name for name, opted in ((RACIAL, racial), (PCD, pcd)) if opted and name in reserves)


def compute_position(
    regs: Sequence[RegistrationRow],
    phases: Sequence[PhaseRow],
    *,
    params: Params,
    registration_end: datetime.date,
    criteria: Sequence[tuple[str, int | None]] = (),
    minimum_final_score: Decimal | None = None,
    after_phase: int | None = None,
) -> PositionResult:
    """``stream_position``'s lines in a list."""
    stream = stream_position(
        regs,
        phases,
        params=params,
        registration_end=registration_end,
        criteria=criteria,
        minimum_final_score=minimum_final_score,
        after_phase=after_phase,
    )
    return PositionResult(list(stream.entries), stream.summary)


def stream_position(
    regs: Sequence[RegistrationRow],
    phases: Sequence[PhaseRow],
    *,
    params: Params,
    registration_end: datetime.date,
    criteria: Sequence[tuple[str, int | None]] = (),
    minimum_final_score: Decimal | None = None,
    after_phase: int | None = None,
) -> PositionStream:
    """The lists of one position (RULES §3): every registration gets one ``out`` entry or one entry on the
    general list and one on each reserve it is on; ``summary`` counts the lists and the reasons for ``out``.

    ``phases`` in phase order; ``criteria``: the edital's tie-break criteria as ``(kind, phase id)``;
    ``registration_end``: the day the Estatuto do Idoso's age is counted on; ``minimum_final_score``:
    the edital's minimum for approval (SM art. 4 §2), applied to the final lists.

    Phase by phase (RULES §3, "Phases in order"): the absence, the pass mark, then the cut-off; a
    candidate out at a phase stays out there, whatever later phases say, so a later absence never redoes
    an earlier cut. Then the final score, the minimum for approval, the ranking, and each line's why.

    ``after_phase``: the id of a phase to stop after: the lists of who goes on to the next phase, ranked
    by the weighted sum of the phases so far (the organiser's final score and the minimum for approval,
    which belong to the final lists, are not used). ``None``: the final lists, after every phase.

    Everything is decided before this returns; the lines (``entries``, general list, reserved lists, then
    those on none) are written as they are iterated, once: a caller that sends them to the database
    meanwhile lets the database store the first ones while the next are written.
    """
    applied = _phases_through(phases, after_phase)
    final = after_phase is None
    words = "nota final" if final else f"nota até a fase {applied[-1].name}"
    order = _Order(registration_end, _ranking_criteria(phases, criteria), words)
    sieve = _Sieve.of(regs, applied)
    for phase in applied:
        sieve.apply_absence(phase)
        sieve.apply_pass_mark(phase, final=final)
        sieve.apply_cutoff(phase, params, order)
    if final:
        sieve.apply_absent_flag()
    by_phase = any(isinstance(c, PhaseScore) for c in order.criteria)
    applicants, scores = _applicants(sieve, applied, params.reserves, final=final, by_phase=by_phase)
    if final and minimum_final_score is not None:
        applicants = _approved(applicants, minimum_final_score, sieve, scores)
    ranked = rank(applicants, registration_end=registration_end, criteria=order.criteria)
    lists = classification_lists(ranked)
    by_id = {reg.id: reg for reg in regs}
    entries = chain(
        _general_entries(ranked, by_id, scores, params, order),
        _reserved_entries(ranked, lists, by_id, scores, params, order),
        _out_entries(sieve.out, by_id),
    )
    return PositionStream(entries, _summary(len(regs), lists, sieve.out, params.reserves))


def _phases_through(phases: Sequence[PhaseRow], after_phase: int | None) -> Sequence[PhaseRow]:
    """The phases applied: all of them, or those up to ``after_phase`` (RULES §3: the lists after
    phase k are computed while phase k+1 is prepared)."""
    if after_phase is None:
        return phases
    for i, phase in enumerate(phases):
        if phase.id == after_phase:
            return phases[: i + 1]
    raise RankingError("A fase escolhida não é uma fase deste concurso.")


def _approved(
    applicants: list[Applicant], minimum: Decimal, sieve: _Sieve, scores: dict[str, Decimal]
) -> list[Applicant]:
    """Below the edital's minimum final score: on no list, cotistas included (SM art. 4 §2, "o mínimo
    para aprovação"; RULES §3, "Minimum for approval"). At the minimum passes. ``scores``: each one's
    final score as given (``_applicants``'), of which ``a.score`` is the exact value: two Decimals
    compare exactly, in C (Fractions compared in Python took a tenth of a second for 100,000)."""
    kept = []
    for a in applicants:
        if reaches_pass_mark(scores[a.id], minimum):
            kept.append(a)
        else:
            sieve.out[int(a.id)] = (
                "abaixo do mínimo para aprovação",
                f"Nota final {_score_text(a.score)}, abaixo do mínimo para aprovação "
                f"{format_score(minimum)} (SM art. 4º §2º): fora de todas as listas, cotistas inclusive",
            )
    return kept


def _score_text(value: Fraction) -> str:
    """A score as lists print it, with more decimals where two would hide why it is below a mark
    (69,995 is not 70,00)."""
    shown = format_score(value)
    if Fraction(Decimal(shown.replace(",", "."))) == value:
        return shown
    return decimal_comma(value)


class _Order(NamedTuple):
    """How the general list is ordered: the day ages are counted on and the edital's criteria."""

    registration_end: datetime.date
    criteria: tuple[Criterion, ...]
    score_words: str = "nota final"  # after a phase: "nota até a fase F1" (the weighted sum so far)


def _ranking_criteria(
    phases: Sequence[PhaseRow], criteria: Sequence[tuple[str, int | None]]
) -> tuple[Criterion, ...]:
    """The edital's tie-break criteria (RULES §3, general list), phases named as the ranking knows them."""
    names = {p.id: p.name for p in phases}
    return criteria_from_kinds(
        (kind, names.get(phase_id) if phase_id is not None else None) for kind, phase_id in criteria
    )


@dataclass
class _Sieve:
    """The registrations still on the lists, their scores by phase name, and who is out and why.

    ``out``: registration id → (category for the summary, why), in the order they left (the entries and
    the summary's ties keep it). ``raw``: the scores as given (for the weighted sum); ``exact`` gives
    them as the ranking compares them, made only where a phase's cut-off or a criterion needs them.
    """

    alive: list[RegistrationRow]
    raw: dict[int, dict[str, Decimal]]
    out: dict[int, tuple[str, str]]

    @classmethod
    def of(cls, regs: Sequence[RegistrationRow], phases: Sequence[PhaseRow]) -> _Sieve:
        """Out by status (eliminated, withdrawn, cancelled); the scores of the others at ``phases``.
        Absences count phase by phase (``apply_absence``), never before an earlier phase's cut."""
        out: dict[int, tuple[str, str]] = {}
        alive: list[RegistrationRow] = []
        for reg in regs:
            if reg.status in OUT_STATUSES:
                out[reg.id] = (OUT_STATUSES[reg.status], OUT_STATUSES[reg.status].capitalize())
            else:
                alive.append(reg)
        names = {p.id: p.name for p in phases}
        raw: dict[int, dict[str, Decimal]] = {}
        for reg in alive:
            given: dict[str, Decimal] = {}
            for phase_id, (score, _) in reg.phases.items():
                if score is not None and phase_id in names:
                    given[names[phase_id]] = score
            raw[reg.id] = given
        return cls(alive, raw, out)

    def exact(self, reg_id: int) -> dict[str, Fraction]:
        """A registration's scores by phase name, exact (``raw``'s as Fractions): made when asked, since
        the final lists of 100,000 without a cut-off or a criterion by phase never ask (a tenth of a
        second saved)."""
        return {name: _exact(score) for name, score in self.raw[reg_id].items()}

    def apply_absence(self, phase: PhaseRow) -> None:
        """Absent at this phase: out at this phase only, as the edital says (RULES §3, "Phases in
        order"); the cuts of earlier phases stand."""
        still: list[RegistrationRow] = []
        for reg in self.alive:
            if reg.phases.get(phase.id, (None, False))[1]:
                self.out[reg.id] = ("ausente", f"Ausente na fase {phase.name} (eliminado, conforme o edital)")
            else:
                still.append(reg)
        self.alive = still

    def apply_absent_flag(self) -> None:
        """Marked absent by the organiser without saying at which phase: out of the final lists, after
        every cut (so it redoes none)."""
        still: list[RegistrationRow] = []
        for reg in self.alive:
            if reg.absent:
                self.out[reg.id] = ("ausente", "Ausente (eliminado, conforme o edital)")
            else:
                still.append(reg)
        self.alive = still

    def apply_pass_mark(self, phase: PhaseRow, *, final: bool = True) -> None:
        """Below the phase's pass mark, or without a score where it has one: on no list, cotistas
        included (SM art. 4 §2; RULES §3, "Pass mark"). In the final lists the organiser's final score
        stands for the phases' scores it was made of."""
        if phase.pass_mark is None:  # nobody is below no mark, and a missing score is not refused here
            return
        minimum = _exact(phase.pass_mark)
        minimum_text = format_score(phase.pass_mark)
        # ``reaches_pass_mark`` written out for the usual case, a Decimal score as given against a Decimal
        # mark (exact both, compared in C); the exact values otherwise.
        mark = phase.pass_mark if type(phase.pass_mark) is Decimal else None
        name, raw = phase.name, self.raw
        still: list[RegistrationRow] = []
        for reg in self.alive:
            given = raw[reg.id].get(name)
            if given is None:
                if reg.final_score is None or not final:
                    self.out[reg.id] = ("sem nota", f"Sem nota na fase {name}, que tem nota mínima")
                else:
                    still.append(reg)
            elif (
                given >= mark
                if mark is not None and type(given) is Decimal
                else reaches_pass_mark(_exact(given), minimum)
            ):
                still.append(reg)
            else:
                self.out[reg.id] = (
                    "abaixo da nota mínima",
                    f"Nota {format_score(_exact(given))} na fase {name}, abaixo da nota mínima "
                    f"{minimum_text}: fora de todas as listas, cotistas inclusive",
                )
        self.alive = still

    def apply_cutoff(self, phase: PhaseRow, params: Params, order: _Order) -> None:
        """Only the best of each list by the phase's own score go on (SM art. 4 §1; RULES §3, "Phase
        cut-off per list"); without a score at the phase, out. A phase without a cut-off lets all through."""
        if phase.cutoff is None or not self.alive:
            return
        with_score = []
        for reg in self.alive:
            if phase.name in self.raw[reg.id]:
                with_score.append(reg)
            else:
                self.out[reg.id] = ("sem nota", f"Sem nota na fase {phase.name}, que tem nota de corte")
        ranked_phase = rank(
            [
                _applicant(reg, exact[phase.name], exact, params.reserves)
                for reg in with_score
                for exact in (self.exact(reg.id),)
            ],
            registration_end=order.registration_end,
            criteria=order.criteria,
        )
        cut = phase_cut(
            ranked_phase,
            phase.cutoff,
            racial=params.racial,
            pcd=params.pcd,
            quota=_quota(phase),
            labels={name: params.label(name) for name in params.reserves},
        )
        passed = set(cut.passed)
        for a in ranked_phase:
            if a.id not in passed:
                self.out[int(a.id)] = (
                    "não classificado no corte da fase",
                    f"Não classificado na fase {phase.name} (nota {format_score(a.score)}): "
                    f"{cut.explanation}",
                )
        self.alive = [reg for reg in with_score if str(reg.id) in passed]


def _quota(phase: PhaseRow) -> dict[str, int]:
    """The places of each list the edital sets for the phase's cut-off (SM art. 4 §1); the others take
    the default split (``phase_cut``)."""
    given = ((OPEN, phase.cutoff_open), (RACIAL, phase.cutoff_racial), (PCD, phase.cutoff_pcd))
    return {name: value for name, value in given if value is not None}


def _applicants(
    sieve: _Sieve,
    phases: Sequence[PhaseRow],
    reserves: tuple[str, ...],
    *,
    final: bool = True,
    by_phase: bool = True,
) -> tuple[list[Applicant], dict[str, Decimal]]:
    """Those still on the lists, with their final score (the organiser's, else the phases' weighted sum;
    after a phase, the weighted sum so far), and that score by applicant id, as given (the lines round it
    as they are written, once everything is decided); without the scores it needs, out (RULES §3).

    ``by_phase``: a tie-break criterion compares phase scores, so each applicant carries them; otherwise
    nothing reads them, and they are not made."""
    applicants = []
    scores: dict[str, Decimal] = {}
    weights = {p.name: p.weight for p in phases}
    count = len(phases)
    for reg in sieve.alive:
        raw = sieve.raw[reg.id]
        # ``_final_score``'s two usual answers without the call: the organiser's score, or the weighted sum
        # when every phase has a score (``raw`` holds only these phases'); the others through it.
        score: Decimal | str
        if final and reg.final_score is not None:
            score = reg.final_score
        elif count and len(raw) == count:
            score = _ZERO  # summed in the items' order from zero, as ``_final_score`` does
            for name, value in raw.items():
                score += weights[name] * value
        else:
            score = _final_score(reg if final else reg._replace(final_score=None), raw, phases, weights)
        if isinstance(score, str):
            sieve.out[reg.id] = ("sem nota", score)
            continue
        applicant = _applicant(reg, _exact(score), sieve.exact(reg.id) if by_phase else _NONE, reserves)
        scores[applicant.id] = score
        applicants.append(applicant)
    return applicants, scores


def _final_score(
    reg: RegistrationRow, raw: dict[str, Decimal], phases: Sequence[PhaseRow], weights: dict[str, Decimal]
) -> Decimal | str:
    """The organiser's final score when the file gave one, else the phases' scores weighted by the
    phase's weight (the edital's formula); the reason it cannot be computed, as text, otherwise."""
    if reg.final_score is not None:
        return reg.final_score
    if not phases:
        return "Sem nota final"
    # ``raw`` holds only these phases' names: as many as the phases, none is missing (the lists of 100,000
    # skip the look-ups).
    missing = [p.name for p in phases if p.name not in raw] if len(raw) < len(phases) else None
    if missing:
        return f"Sem nota na fase {', '.join(missing)}: nota final não calculada"
    # Decimal products and sums of decimals are exact (28 significant digits are plenty here). Summed in
    # the items' order from zero, as ``sum`` would.
    total = _ZERO
    for name, value in raw.items():
        total += weights[name] * value
    return total


_ZERO = Decimal(0)
_NONE: dict[str, Fraction] = {}  # no phase scores (only read)


def _general_entries(
    ranked: list[Applicant],
    by_id: dict[int, RegistrationRow],
    scores: dict[str, Decimal],
    params: Params,
    order: _Order,
) -> Iterator[Entry]:
    """The general list (RULES §3): everyone ranked, cotistas included, each with their why; ``scores``:
    ``_applicants``' final scores (stored rounded to the lists' places)."""
    # Scores are Fractions in lowest terms: equal scores, equal ratios, and each one's text made once.
    ratios = [a.score.as_integer_ratio() for a in ranked]
    ties = _ties(ranked, order, ratios)
    # The reserves' words depend on the lists and the exclusion alone: written once for each combination.
    reserves_why: dict[tuple[frozenset[str], bool], str] = {}
    for i, a in enumerate(ranked):
        reg = by_id[int(a.id)]
        key = (a.lists, reg.status == EXCLUDED_FROM_RESERVE)
        words = reserves_why.get(key)
        if words is None:
            words = reserves_why[key] = _reserves_why(a, reg, params)
        why = _general_why(ranked, i, order, ties, _fraction_text(*ratios[i])) + words
        stored = scores[a.id].quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
        yield Entry(reg.id, OPEN, i + 1, i + 1, stored, reg.number, reg.name[:200], why)


def _ties(ranked: list[Applicant], order: _Order, ratios: list[tuple[int, int]]) -> list[str | None]:
    """For each place i > 0, why the one at i - 1 is before it when their scores are equal (None when
    they are not): each pair is told on both lines, and decided once. ``ratios``: each score's
    ``as_integer_ratio()``.

    ``tie_break_reason``'s answer; when neither is elderly and the edital has no criteria of its own it
    can only be the inscription number, said here without the call (most ties of a list of 100,000)."""
    registration_end, criteria = order.registration_end, order.criteria
    elderly = [is_elderly(a, registration_end) for a in ranked]
    ties: list[str | None] = [None]
    for i in range(1, len(ranked)):
        if ratios[i - 1] != ratios[i]:
            ties.append(None)
        elif not criteria and not elderly[i - 1] and not elderly[i]:
            ties.append(BY_INSCRIPTION)
        else:
            ties.append(
                tie_break_reason(
                    ranked[i - 1], ranked[i], registration_end=registration_end, criteria=criteria
                )
            )
    return ties


def _general_why(
    ranked: list[Applicant], i: int, order: _Order, ties: list[str | None], score_text: str
) -> str:
    """A place on the general list, and the tie-break against a neighbour with the same score (RULES §3:
    the edital's criteria in order, the inscription number last); ``ties``: ``_ties``' of the list;
    ``score_text``: ``format_score`` of the place's score."""
    why = f"{i + 1}º na ampla concorrência, {order.score_words} {score_text}"
    reason = ties[i]
    if reason is not None:
        why += (
            f"; empatado na nota com a inscrição {ranked[i - 1].inscription}, que fica à frente por: {reason}"
        )
    reason = ties[i + 1] if i + 1 < len(ranked) else None
    if reason is not None:
        why += f"; fica à frente da inscrição {ranked[i + 1].inscription}, empatada na nota, por: {reason}"
    return why


def _reserves_why(a: Applicant, reg: RegistrationRow, params: Params) -> str:
    """The reserves a line of the general list also competes for, or its exclusion from them."""
    why = ""
    opted = [params.label(r) for r in params.reserves if r in a.lists]
    if opted:
        why += f"; concorre também à reserva a {' e à reserva a '.join(opted)}"
    if reg.status == EXCLUDED_FROM_RESERVE:
        why += "; excluída das reservas: permanece somente na ampla concorrência"
    return why


def _reserved_entries(
    ranked: list[Applicant],
    lists: Lists,
    by_id: dict[int, RegistrationRow],
    scores: dict[str, Decimal],
    params: Params,
    order: _Order,
) -> Iterator[Entry]:
    """One list per reserve: who opted for it at registration, in the general list's order (RULES §3)."""
    general_rank = {a.id: i for i, a in enumerate(ranked, start=1)}
    ranked_by_id = {a.id: a for a in ranked}
    for name in params.reserves:
        for j, cid in enumerate(getattr(lists, name), start=1):
            a = ranked_by_id[cid]
            reg = by_id[int(cid)]
            g = general_rank[cid]
            why = (
                f"{j}º da lista reservada a {params.label(name)} ({g}º na ampla concorrência, "
                f"{order.score_words} {format_score(a.score)}): optou pela reserva no ato da inscrição"
            )
            stored = scores[a.id].quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
            yield Entry(reg.id, name, j, g, stored, reg.number, reg.name[:200], why)


def _out_entries(out: dict[int, tuple[str, str]], by_id: dict[int, RegistrationRow]) -> Iterator[Entry]:
    """Those on no list, with why and the organiser's final score when the file gave one."""
    for pk, (_, reason) in out.items():
        reg = by_id[pk]
        kept = (
            reg.final_score.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
            if reg.final_score is not None
            else None
        )
        yield Entry(reg.id, OUT, None, None, kept, reg.number, reg.name[:200], reason)


def _summary(
    registrations: int, lists: Lists, out: dict[int, tuple[str, str]], reserves: tuple[str, ...]
) -> dict[str, object]:
    """How many on each list, and the most common reasons for being on none."""
    reasons = Counter(category for category, _ in out.values())
    return {
        "registrations": registrations,
        "open": len(lists.general),
        "racial": len(lists.racial) if RACIAL in reserves else 0,
        "pcd": len(lists.pcd) if PCD in reserves else 0,
        "out": len(out),
        "out_reasons": dict(reasons.most_common(8)),
    }
