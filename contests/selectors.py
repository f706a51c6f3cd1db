"""Reads for the contests app's screens: the access log searched, a contest's and a position's history."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet

from contests.history import HistoryEntry, history_entries
from contests.models import AccessLog, Contest, Position, VacancyOpening


def access_logs(
    *, user: str = "", start: datetime.date | None = None, end: datetime.date | None = None
) -> QuerySet[AccessLog]:
    """The access log, newest first: ``user`` matches the username, first or last name (part of it, case
    ignored); ``start`` and ``end`` bound the day, both included."""
    logs = AccessLog.objects.select_related("user", "content_type").order_by("-at", "-pk")
    if user:
        logs = logs.filter(
            Q(user__username__icontains=user)
            | Q(user__first_name__icontains=user)
            | Q(user__last_name__icontains=user)
        )
    if start:
        logs = logs.filter(at__date__gte=start)
    if end:
        logs = logs.filter(at__date__lte=end)
    return logs


def contest_history(contest: Contest) -> list[HistoryEntry]:
    """The contest's history with its positions' and their vacancy openings', deleted ones included."""
    position_ids = list(
        Position.history.filter(contest_id=contest.pk).values_list("id", flat=True).distinct()
    )
    return history_entries(
        contest.history.all(),
        Position.history.filter(contest_id=contest.pk),
        VacancyOpening.history.filter(position_id__in=position_ids),
    )


def position_history(position: Position) -> list[HistoryEntry]:
    """The position's history with its vacancy openings', deleted ones included."""
    return history_entries(position.history.all(), VacancyOpening.history.filter(position_id=position.pk))
