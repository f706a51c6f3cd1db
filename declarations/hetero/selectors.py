"""Reads of heteroidentification: a verification's final result (the appeal may still change it), the
confirmed list, the seat a user holds in a session's commission, the draw's pending notice and its
published document, and what the screens list (each list read in a fixed number of queries)."""

from __future__ import annotations

import datetime

from contests.audit import User
from contests.documents.models import Document
from contests.documents.services import current_version
from contests.models import Contest
from declarations.hetero import draw as draw_rules
from declarations.hetero import rules
from declarations.models import (
    Appeal,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Session,
    Verification,
)

# Final results --------------------------------------------------------------------------------------------


def appeal_of(verification: Verification) -> Appeal | None:
    """The appeal against ``verification``, if any: read from the query when it selected it
    (``select_related("appeal__judged_in")``), else one query."""
    try:
        return verification.appeal
    except Appeal.DoesNotExist:
        return None


def final_state(verification: Verification, *, today: datetime.date) -> rules.Outcome | None:
    """The final outcome of the first-instance ``verification`` (``None``: an appeal may still change it)."""
    if not verification.outcome:
        return None
    if verification.outcome == rules.Outcome.ABSENT:
        return rules.Outcome.ABSENT
    appeal = appeal_of(verification)
    judged = appeal.judged_in.outcome if appeal and appeal.judged_in and appeal.judged_in.outcome else None
    if appeal and not judged:
        return None
    deadline_passed = verification.appeal_deadline is not None and today > verification.appeal_deadline
    return rules.final_outcome(
        rules.Outcome(verification.outcome),
        rules.Outcome(judged) if judged else None,
        appeal_deadline_passed=deadline_passed,
    )


def confirmed(contest: Contest, *, today: datetime.date) -> list[Verification]:
    """The first-instance verifications of ``contest`` whose final result is a confirmation (their appeals
    read in the same query)."""
    verifications = (
        Verification.objects.filter(
            session__commission__contest=contest, session__commission__kind=rules.Kind.FIRST
        )
        .exclude(outcome="")
        .select_related("registration__candidate", "appeal__judged_in")
        .order_by("registration__number")
    )
    return [v for v in verifications if final_state(v, today=today) == rules.Outcome.CONFIRMED]


# Seats ----------------------------------------------------------------------------------------------------


def member_for(*, session: Session, user: User) -> CommissionMember | None:
    """The seat ``user`` holds in ``session``'s commission, if any (Comissão sees only its own sessions)."""
    if not user.is_authenticated:
        return None
    return CommissionMember.objects.filter(commission_id=session.commission_id, user=user).first()


# The draw -------------------------------------------------------------------------------------------------


def pending_announcement(contest: Contest, kind: str) -> DrawAnnouncement | None:
    """The notice of ``kind`` still waiting for its seed (not replaced, not drawn), if any."""
    return (
        DrawAnnouncement.objects.filter(
            contest=contest, kind=kind, replaced_at__isnull=True, draw__isnull=True
        )
        .order_by("-announced_at")
        .first()
    )


def draw_recompute(record: MemberDraw) -> draw_rules.DrawResult:
    """The draw recomputed from its published record (the same pure function anyone can run)."""
    return draw_rules.draw(record.seed, record.pool, record.k)


def announcement_document(announcement: DrawAnnouncement) -> Document | None:
    """The published notice of a draw (its current version), if it was published."""
    return current_version(announcement.contest, Document.Kind.HETERO_DRAW, announcement.subject)
