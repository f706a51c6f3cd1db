"""The contest's lifecycle: which status may follow which, and why another move is refused.

PURE module: no Django, no project import; the caller passes the dates in.

    draft ──► published ──► registration ──► in_progress ──► homologated ──► closed
      │           │               │                │               │
      └───────────┴───────────────┴────────────────┴───────────────┴──► cancelled

A status only moves forward (a clerk may skip a step: an edital recorded late may go straight to
"registration"). Two moves are *facts*, not statuses, and are permanent once recorded:

- the edital's publication (the first move out of draft): the edital binds the administration and the
  candidates (vinculação ao edital); its law is the one in force on its date (AR art. 5º §2º), so from then
  on the contest's policy, its address and its edital vacancies are fixed;
- the homologation (CF art. 37, III): it approves the result and starts the validity.

The locks rest on those dates, which are never cleared, so they hold even if the status were forced back.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    DRAFT = "draft"
    PUBLISHED = "published"
    REGISTRATION = "registration"
    IN_PROGRESS = "in_progress"
    HOMOLOGATED = "homologated"
    CLOSED = "closed"
    CANCELLED = "cancelled"


LABELS: Mapping[Status, str] = {
    Status.DRAFT: "Em elaboração",
    Status.PUBLISHED: "Edital publicado",
    Status.REGISTRATION: "Inscrições abertas",
    Status.IN_PROGRESS: "Em andamento",
    Status.HOMOLOGATED: "Homologado",
    Status.CLOSED: "Encerrado",
    Status.CANCELLED: "Cancelado",
}

# The lawful moves. Homologation has its own service (date, act, validity) but is a move like the others.
TRANSITIONS: Mapping[Status, frozenset[Status]] = {
    Status.DRAFT: frozenset({Status.PUBLISHED, Status.REGISTRATION, Status.IN_PROGRESS, Status.CANCELLED}),
    Status.PUBLISHED: frozenset(
        {Status.REGISTRATION, Status.IN_PROGRESS, Status.HOMOLOGATED, Status.CANCELLED}
    ),
    Status.REGISTRATION: frozenset({Status.IN_PROGRESS, Status.HOMOLOGATED, Status.CANCELLED}),
    Status.IN_PROGRESS: frozenset({Status.HOMOLOGATED, Status.CANCELLED}),
    Status.HOMOLOGATED: frozenset({Status.CLOSED, Status.CANCELLED}),
    Status.CLOSED: frozenset(),
    Status.CANCELLED: frozenset(),
}

# Every status that says the edital is out: reaching one records the publication.
EDITAL_OUT = frozenset(
    {Status.PUBLISHED, Status.REGISTRATION, Status.IN_PROGRESS, Status.HOMOLOGATED, Status.CLOSED}
)
# The statuses a homologation leaves behind for good.
BEFORE_HOMOLOGATION = frozenset({Status.DRAFT, Status.PUBLISHED, Status.REGISTRATION, Status.IN_PROGRESS})
# Once registrations open, the edital's vacancies change only by an opening (SM art. 1º §1º).
EDITAL_VACANCIES_OPEN = frozenset({Status.DRAFT, Status.PUBLISHED})


@dataclass(frozen=True)
class Facts:
    """The permanent facts of a contest: the day its edital's publication was recorded, its homologation."""

    edital_published_on: datetime.date | None = None
    homologated_on: datetime.date | None = None
    final_result_published_on: datetime.date | None = None

    @property
    def edital_published(self) -> bool:
        return self.edital_published_on is not None

    @property
    def homologated(self) -> bool:
        return self.homologated_on is not None


NO_RETURN_TO_DRAFT = (
    "Um concurso com edital publicado não volta a rascunho: o edital vincula a administração e os "
    "candidatos, e a política, o identificador e as vagas do edital já estão fixados. Corrija-o por "
    "retificação ou cancele o concurso."
)
HOMOLOGATION_IS_FINAL = (
    "A homologação não se desfaz: ela aprova o resultado e dá início à validade do concurso (CF art. 37, "
    "III). Depois dela o concurso só é encerrado ou cancelado."
)
HOMOLOGATION_NEEDS_EDITAL = (
    "Só se homologa um concurso com edital publicado: registre antes a publicação do edital."
)
HOMOLOGATION_HAS_ITS_FORM = (
    "Use a homologação para homologar o concurso: ela registra a data, o ato e a validade (CF art. 37, III)."
)
CLOSING_NEEDS_HOMOLOGATION = (
    "Só um concurso homologado é encerrado (ao fim da validade); antes da homologação, cancele-o."
)


def _label(status: Status) -> str:
    return f"“{LABELS[status]}”"


def _forward_only(current: Status) -> str:
    onward = [status for status in Status if status in TRANSITIONS[current]]
    options = ", ".join(_label(status) for status in onward)
    return f"A situação de um concurso só avança: de {_label(current)} ele segue para {options}."


def stage(current: Status | str, facts: Facts) -> Status:
    """Where the contest really is: the facts outrank a status column forced back behind them."""
    current = Status(current)
    if facts.homologated and current in BEFORE_HOMOLOGATION:
        return Status.HOMOLOGATED
    if facts.edital_published and current == Status.DRAFT:
        return Status.PUBLISHED
    return current


def refusal(
    current: Status | str,
    target: Status | str,
    facts: Facts,
    *,
    homologation_date: datetime.date | None = None,
) -> str | None:
    """Why the contest may not move from ``current`` to ``target``, in Portuguese; ``None`` when it may.

    ``facts`` (what is recorded) outrank the status: a published edital or a homologation is never undone,
    whatever the status column says (a status behind the facts may only be brought back in line with
    them). A move to "homologated" needs the date being recorded, ``homologation_date``: the homologation
    service passes it.
    """
    current, target = Status(current), Status(target)
    if target == current:
        return f"O concurso já está na situação {_label(current)}."
    where = stage(current, facts)
    if target == where:
        return None
    if where in (Status.CLOSED, Status.CANCELLED):
        return f"Um concurso {LABELS[where].lower()} não muda mais de situação."
    if target in BEFORE_HOMOLOGATION and where == Status.HOMOLOGATED:
        return HOMOLOGATION_IS_FINAL
    if target == Status.DRAFT:
        return NO_RETURN_TO_DRAFT
    if target == Status.HOMOLOGATED:
        if where == Status.DRAFT:
            return HOMOLOGATION_NEEDS_EDITAL
        if homologation_date is None:
            return HOMOLOGATION_HAS_ITS_FORM
    if target == Status.CLOSED and where != Status.HOMOLOGATED:
        return CLOSING_NEEDS_HOMOLOGATION
    if target not in TRANSITIONS[where]:
        return _forward_only(where)
    return None


# Dates: what the calendar allows (the edital's schedule and the facts recorded) --------------------------


@dataclass(frozen=True)
class Schedule:
    """The edital's registration period (either end may be missing: then it guards nothing)."""

    registration_start: datetime.date | None = None
    registration_end: datetime.date | None = None


def _day(value: datetime.date) -> str:
    return f"{value:%d/%m/%Y}"


def homologation_date_refusal(
    homologation_date: datetime.date, schedule: Schedule, facts: Facts
) -> str | None:
    """Why a homologation may not be recorded on ``homologation_date``, or ``None``.

    The homologation approves the final result (CF art. 37, III): it comes after the registrations end
    (nobody can be approved in a contest still taking registrations) and after the final result is
    published, never before either. The refusal says which dates bind and what to do.
    """
    end = schedule.registration_end
    final = facts.final_result_published_on
    problems = []
    if end is not None and homologation_date <= end:
        problems.append(f"a data informada ({_day(homologation_date)}) não é posterior ao fim das inscrições")
    if final is None:
        problems.append(
            "o resultado final ainda não foi publicado: a Gestão o publica em Concurso → Listas de "
            "classificação, depois de revisar a lista calculada pela Secretaria"
        )
    elif homologation_date < final:
        problems.append(
            f"o resultado final foi publicado em {_day(final)}, depois da data informada "
            f"({_day(homologation_date)}): informe a data do ato, a partir de {_day(final)}"
        )
    if not problems:
        return None
    after = f"do fim das inscrições ({_day(end)})" if end is not None else ""
    after = f"{after} e da publicação do resultado final" if after else "da publicação do resultado final"
    return f"A homologação só pode ser registrada depois {after}: {'; '.join(problems)}."


def registrations_refusal(today: datetime.date, schedule: Schedule, *, what: str) -> str | None:
    """Why registrations (``what``: "a importação de inscrições", "o registro de uma inscrição") may not
    be taken ``today``: before the period the edital sets opens there is no registration to record
    (SM art. 3º; AR art. 1º §4º: the self-declaration is made "no ato da inscrição")."""
    start = schedule.registration_start
    if start is not None and today < start:
        return (
            f"As inscrições deste concurso abrem em {_day(start)} (cronograma do edital): {what} fica "
            f"disponível a partir desse dia. Se o cronograma mudou, corrija as datas em Concurso → Editar "
            "(retificando o edital, se já publicado)."
        )
    return None


def results_refusal(today: datetime.date, schedule: Schedule) -> str | None:
    """Why the classification lists may not be computed ``today``: not before the registrations end
    (the lists rank every registration; one made later would change them)."""
    end = schedule.registration_end
    if end is not None and today <= end:
        return (
            f"As listas de classificação só podem ser calculadas depois do fim das inscrições "
            f"({_day(end)}): até lá, novas inscrições mudariam a classificação. Calcule-as a partir de "
            f"{_day(end + datetime.timedelta(days=1))}."
        )
    return None


def status_date_refusal(target: Status | str, today: datetime.date, schedule: Schedule) -> str | None:
    """Why the contest may not move to ``target`` ``today``, by the edital's dates: "Inscrições abertas"
    not before the period opens, "Em andamento" (after the registrations) not before it ends. (A status
    left at "Inscrições abertas" after the period is shown as in progress: ``public_stage``.)"""
    target = Status(target)
    start, end = schedule.registration_start, schedule.registration_end
    if target == Status.REGISTRATION and start is not None and today < start:
        return (
            f"As inscrições abrem em {_day(start)} (cronograma do edital): a situação "
            f"{_label(Status.REGISTRATION)} pode ser registrada a partir desse dia."
        )
    if target == Status.IN_PROGRESS and end is not None and today <= end:
        return (
            f"As inscrições vão até {_day(end)}: a situação {_label(Status.IN_PROGRESS)} pode ser "
            f"registrada a partir de {_day(end + datetime.timedelta(days=1))}."
        )
    return None


def allowed(current: Status | str, facts: Facts) -> tuple[Status, ...]:
    """The statuses the contest may move to now, in the order of the lifecycle (homologation, which needs
    its date, is its own form)."""
    return tuple(status for status in Status if refusal(current, status, facts) is None)


def records_publication(target: Status | str, facts: Facts) -> bool:
    """Whether moving to ``target`` records the edital's publication (the first move out of draft)."""
    return Status(target) in EDITAL_OUT and not facts.edital_published


def edital_vacancies_frozen(current: Status | str, facts: Facts) -> bool:
    """Whether the edital's vacancies are fixed: once registrations open (a later opening adds to them,
    SM art. 1º §1º), and for good after the homologation."""
    return stage(current, facts) not in EDITAL_VACANCIES_OPEN


class PublicStage(StrEnum):
    """How the public site groups contests: by what a candidate can still do."""

    REGISTRATION_OPEN = "registration_open"
    IN_PROGRESS = "in_progress"
    CONCLUDED = "concluded"


PUBLIC_STAGE_LABELS: Mapping[PublicStage, str] = {
    PublicStage.REGISTRATION_OPEN: "Inscrições abertas",
    PublicStage.IN_PROGRESS: "Em andamento",
    PublicStage.CONCLUDED: "Concluídos",
}


def public_stage(
    current: Status | str,
    facts: Facts,
    *,
    registration_start: datetime.date | None,
    registration_end: datetime.date | None,
    today: datetime.date,
) -> PublicStage | None:
    """The group a contest appears in on the public site, or ``None`` when it does not appear (a draft: only
    a published edital makes a contest public).

    Registrations are open while the status says so and the period has not ended, or when the edital is
    out and today falls within the period it set; a homologated, closed or cancelled contest is concluded;
    everything else with a published edital is in progress (before the period, or after it, until the
    homologation).
    """
    where = stage(current, facts)
    if not facts.edital_published or where == Status.DRAFT:
        return None
    if where in (Status.HOMOLOGATED, Status.CLOSED, Status.CANCELLED):
        return PublicStage.CONCLUDED
    ended = registration_end is not None and today > registration_end
    started = registration_start is None or today >= registration_start
    if where == Status.REGISTRATION and not ended:
        return PublicStage.REGISTRATION_OPEN
    if where == Status.PUBLISHED and registration_start is not None and started and not ended:
        return PublicStage.REGISTRATION_OPEN
    return PublicStage.IN_PROGRESS
