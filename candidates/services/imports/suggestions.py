"""The mapping a new file starts from: the contest's saved mapping first, then the synonyms
(``mapping.suggest``), and the choices a mapping form offers (every field, each phase, existing or new)."""

from __future__ import annotations

from collections.abc import Sequence

from candidates.models import ImportMapping
from candidates.services.imports.mapping import (
    FIELDS,
    IGNORE,
    PHASE_PREFIX,
    phase_target,
    suggest,
    target_label,
)
from contests.models import Contest


def suggest_mapping(contest: Contest, headers: Sequence[str]) -> dict[str, str]:
    """``{header: target}`` for these headers: the contest's saved mapping first, then synonyms."""

    saved = ImportMapping.objects.filter(contest=contest).values_list("columns", flat=True).first() or {}
    phase_names = list(contest.phases.order_by("order").values_list("name", flat=True))
    return suggest(headers, phase_names=phase_names, saved=saved)


def mapping_choices(contest: Contest, headers: Sequence[str] = ()) -> list[tuple[str, str]]:
    """``(target, label)`` pairs for a mapping form: ignore, every field, each phase (existing or new)."""
    choices = [(IGNORE, target_label(IGNORE))] + [(f.key, f.label) for f in FIELDS]
    names = list(contest.phases.order_by("order").values_list("name", flat=True))
    for target in suggest(headers, phase_names=names).values():
        if target.startswith(PHASE_PREFIX) and target[len(PHASE_PREFIX) :] not in names:
            names.append(target[len(PHASE_PREFIX) :])
    return choices + [(phase_target(name), target_label(phase_target(name))) for name in names]
