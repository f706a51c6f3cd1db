"""Reads for the contests app's screens: the access log searched, a contest's and a position's history, its
publications; and what the public site may know of a contest (published contests, their documents, the
edital's schedule and vacancy table as published)."""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass

from django.db.models import Q, QuerySet, Sum
from django.utils.timezone import localtime

from contests import quotas
from contests.documents.checks import ScheduleItem, parse_schedule
from contests.documents.models import RESTRICTED_KINDS, Document, EditalText
from contests.documents.render import normalize_code
from contests.history import Change, HistoryEntry, field_label_model, history_entries, user_label
from contests.models import AccessLog, Contest, Position, Publication, VacancyOpening
from contests.text_search import fold


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
            | Q(via_link__icontains=user)
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
        writer.writerow(
            [
                f"{localtime(log.at):%d/%m/%Y %H:%M:%S}",
                log.who,
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


def contest_publications(contest: Contest, *, limit: int) -> list[Publication]:
    """The contest's latest ``limit`` publications, newest first (its public feed)."""
    return list(
        Publication.objects.filter(contest=contest).select_related("contest").order_by("-at", "-pk")[:limit]
    )


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


# Published (the public site) ------------------------------------------------------------------------------
# Only what was published: a contest whose edital is not published is never returned, documents of the
# restricted kinds (procedure acts, heteroidentification minutes) never listed, and the edital's schedule and
# vacancies are as the current published version of the edital printed them.


def published_contests(query: str = "") -> list[Contest]:
    """The contests whose edital is published, newest first; ``query`` keeps those whose number/year and
    title hold every word of it (without accents or case)."""
    contests = list(Contest.objects.edital_published().order_by("-year", "-edital_date", "-pk"))
    if not query:
        return contests
    words = fold(query).split()
    return [c for c in contests if all(w in fold(f"{c.number}/{c.year} {c.title}") for w in words)]


def published_contest(slug: str) -> Contest | None:
    """The contest at ``slug`` if its edital is published (with its policy), else None."""
    return Contest.objects.edital_published().select_related("policy").filter(slug=slug).first()


def lookup_contests() -> QuerySet[Contest]:
    """The contests a candidate may look their registration up in: every one out of draft, newest first."""
    return Contest.objects.exclude(status=Contest.Status.DRAFT).order_by("-year", "-number")


def lookup_contest(slug: str) -> Contest | None:
    return lookup_contests().filter(slug=slug).first()


@dataclass(frozen=True)
class PublicAct:
    """One public act of a contest with every published version, oldest first (the last is in force)."""

    kind: str  # the kind's label
    versions: tuple[Document, ...]

    @property
    def current(self) -> Document:
        return self.versions[-1]


def public_documents(contest: Contest) -> list[PublicAct]:
    """Each public act of the contest with every version, newest act first (restricted kinds left out)."""
    versions = (
        Document.objects.filter(contest=contest)
        .exclude(kind__in=RESTRICTED_KINDS)
        .defer("pdf")
        .order_by("kind", "subject", "version")
    )
    acts: dict[tuple[str, str], list[Document]] = {}
    for document in versions:
        acts.setdefault((document.kind, document.subject), []).append(document)
    ordered = sorted(acts.values(), key=lambda act: act[0].published_at, reverse=True)
    return [PublicAct(act[0].get_kind_display(), tuple(act)) for act in ordered]


def current_edital(contest: Contest) -> Document | None:
    """The current (latest) published version of the contest's edital, or None."""
    return (
        Document.objects.filter(contest=contest, kind=Document.Kind.EDITAL, rectification__isnull=True)
        .defer("pdf")
        .order_by("-version")
        .first()
    )


def published_schedule(contest: Contest, *, edital: Document | None) -> list[ScheduleItem]:
    """The schedule as ``edital`` (the current published version, ``current_edital``) printed it: the
    clerk's later edits wait for a rectification."""
    if edital is None:
        return []
    text = (
        EditalText.history.filter(contest_id=contest.pk, history_date__lte=edital.published_at)
        .order_by("-history_date", "-history_id")
        .first()
    )
    if text is None or text.history_type == "-":
        return []
    items, _problems = parse_schedule(text.schedule)
    return items


@dataclass(frozen=True)
class VacancyRow:
    """A position of the public vacancy table: its cumulative vacancies and the reservation on them."""

    position: Position
    vacancies: int
    reservation: quotas.Reservation


def _published_positions(contest: Contest, when: datetime.datetime) -> tuple[list[Position], dict[int, int]]:
    """The positions and their edital vacancies as they stood at ``when`` (django-simple-history)."""
    positions = list(
        Position.history.filter(contest_id=contest.pk, history_date__lte=when).latest_of_each().as_instances()
    )
    edital_openings = (
        VacancyOpening.history.filter(position_id__in=[p.pk for p in positions], history_date__lte=when)
        .latest_of_each()
        .as_instances()
    )
    counts: dict[int, int] = {}
    for opening in edital_openings:
        if opening.kind == VacancyOpening.Kind.EDITAL:
            counts[opening.position_id] = counts.get(opening.position_id, 0) + opening.count
    return positions, counts


def _sum_by_position(openings: QuerySet[VacancyOpening]) -> dict[int, int]:
    rows = openings.values("position_id").annotate(total=Sum("count")).values_list("position_id", "total")
    return {pk: total or 0 for pk, total in rows}


def vacancy_table(contest: Contest, *, edital: Document | None) -> list[VacancyRow]:
    """Each position with its cumulative vacancies and reserved counts, as the public may know them: the
    positions and the edital's vacancies as ``edital`` (the current published version, ``current_edital``)
    fixed them (a clerk's change before the freeze waits for a rectification), plus the openings during
    validity, each public when recorded with its act. Without a published edital document (a publication
    recorded by status only), the live rows. By position code; the reservation is the quota engine's
    (``Position.reservation``), on these counts."""
    positions: list[Position]
    if edital is None:
        positions = list(Position.objects.filter(contest=contest))
        totals = _sum_by_position(VacancyOpening.objects.filter(position__contest=contest))
    else:
        positions, totals = _published_positions(contest, edital.published_at)
        later = VacancyOpening.objects.filter(
            position_id__in=[p.pk for p in positions], kind=VacancyOpening.Kind.LATER
        )
        for pk, count in _sum_by_position(later).items():
            totals[pk] = totals.get(pk, 0) + count
    contest_vacancies = sum(totals.get(p.pk, 0) for p in positions)
    rows = []
    for position in sorted(positions, key=lambda p: p.code):
        position.contest = contest
        vacancies = totals.get(position.pk, 0)
        reservation = position.reservation(vacancies=vacancies, contest_vacancies=contest_vacancies)
        rows.append(VacancyRow(position, vacancies, reservation))
    return rows


def _code_or_none(code: str) -> str | None:
    """A verification code as typed in an address, or None when it cannot be one (too long, or with a
    control character such as a NUL byte, which PostgreSQL refuses in a query)."""
    return code.upper() if len(code) <= 40 and code.isprintable() else None


def document_by_code(code: str) -> Document | None:
    """The published document with verification ``code`` (any kind), its contest joined, without the PDF."""
    if _code_or_none(code) is None:
        return None
    return Document.objects.select_related("contest").defer("pdf").filter(code=normalize_code(code)).first()


def document_versions(document: Document) -> list[Document]:
    """Every version of ``document``'s act, without the PDFs."""
    return list(document.versions().defer("pdf"))


def public_document_pdf(code: str) -> Document | None:
    """The document with ``code`` whose PDF the public may download (never a restricted kind)."""
    if _code_or_none(code) is None:
        return None
    return Document.objects.filter(code=code.upper()).exclude(kind__in=RESTRICTED_KINDS).first()
