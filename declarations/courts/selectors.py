"""Reads of court orders: the compliance deadline of each (counted when read, never stored, by the deadline
engine with the organisation's calendar) and the orders in effect by compliance due day."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from declarations import deadlines
from declarations.calendars import organization_calendar, years_for
from declarations.courts import rules
from declarations.models import CourtOrder, CourtOrderEffect


@dataclass(frozen=True)
class OrderRow:
    order: CourtOrder
    deadline: deadlines.Deadline
    today: datetime.date
    # The day the last candidate in its scope was complied with, for an order the engine complies with
    # (reinclusion, keeping a seat) and nobody left; None while someone is left or the effect is complied
    # with on another screen (only the office knows when).
    complied_on: datetime.date | None = None

    @property
    def due(self) -> datetime.date:
        return self.deadline.last_day

    @property
    def days_left(self) -> int:
        return self.deadline.days_left(self.today)

    @property
    def overdue_days(self) -> int:
        return max(0, -self.days_left)

    @property
    def overdue(self) -> bool:
        return self.complied_on is None and self.days_left < 0


def compliance_deadline(
    notified_on: datetime.date, amount: int, unit: str, calendar: deadlines.Calendar | None = None
) -> deadlines.Deadline:
    """The compliance deadline of an order notified on ``notified_on`` (Lei 9.784 art. 66, the
    organisation's holidays): ``ValueError`` (Portuguese) for an absurd amount."""
    unit_ = deadlines.Unit(unit)
    if calendar is None:
        calendar = organization_calendar(years_for(notified_on, amount, unit_))
    return deadlines.deadline(notified_on, amount, unit_, calendar)


def _calendar_for(orders: Sequence[CourtOrder]) -> deadlines.Calendar:
    years: set[int] = set()
    for order in orders:
        years.update(
            years_for(order.notified_on, order.compliance_days, deadlines.Unit(order.compliance_unit))
        )
    return organization_calendar(sorted(years))


def order_rows(orders: Iterable[CourtOrder], *, today: datetime.date) -> list[OrderRow]:
    """Each order with its compliance deadline, counted with one calendar for all."""
    listed = list(orders)
    calendar = _calendar_for(listed)
    return [
        OrderRow(
            order,
            compliance_deadline(order.notified_on, order.compliance_days, order.compliance_unit, calendar),
            today,
        )
        for order in listed
    ]


def locked(order: CourtOrder) -> CourtOrder:
    """``order`` read afresh with its row locked (inside the caller's transaction)."""
    return CourtOrder.objects.select_for_update().get(pk=order.pk)


def orders() -> QuerySet[CourtOrder]:
    return CourtOrder.objects.select_related("contest", "position").order_by("-decided_on", "-pk")


def compliance(order_ids: Iterable[int]) -> tuple[set[int], dict[int, datetime.date]]:
    """Of the orders ``order_ids``: those with someone in their scope not yet complied with, and for each
    order the day its latest candidate was complied with (``CourtOrderEffect``: the engine's effects)."""
    ids = list(order_ids)
    reached = set(
        CourtOrder.registrations.through.objects.filter(courtorder_id__in=ids).values_list(
            "courtorder_id", "registration_id"
        )
    )
    applied = list(
        CourtOrderEffect.objects.filter(order_id__in=ids).values_list(
            "order_id", "registration_id", "applied_on"
        )
    )
    left = {order for order, _ in reached - {(order, registration) for order, registration, _ in applied}}
    last: dict[int, datetime.date] = {}
    for order, _, day in applied:
        last[order] = max(day, last.get(order, day))
    return left, last


def in_force_by_due_day(*, today: datetime.date) -> list[OrderRow]:
    """The orders vigentes (not yet confirmed, revoked, reformed or final), the earliest compliance due
    day first: what the office must still comply with."""
    rows = order_rows(orders().filter(status=rules.Status.IN_FORCE.value), today=today)
    engine = [row.order.pk for row in rows if rules.Effect(row.order.effect) in rules.ENGINE_EFFECTS]
    left, last = compliance(engine)
    rows = [
        dataclasses.replace(row, complied_on=last[row.order.pk])
        if row.order.pk in last and row.order.pk not in left
        else row
        for row in rows
    ]
    # What is still to comply with first, by due day; then the orders complied with, followed until decided.
    return sorted(rows, key=lambda row: (row.complied_on is not None, row.due, row.order.pk))


def precarious_cases(registration_ids: Iterable[int]) -> dict[int, str]:
    """For each registration reached by name by an order in force or confirmed that puts or keeps it in the
    competition, that order's CNJ number (the latest decided one); '' for an order in segredo de justiça,
    whose number the public acts never cite."""
    rows = (
        CourtOrder.registrations.through.objects.filter(
            registration_id__in=list(registration_ids),
            courtorder__status__in=[s.value for s in rules.PRECARIOUS_STATUSES],
            courtorder__effect__in=[e.value for e in rules.PRECARIOUS_EFFECTS],
        )
        .order_by("courtorder__decided_on", "courtorder_id")
        .values_list("registration_id", "courtorder__case_number", "courtorder__secret")
    )
    return {registration: "" if secret else number for registration, number, secret in rows}
