"""People, registrations, results, lists and nominations (see DESIGN.md).

This package stores data; the rules that rank, cut and nominate live in the pure engine
``candidates/engine/``. Writes go through ``candidates/services/`` (and the importer).
"""

from candidates.models.access import AccessCodeDelivery, AccessCodeFailure
from candidates.models.nominations import AllocationLedger, Nomination
from candidates.models.phases import ImportMapping, Phase, PhaseResult, TieBreakCriterion
from candidates.models.registrations import (
    SCORE_DECIMAL_PLACES,
    SCORE_MAX_DIGITS,
    Candidate,
    Registration,
    Reserve,
    SelfDeclaration,
    score_field,
)
from candidates.models.results import ListName, ResultEntry, ResultRun
from candidates.models.seat_notices import PhaseMakeUp, SeatNotice

__all__ = [
    "SCORE_DECIMAL_PLACES",
    "SCORE_MAX_DIGITS",
    "AccessCodeDelivery",
    "AccessCodeFailure",
    "AllocationLedger",
    "Candidate",
    "ImportMapping",
    "ListName",
    "Nomination",
    "Phase",
    "PhaseMakeUp",
    "PhaseResult",
    "Registration",
    "Reserve",
    "ResultEntry",
    "ResultRun",
    "SeatNotice",
    "SelfDeclaration",
    "TieBreakCriterion",
    "score_field",
]
