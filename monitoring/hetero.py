"""T5 heteroidentification (issue 23), per contest of a report's scope, counted by registration (each
called registration once; a justified absence called again counts by its second call): called, present,
absent, no attendance recorded; confirmed, not confirmed, no final result yet (``declarations.hetero.
selectors.final_state`` on the period's last day); appeals, reversed on appeal; moved to open competition,
eliminated; later reinstated (a reversal of the decision, or a court order that reinstated them). Counts of
people: what may be shown is ``monitoring.privacy``'s decision."""

from __future__ import annotations

from dataclasses import dataclass

from contests.models import Contest
from declarations.courts import rules as court_rules
from declarations.hetero import rules
from declarations.hetero.selectors import appeal_of, final_state, second_call_of
from declarations.models import CourtOrderEffect, Verification
from declarations.models.reversals import ProcedureReversal
from monitoring.indicators import Scope, contests_in

MEASURES = (
    ("called", "convocados"),
    ("present", "compareceram"),
    ("absent", "não compareceram"),
    ("unrecorded", "comparecimento não registrado"),
    ("confirmed", "autodeclaração confirmada"),
    ("not_confirmed", "autodeclaração não confirmada"),
    ("pending", "sem resultado final"),
    ("appeals", "recursos"),
    ("reversed", "revertidos no recurso"),
    ("moved_to_open", "passaram à ampla concorrência"),
    ("eliminated", "eliminados"),
    ("reinstated", "reintegrados depois"),
)


@dataclass
class HeteroCounts:
    contest: Contest
    counts: dict[str, int]


def heteroidentification(scope: Scope) -> list[HeteroCounts]:
    found = []
    for contest in contests_in(scope):
        counts = dict.fromkeys((key for key, _ in MEASURES), 0)
        first = (
            Verification.objects.filter(
                session__commission__contest=contest,
                session__commission__kind=rules.Kind.FIRST,
                session__starts_at__date__lte=scope.end,
                registration__position__contest=contest,
            )
            .exclude(second_call_of__isnull=False)  # a second call counts through its first
            .select_related("appeal__judged_in")
            .order_by("pk")
        )
        seen: set[int] = set()
        for verification in first:
            if verification.registration_id in seen:
                continue
            seen.add(verification.registration_id)
            counts["called"] += 1
            called = second_call_of(verification)
            effective = called.verification if called else verification
            if effective.attended is True:
                counts["present"] += 1
            elif effective.attended is False:
                counts["absent"] += 1
            else:
                counts["unrecorded"] += 1
            state = final_state(verification, today=scope.end)
            if state == rules.Outcome.CONFIRMED:
                counts["confirmed"] += 1
            elif state == rules.Outcome.NOT_CONFIRMED:
                counts["not_confirmed"] += 1
            elif effective.attended is True:
                counts["pending"] += 1
            appeal = appeal_of(effective)
            if appeal is not None and appeal.filed_at.date() <= scope.end:
                counts["appeals"] += 1
                judged = appeal.judged_in
                if judged is not None and judged.outcome and judged.outcome != effective.outcome:
                    counts["reversed"] += 1
            consequence_day = effective.consequence_applied_on
            if consequence_day is not None and consequence_day <= scope.end:
                if effective.consequence == rules.Consequence.KEEP_OPEN:
                    counts["moved_to_open"] += 1
                elif effective.consequence == rules.Consequence.ELIMINATE:
                    counts["eliminated"] += 1
        counts["reinstated"] = _reinstated(seen, scope)
        found.append(HeteroCounts(contest, counts))
    return found


def _reinstated(registrations: set[int], scope: Scope) -> int:
    """Of ``registrations``, those reinstated by the period's end: a reversal of a decision on their
    procedure, or a court order whose compliance reinstated them."""
    reversed_ = set(
        ProcedureReversal.objects.filter(
            procedure__registration__in=registrations, on__lte=scope.end
        ).values_list("procedure__registration_id", flat=True)
    )
    by_court = {
        registration
        for registration, events in CourtOrderEffect.objects.filter(
            registration__in=registrations, applied_on__lte=scope.end
        ).values_list("registration_id", "events")
        if court_rules.REINSTATE in (events or [])
    }
    return len(reversed_ | by_court)
