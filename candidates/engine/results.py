"""One position's classification lists from its registrations, scores and phases (RULES.md §3).

PURE: the standard library and the other modules of this package only (a test enforces it). The service
``candidates.services.results`` reads the rows from the database, calls ``compute_position`` and writes
the entries; everything that is a rule is decided here, on plain data:

- a registration that is eliminated, withdrawn or cancelled, absent, without a score where one is needed,
  below a phase's pass mark (SM art. 4 §2) or not let through a phase's cut-off, which is applied per
  list (SM art. 4 §1), is on no list; its entry (list ``out``) says why;
- the final score is the organiser's when the file gave one, else the phases' scores weighted by the
  phase's weight (the edital's formula: a weighted sum);
- the others are ranked (``ranking.rank``: score, the elderly first, the edital's criteria, the
  inscription number last) into the general list and one list per reserve, each entry with its why.

Tuned for a municipal contest of tens of thousands of registrations: rows are named tuples, scores are
converted to exact fractions once (cached: they repeat a lot).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from candidates.engine.ranking import (
    Applicant,
    classification_lists,
    criteria_from_kinds,
    phase_cut,
    rank,
    reaches_pass_mark,
    tie_break_reason,
)
from candidates.engine.schedule import OPEN, PCD, RACIAL, Params

OUT = "out"
SCORE_QUANTUM = Decimal("0.01")
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


def format_score(value: Fraction | Decimal | None) -> str:
    """A score as lists print it: two decimals, rounded half up, decimal comma (``7,50``); ``—`` for none."""
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{value.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP):f}".replace(".", ",")


@lru_cache(maxsize=100_000)
def _exact(value: Decimal) -> Fraction:
    """A score as the ranking needs it (exact); scores repeat a lot, so conversions are cached."""
    return Fraction(value)


def _applicant(
    reg: RegistrationRow, score: Fraction, phase_scores: dict[str, Fraction], reserves: tuple[str, ...]
) -> Applicant:
    lists = set()
    if reg.status != EXCLUDED_FROM_RESERVE:
        if reg.racial and RACIAL in reserves:
            lists.add(RACIAL)
        if reg.pcd and PCD in reserves:
            lists.add(PCD)
    prefers = reg.prefers if reg.prefers in lists else None
    return Applicant(
        id=str(reg.id),
        inscription=reg.number,
        score=score,
        birth_date=reg.birth_date,
        phase_scores=tuple(phase_scores.items()),
        jury_service=reg.jury,
        lists=frozenset(lists),
        prefers=prefers,
    )


def compute_position(
    regs: Sequence[RegistrationRow],
    phases: Sequence[PhaseRow],
    *,
    params: Params,
    registration_end: datetime.date,
    criteria: Sequence[tuple[str, int | None]] = (),
) -> PositionResult:
    """The lists of one position (RULES §3): every registration gets one ``out`` entry or one entry on the
    general list and one on each reserve it is on; ``summary`` counts the lists and the reasons for ``out``.

    ``phases`` in phase order; ``criteria``: the edital's tie-break criteria as ``(kind, phase id)``;
    ``registration_end``: the day the Estatuto do Idoso's age is counted on.
    """
    reserves = params.reserves
    names = {p.id: p.name for p in phases}
    ranking_criteria = criteria_from_kinds(
        (kind, names.get(phase_id) if phase_id is not None else None) for kind, phase_id in criteria
    )
    out: dict[int, tuple[str, str]] = {}  # id → (category for the summary, why)
    by_id = {reg.id: reg for reg in regs}

    # Status, absence, phase by phase (pass mark, then cut-off), final score.
    alive: list[RegistrationRow] = []
    for reg in regs:
        if reg.status in OUT_STATUSES:
            out[reg.id] = (OUT_STATUSES[reg.status], OUT_STATUSES[reg.status].capitalize())
        elif reg.absent or any(absent for _, absent in reg.phases.values()):
            missed = [p.name for p in phases if reg.phases.get(p.id, (None, False))[1]]
            where = f" na fase {', '.join(missed)}" if missed else ""
            out[reg.id] = ("ausente", f"Ausente{where} (eliminado, conforme o edital)")
        else:
            alive.append(reg)
    raw: dict[int, dict[str, Decimal]] = {
        reg.id: {
            names[phase_id]: score
            for phase_id, (score, _) in reg.phases.items()
            if score is not None and phase_id in names
        }
        for reg in alive
    }
    scores: dict[int, dict[str, Fraction]] = {
        pk: {name: _exact(score) for name, score in values.items()} for pk, values in raw.items()
    }
    for phase in phases:
        still: list[RegistrationRow] = []
        minimum = _exact(phase.pass_mark) if phase.pass_mark is not None else None
        for reg in alive:
            score = scores[reg.id].get(phase.name)
            if minimum is not None and score is None and reg.final_score is None:
                out[reg.id] = ("sem nota", f"Sem nota na fase {phase.name}, que tem nota mínima")
            elif score is not None and not reaches_pass_mark(score, minimum):
                out[reg.id] = (
                    "abaixo da nota mínima",
                    f"Nota {format_score(score)} na fase {phase.name}, abaixo da nota mínima "
                    f"{format_score(phase.pass_mark)}: fora de todas as listas, cotistas inclusive",
                )
            else:
                still.append(reg)
        alive = still
        if phase.cutoff is not None and alive:
            with_score = [reg for reg in alive if phase.name in scores[reg.id]]
            for reg in alive:
                if phase.name not in scores[reg.id]:
                    out[reg.id] = ("sem nota", f"Sem nota na fase {phase.name}, que tem nota de corte")
            ranked_phase = rank(
                [_applicant(reg, scores[reg.id][phase.name], scores[reg.id], reserves) for reg in with_score],
                registration_end=registration_end,
                criteria=ranking_criteria,
            )
            quota = {
                name: value
                for name, value in (
                    (OPEN, phase.cutoff_open),
                    (RACIAL, phase.cutoff_racial),
                    (PCD, phase.cutoff_pcd),
                )
                if value is not None
            }
            cut = phase_cut(ranked_phase, phase.cutoff, racial=params.racial, pcd=params.pcd, quota=quota)
            passed = set(cut.passed)
            for a in ranked_phase:
                if a.id not in passed:
                    out[int(a.id)] = (
                        "não classificado no corte da fase",
                        f"Não classificado na fase {phase.name} (nota {format_score(a.score)}): "
                        f"{cut.explanation}",
                    )
            alive = [reg for reg in with_score if str(reg.id) in passed]

    applicants = []
    stored: dict[str, Decimal] = {}
    weights = {p.name: p.weight for p in phases}
    for reg in alive:
        phase_scores = scores[reg.id]
        if reg.final_score is not None:
            final = reg.final_score
        elif phases:
            missing = [p.name for p in phases if p.name not in phase_scores]
            if missing:
                out[reg.id] = ("sem nota", f"Sem nota na fase {', '.join(missing)}: nota final não calculada")
                continue
            # Decimal products and sums of decimals are exact (28 significant digits are plenty here).
            final = sum((weights[name] * value for name, value in raw[reg.id].items()), Decimal(0))
        else:
            out[reg.id] = ("sem nota", "Sem nota final")
            continue
        applicant = _applicant(reg, _exact(final), phase_scores, reserves)
        stored[applicant.id] = final.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
        applicants.append(applicant)

    ranked = rank(applicants, registration_end=registration_end, criteria=ranking_criteria)
    lists = classification_lists(ranked)
    general_rank = {a.id: i for i, a in enumerate(ranked, start=1)}
    entries: list[Entry] = []
    label = params.label
    for i, a in enumerate(ranked):
        reg = by_id[int(a.id)]
        why = f"{i + 1}º na ampla concorrência, nota final {format_score(a.score)}"
        if i > 0 and ranked[i - 1].score == a.score:
            before = ranked[i - 1]
            reason = tie_break_reason(before, a, registration_end=registration_end, criteria=ranking_criteria)
            why += f"; empatado na nota com a inscrição {before.inscription}, que fica à frente por: {reason}"
        if i + 1 < len(ranked) and ranked[i + 1].score == a.score:
            after = ranked[i + 1]
            reason = tie_break_reason(a, after, registration_end=registration_end, criteria=ranking_criteria)
            why += f"; fica à frente da inscrição {after.inscription}, empatada na nota, por: {reason}"
        opted = [label(r) for r in reserves if r in a.lists]
        if opted:
            why += f"; concorre também à reserva a {' e à reserva a '.join(opted)}"
        if reg.status == EXCLUDED_FROM_RESERVE:
            why += "; excluída das reservas: permanece somente na ampla concorrência"
        entries.append(Entry(reg.id, OPEN, i + 1, i + 1, stored[a.id], reg.number, reg.name[:200], why))
    ranked_by_id = {a.id: a for a in ranked}
    for name in reserves:
        members = getattr(lists, name)
        for j, cid in enumerate(members, start=1):
            a = ranked_by_id[cid]
            reg = by_id[int(cid)]
            g = general_rank[cid]
            why = (
                f"{j}º da lista reservada a {label(name)} ({g}º na ampla concorrência, nota final "
                f"{format_score(a.score)}): optou pela reserva no ato da inscrição"
            )
            entries.append(Entry(reg.id, name, j, g, stored[a.id], reg.number, reg.name[:200], why))
    for pk, (_, reason) in out.items():
        reg = by_id[pk]
        kept = (
            reg.final_score.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
            if reg.final_score is not None
            else None
        )
        entries.append(Entry(reg.id, OUT, None, None, kept, reg.number, reg.name[:200], reason))

    reasons = Counter(category for category, _ in out.values())
    summary: dict[str, object] = {
        "registrations": len(regs),
        "open": len(lists.general),
        "racial": len(lists.racial) if RACIAL in reserves else 0,
        "pcd": len(lists.pcd) if PCD in reserves else 0,
        "out": len(out),
        "out_reasons": dict(reasons.most_common(8)),
    }
    return PositionResult(entries, summary)
