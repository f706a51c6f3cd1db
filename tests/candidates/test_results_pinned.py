"""The lines of varied positions, pinned byte for byte (issue 24: the lists of 100,000 made faster must
give the very same lines). Pure: no database.

A seeded fixture of 200 positions (0 to 300 registrations each) covering what the lists decide: every
status, absences, missing scores, pass marks, cut-offs with and without the edital's quotas, weights,
the organiser's final score (of different exponents), the minimum for approval, the lists after a phase,
the edital's criteria, the elderly (29 February included), names accented and longer than a line keeps,
inscription numbers with letters. ``compute_position``'s lines and summary, ``repr``'d, are summed up in
one SHA-256, taken from the engine before the speed-ups of issue 24 (main at 8d72ed0).

When a change of wording or of a rule is meant to change lines, this digest changes with it: check the
lines that changed (``_lines`` of the cases before and after), then take the new digest.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from decimal import Decimal

from candidates.engine.results import PhaseRow, RegistrationRow, compute_position
from candidates.engine.schedule import Params
from contests.quotas import ReserveRule

PINNED = "e44d11478f03df633880b39ec32fa67cfcefb5705c997a66d1e8f4617cda2866"
END = datetime.date(2026, 3, 31)
PARAMS = (
    Params(racial=ReserveRule(20, 3, "half_up"), group_label="negros"),
    Params(racial=ReserveRule(20, 3, "half_up"), pcd=ReserveRule(5, 1, "up", 20), group_label="negros"),
)
STATUSES = ["active"] * 20 + ["eliminated", "withdrawn", "cancelled"] + ["excluded_from_reserve"] * 2
NAMES = ["Conceição Araújo", "ÉLIO Ñúñez", "Ana Maria", "Łukasz Ørsted", "Zoë d'Ávila", "José  Silva"]
BIRTHS = [datetime.date(1966, 3, 31), datetime.date(1966, 4, 1), datetime.date(1964, 2, 29)]


def _phases(rng: random.Random, seed: int) -> list[PhaseRow]:
    phases = []
    for number in range(1, rng.randint(0, 3) + 1):
        cutoff = rng.choice([None, None, rng.randint(0, 40)])
        racial = rng.choice([None, rng.randint(0, 5)]) if cutoff is not None else None
        if racial is not None and cutoff is not None and racial > cutoff:
            racial = cutoff
        open_ = rng.choice([None, rng.randint(0, cutoff - (racial or 0))]) if cutoff is not None else None
        fits = cutoff is not None and (racial or 0) + (open_ or 0) + 1 <= cutoff
        pcd = rng.choice([None, 0, 1]) if fits else None
        mark = rng.choice([None, Decimal("5"), Decimal("4.5"), Decimal("50")])
        weight = rng.choice([Decimal(1), Decimal(2), Decimal("0.5"), Decimal("1.25")])
        phases.append(
            PhaseRow(number * 10 + seed % 7, f"F{number}", weight, mark, cutoff, open_, racial, pcd)
        )
    return phases


def _score(rng: random.Random) -> tuple[Decimal | None, bool] | None:
    draw = rng.random()
    if draw < 0.05:
        return (None, True)  # absent
    if draw < 0.10:
        return None  # no line for the phase
    if draw < 0.13:
        return (None, False)  # a line without a score
    value = rng.choice([rng.randint(0, 10), rng.randint(0, 100) / 10, rng.randint(0, 1000) / 100])
    return (Decimal(str(value)), False)


def _case(seed: int):
    rng = random.Random(seed)
    phases = _phases(rng, seed)
    count = rng.choice([0, 1, 5, 30, 120, 300])
    numbers = rng.sample(range(1000, 99999), count)
    regs = []
    for i in range(count):
        scores = {p.id: s for p in phases if (s := _score(rng)) is not None}
        birth = rng.choice(
            [None, datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(20000)), *BIRTHS]
        )
        final = rng.choice(
            [None] * 8
            + [Decimal(rng.randint(0, 10000)) / 100, Decimal("7.5"), Decimal("7.50"), Decimal("7.505")]
        )
        name = rng.choice(NAMES) + f" {i}" * rng.randint(0, 1) + ("x" * 250 if rng.random() < 0.01 else "")
        regs.append(
            RegistrationRow(
                i * 3 + 1,
                str(numbers[i]) if rng.random() < 0.9 else f"A{numbers[i]}",
                rng.choice(STATUSES),
                rng.random() < 0.3,
                rng.random() < 0.1,
                rng.choice(["", "", "racial", "pcd"]),
                final,
                rng.random() < 0.03,
                rng.random() < 0.1,
                name,
                birth,
                scores,
                1,
            )
        )
    kinds: list[tuple[str, int | None]] = [
        ("elderly", None),
        ("older", None),
        ("jury_service", None),
        ("inscription_number", None),
    ]
    kinds += [("phase_score", p.id) for p in phases]
    criteria = rng.sample(kinds, rng.randint(0, min(3, len(kinds))))
    options = {
        "params": rng.choice(PARAMS),
        "registration_end": END,
        "criteria": criteria,
        "minimum_final_score": rng.choice([None, Decimal("5"), Decimal("12.345")]),
    }
    after = rng.choice([None] + [p.id for p in phases]) if phases else None
    return regs, phases, options, after


def _lines(seed: int) -> list[str]:
    regs, phases, options, after = _case(seed)
    found = []
    for stop in (None, after) if after is not None else (None,):
        result = compute_position(regs, phases, after_phase=stop, **options)
        found.append(repr((result.entries, sorted(result.summary.items()))))
    return found


def test_issue_24_the_lines_of_varied_positions_are_the_ones_pinned():
    digest = hashlib.sha256()
    for seed in range(200):
        for lines in _lines(seed):
            digest.update(lines.encode())
    assert digest.hexdigest() == PINNED
