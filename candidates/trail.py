"""Reads of a contest's audit trail: one timeline of every change of the contest, its positions
and vacancy openings, its result runs (publications included), its nominations, every document version it
published (by title), what the public saw change (``Publication``), a summary of its registrations created
(one line per day and person, not one per inscription), and what the apps above this one register
(``register_part``: the procedures and the heteroidentification, from ``declarations``); filtered by who,
what and when, and exported as CSV.

People are named by their full name (``contests.history``), never by their user name alone; times are the
installation's (America/Sao_Paulo); files by their name or title, never a storage path.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.timezone import localtime

from candidates.models import Nomination, Registration, ResultRun
from contests.documents.models import Document
from contests.history import ACTIONS, Change, HistoryEntry, history_entries, user_label
from contests.models import Contest, Position
from contests.selectors import contest_history, publication_entries
from contests.wording import plural

REGISTRATIONS_KIND = "Inscrições"
DOCUMENTS_KIND = "Documento publicado"

# The trail's parts kept by apps above this one (which this app may not import): each gives the entries of a
# contest as ``reader`` may see them (the procedure's content only to whom may read it). Registered from the
# owning app's ``AppConfig.ready()``; registering the same name again replaces it.
TrailPart = Callable[[Contest, User | None], list[HistoryEntry]]
_PARTS: dict[str, TrailPart] = {}


def register_part(name: str, part: TrailPart) -> None:
    _PARTS[name] = part


def _document_entries(contest: Contest) -> list[HistoryEntry]:
    """Every document version the contest published (no history table: a version is written once), by
    its title, with its code, version and what a rectification changed."""
    documents = (
        Document.objects.filter(contest=contest)
        .select_related("published_by")
        .defer("pdf")
        .order_by("published_at", "pk")
    )
    entries = []
    for document in documents:
        changes = [
            Change("Espécie", "", document.get_kind_display()),
            Change("Versão", "", str(document.version)),
            Change("Código de verificação", "", document.code),
            Change("Assinado por", "", f"{document.signer_name} ({document.signer_office})"),
        ]
        if document.published_by is not None:  # who prepared it, never the signer
            changes.append(Change("Elaborado por", "", user_label(document.published_by)))
        if document.rectification_summary:
            changes.append(Change("O que a retificação altera", "", document.rectification_summary))
        if document.gazette_edition:
            page = f", p. {document.gazette_page}" if document.gazette_page else ""
            changes.append(Change("Diário oficial", "", f"{document.gazette_edition}{page}"))
        entries.append(
            HistoryEntry(
                when=document.published_at,
                user=user_label(document.published_by),
                action="Publicação" if document.version == 1 else "Retificação",
                history_type="+",
                kind=DOCUMENTS_KIND,
                label=document.title,
                reason="",
                changes=tuple(changes),
            )
        )
    return entries


def _document_addresses(contest: Contest) -> set[str]:
    codes = Document.objects.filter(contest=contest).values_list("code", flat=True)
    return {reverse("public:verify", args=[code]) for code in codes}


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
        name = user_label(user)
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


def contest_trail(contest: Contest, reader: User | None = None) -> list[HistoryEntry]:
    """Every change of ``contest``, newest first, as ``reader`` may see it (the registered parts decide what
    of theirs a reader sees)."""
    position_ids = list(
        Position.history.filter(contest_id=contest.pk).values_list("id", flat=True).distinct()
    )
    # A document's publication is its own entry (by title, with its code): the public-site record that
    # points at the same document is not repeated.
    documents = _document_addresses(contest)
    entries = [
        *contest_history(contest),
        *history_entries(
            ResultRun.history.filter(contest_id=contest.pk),
            Nomination.history.filter(position_id__in=position_ids),
        ),
        *_registrations_summary(contest),
        *_document_entries(contest),
        *(e for e in publication_entries(contest) if not _points_at(e, documents)),
        *(entry for part in _PARTS.values() for entry in part(contest, reader)),
    ]
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries


def _points_at(entry: HistoryEntry, addresses: set[str]) -> bool:
    return any(change.new in addresses for change in entry.changes)


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
