"""T6 (issue 23): procedures on a suspected false self-declaration, for a report's scope: those opened within
the period on a registration of the scope's contests, by origin; their current outcomes; the median duration
of the closed ones (from the opening to their last act); and the referrals to the prosecutor's office (CP
art. 299). Counts of people: what may be shown is ``monitoring.privacy``'s decision."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from django.db.models import Max

from declarations.models import Procedure
from monitoring.indicators import Scope, positions_in


@dataclass
class FalsityProcedures:
    opened: int = 0
    by_origin: dict[str, int] = field(default_factory=dict)  # Procedure.Origin value -> count
    outcomes: dict[str, int] = field(default_factory=dict)  # outcome value ("" while none) -> count
    closed: int = 0
    median_days: float | None = None  # of the closed ones
    referred: int = 0  # referred to the prosecutor's office


def falsity_procedures(scope: Scope) -> FalsityProcedures:
    positions = [p.pk for p in positions_in(scope)]
    procedures = Procedure.objects.filter(
        registration__position__in=positions, opened_on__range=(scope.start, scope.end)
    ).annotate(last_act=Max("acts__on"))
    found = FalsityProcedures(by_origin=dict.fromkeys(Procedure.Origin.values, 0))
    days: list[int] = []
    for procedure in procedures:
        found.opened += 1
        found.by_origin[procedure.origin] += 1
        found.outcomes[procedure.outcome] = found.outcomes.get(procedure.outcome, 0) + 1
        if procedure.prosecutor_referral.strip():
            found.referred += 1
        if procedure.status == Procedure.Status.CLOSED:
            found.closed += 1
            if procedure.last_act is not None:
                days.append((procedure.last_act - procedure.opened_on).days)
    found.median_days = statistics.median(days) if days else None
    return found
