"""T7 court orders (issue 23), for all the contests of a report's scope together (an order per contest
would name too few people): the orders decided by the period's end; the candidates sub judice (reached by an
order in effect) by cause (what the order commands); the seats kept by order; the orders complied with
(their effects applied by the period's end) and those revoked or reformed. Counts of candidates are counts of
people (``monitoring.privacy`` decides); counts of orders are of acts."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from declarations.courts import rules
from declarations.models import CourtOrder, CourtOrderEffect
from monitoring.indicators import Scope, contests_in


@dataclass
class CourtOrders:
    orders: int = 0
    sub_judice: int = 0  # candidates reached by an order in effect
    by_cause: dict[str, int] = field(default_factory=dict)  # effect label -> candidates
    seats_kept: int = 0  # candidates whose seat an order in effect keeps
    complied: int = 0  # orders with effects applied
    revoked: int = 0  # orders revoked or reformed


def court_orders(scope: Scope) -> CourtOrders:
    orders = CourtOrder.objects.filter(contest__in=contests_in(scope), decided_on__lte=scope.end)
    found = CourtOrders(by_cause=dict.fromkeys(rules.EFFECT_LABELS.values(), 0))
    people: dict[str, set[int]] = defaultdict(set)
    everyone: set[int] = set()
    kept: set[int] = set()
    complied = set(
        CourtOrderEffect.objects.filter(order__in=orders, applied_on__lte=scope.end).values_list(
            "order_id", flat=True
        )
    )
    for order in orders.prefetch_related("registrations"):
        found.orders += 1
        fell = rules.Status(order.status) in rules.REVERSALS and (
            order.status_on is None or order.status_on <= scope.end
        )
        if fell:
            found.revoked += 1
        in_effect = not fell
        reached = {r.pk for r in order.registrations.all()}
        if in_effect and reached:
            label = rules.EFFECT_LABELS[rules.Effect(order.effect)]
            people[label] |= reached
            everyone |= reached
            if order.effect == rules.Effect.KEEP_SEAT:
                kept |= reached
    found.complied = len(complied)
    found.sub_judice = len(everyone)
    found.by_cause.update({label: len(members) for label, members in people.items()})
    found.seats_kept = len(kept)
    return found
