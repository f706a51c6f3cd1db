"""The law's lifetime: when it ends, the reports it orders, and which editais it does not govern.

PURE module: no Django, no project import but ``contests.calendar``; the clock is passed in.

Angra dos Reis (PL 094/2015) art. 5º: the law is in force for ten years; the monitoring body makes a
conclusive report every two years and, §1º, a final report to the Mayor "no primeiro trimestre do último
ano de vigência", recommending whether to extend it; §2º, it does not apply to contests whose editais were
published before it came into force. Santa Maria's text sets no term and no report (art. 6º: in force from
publication).

Readings (recorded here because the texts leave them open):

- The term runs from the effect date (or the publication, when the effect is unknown): "vigorará por dez
  anos" counted date to date, so the last day in force is the day before the tenth anniversary.
- A periodic report covers the ``interval`` years that end the day before its anniversary and is due on
  the anniversary; none falls after the law's last day (the final report takes the last one's place).
- "O último ano de vigência" is the law's own tenth year (from the ninth anniversary to the last day), not
  the calendar year the term ends in (for a law in force from 15/01/2016 that calendar year would hold 14
  days); its first quarter is the three months from the ninth anniversary. The final report covers the law
  from its start to the day before that quarter and is due on the quarter's last day.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from contests.calendar import add_days, add_months, add_years

PERIODIC = "periodic"
FINAL = "final"


@dataclass(frozen=True)
class Term:
    """A law's lifetime as data (a policy version's fields)."""

    start: datetime.date | None  # the effect date, else the publication date; None: unknown
    duration_years: int | None = None  # None: no term
    revoked_on: datetime.date | None = None
    report_interval_years: int | None = None  # None: no periodic report
    final_report_quarter: int | None = None  # quarter (1–4) of the last year of the term; None: none
    excludes_prior_editais: bool = False
    citation_term: str = ""  # e.g. "art. 5º"
    citation_prior_editais: str = ""  # e.g. "art. 5º §2º"


@dataclass(frozen=True)
class Report:
    """A report the law orders: the period it covers, the window it is made in, and its last day."""

    kind: str  # PERIODIC or FINAL
    number: int  # 1, 2… for periodic reports; 1 for the final one
    period_start: datetime.date
    period_end: datetime.date
    opens_on: datetime.date  # the first day it may be made (the day after the period, or the quarter's first)
    due_on: datetime.date  # its last day

    @property
    def key(self) -> tuple[str, int]:
        return (self.kind, self.number)

    @property
    def label(self) -> str:
        if self.kind == FINAL:
            return "Relatório final"
        return f"{self.number}º relatório periódico"


@dataclass(frozen=True)
class Warning:
    """One line for the manager's home: what falls due (or has), and when."""

    text: str
    on: datetime.date | None
    overdue: bool = False


def _minus_one_day(day: datetime.date) -> datetime.date:
    """The day before ``day`` (``day`` itself on the calendar's first day)."""
    return add_days(day, -1) or day


def end(term: Term) -> datetime.date | None:
    """The last day the law is in force (its term or its revocation, the earlier); None: no end known."""
    ends = []
    if term.duration_years and term.start:
        expiry = add_years(term.start, term.duration_years)
        if expiry < datetime.date.max:  # a duration that reaches the calendar's end is no end
            ends.append(_minus_one_day(expiry))
    if term.revoked_on:
        ends.append(_minus_one_day(term.revoked_on))
    return min(ends) if ends else None


def reports(term: Term) -> list[Report]:
    """Every report the law orders, in order of due date; none without a start date."""
    if term.start is None:
        return []
    last = end(term)
    found: list[Report] = []
    interval = term.report_interval_years
    if interval:
        number = 1
        while True:
            due = add_years(term.start, interval * number)
            if due == datetime.date.max or (last is not None and due > last) or number > 1000:
                break
            period_start = add_years(term.start, interval * (number - 1))
            found.append(Report(PERIODIC, number, period_start, _minus_one_day(due), due, due))
            if last is None and number >= 50:  # a law without end: the next fifty are plenty
                break
            number += 1
    if term.final_report_quarter and term.duration_years:
        last_year = add_years(term.start, term.duration_years - 1)
        opens = add_months(last_year, 3 * (term.final_report_quarter - 1))
        due = _minus_one_day(add_months(last_year, 3 * term.final_report_quarter))
        if last is None or opens <= last:
            found.append(Report(FINAL, 1, term.start, _minus_one_day(opens), opens, due))
    return sorted(found, key=lambda report: (report.due_on, report.kind))


def refusal_for_edital(term: Term, day: datetime.date) -> str:
    """Portuguese reason why a contest whose edital is published on ``day`` cannot use this law, or ''.

    Unknown dates count as in force (RULES §1)."""
    start = term.start
    if start and day < start:
        if term.excludes_prior_editais:
            cite = f", {term.citation_prior_editais}" if term.citation_prior_editais else ""
            return f"A lei não se aplica a editais publicados antes da sua vigência ({start:%d/%m/%Y}){cite}."
        return f"A política só vigora a partir de {start:%d/%m/%Y}; o edital é de {day:%d/%m/%Y}."
    last = end(term)
    if last and day > last:
        why = ""
        if (
            term.duration_years
            and term.start
            and _minus_one_day(add_years(term.start, term.duration_years)) == last
        ):
            years = "ano" if term.duration_years == 1 else "anos"
            cite = f", {term.citation_term}" if term.citation_term else ""
            why = f" (vigência de {term.duration_years} {years}{cite})"
        elif term.revoked_on:
            why = f" (revogada em {term.revoked_on:%d/%m/%Y})"
        return f"A política vigorou até {last:%d/%m/%Y}{why}; o edital é de {day:%d/%m/%Y}."
    return ""


def warnings(
    term: Term,
    *,
    today: datetime.date,
    term_lead_days: int,
    report_lead_days: int,
    filed: frozenset[tuple[str, int]] = frozenset(),
) -> list[Warning]:
    """What the manager should be told today: the term ending within ``term_lead_days`` (or ended within as
    many days), each report not ``filed`` whose window opens within ``report_lead_days`` or has passed; and,
    for a law with a term or reports whose start is unknown, that nothing can be computed."""
    found: list[Warning] = []
    if term.start is None:
        if term.duration_years or term.report_interval_years or term.final_report_quarter:
            found.append(
                Warning(
                    "A data de vigência da lei não está registrada: o fim da vigência e os relatórios devidos "
                    "não podem ser calculados.",
                    None,
                )
            )
        return found
    last = end(term)
    cite = f" ({term.citation_term})" if term.citation_term else ""
    if last is not None:
        days = (last - today).days
        if 0 <= days <= term_lead_days:
            found.append(
                Warning(f"A vigência da lei termina em {last:%d/%m/%Y}{cite}: faltam {days} dias.", last)
            )
        elif -term_lead_days <= days < 0:
            found.append(
                Warning(
                    f"A vigência da lei terminou em {last:%d/%m/%Y}{cite}: novos concursos não podem usá-la.",
                    last,
                    overdue=True,
                )
            )
    for report in reports(term):
        if report.key in filed:
            continue
        if today > report.due_on:
            found.append(
                Warning(
                    f"{report.label}{cite} em atraso: era devido até {report.due_on:%d/%m/%Y} "
                    f"(período de {report.period_start:%d/%m/%Y} a {report.period_end:%d/%m/%Y}).",
                    report.due_on,
                    overdue=True,
                )
            )
        elif (report.opens_on - today).days <= report_lead_days:
            window = (
                f"de {report.opens_on:%d/%m/%Y} a {report.due_on:%d/%m/%Y}"
                if report.opens_on != report.due_on
                else f"em {report.due_on:%d/%m/%Y}"
            )
            found.append(
                Warning(
                    f"{report.label}{cite} devido {window} "
                    f"(período de {report.period_start:%d/%m/%Y} a {report.period_end:%d/%m/%Y}).",
                    report.due_on,
                )
            )
    return found
