"""The edital from the contest's data: the vacancy table from the quota engine, the reservation chapter
from the policy (``chapter``), the seat numbers from the allocation engine's schedule, the check.

The counts per position (open, reserved) are the quota engine's (``contests.quotas``, through
``Position.reservation``). The seat kinds are the allocation engine's (``candidates.engine.schedule``), so
that the edital publishes exactly the order the nominations will follow; that engine lives in
``candidates``, which sits above this app, so it is handed in (``seats.use_seat_order``, called by the
candidates app when the apps load) rather than imported here.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from contests import quotas
from contests.documents import chapter, checks, heading
from contests.documents.models import EditalText
from contests.documents.render import Stamp, render_pdf
from contests.documents.seats import seat_order as engine_seat_order
from contests.documents.signatures import NoSignatory, preamble, signatory_for, signature_block
from contests.models import Contest, Holiday, Organization, Policy, Signatory
from contests.wording import date_in_full

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
    """The law as enacted (``heading.law_citation``): "Lei Municipal nº 6.123, de 1º de dezembro de 2021",
    or "lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)" when only
    the bill is recorded."""
    return heading.law_citation(policy.act_kind, policy.act_number, policy.publication_date)


def law_of(policy: Policy) -> str:
    """``law_citation`` with its contraction (``heading.law_of``): "da Lei Municipal nº 6.123, de …"."""
    return heading.law_of(policy.act_kind, policy.act_number, policy.publication_date)


def law_dates(policy: Policy) -> str:
    """What the citation does not say: the gazette, and the start of the law's force when it is not the
    day of publication."""
    parts = []
    if policy.gazette_edition and policy.act_kind != Policy.ActKind.PROJETO_DE_LEI:
        parts.append(f"publicada no {policy.gazette_edition}")
    if policy.effective_date and policy.effective_date != policy.publication_date:
        parts.append(f"em vigor desde {date_in_full(policy.effective_date)}")
    return ", ".join(parts)


def law_warning(policy: Policy) -> str:
    """Why the law the edital cites deserves a look before publication (the check's warning), or ""."""
    if policy.act_kind == Policy.ActKind.PROJETO_DE_LEI:
        return (
            f"a política registra só o projeto (Projeto de Lei nº {policy.act_number}): o edital o cita "
            "como “ainda sem número de lei registrado”. Registre na política a lei sancionada (espécie, "
            "número e data de publicação) antes de publicar."
        )
    if not policy.act_number.strip():
        return "a política não registra o número da lei: o edital a cita sem número."
    return ""


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


def position_rows(contest: Contest) -> list[TableRow]:
    """Each position's counts (``Position.reservation``: the quota engine) and seat kinds (the schedule)."""
    seat_order = engine_seat_order()
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
    # Imported here, as in ``declarations.calendars``: the package loads every country's calendar (about
    # 0.08 s that every process importing this module paid at start, each ``manage.py`` command included).
    import holidays as holiday_calendars

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


@dataclass(frozen=True)
class Rectification:
    """What a rectified edital says of itself: which rectification it is, when, and what it changes."""

    number: int  # 1 for the first rectification
    on: datetime.date
    summary: str

    @property
    def summary_sentence(self) -> str:
        words = " ".join(self.summary.split())
        return words if words.endswith((".", "!", "?")) else words + "."


def preamble_extra(text: str) -> tuple[str, str]:
    """The clerk's addition to the preamble, folded into the one preamble: (words that go after "no uso de
    suas atribuições legais," when they continue the sentence, e.g. "considerando o Ato da Mesa nº 5/2026";
    sentences that follow it otherwise)."""
    words = " ".join(text.split())
    if not words:
        return "", ""
    if words[0].islower():
        return words.rstrip(".,; "), ""
    return "", words if words.endswith((".", "!", "?")) else words + "."


def edital_context(contest: Contest, rectification: Rectification | None = None) -> dict[str, Any]:
    text = edital_text_for(contest)
    policy_data = policy_text(contest)
    table = position_rows(contest)
    rows = [t.row for t in table]
    has_pcd = bool(contest.pcd_percent)
    clauses = chapter.reservation_chapter(
        policy_data, rows, chapter=2, heteroidentification=text.uses_heteroidentification
    )
    items, _ = checks.parse_schedule(text.schedule)
    on = rectification.on if rectification else contest.edital_date
    signature = signature_block(text.signer_name, text.signer_office, on=on)
    inline, following = preamble_extra(text.preamble_extra)
    vacancies = sum(r.vacancies for r in rows)
    return {
        "contest": contest,
        "policy": contest.policy,
        "law": policy_data.law,
        "law_of": policy_data.law_of,
        "law_by": ("pela " if chapter.of(policy_data.law) == "da" else "pelo ") + policy_data.law,
        "law_dates": policy_data.law_dates,
        "percent": quotas.format_percent(policy_data.percent),
        "percent_words": chapter.percent(policy_data.percent),
        "pcd_law": PCD_LAW,
        "pcd_percent": quotas.format_percent(policy_data.pcd_percent) if policy_data.pcd_percent else "",
        "pcd_percent_words": chapter.percent(policy_data.pcd_percent) if policy_data.pcd_percent else "",
        "pcd_cap_words": chapter.percent(policy_data.pcd_cap_percent) if policy_data.pcd_cap_percent else "",
        "has_pcd": has_pcd,
        "table": table,
        "totals": {
            "vacancies": vacancies,
            "open": sum(r.open for r in rows),
            "racial": sum(r.racial for r in rows),
            "pcd": sum(r.pcd for r in rows),
        },
        "vacancies_words": chapter.count(vacancies, "vaga", "vagas"),
        "clauses": clauses,
        "text": text,
        "authority": preamble(signature),
        "preamble_inline": inline,
        "preamble_following": following,
        "signature": signature,
        "schedule": items,
        "title": edital_title(contest),
        "rectification": rectification,
        "act_date": on,
        "result_appeal": result_appeal_text(contest),
    }


def result_appeal_text(contest: Contest) -> str:
    """The edital's clause on appeals against a preliminary result: the period (the contest's, or the
    policy's) and the channel, in words."""
    days, business = contest.result_appeal_period()
    unit = ("dia útil", "dias úteis") if business else ("dia", "dias")
    period = chapter.count(days, *unit, feminine=False)
    channel = contest.result_appeal_channel_text()
    return (
        f"Do resultado preliminar caberá recurso no prazo de {period}, contados do dia seguinte ao da sua "
        f"publicação{', ' + channel if channel else ''}."
    )


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
        law_warning=law_warning(policy),
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


def render_edital(
    contest: Contest, stamp: Stamp | None = None, *, rectification: Rectification | None = None
) -> bytes:
    """The edital as PDF (a draft, "minuta", unless ``stamp`` carries a verification code); a rectified
    edital says which rectification it is and what it changes, and is dated that day."""
    context = edital_context(contest, rectification)
    return render_pdf("pdf/edital.html", context, stamp or Stamp(), title=context["title"])
