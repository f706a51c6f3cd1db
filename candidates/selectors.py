"""Reads for the screens: registrations searched and filtered (accents and case ignored), a
registration's history as its reader may see it, a run's lists, a position's seats (two runs compared:
``candidates.comparison``)."""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import CharField, Count, Func, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Length
from django.urls import reverse

from candidates.engine import allocation, schedule
from candidates.engine.schedule import OPEN as OPEN_KIND
from candidates.engine.schedule import kind_label, project
from candidates.engine_params import params_following_contest, params_for_position
from candidates.models import (
    AllocationLedger,
    Candidate,
    Nomination,
    Phase,
    PhaseResult,
    Registration,
    ResultEntry,
    ResultRun,
    SelfDeclaration,
)
from candidates.validators import format_cpf, mask_cpf
from contests.history import HistoryEntry, field_label, field_label_model, history_entries
from contests.models import Contest, Position, VacancyOpening
from contests.text_search import fold
from contests.wording import plural

OUT = ResultEntry.List.OUT


# Registrations: search and filters -----------------------------------------------------------------

# Accent folding in SQL, for SQLite and PostgreSQL alike (no ``unaccent`` extension, no extra column):
# PostgreSQL translates the accented letters (both cases, and the combining marks of decomposed text are
# deleted); SQLite, whose LOWER() folds ASCII only and whose parser cannot nest enough REPLACE()s, calls
# ``fold`` itself, registered on the connection.
_ACCENTED = "áàâãäåéèêëíìîïóòôõöúùûüçñýÿ"
_PLAIN = "aaaaaaeeeeiiiiooooouuuucnyy"
_COMBINING = "\u0300\u0301\u0302\u0303\u0308\u0327"
_TRANSLATE_FROM = _ACCENTED + _ACCENTED.upper() + _COMBINING
_TRANSLATE_TO = _PLAIN + _PLAIN
_SQLITE_FUNCTION = "cotas_fold"
_CPF_LIKE = re.compile(r"^[\d.\-/]+$")
# The list page's "reserva" filter: who opted for which reserve.
RESERVE_FILTERS = {
    "racial": {"racial_reserve": True},
    "pcd": {"pcd_reserve": True},
    "ampla": {"racial_reserve": False, "pcd_reserve": False},
}
# Registration fields that tell the reserves chosen: shown only with the sensitive data.
SENSITIVE_FIELDS = ("racial_reserve", "pcd_reserve", "preferred_reserve")


class Folded(Func):
    """A text column in lower case without accents (``fold`` in SQL)."""

    arity = 1
    output_field = CharField()

    def as_sql(self, compiler, connection, **extra_context):  # type: ignore[override]
        sql, params = compiler.compile(self.source_expressions[0])
        return f"LOWER({sql})", params

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"TRANSLATE(LOWER({sql}), %s, %s)", (*params, _TRANSLATE_FROM, _TRANSLATE_TO)

    def as_sqlite(self, compiler, connection, **extra_context):
        connection.ensure_connection()
        connection.connection.create_function(_SQLITE_FUNCTION, 1, _fold_or_none, deterministic=True)
        sql, params = compiler.compile(self.source_expressions[0])
        return f"{_SQLITE_FUNCTION}({sql})", params


def _fold_or_none(value: str | None) -> str | None:
    return None if value is None else fold(value)


def search_registrations(registrations: QuerySet[Registration], term: str, *, cpf: bool) -> QuerySet:
    """Every word must match the name or social name (accents and case ignored), the inscription number,
    or (for users who may see it) the CPF: a whole CPF, or part of one typed with its punctuation."""
    words = term.split()
    if not words:
        return registrations
    registrations = registrations.annotate(
        search_name=Folded("candidate__full_name"), search_social=Folded("candidate__social_name")
    )
    for word in words:
        plain = fold(word)
        condition = (
            Q(search_name__contains=plain) | Q(search_social__contains=plain) | Q(number__icontains=word)
        )
        digits = re.sub(r"\D", "", word)
        if cpf and digits and _CPF_LIKE.match(word):
            if len(digits) == 11:
                condition |= Q(candidate__cpf=digits)
            elif len(digits) >= 3 and ("." in word or "-" in word):
                condition |= Q(candidate__cpf__contains=digits)
        registrations = registrations.filter(condition)
    return registrations


def registration_count(contest: Contest) -> int:
    return Registration.objects.filter(contest=contest).count()


def registrations_listed(
    contest: Contest,
    *,
    term: str = "",
    position: Position | None = None,
    status: str = "",
    reserve: str = "",
    cpf: bool = False,
) -> QuerySet[Registration]:
    """The registrations of ``contest`` for the list page: searched (``search_registrations``), filtered by
    position, status and reserve chosen, in inscription number order (``2`` before ``10``)."""
    registrations = Registration.objects.filter(contest=contest).select_related("candidate", "position")
    registrations = search_registrations(registrations, term, cpf=cpf)
    if position:
        registrations = registrations.filter(position=position)
    if status:
        registrations = registrations.filter(status=status)
    if reserve:
        registrations = registrations.filter(**RESERVE_FILTERS[reserve])
    return registrations.order_by(Length("number"), "number", "pk")


def cpf_known(cpf: str) -> bool:
    """Whether a candidate with this CPF is already registered (in any contest)."""
    return Candidate.objects.filter(cpf=cpf).exists()


def self_declaration(registration: Registration) -> SelfDeclaration | None:
    return SelfDeclaration.objects.filter(registration=registration).first()


def person_nominations(registration: Registration) -> list[Nomination]:
    """The nominations of the registration's candidate, in any of their registrations (this contest or
    another), the newest act first: the registration page shows them."""
    return list(
        Nomination.objects.filter(registration__candidate_id=registration.candidate_id)
        .select_related("position__contest__policy", "registration__candidate")
        .order_by("-act_date", "-pk")
    )


def person_other_registrations(registration: Registration) -> list[Registration]:
    """The candidate's other registrations (other positions or contests), newest contest first."""
    return list(
        Registration.objects.filter(candidate_id=registration.candidate_id)
        .exclude(pk=registration.pk)
        .select_related("contest", "position")
        .order_by("-contest__year", "contest__title", "number")
    )


def registration_phase_results(registration: Registration) -> list[tuple[Phase, PhaseResult | None]]:
    """Each phase of the registration's contest, in order, with the registration's result (or None)."""
    results = {r.phase_id: r for r in registration.phase_results.all()}
    return [(phase, results.get(phase.pk)) for phase in registration.contest.phases.order_by("order")]


# Registrations: history ----------------------------------------------------------------------------


def registration_history(
    registration: Registration, *, sensitive: bool, candidate: bool, full_cpf: bool = False
) -> list[HistoryEntry]:
    """The registration's history, its scores' and (with ``candidate``) its candidate's, field by field,
    CPFs masked (punctuated in full with ``full_cpf``, a view the caller logs).

    Without ``sensitive`` the self-declaration's rows and the fields of the reserves chosen are left out,
    and so are the registration's rows that changed nothing else; a reason keeps only the fixed words the
    services write before its colon (a status reason typed by a clerk may name a disability or a
    declaration: LGPD).
    """
    querysets = [registration.history.all(), PhaseResult.history.filter(registration_id=registration.pk)]
    if candidate:
        querysets.append(Candidate.history.filter(id=registration.candidate_id))
    if sensitive:
        querysets.append(SelfDeclaration.history.filter(registration_id=registration.pk))
    entries = [_with_cpf_shown(entry, full=full_cpf) for entry in history_entries(*querysets)]
    if sensitive:
        return entries
    hidden = {field_label(Registration, name) for name in SENSITIVE_FIELDS}
    kind = field_label_model(Registration)
    shown = []
    for entry in entries:
        changes = tuple(change for change in entry.changes if change.field not in hidden)
        reason = entry.reason.partition(":")[0]
        if entry.kind != kind or len(changes) == len(entry.changes):
            shown.append(dataclasses.replace(entry, reason=reason))
        elif changes or entry.history_type != "~":
            shown.append(dataclasses.replace(entry, changes=changes, reason=reason))
    return shown


def _with_cpf_shown(entry: HistoryEntry, *, full: bool) -> HistoryEntry:
    label = field_label(Candidate, "cpf")
    if not any(change.field == label for change in entry.changes):
        return entry
    shown = format_cpf if full else mask_cpf
    changes = tuple(
        dataclasses.replace(
            change, old=shown(change.old) if change.old else "", new=shown(change.new) if change.new else ""
        )
        if change.field == label
        else change
        for change in entry.changes
    )
    return dataclasses.replace(entry, changes=changes)


# Runs ------------------------------------------------------------------------------------------------


def run_positions(run: ResultRun) -> list[Position]:
    """The positions a run covers, in the one order every screen of a run shows them (code, unique per
    contest; pk only makes the order total): the staff screens and the public site (``published``)."""
    if run.position is not None:
        return [run.position]
    return list(run.contest.positions.order_by("code", "pk"))


def run_entries(run: ResultRun, position: Position, list_name: str) -> QuerySet[ResultEntry]:
    entries = ResultEntry.objects.filter(run=run, position=position, list=list_name)
    return entries.order_by("number") if list_name == OUT else entries.order_by("rank")


def other_runs(run: ResultRun) -> QuerySet[ResultRun]:
    """The contest's other runs, newest first (what ``run`` may be compared with)."""
    return ResultRun.objects.filter(contest=run.contest).exclude(pk=run.pk).order_by("-number")


def previous_run(run: ResultRun) -> ResultRun | None:
    """The published run to compare ``run`` with: its recorded ``previous``, else the latest published
    run of the same contest that covers the same scope and came before it."""
    if run.previous_id:
        return run.previous
    runs = ResultRun.objects.filter(contest=run.contest, status=ResultRun.Status.PUBLISHED).exclude(pk=run.pk)
    if run.position_id:
        runs = runs.filter(Q(position=run.position) | Q(position__isnull=True))
    else:
        runs = runs.filter(position__isnull=True)
    if run.published_at:
        runs = runs.filter(published_at__lt=run.published_at)
    return runs.order_by("-published_at", "-pk").first()


# Seats -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatCount:
    """The one count of a position's seats every screen shows (the home, the contest's nominations, the
    position's seats and its call): ``vacancies`` open so far, ``held`` by a nomination (active or took
    office), ``created`` (reached by a call at least once). Free = vacancies − held: the seats a call may
    fill, the ``freed`` ones first (created, no longer held: a withdrawal, a no-show, an annulment), then
    the ``new`` ones (never filled)."""

    vacancies: int
    held: int
    created: int

    @property
    def free(self) -> int:
        return max(0, self.vacancies - self.held)

    @property
    def freed(self) -> int:
        return max(0, min(self.created, self.vacancies) - self.held)

    @property
    def new(self) -> int:
        return max(0, self.vacancies - max(self.created, self.held))

    @property
    def free_text(self) -> str:
        """ "4 vagas livres (1 liberada, preenchida primeiro, e 3 ainda não preenchidas)"."""
        text = plural(self.free, "vaga livre", "vagas livres")
        if self.freed and self.new:
            return (
                f"{text} ({plural(self.freed, 'liberada', 'liberadas')}, preenchida{'s' if self.freed > 1 else ''}"
                f" primeiro, e {plural(self.new, 'ainda não preenchida', 'ainda não preenchidas')})"
            )
        if self.freed:
            return f"{text} ({'liberada' if self.freed == 1 else 'liberadas'} por quem deixou a vaga)"
        if self.free:
            return f"{text} ({'ainda não preenchida' if self.new == 1 else 'ainda não preenchidas'})"
        return text


def seat_counts(positions: Sequence[Position] | QuerySet[Position]) -> dict[int, SeatCount]:
    """``SeatCount`` of each of ``positions``, by primary key: three queries whatever their number."""
    pks = [p.pk for p in positions]
    opened = dict(
        VacancyOpening.objects.filter(position__in=pks)
        .values("position")
        .annotate(n=Sum("count"))
        .values_list("position", "n")
    )
    held = dict(
        Nomination.objects.filter(position__in=pks, status__in=Nomination.HOLDING)
        .values("position")
        .annotate(n=Count("pk"))
        .values_list("position", "n")
    )
    created = dict(
        Nomination.objects.filter(position__in=pks)
        .values("position")
        .annotate(n=Count("seat", distinct=True))
        .values_list("position", "n")
    )
    return {pk: SeatCount(opened.get(pk) or 0, held.get(pk, 0), created.get(pk, 0)) for pk in pks}


@dataclass(frozen=True)
class Seat:
    """One seat of a position: its number, kind and whether it is filled, free (to be refilled) or
    projected (not created yet)."""

    number: int
    kind: str
    label: str
    state: str
    nomination: Nomination | None = None

    STATES = {"filled": "ocupada", "took_office": "ocupada (posse)", "free": "livre", "projected": "prevista"}

    @property
    def state_label(self) -> str:
        return self.STATES[self.state]

    @property
    def text(self) -> str:
        """What a screen reader says (and the tooltip): never the colour alone."""
        text = f"Vaga {self.number}, {self.label.lower()}: {self.state_label}"
        if self.nomination is not None:
            text += f" por {self.nomination.registration.candidate} (inscrição {self.nomination.registration.number})"
        return text


@dataclass(frozen=True)
class SeatStrip:
    seats: tuple[Seat, ...]
    vacancies: int
    started: bool
    version: int
    collisions: tuple[str, ...] = ()  # seats two reserves wanted, in words (RULES §4)

    @property
    def counts(self) -> SeatCount:
        """The strip's seats counted as every other screen counts them (``SeatCount``)."""
        created = sum(1 for seat in self.seats if seat.state != "projected")
        return SeatCount(self.vacancies, self.count_filled, created)

    def count(self, *states: str) -> int:
        return sum(1 for seat in self.seats if seat.state in states)

    @property
    def count_filled(self) -> int:
        return self.count("filled", "took_office")

    @property
    def count_free(self) -> int:
        return self.count("free")

    @property
    def count_projected(self) -> int:
        return self.count("projected")


def seat_kind_changes(position: Position, before: Sequence[str], after: Sequence[str]) -> list[dict]:
    """Each seat's kind before and after vacancies were opened (``before`` is shorter: its missing seats
    are new), worded as every screen words them."""
    group = position.contest.policy.group_label
    rows = []
    for number, kind in enumerate(after, start=1):
        previous = before[number - 1] if number <= len(before) else None
        rows.append(
            {
                "number": number,
                "before": kind_label(previous, group) if previous else "",
                "after": kind_label(kind, group),
                "new": previous is None,
                "reserved": kind != OPEN_KIND,
            }
        )
    return rows


def position_nominations(position: Position) -> QuerySet[Nomination]:
    """The nominations of ``position`` in the order they were made."""
    return (
        Nomination.objects.filter(position=position)
        .select_related("registration__candidate", "position__contest__policy")
        .order_by("order")
    )


def nomination_history(nomination: Nomination) -> QuerySet:
    return nomination.history.select_related("history_user").order_by("-history_date", "-history_id")


def seat_strip(position: Position) -> SeatStrip:
    """The seats of ``position`` for the ``n`` vacancies open now: created seats keep their kind; the
    others are projected with today's ``n`` (RULES §4)."""
    ledger = AllocationLedger.objects.filter(position=position).first()
    vacancies = position.vacancies
    if ledger is not None:
        params = params_following_contest(allocation.params_from_dict(ledger.state["params"]), position)
        created = tuple(ledger.state["seats"])
        vacancies = max(vacancies, ledger.state["vacancies"])
    else:
        params = params_for_position(position)
        created = ()
    kinds = project(params, created, vacancies)
    holders = {
        n.seat: n
        for n in Nomination.objects.filter(position=position, status__in=Nomination.HOLDING).select_related(
            "registration__candidate", "position__contest"
        )
    }
    # A compensated seat's kind changes with its nomination (RULES §4, compensation).
    seats = []
    for number, kind in enumerate(kinds, start=1):
        holder = holders.get(number)
        if holder is not None:
            state = "took_office" if holder.status == Nomination.Status.TOOK_OFFICE else "filled"
        elif number <= len(created):
            state = "free"
        else:
            state = "projected"
        seats.append(Seat(number, kind, kind_label(kind, params.group_label), state, holder))
    # Collisions of the schedule as it was made: from scratch when the created seats followed it (the
    # usual case), else among the seats still to create.
    kept = () if tuple(project(params, (), vacancies)[: len(created)]) == created else created
    collisions = tuple(schedule.collisions_explained(params, kept, vacancies))
    return SeatStrip(tuple(seats), vacancies, ledger is not None, ledger.version if ledger else 0, collisions)


# Nominations of a whole contest -------------------------------------------------------------------------


@dataclass(frozen=True)
class Blocker:
    """Why nominations cannot be called, who unblocks it and where (a link, when that user may open it)."""

    why: str
    who_where: str
    url: str = ""


@dataclass(frozen=True)
class PositionNominations:
    """One line of the contest's nominations page: a position's seats, deadlines and next call."""

    position: Position
    vacancies: int
    holding: int
    active: int
    overdue: int
    next_deadline: datetime.date | None
    has_final_run: bool
    counts: SeatCount

    @property
    def free(self) -> int:
        return self.counts.free


def contest_nomination_blocker(
    contest: Contest, *, today: datetime.date, has_final_run: bool
) -> Blocker | None:
    """What blocks calling nominations in ``contest`` today, worded with who unblocks it and where."""
    if not has_final_run:
        return Blocker(
            "As nomeações saem da lista final publicada.",
            "A Gestão publica a lista final em Concurso → Listas de classificação.",
            reverse("candidates:result_list", args=[contest.slug]),
        )
    if not contest.homologation_date:
        return Blocker(
            "As nomeações só começam depois da homologação do concurso.",
            "A Gestão homologa o resultado em Concurso → Homologar.",
            reverse("contests:homologate", args=[contest.slug]),
        )
    if not contest.is_valid_on(today):
        if contest.validity_extended:
            return Blocker(
                f"Hoje ({today:%d/%m/%Y}) está fora da validade do concurso, já prorrogada uma vez.",
                "Não há como nomear mais a partir deste concurso (CF art. 37, III).",
            )
        return Blocker(
            f"Hoje ({today:%d/%m/%Y}) está fora da validade do concurso.",
            "A Gestão pode prorrogar a validade, uma vez, em Concurso → Prorrogar validade.",
            reverse("contests:extend_validity", args=[contest.slug]),
        )
    return None


def contest_nominations(contest: Contest, *, today: datetime.date) -> list[PositionNominations]:
    """Each position of ``contest`` with its vacancies, seats held, active nominations, the nearest
    deadline to take office and how many have passed; a fixed number of queries."""
    positions = list(
        Position.objects.filter(contest=contest)
        .annotate(opened=Coalesce(Sum("openings__count"), Value(0)))
        .order_by("code")
    )
    finals = ResultRun.objects.filter(
        contest=contest, status=ResultRun.Status.PUBLISHED, kind=ResultRun.Kind.FINAL
    ).values_list("position_id", flat=True)
    final_positions = set(finals)
    by_position: dict[int, list[Nomination]] = defaultdict(list)
    for nomination in Nomination.objects.filter(
        position__contest=contest, status__in=Nomination.HOLDING
    ).only("position_id", "status", "office_deadline"):
        by_position[nomination.position_id].append(nomination)
    counted = seat_counts(positions)
    rows = []
    for position in positions:
        position.contest = contest
        held = by_position[position.pk]
        active = [n for n in held if n.status == Nomination.Status.ACTIVE]
        rows.append(
            PositionNominations(
                position=position,
                vacancies=position.opened,
                holding=len(held),
                active=len(active),
                overdue=sum(1 for n in active if n.office_deadline < today),
                next_deadline=min((n.office_deadline for n in active), default=None),
                has_final_run=None in final_positions or position.pk in final_positions,
                counts=counted[position.pk],
            )
        )
    return rows


# Phases ------------------------------------------------------------------------------------------------


def contest_phases(contest: Contest) -> list[Phase]:
    """The contest's phases in order, each with ``scored`` (scores recorded) and ``absentees`` (absences
    recorded): the phases screen shows them, and the lists screen offers "after phase k" from them."""
    return list(
        Phase.objects.filter(contest=contest)
        .annotate(
            scored=Count("results", filter=Q(results__score__isnull=False)),
            absentees=Count("results", filter=Q(results__absent=True)),
        )
        .order_by("order", "pk")
    )
