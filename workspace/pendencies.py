"""Reads of the home page ("Pendências"): what waits for each role, with counts and links.

One function per role; each makes a fixed number of queries whatever the number of rows (the home page
is the first screen every user opens). The roles are the groups of DESIGN.md; a user in two groups sees
both sections.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.timezone import localtime

from candidates.models import Nomination, ResultRun
from candidates.models.nominations import nomination_name
from contests.models import AccessLog, Contest, Position, VacancyOpening
from contests.selectors import access_logs
from contests.wording import access_verb, plural
from declarations.hetero.selectors import hetero_desk
from declarations.models import Session
from declarations.procedure.selectors import desk_rows

SOON_DAYS = 7  # a nominee's deadline to take office "ends soon" within this many days
LATEST = 10  # rows of the auditor's lists

ROLES = ("Gestão", "Secretaria", "Jurídico", "Comissão", "Auditoria")


@dataclass(frozen=True)
class Item:
    """One line of a section: what waits, a link to where it is done, and an optional note."""

    label: str
    url: str
    note: str = ""
    overdue: bool = False


@dataclass
class Queue:
    """A list of items under a title; ``count`` is the number of things waiting (shown next to it)."""

    title: str
    items: list[Item] = field(default_factory=list)
    empty: str = "Nada pendente."
    count: int | None = None

    @property
    def total(self) -> int:
        return len(self.items) if self.count is None else self.count


@dataclass
class Section:
    role: str
    queues: list[Queue] = field(default_factory=list)
    notice: str = ""


def person(user: User | None) -> str:
    """A person's full name (never the user name alone, unless no name was recorded)."""
    if user is None:
        return "sistema"
    return user.get_full_name() or user.get_username()


def user_roles(user: User) -> list[str]:
    """The roles of ``user`` (its groups among DESIGN.md's), in the order of the home page."""
    names = set(user.groups.values_list("name", flat=True))
    return [role for role in ROLES if role in names]


# Gestão -------------------------------------------------------------------------------------------------


def manager_section() -> Section:
    drafts = ResultRun.objects.filter(status=ResultRun.Status.DRAFT).select_related("contest", "position")
    runs = Queue(
        "Resultados aguardando publicação",
        [
            Item(
                f"Concurso {run.contest.number}/{run.contest.year}: {run.name}",
                run.get_absolute_url(),
            )
            for run in drafts.order_by("computed_at", "pk")
        ],
        empty="Nenhum resultado em rascunho.",
    )
    final = ResultRun.objects.filter(
        contest=OuterRef("pk"), status=ResultRun.Status.PUBLISHED, kind=ResultRun.Kind.FINAL
    )
    waiting = (
        Contest.objects.filter(homologation_date__isnull=True)
        .exclude(status__in=(Contest.Status.DRAFT, Contest.Status.CANCELLED))
        .filter(Q(pk__in=final.values("contest")))
        .order_by("year", "number")
    )
    contests = Queue(
        "Concursos aguardando homologação",
        [
            Item(
                f"Concurso {c.number}/{c.year}: {c.title}",
                reverse("contests:homologate", args=[c.slug]),
                note="resultado final publicado",
            )
            for c in waiting
        ],
        empty="Nenhum concurso com resultado final à espera de homologação.",
    )
    return Section("Gestão", [runs, contests])


# Secretaria ---------------------------------------------------------------------------------------------


def positions_with_free_seats() -> list[tuple[Position, int]]:
    """Positions of homologated contests with a published final run, and their vacancies not held by a
    nomination (active or took office): the seats the Secretaria may call."""
    holding = (
        Nomination.objects.filter(position=OuterRef("pk"), status__in=Nomination.HOLDING)
        .values("position")
        .annotate(n=Count("pk"))
        .values("n")
    )
    opened = (
        VacancyOpening.objects.filter(position=OuterRef("pk"))
        .values("position")
        .annotate(n=Sum("count"))
        .values("n")
    )
    finals = ResultRun.objects.filter(status=ResultRun.Status.PUBLISHED, kind=ResultRun.Kind.FINAL)
    positions = (
        Position.objects.filter(contest__homologation_date__isnull=False)
        .filter(contest__in=finals.values("contest"))
        .select_related("contest")
        .annotate(
            seats=Coalesce(Subquery(opened, output_field=IntegerField()), Value(0)),
            held=Coalesce(Subquery(holding, output_field=IntegerField()), Value(0)),
        )
        .order_by("contest__year", "contest__number", "code")
    )
    return [(p, p.seats - p.held) for p in positions if p.seats > p.held]


def clerk_section(*, today: datetime.date) -> Section:
    free = positions_with_free_seats()
    seats = Queue(
        "Vagas livres para nomear",
        [
            Item(
                f"Concurso {p.contest.number}/{p.contest.year}, {p.code}: {p.title}",
                reverse("candidates:nomination_list", args=[p.contest.slug, p.pk]),
                note=plural(n, "vaga livre", "vagas livres"),
            )
            for p, n in free
        ],
        empty="Nenhuma vaga livre em concurso homologado.",
        count=sum(n for _, n in free),
    )
    limit = today + datetime.timedelta(days=SOON_DAYS)
    nominees = (
        Nomination.objects.filter(status=Nomination.Status.ACTIVE, office_deadline__lte=limit)
        .select_related("registration__candidate", "position__contest")
        .order_by("office_deadline", "pk")
    )
    deadlines = Queue(
        f"Prazos de posse vencidos ou a vencer em {SOON_DAYS} dias",
        [
            Item(
                f"{n.registration.candidate}: {n.position.code}, concurso "
                f"{n.position.contest.number}/{n.position.contest.year}",
                reverse("candidates:nomination_detail", args=[n.position.contest.slug, n.position_id, n.pk]),
                note=(
                    f"prazo venceu em {n.office_deadline:%d/%m/%Y}"
                    if n.office_deadline < today
                    else f"prazo até {n.office_deadline:%d/%m/%Y}"
                ),
                overdue=n.office_deadline < today,
            )
            for n in nominees
        ],
        empty="Nenhum prazo de posse vencido ou a vencer nos próximos dias.",
    )
    return Section(
        "Secretaria",
        [seats, deadlines],
        notice="As importações com erros ainda não ficam registradas: o relatório de erros aparece só "
        "durante a importação.",
    )


# Jurídico -----------------------------------------------------------------------------------------------


def legal_section(*, today: datetime.date) -> Section:
    rows = desk_rows(today=today)
    items = []
    for state in rows:
        nxt = state.next_deadline
        if nxt is None:
            note = "sem prazo correndo"
        elif nxt.overdue:
            note = f"prazo venceu em {nxt.deadline.last_day:%d/%m/%Y}"
        else:
            note = f"próximo prazo até {nxt.deadline.last_day:%d/%m/%Y}"
        items.append(
            Item(
                f"{state.procedure}: {state.procedure.registration.candidate}",
                state.procedure.get_absolute_url(),
                note=note,
                overdue=nxt is not None and nxt.overdue,
            )
        )
    desk = hetero_desk()
    hetero = [
        Item(
            f"Heteroidentificação: {row.contest}",
            reverse("declarations:hetero_contest", args=[row.contest.slug]),
            note="; ".join(row.waiting) or "nada pendente",
        )
        for row in desk
    ]
    return Section(
        "Jurídico",
        [
            Queue("Processos abertos, pelo próximo prazo", items, empty="Nenhum processo aberto."),
            Queue(
                "Heteroidentificação",
                hetero,
                empty="Nenhum concurso com heteroidentificação: ela começa pela página do concurso.",
                count=sum(1 for row in desk if row.waiting),
            ),
        ],
    )


# Comissão -----------------------------------------------------------------------------------------------


def commission_section(user: User, *, today: datetime.date) -> Section:
    """The sessions still open of the commissions ``user`` sits on, the next first (RULES §5)."""
    sessions = (
        Session.objects.filter(commission__members__user=user, closed_at__isnull=True)
        .select_related("commission__contest")
        .annotate(called=Count("verifications", distinct=True))
        .distinct()
        .order_by("starts_at", "pk")
    )
    items = []
    for session in sessions:
        contest = session.commission.contest
        when = localtime(session.starts_at).date()
        items.append(
            Item(
                f"{session}: concurso {contest.number}/{contest.year}",
                reverse("declarations:hetero_session", args=[session.pk]),
                note=plural(session.called, "candidato chamado", "candidatos chamados")
                + ("; a sessão já começou e não foi encerrada" if when < today else ""),
                overdue=when < today,
            )
        )
    return Section(
        "Comissão",
        [Queue("Próximas sessões da sua comissão", items, empty="Nenhuma sessão aberta da sua comissão.")],
    )


# Auditoria ----------------------------------------------------------------------------------------------

_ACTIONS = {"+": "criou", "~": "alterou", "-": "excluiu"}


def latest_changes() -> list[Item]:
    """The latest changes of contests, positions, runs and nominations, newest first."""
    rows = []
    for record in Contest.history.select_related("history_user").order_by("-history_date")[:LATEST]:
        rows.append(
            (
                record.history_date,
                f"concurso {record.number}/{record.year}",
                record,
                reverse("contests:history", args=[record.slug]),
            )
        )
    for record in (
        Position.history.select_related("history_user")
        .order_by("-history_date")
        .only("history_date", "history_type", "history_user", "code", "id", "contest_id")[:LATEST]
    ):
        rows.append((record.history_date, f"cargo {record.code}", record, ""))
    for record in Nomination.history.select_related("history_user", "registration__candidate").order_by(
        "-history_date"
    )[:LATEST]:
        name = nomination_name(record.registration.candidate.display_name, record.seat)
        rows.append((record.history_date, name[:1].lower() + name[1:], record, ""))
    rows.sort(key=lambda row: row[0], reverse=True)
    return [
        Item(
            f"{person(record.history_user)} {_ACTIONS.get(record.history_type, 'alterou')} {what}",
            url,
            note=f"{localtime(when):%d/%m/%Y %H:%M}",
        )
        for when, what, record, url in rows[:LATEST]
    ]


def _who(log: AccessLog) -> str:
    """Who accessed, at the head of a sentence: a person's name, or the holder of a private link
    ("Candidato(a), pelo link privado,"), never "sistema" for a candidate reading their own link."""
    if log.user is not None:
        return person(log.user)
    who = log.who
    return f"{who}," if who.endswith("pelo link privado") else who


def auditor_section() -> Section:
    logs = access_logs()[:LATEST]
    views = Queue(
        "Consultas a dados sensíveis mais recentes",
        [
            Item(
                f"{_who(log)} {access_verb(log.action)} {log.object_repr}"
                + (f" ({log.detail})" if log.detail else ""),
                "",
                note=f"{localtime(log.at):%d/%m/%Y %H:%M}",
            )
            for log in logs
        ],
        empty="Nenhuma consulta registrada.",
    )
    return Section(
        "Auditoria",
        [Queue("Alterações mais recentes", latest_changes(), empty="Nenhuma alteração registrada."), views],
    )


def home_sections(user: User, *, today: datetime.date) -> list[Section]:
    builders = {
        "Gestão": manager_section,
        "Secretaria": lambda: clerk_section(today=today),
        "Jurídico": lambda: legal_section(today=today),
        "Comissão": lambda: commission_section(user, today=today),
        "Auditoria": auditor_section,
    }
    return [builders[role]() for role in user_roles(user)]
