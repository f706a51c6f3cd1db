"""The edital from the contest's data: the vacancy table from the quota engine, the reservation chapter
from the policy (``chapter``), the seat numbers from the allocation engine's schedule, the check.

The counts per position (open, reserved) are the quota engine's (``contests.quotas``, through
``Position.reservation``). The seat kinds are the allocation engine's (``candidates.engine.schedule``), so
that the edital publishes exactly the order the nominations will follow; that engine lives in
``candidates``, which sits above this app, so it is handed in (``use_seat_order``, called by the candidates
app when the apps load) rather than imported here.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import holidays as holiday_calendars
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from contests import quotas
from contests.documents import chapter, checks
from contests.documents.models import EditalText
from contests.documents.render import Stamp, render_pdf
from contests.documents.signatures import NoSignatory, signatory_for, signature_block
from contests.models import Contest, Holiday, Organization, Policy, Position, Signatory

PCD_LAW = "Decreto federal nº 9.508/2018"


def edital_text_for(contest: Contest) -> EditalText:
    """The clerk's sections (unsaved and empty when nothing was written yet). Who signs, when the text
    names nobody, is the authority the organisation assigns to editais, in office today (``Signatory``)."""
    text = EditalText.objects.filter(contest=contest).first() or EditalText(contest=contest)
    if not text.signer_name.strip() and not text.signer_office.strip():
        try:
            block = signatory_for(Signatory.Kind.EDITAL, on=timezone.localdate())
        except NoSignatory:
            pass
        else:
            text.signer_name, text.signer_office = block.name, block.office
    return text


def edital_title(contest: Contest) -> str:
    return f"Edital de Abertura nº {contest.number}/{contest.year}"


def law_citation(policy: Policy) -> str:
    """The law as enacted: ``Projeto de Lei nº 9247/2021 (Santa Maria/RS)``."""
    number = f" nº {policy.act_number}" if policy.act_number else ""
    return f"{policy.get_act_kind_display()}{number} ({policy.jurisdiction})"


def law_dates(policy: Policy) -> str:
    parts = []
    if policy.publication_date:
        parts.append(f"publicada em {policy.publication_date:%d/%m/%Y}")
    if policy.gazette_edition:
        parts.append(f"no {policy.gazette_edition}")
    if policy.effective_date:
        parts.append(f"em vigor desde {policy.effective_date:%d/%m/%Y}")
    return ", ".join(parts)


def policy_text(contest: Contest) -> chapter.PolicyText:
    policy = contest.policy
    # The procedure's and the commission's law is declarations' (one row per version): read through the
    # policy, never imported (contests sits below it).
    procedure_law = policy.procedure_law
    return chapter.PolicyText(
        law=law_citation(policy),
        law_dates=law_dates(policy),
        group_label=policy.group_label,
        groups=tuple(policy.beneficiary_groups or ()),
        percent=policy.percent_fraction,
        threshold=policy.threshold,
        threshold_on_contest=policy.threshold_basis == Policy.ThresholdBasis.CONTEST,
        rounding=policy.rounding,
        carries_fraction=policy.carries_fraction,
        order=policy.nomination_order,
        nth=policy.nth,
        pcd_first=policy.priority == Policy.Priority.PCD_FIRST,
        open_competition_rule=policy.open_competition_rule,
        dual_rule=policy.dual_rule,
        dual_default=policy.dual_default,
        dual_keeps_pcd_rights=policy.dual_keeps_pcd_rights,
        non_confirmation=procedure_law.non_confirmation,
        falsity_effect=procedure_law.falsity_effect,
        defence_days=procedure_law.defence_days,
        appeal_days=procedure_law.appeal_days,
        hetero_commission_size=procedure_law.hetero_commission_size,
        hetero_appeal_commission_size=procedure_law.hetero_appeal_commission_size,
        hetero_appeal_days=procedure_law.hetero_appeal_days,
        hetero_no_show=procedure_law.hetero_no_show,
        candidate_guidance=policy.candidate_guidance,
        citations={
            "reserve": policy.citation_reserve,
            "threshold": policy.citation_threshold,
            "rounding": policy.citation_rounding,
            "carry": policy.citation_carry,
            "order": policy.citation_order,
            "falsity": policy.citation_falsity,
        },
        pcd_percent=quotas.to_fraction(contest.pcd_percent) if contest.pcd_percent else None,
        pcd_cap_percent=quotas.to_fraction(contest.pcd_cap_percent),
        pcd_rounding=contest.pcd_rounding,
    )


@dataclass(frozen=True)
class TableRow:
    row: chapter.PositionRow
    requirements: str
    salary: Any
    workload_hours: int | None
    post_kind: str


@dataclass(frozen=True)
class SeatOrder:
    """A position's seats in nomination order, as the allocation engine schedules them (RULES §4): which of
    its vacancies are reserved to each list, and the kinds of its first ``chapter.SEATS_SHOWN`` nominations
    (past its vacancies, how the order would go on)."""

    racial: tuple[int, ...]  # seat numbers, among the position's vacancies
    pcd: tuple[int, ...]
    first: tuple[str, ...]  # "open", "racial" or "pcd", seat by seat


# (position, its vacancies, the contest's vacancies) → the position's seat order.
SeatOrderFor = Callable[[Position, int, int], SeatOrder]
_seat_order_for: SeatOrderFor | None = None


def use_seat_order(seat_order_for: SeatOrderFor) -> None:
    """Hand in the allocation engine's seat order (the candidates app does, in its ``AppConfig.ready``)."""
    global _seat_order_for
    _seat_order_for = seat_order_for


def _seat_order() -> SeatOrderFor:
    if _seat_order_for is None:
        raise ImproperlyConfigured(
            "O edital numera as vagas com o motor de alocação: instale o app candidates."
        )
    return _seat_order_for


def position_rows(contest: Contest) -> list[TableRow]:
    """Each position's counts (``Position.reservation``: the quota engine) and seat kinds (the schedule)."""
    seat_order = _seat_order()
    positions = list(contest.positions.order_by("code").prefetch_related("openings"))
    vacancies = {
        position.pk: sum(opening.count for opening in position.openings.all()) for position in positions
    }
    contest_vacancies = sum(vacancies.values())
    rows = []
    for position in positions:
        n = vacancies[position.pk]
        reservation = position.reservation(vacancies=n, contest_vacancies=contest_vacancies)
        seats = seat_order(position, n, contest_vacancies)
        rows.append(
            TableRow(
                row=chapter.PositionRow(
                    code=position.code,
                    title=position.title,
                    vacancies=n,
                    open=reservation.open,
                    racial=reservation.racial,
                    pcd=reservation.pcd,
                    racial_seats=seats.racial,
                    pcd_seats=seats.pcd,
                    first_seats=seats.first,
                    racial_explanation=reservation.racial_explanation,
                    pcd_explanation=reservation.pcd_explanation,
                ),
                requirements=position.requirements,
                salary=position.salary,
                workload_hours=position.workload_hours,
                post_kind=position.get_post_kind_display(),
            )
        )
    return rows


def holidays_between(start: datetime.date, end: datetime.date) -> set[datetime.date]:
    """National and state holidays (``holidays``) and the organisation's full-day closures."""
    organization = Organization.current()
    subdiv = organization.state if organization else None
    years = range(start.year, end.year + 1)
    try:
        calendar = holiday_calendars.country_holidays("BR", subdiv=subdiv, years=years)
    except NotImplementedError:
        calendar = holiday_calendars.country_holidays("BR", years=years)
    days = {day for day in calendar if start <= day <= end}
    for holiday in Holiday.objects.filter(period=Holiday.Period.FULL):
        for year in years if holiday.recurring else (holiday.date.year,):
            try:
                day = holiday.date.replace(year=year)
            except ValueError:
                continue
            if start <= day <= end:
                days.add(day)
    return days


def edital_context(contest: Contest) -> dict[str, Any]:
    text = edital_text_for(contest)
    policy_data = policy_text(contest)
    table = position_rows(contest)
    rows = [t.row for t in table]
    has_pcd = bool(contest.pcd_percent)
    clauses = chapter.reservation_chapter(
        policy_data, rows, chapter=2, heteroidentification=text.uses_heteroidentification
    )
    items, _ = checks.parse_schedule(text.schedule)
    return {
        "contest": contest,
        "policy": contest.policy,
        "law": policy_data.law,
        "law_dates": policy_data.law_dates,
        "percent": quotas.format_percent(policy_data.percent),
        "pcd_law": PCD_LAW,
        "pcd_percent": quotas.format_percent(policy_data.pcd_percent) if policy_data.pcd_percent else "",
        "pcd_cap": quotas.format_percent(policy_data.pcd_cap_percent) if policy_data.pcd_cap_percent else "",
        "has_pcd": has_pcd,
        "table": table,
        "totals": {
            "vacancies": sum(r.vacancies for r in rows),
            "open": sum(r.open for r in rows),
            "racial": sum(r.racial for r in rows),
            "pcd": sum(r.pcd for r in rows),
        },
        "clauses": clauses,
        "text": text,
        "signature": signature_block(text.signer_name, text.signer_office, on=contest.edital_date),
        "schedule": items,
        "title": edital_title(contest),
    }


def check(contest: Contest, *, on: datetime.date | None = None) -> checks.Report:
    """The pre-publication check of the contest's edital as it stands (``on``: the publication date,
    the edital's date by default)."""
    context = edital_context(contest)
    text: EditalText = context["text"]
    rows = [t.row for t in context["table"]]
    day = on or contest.edital_date
    policy = contest.policy
    generated = [(f"Capítulo 2, item {c.number}", "\n".join([c.text, *c.items])) for c in context["clauses"]]
    written = [(label, value) for label, value in text.written_sections()]
    written += [(f"Cargo {t.row.label}, requisitos", t.requirements) for t in context["table"]]
    written += [("Assinatura", f"{text.signer_name}\n{text.signer_office}")]
    frag = quotas.fragmentation(
        [r.vacancies for r in rows],
        policy.racial_rule(),
        threshold_on_contest=policy.threshold_basis == Policy.ThresholdBasis.CONTEST,
    )
    items, _ = checks.parse_schedule(text.schedule)
    dates = [d for item in items for d in item.dates]
    holidays = holidays_between(min(dates), max(dates)) if dates else set()
    report = checks.check_edital(
        texts=[*generated, *written],
        schedule=text.schedule,
        edital_date=day,
        registration_start=contest.registration_start,
        registration_end=contest.registration_end,
        policy_refusal=policy.refusal_for_edital_date(day),
        policy_dates_warning=policy.missing_dates_warning,
        rows=rows,
        group_label=policy.group_label,
        fragmentation=(frag.shortfall, frag.whole, frag.split) if frag else (0, 0, 0),
        holidays=holidays,
    )
    missing = []
    if not text.signer_name.strip():
        missing.append(checks.Problem("Assinatura", "informe quem assina o edital."))
    if not text.signer_office.strip():
        missing.append(checks.Problem("Assinatura", "informe o cargo de quem assina o edital."))
    return checks.Report((*report.blocking, *missing), report.warnings)


def render_edital(contest: Contest, stamp: Stamp | None = None) -> bytes:
    """The edital as PDF (a draft, "minuta", unless ``stamp`` carries a verification code)."""
    context = edital_context(contest)
    return render_pdf("pdf/edital.html", context, stamp or Stamp(), title=context["title"])
