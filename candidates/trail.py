"""Reads of a contest's audit trail: one timeline of every change of the contest, its positions
and vacancy openings, its result runs (publications included), its nominations, what the public saw change
(``Publication``), and a summary of its registrations created (one line per day and person, not one per
inscription); filtered by who, what and when, and exported as CSV.

People are named by their full name (``contests.history``), never by their user name alone.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.timezone import localtime

from candidates.models import Nomination, Registration, ResultRun
from contests.history import ACTIONS, HistoryEntry, history_entries
from contests.models import Contest, Position
from contests.selectors import contest_history, publication_entries
from contests.wording import plural

REGISTRATIONS_KIND = "Inscrições"


@dataclass(frozen=True)
class TrailFilter:
    who: str = ""
    what: str = ""
    start: datetime.date | None = None
    end: datetime.date | None = None

    def keeps(self, entry: HistoryEntry) -> bool:
        day = localtime(entry.when).date()
        return (
            (not self.who or self.who.casefold() in entry.user.casefold())
            and (not self.what or entry.kind == self.what)
            and (self.start is None or day >= self.start)
            and (self.end is None or day <= self.end)
        )


def _registrations_summary(contest: Contest) -> list[HistoryEntry]:
    """The registrations created, one entry per local day and person: imports create hundreds at once."""
    created = Registration.history.filter(contest_id=contest.pk, history_type="+").values_list(
        "history_date", "history_user_id"
    )
    counts: Counter[tuple[datetime.date, int | None]] = Counter()
    last: dict[tuple[datetime.date, int | None], datetime.datetime] = {}
    for when, user_id in created:
        key = (localtime(when).date(), user_id)
        counts[key] += 1
        last[key] = max(last.get(key, when), when)
    users = {u.pk: u for u in User.objects.filter(pk__in={uid for _, uid in counts if uid is not None})}
    entries = []
    for (_day, user_id), n in counts.items():
        user = users.get(user_id) if user_id is not None else None
        name = (user.get_full_name() or user.get_username()) if user is not None else "Sistema"
        entries.append(
            HistoryEntry(
                when=last[(_day, user_id)],
                user=name,
                action=ACTIONS["+"],
                history_type="+",
                kind=REGISTRATIONS_KIND,
                label=plural(
                    n,
                    "inscrição criada (cadastro ou importação)",
                    "inscrições criadas (cadastro ou importação)",
                ),
                reason="",
                changes=(),
            )
        )
    return entries


def contest_trail(contest: Contest) -> list[HistoryEntry]:
    """Every change of ``contest``, newest first."""
    position_ids = list(
        Position.history.filter(contest_id=contest.pk).values_list("id", flat=True).distinct()
    )
    entries = [
        *contest_history(contest),
        *history_entries(
            ResultRun.history.filter(contest_id=contest.pk),
            Nomination.history.filter(position_id__in=position_ids),
        ),
        *_registrations_summary(contest),
        *publication_entries(contest),
    ]
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries


def trail_kinds(entries: list[HistoryEntry]) -> list[str]:
    """The kinds of record present, for the "what" filter."""
    return sorted({e.kind for e in entries})


def trail_csv(entries: list[HistoryEntry]) -> bytes:
    """The entries as CSV for a spreadsheet in Portuguese: ``;`` separated, UTF-8 with BOM."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(["Quando", "Quem", "Ação", "Registro", "Descrição", "Motivo", "Alterações"])
    for e in entries:
        changes = " | ".join(
            f"{c.field}: {c.old} → {c.new}" if c.old else f"{c.field}: {c.new}" for c in e.changes
        )
        writer.writerow(
            [f"{localtime(e.when):%d/%m/%Y %H:%M:%S}", e.user, e.action, e.kind, e.label, e.reason, changes]
        )
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
