"""The allocation engine's parameters from the database: ``Policy`` (and its contest) → ``Params``.

The one place the app turns a policy row into the pure engine's input (``candidates.engine.allocation``); the
``simulate`` command and the nomination services both call it.
"""

from __future__ import annotations

from dataclasses import replace

from candidates.engine.schedule import PCD, RACIAL, Params
from contests.models import Contest, Policy, Position
from contests.quotas import ReserveRule


def params_from_policy(
    policy: Policy, *, pcd_rule: ReserveRule | None = None, threshold_extra: int = 0
) -> Params:
    """The engine's view of ``policy`` (RULES §1, §4); the PcD reserve comes from the contest.

    ``threshold_extra``: vacancies of the contest's other positions, when the policy tests its
    threshold on the whole contest (``threshold_basis = contest``, SM art. 1 §2).
    """
    priority: tuple[str, ...] = ()  # BY_ORDER: the engine's default for the order (RULES §4)
    if policy.priority == Policy.Priority.PCD_FIRST:
        priority = (PCD, RACIAL)
    elif policy.priority == Policy.Priority.RACIAL_FIRST:
        priority = (RACIAL, PCD)
    return Params(
        racial=policy.racial_rule(),
        pcd=pcd_rule,
        order=policy.nomination_order,
        nth=policy.nth,
        priority=priority,
        open_competition_rule=policy.open_competition_rule,
        dual_rule=policy.dual_rule,
        dual_default=policy.dual_default,
        group_label=policy.group_label,
        threshold_extra=threshold_extra,
        reinstatement=policy.reinstatement,
        citations=(
            ("order", policy.citation_order),
            ("rounding", policy.citation_rounding),
            ("threshold", policy.citation_threshold),
            ("carry", policy.citation_carry),
        ),
    )


def params_for_contest(contest: Contest) -> Params:
    """The contest's policy with the contest's PcD reserve (Decreto 9.508 and the local statute)."""
    return params_from_policy(contest.policy, pcd_rule=contest.pcd_rule())


def params_for_position(position: Position) -> Params:
    """As ``params_for_contest``, with the threshold counted as the policy says (position or contest)."""
    contest = position.contest
    return params_from_policy(
        contest.policy, pcd_rule=contest.pcd_rule(), threshold_extra=position.threshold_extra()
    )


def params_following_contest(params: Params, position: Position) -> Params:
    """A position's stored parameters (its ``AllocationLedger``) with the threshold counted on the
    contest as it stands now.

    With ``threshold_basis = contest`` the vacancies opened later on OTHER positions count too: SM art. 1
    §§1–2 ask whether the vacancies offered in the contest, those open now, reach the threshold, so the
    nominations follow them exactly as the position's page does (the two never disagree). Seats already
    created keep their kind (RULES §4); only the seats still to come are scheduled with the new count.
    """
    extra = position.threshold_extra()
    return params if extra == params.threshold_extra else replace(params, threshold_extra=extra)
