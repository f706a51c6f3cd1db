"""Reads for the contests app's screens: the access log searched, a contest's and a position's history, its
publications."""

from __future__ import annotations

import csv
import datetime
import io

from django.db.models import Q, QuerySet
from django.utils.timezone import localtime

from contests.history import Change, HistoryEntry, field_label_model, history_entries, user_label
from contests.models import AccessLog, Contest, Position, Publication, VacancyOpening


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


def access_logs_csv(logs: QuerySet[AccessLog]) -> bytes:
    """The access log as CSV for a spreadsheet in Portuguese: ``;`` separated, UTF-8 with BOM; people by
    full name, actions in words."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(["Quando", "Quem", "Ação", "Registro", "Detalhe", "Endereço IP"])
    for log in logs.iterator():
        who = (log.user.get_full_name() or log.user.get_username()) if log.user else "(usuário excluído)"
        writer.writerow(
            [
                f"{localtime(log.at):%d/%m/%Y %H:%M:%S}",
                who,
                log.action_label,
                f"{str(log.content_type.name).capitalize()}: {log.object_repr}",
                log.detail,
                log.ip_address or "",
            ]
        )
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


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


def publication_entries(contest: Contest) -> list[HistoryEntry]:
    """The contest's publications (what the public saw change, and where), newest first, as entries of its
    audit trail."""
    publications = Publication.objects.filter(contest=contest).select_related("by").order_by("-at", "-pk")
    kind = field_label_model(Publication)
    return [
        HistoryEntry(
            when=publication.at,
            user=user_label(publication.by),
            action="Publicação",
            history_type="+",
            kind=kind,
            label=publication.title,
            reason=publication.get_kind_display(),
            changes=(Change("Endereço no portal", "", publication.url),) if publication.url else (),
        )
        for publication in publications
    ]
