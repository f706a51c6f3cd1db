"""The edital's seat order from the allocation engine: which vacancies of a position are reserved to each
list and the kinds of its first nominations, exactly as the nominations will follow them (RULES §4). Handed
to the edital (``contests.documents.seats.use_seat_order``) when the apps load: contests, below this app,
never imports the engine."""

from __future__ import annotations

from candidates.engine import schedule
from candidates.engine_params import params_from_policy
from contests.documents.chapter import SEATS_SHOWN
from contests.documents.seats import SeatOrder
from contests.models import Policy, Position
from contests.quotas import threshold_extra


def edital_seat_order(position: Position, vacancies: int, contest_vacancies: int) -> SeatOrder:
    """The seat order of ``position`` with ``vacancies`` open, in a contest with ``contest_vacancies`` (the
    threshold counted as the policy says: on the position or on the contest, SM art. 1 §2)."""
    contest = position.contest
    policy = contest.policy
    extra = threshold_extra(
        on_contest=policy.threshold_basis == Policy.ThresholdBasis.CONTEST,
        contest_vacancies=contest_vacancies,
        position_vacancies=vacancies,
    )
    params = params_from_policy(policy, pcd_rule=contest.pcd_rule(), threshold_extra=extra)
    kinds = schedule.schedule(params, vacancies)
    first = schedule.project(params, kinds, max(vacancies, SEATS_SHOWN))[:SEATS_SHOWN]
    return SeatOrder(
        racial=tuple(s for s, kind in enumerate(kinds, 1) if kind == schedule.RACIAL),
        pcd=tuple(s for s, kind in enumerate(kinds, 1) if kind == schedule.PCD),
        first=tuple(first),
    )
