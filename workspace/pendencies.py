"""Reads of the home page ("Pendências"): what waits for each role, with counts and links.

One function per role; each makes a fixed number of queries whatever the number of rows (the home page
is the first screen every user opens). The roles are the groups of DESIGN.md; a user in two groups sees
both sections.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Count
from django.urls import reverse
from django.utils.timezone import localtime

from candidates.acts import nomination_acts
from candidates.models import Nomination, ResultRun
from candidates.models.nominations import nomination_name
from candidates.selectors import SeatCount, seat_counts
from contests import law_term
from contests.models import AccessLog, Contest, Policy, Position
from contests.selectors import access_logs
from contests.wording import access_verb, plural
from declarations.courts.selectors import in_force_by_due_day
from declarations.hetero.selectors import acts_to_publish, hetero_desk
from declarations.models import Session
from declarations.procedure.selectors import desk_rows, effects_waiting
from monitoring.models import filed_keys

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


VALIDITY_SOON_DAYS = 90  # a contest's validity "ends soon" within this many days (Gestão may extend it once)


def manager_section(*, today: datetime.date) -> Section:
    """Everything waiting for Gestão to publish (editais, lists, nomination acts), the contests whose final
    result waits for the homologation, and the validities ending within ``VALIDITY_SOON_DAYS``. The acts of
    heteroidentification and the procedures' effects wait on Jurídico's home: only Jurídico may publish
    them (``manage_heteroidentification``, ``conduct_procedure``)."""
    drafts_of_editais = (
        Contest.objects.filter(status=Contest.Status.DRAFT, edital_published_on__isnull=True)
        .order_by("year", "number")
        .only("slug", "number", "year", "title")
    )
    editais = Queue(
        "Editais a publicar",
        [
            Item(
                f"Concurso {c.number}/{c.year}: {c.title}",
                reverse("contests:edital_publish", args=[c.slug]),
                note="em elaboração: confira a verificação e publique",
            )
            for c in drafts_of_editais
        ],
        empty="Nenhum edital em elaboração.",
    )
    drafts = ResultRun.objects.filter(status=ResultRun.Status.DRAFT).select_related("contest", "position")
    runs = Queue(
        "Listas aguardando publicação",
        [
            Item(
                f"Concurso {run.contest.number}/{run.contest.year}: {run.name}",
                run.get_absolute_url(),
                note="a lista e o seu documento são publicados juntos",
            )
            for run in drafts.order_by("computed_at", "pk")
        ],
        empty="Nenhuma lista em rascunho.",
    )
    acts = Queue(
        "Atos de nomeação a publicar",
        [
            Item(
                f"Concurso {act.contest.number}/{act.contest.year}: {act.act_number}",
                act.url,
                note=f"nomeações de {act.act_date:%d/%m/%Y}" if act.act_date else "",
            )
            for act in nomination_acts()
            if act.document is None
        ],
        empty="Nenhum ato de nomeação à espera de publicação.",
    )
    waiting = (
        Contest.objects.filter(homologation_date__isnull=True, final_result_published_on__isnull=False)
        .exclude(status__in=(Contest.Status.DRAFT, Contest.Status.CANCELLED))
        .order_by("year", "number")
    )
    contests = Queue(
        "Concursos aguardando homologação",
        [
            Item(
                f"Concurso {c.number}/{c.year}: {c.title}",
                reverse("contests:homologate", args=[c.slug]),
                note=f"resultado final publicado em {c.final_result_published_on:%d/%m/%Y}",
            )
            for c in waiting
        ],
        empty="Nenhum concurso com resultado final à espera de homologação.",
    )
    limit = today + datetime.timedelta(days=VALIDITY_SOON_DAYS)
    homologated = (
        Contest.objects.filter(homologation_date__isnull=False)
        .exclude(status__in=(Contest.Status.CLOSED, Contest.Status.CANCELLED))
        .order_by("homologation_date", "pk")
    )
    ending = sorted(
        (c for c in homologated if c.validity_end is not None and today <= c.validity_end <= limit),
        key=lambda c: c.validity_end or today,
    )
    validities = Queue(
        f"Validades que terminam em {VALIDITY_SOON_DAYS} dias",
        [
            Item(
                f"Concurso {c.number}/{c.year}: {c.title}",
                reverse("contests:detail", args=[c.slug])
                if c.validity_extended
                else reverse("contests:extend_validity", args=[c.slug]),
                note=f"validade até {c.validity_end:%d/%m/%Y}"
                + ("; já prorrogada uma vez" if c.validity_extended else "; pode ser prorrogada uma vez"),
                overdue=(c.validity_end - today).days <= SOON_DAYS if c.validity_end else False,
            )
            for c in ending
        ],
        empty=f"Nenhuma validade termina nos próximos {VALIDITY_SOON_DAYS} dias.",
    )
    return Section(
        "Gestão",
        [editais, runs, acts, contests, validities, law_lifetime(today=today)],
        notice="Os atos de heteroidentificação (sorteios, convocações, resultado) e os efeitos das decisões em processos "
        "administrativos são publicados pelo Jurídico, que os vê na sua página inicial.",
    )


def law_lifetime(*, today: datetime.date) -> Queue:
    """The laws' lifetime (AR art. 5º): each current version whose term ends within its lead time (or has
    ended), and each report due within its lead time or overdue and not filed (``contests.law_term``,
    ``monitoring.models.FiledReport``). One query, and one per current version."""
    items = []
    for policy in Policy.objects.filter(next_versions__isnull=True).order_by("name", "pk"):
        for warning in law_term.warnings(
            policy.term(),
            today=today,
            term_lead_days=policy.term_warning_days,
            report_lead_days=policy.report_warning_days,
            filed=filed_keys(policy),
        ):
            items.append(
                Item(
                    f"{policy}: {warning.text}",
                    policy.get_absolute_url(),
                    note=f"até {warning.on:%d/%m/%Y}" if warning.on else "confira as datas da lei",
                    overdue=warning.overdue,
                )
            )
    return Queue(
        "Vigência das leis e relatórios devidos",
        items,
        empty="Nenhuma lei perto do fim da vigência nem relatório devido.",
    )


# Secretaria ---------------------------------------------------------------------------------------------


def positions_with_free_seats() -> list[tuple[Position, SeatCount]]:
    """Positions of homologated contests with a published final run, and their free seats counted as every
    screen counts them (``candidates.selectors.seat_counts``): the seats the Secretaria may call."""
    finals = ResultRun.objects.filter(status=ResultRun.Status.PUBLISHED, kind=ResultRun.Kind.FINAL)
    positions = list(
        Position.objects.filter(contest__homologation_date__isnull=False)
        .filter(contest__in=finals.values("contest"))
        .select_related("contest")
        .order_by("contest__year", "contest__number", "code")
    )
    counted = seat_counts(positions)
    return [(p, counted[p.pk]) for p in positions if counted[p.pk].free]


def court_orders_queue(*, today: datetime.date) -> Queue:
    """The court orders vigentes, by compliance due day (the earliest first): what the office must comply
    with (issue 22). Secretaria complies (calls, nominations), Jurídico follows the case."""
    return Queue(
        "Ordens judiciais vigentes, pelo prazo de cumprimento",
        [
            Item(
                f"{row.order.get_kind_display()} no processo nº {row.order.case_number}: "
                f"{row.order.get_effect_display().lower()}, concurso {row.order.contest.number}/"
                f"{row.order.contest.year}",
                row.order.get_absolute_url(),
                note=(
                    f"cumprida em {row.complied_on:%d/%m/%Y}; vigente, à espera de nova decisão"
                    if row.complied_on
                    else f"prazo de cumprimento venceu em {row.due:%d/%m/%Y}"
                    if row.overdue
                    else f"cumprir até {row.due:%d/%m/%Y}"
                ),
                overdue=row.overdue,
            )
            for row in in_force_by_due_day(today=today)
        ],
        empty="Nenhuma ordem judicial vigente.",
    )


def clerk_section(*, today: datetime.date) -> Section:
    free = positions_with_free_seats()
    seats = Queue(
        "Vagas livres para nomear",
        [
            Item(
                f"Concurso {p.contest.number}/{p.contest.year}, {p.code}: {p.title}",
                reverse("candidates:nomination_list", args=[p.contest.slug, p.pk]),
                note=n.free_text,
            )
            for p, n in free
        ],
        empty="Nenhuma vaga livre em concurso homologado.",
        count=sum(n.free for _, n in free),
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
        [seats, deadlines, court_orders_queue(today=today)],
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
    effects = Queue(
        "Efeitos de decisão a aplicar",
        [
            Item(
                f"{state.procedure}: {state.procedure.registration.candidate}",
                state.procedure.get_absolute_url() + "#efeitos",
                note="falsidade decidida: aplique os efeitos (eliminação) e publique o ato",
            )
            for state in effects_waiting(today=today)
        ],
        empty="Nenhum processo com efeitos à espera de aplicação.",
    )
    acts = Queue(
        "Atos de heteroidentificação a publicar",
        [
            Item(
                f"Concurso {act.contest.number}/{act.contest.year}: {act.what}", act.url, note="não publicado"
            )
            for act in acts_to_publish(today=today)
        ],
        empty="Nenhum ato de heteroidentificação à espera de publicação.",
    )
    return Section(
        "Jurídico",
        [
            Queue("Processos abertos, pelo próximo prazo", items, empty="Nenhum processo aberto."),
            court_orders_queue(today=today),
            effects,
            acts,
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
        "Gestão": lambda: manager_section(today=today),
        "Secretaria": lambda: clerk_section(today=today),
        "Jurídico": lambda: legal_section(today=today),
        "Comissão": lambda: commission_section(user, today=today),
        "Auditoria": auditor_section,
    }
    return [builders[role]() for role in user_roles(user)]
