"""The candidates' acts through the one PDF pipeline (``contests.documents``): the classification lists of a
result run (general and each reserve, per position) and the nomination act; for staff also CSV and XLSX.

What is printed follows RULES §7: name, inscription number, score and position; never the CPF, the
birth date, contacts or the declaration. Scores with a decimal comma.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from candidates import court_cases, letters, organization_deadline
from candidates.acts import (
    ActName,
    article_label,
    by,
    nomination_act_subject,
    of,
    post_phrase,
    roman,
)
from candidates.engine import schedule
from candidates.models import Nomination, ResultEntry, ResultRun
from candidates.services.results import result_run_publish
from contests.audit import User
from contests.documents import chapter
from contests.documents.edital import edital_title, law_citation
from contests.documents.letters import render_letters
from contests.documents.models import Document
from contests.documents.render import Block, Progress, Stamp, render_blocks, render_pdf
from contests.documents.services import (
    Prerendered,
    current_version,
    document_publish,
    edital_number_or_next,
    edital_number_refusal,
    signer_initial,
)
from contests.documents.signatures import preamble, signature_block
from contests.models import Contest, Organization, Position, VacancyOpening
from contests.wording import date_in_full, decimal_comma

LIST_ORDER = (ResultEntry.List.OPEN, ResultEntry.List.RACIAL, ResultEntry.List.PCD)


def score_text(value: Decimal | None) -> str:
    """``Decimal("78.50")`` → ``"78,50"`` (the value as stored, decimal comma)."""
    return "—" if value is None else decimal_comma(value)


def run_heading(run: ResultRun) -> str:
    """What the run is, as its act names it: "Resultado preliminar", "Resultado final", "Resultado
    definitivo da fase Prova Objetiva"; a run of one position says which."""
    kind = run.kind or (
        ResultRun.Kind.PHASE_PRELIMINARY if run.after_phase_id else ResultRun.Kind.PRELIMINARY
    )
    if run.after_phase is not None:
        words = "definitivo" if kind == ResultRun.Kind.PHASE_FINAL else "preliminar"
        text = f"Resultado {words} da fase {run.after_phase.name}"
    else:
        text = "Resultado final" if kind == ResultRun.Kind.FINAL else "Resultado preliminar"
    if run.position is not None:
        text += f" do cargo {run.position.code} – {run.position.title}"
    return text


def run_title(run: ResultRun, number: str = "") -> str:
    """The act's title as an officer writes it: "Edital nº 3/2026 – Resultado preliminar"; without a number
    (a draft, a job's name) the heading alone."""
    return f"Edital nº {number} – {run_heading(run)}" if number.strip() else run_heading(run)


def is_preliminary(run: ResultRun) -> bool:
    """Whether the run is open to appeal (a preliminary result, of the contest or of a phase)."""
    return run.kind in ("", ResultRun.Kind.PRELIMINARY, ResultRun.Kind.PHASE_PRELIMINARY)


def appeal_deadline(run: ResultRun, published: datetime.date) -> datetime.date:
    """The last day to appeal against ``run`` published on ``published``."""
    amount, business = run.contest.result_appeal_period()
    return organization_deadline.last_day(published, amount, business_days=business)


def appeal_text(run: ResultRun, published: datetime.date) -> str:
    """ "Do resultado preliminar caberá recurso no prazo de 10 (dez) dias, contados do dia seguinte ao da
    publicação, até 11 de dezembro de 2026, por requerimento …"."""
    amount, business = run.contest.result_appeal_period()
    unit = ("dia útil", "dias úteis") if business else ("dia", "dias")
    channel = run.contest.result_appeal_channel_text()
    return (
        f"Do {run_heading(run)[0].lower()}{run_heading(run)[1:]} caberá recurso no prazo de "
        f"{chapter.count(amount, *unit, feminine=False)}, contados do dia seguinte ao da publicação, até "
        f"{date_in_full(appeal_deadline(run, published))}{', ' + channel if channel else ''}."
    )


def gazette_text(edition: str, page: str = "") -> str:
    """ "Publicado no Diário Oficial do Legislativo nº 412, página 5." ("" when nothing is recorded)."""
    edition = " ".join(edition.split())
    if not edition:
        return ""
    where = f"na edição nº {edition} do diário oficial" if edition[0].isdigit() else f"no {edition}"
    return f"Publicado {where}{f', página {page.strip()}' if page.strip() else ''}."


Row = tuple[int | None, str, str, str]  # rank, inscription number, name, score with a decimal comma


def _rows(run: ResultRun) -> dict[tuple[int, str], list[Row]]:
    grouped: dict[tuple[int, str], list[Row]] = {}
    entries = (
        ResultEntry.objects.filter(run=run, list__in=LIST_ORDER)
        .order_by("position_id", "list", "rank")
        .values_list("position_id", "list", "rank", "number", "name", "score")
    )
    for position_id, kind, rank, number, name, score in entries.iterator(chunk_size=5000):
        grouped.setdefault((position_id, kind), []).append((rank, number, name, score_text(score)))
    return grouped


def _positions(run: ResultRun) -> list[Position]:
    if run.position is not None:
        return [run.position]
    return list(run.contest.positions.order_by("code"))


def result_blocks(run: ResultRun) -> list[Block]:
    """One block per position and list: the general list, then each reserve the policy and the contest set."""
    contest = run.contest
    group = contest.policy.group_label
    kinds = [ResultEntry.List.OPEN, ResultEntry.List.RACIAL]
    if contest.pcd_percent:
        kinds.append(ResultEntry.List.PCD)
    grouped = _rows(run)
    blocks = []
    for position in _positions(run):
        for kind in kinds:
            blocks.append(
                Block(
                    title=f"{position.code} – {position.title}: {schedule.list_label(kind, group)}",
                    rows=grouped.get((position.pk, kind), []),
                )
            )
    return blocks


def result_list_rows(run: ResultRun) -> int:
    """How many rows the run's PDF prints (its lists' lengths, from the run's summary: no query)."""
    positions = (run.summary or {}).get("positions") or {}
    return sum(
        int(counts.get(kind, 0)) for counts in positions.values() for kind in ("open", "racial", "pcd")
    )


def render_result_list(
    run: ResultRun,
    stamp: Stamp | None = None,
    *,
    progress: Progress | None = None,
    number: str = "",
    signer_name: str = "",
    signer_office: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
) -> bytes:
    """The run's lists as an act: the title with its edital number, the authority's opening, the appeal
    deadline and channel of a preliminary result, the gazette, the lists, the signature after the last one.
    A draft run (or no stamp) is a "minuta", signed by the authority the organisation records for lists.
    ``progress``: see ``render_blocks``."""
    stamp = stamp or Stamp()
    if not run.is_published and not stamp.draft:
        raise ValidationError("Só uma lista publicada tem versão oficial.")
    contest = run.contest
    published = timezone.localdate(run.published_at) if run.published_at else timezone.localdate()
    if not signer_name.strip() and not signer_office.strip():
        initial = signer_initial(Document.Kind.RESULT_LIST)
        signer_name, signer_office = initial["signer_name"], initial["signer_office"]
    signature = signature_block(signer_name, signer_office, on=published)
    organization = Organization.current()
    authority = preamble(signature)
    lists = [f"a {contest.policy.group_label}"] + (
        ["a pessoas com deficiência"] if contest.pcd_percent else []
    )
    what = run_heading(run)
    opening = (
        f"{authority}, torna público o "
        f"{what[0].lower()}{what[1:]} do Concurso Público nº {contest.number}/{contest.year}, regido pelo "
        f"Edital de Abertura nº {contest.number}/{contest.year}: a classificação dos candidatos aprovados, por "
        "cargo, na lista geral, com todos os aprovados, e nas listas específicas das vagas reservadas "
        f"{chapter.join(lists)}, com os que optaram pela reserva na inscrição, na mesma ordem relativa."
    )
    context = {
        "heading": f"Concurso Público nº {contest.number}/{contest.year} – {contest.title}",
        "opening": opening,
        "appeal": appeal_text(run, published) if is_preliminary(run) else "",
        "gazette": gazette_text(gazette_edition, gazette_page),
        "closing": "Dados publicados nos termos da Lei nº 13.709/2018 (LGPD): sem CPF nem dados sensíveis.",
        "place_date": f"{organization.municipality + ', ' if organization else ''}{date_in_full(published)}.",
        "signature": signature,
    }
    return render_blocks(
        "pdf/result_list.html",
        context,
        result_blocks(run),
        stamp,
        title=run_title(run, number),
        progress=progress,
        heading_height=HEADING_HEIGHT + (APPEAL_HEIGHT if context["appeal"] else 0),
        closing_height=CLOSING_HEIGHT,
    )


# The first page's heading (title, subtitle, opening, gazette) and the appeal paragraph, in points: the
# lists start below them (``render_blocks``).
HEADING_HEIGHT = 170.0
APPEAL_HEIGHT = 45.0
CLOSING_HEIGHT = 125.0  # the LGPD note, the place and date, the signature block


def result_list_subject(run: ResultRun) -> str:
    return f"run-{run.pk}"


def result_list_publish_check(*, run: ResultRun, summary: str = "", number: str = "") -> None:
    """What publishing the run's PDF refuses before anything is rendered (a long list's publication is
    checked before it goes to the task queue, and again when it is stored)."""
    if not run.is_published:
        raise ValidationError("Publique a lista antes de publicar o seu documento.")
    previous = current_version(run.contest, Document.Kind.RESULT_LIST, result_list_subject(run))
    if previous is not None and not summary.strip():
        raise ValidationError(
            "O documento desta lista já foi publicado; uma nova versão é uma retificação e precisa "
            "resumir o que altera."
        )
    if previous is None:
        refusal = edital_number_refusal(
            number, contest=run.contest, kind=Document.Kind.RESULT_LIST, subject=result_list_subject(run)
        )
        if refusal:
            raise ValidationError(refusal)


@transaction.atomic
def result_list_publish(
    *,
    run: ResultRun,
    by: User | None,
    signer_name: str,
    signer_office: str,
    edital_number: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
    summary: str = "",
    prerendered: Prerendered | None = None,
) -> Document:
    """Publish the PDF of a published run as "Edital nº ``edital_number`` – Resultado …" (empty: the next
    number of the year; a rectification keeps the number of the version it rectifies); rendered here, or before (``prerendered``: a long list,
    by the task queue)."""
    subject = result_list_subject(run)
    previous = current_version(run.contest, Document.Kind.RESULT_LIST, subject)
    if previous is not None and previous.number:
        number = previous.number
    else:
        number = edital_number_or_next(edital_number)
    result_list_publish_check(run=run, summary=summary, number=number)
    return document_publish(
        contest=run.contest,
        kind=Document.Kind.RESULT_LIST,
        subject=subject,
        title=run_title(run, number),
        number=number,
        render=lambda stamp: render_result_list(
            run,
            stamp,
            number=number,
            signer_name=signer_name,
            signer_office=signer_office,
            gazette_edition=gazette_edition,
            gazette_page=gazette_page,
        ),
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        previous=previous,
        summary=summary,
        prerendered=prerendered,
    )


def result_list_act_number(run: ResultRun, signer_name: str, signer_office: str, edital_number: str) -> str:
    """The checks before a list is published with its act, whether its PDF is rendered now or by a task:
    someone signs it, and its edital number (the next of the year when left empty) is well formed and not
    taken. The number to print, or ``ValidationError``."""
    if not signer_name.strip() or not signer_office.strip():
        raise ValidationError("Informe o nome e o cargo de quem assina a lista.")
    edital_number = edital_number_or_next(edital_number)
    refusal = edital_number_refusal(
        edital_number, contest=run.contest, kind=Document.Kind.RESULT_LIST, subject=result_list_subject(run)
    )
    if refusal:
        raise ValidationError(refusal)
    return edital_number


@transaction.atomic
def result_run_publish_with_document(
    *,
    run: ResultRun,
    kind: str,
    by: User | None,
    signer_name: str,
    signer_office: str,
    edital_number: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
) -> tuple[ResultRun, Document]:
    """Publish a draft run and its signed, verifiable PDF in one step (both or neither): a list is one act,
    not a list and then its document."""
    edital_number = result_list_act_number(run, signer_name, signer_office, edital_number)
    run = result_run_publish(run=run, kind=kind, by=by)
    document = result_list_publish(
        run=run,
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        edital_number=edital_number,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
    )
    return run, document


# Spreadsheets (staff) ---------------------------------------------------------------------------------

HEADER = ["Cargo", "Lista", "Classificação", "Inscrição", "Nome", "Nota final"]


def _table(run: ResultRun) -> list[list[str]]:
    out = []
    for block in result_blocks(run):
        position, label = block.title.split(": ", 1)
        for rank, number, name, score in block.rows:
            out.append([position, label, str(rank), number, name, score])
    return out


def result_csv(run: ResultRun) -> bytes:
    """``;``-separated, UTF-8 with BOM (Excel in Portuguese opens it as is); a draft's first line says
    "MINUTA"."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    if not run.is_published:
        writer.writerow(["MINUTA – lista não publicada, sem validade"])
    writer.writerow(HEADER)
    writer.writerows(_table(run))
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def result_xlsx(run: ResultRun) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Classificação"
    if not run.is_published:
        sheet.append(["MINUTA – lista não publicada, sem validade"])
        sheet["A1"].font = Font(bold=True, color="AA0000")
    sheet.append(HEADER)
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    for row in _table(run):
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# Nomination act ----------------------------------------------------------------------------------------
#
# The Portaria de nomeação in the form a municipal legal officer signs (templates/pdf/nomination_act.html):
# heading, ementa, the authority's preamble ("O PRESIDENTE DA CÂMARA …, no uso das atribuições que lhe
# confere …, RESOLVE:"), one article per position naming each nominee with inscription, classification and
# list, the seat and why it is vacant, then the deadline to take office, the entry into force, place and
# date, the signature. One act (one number) may name one nominee or many, of one position or several.


def act_nominations(contest: Contest, act_number: str) -> Sequence[Nomination]:
    return list(
        Nomination.objects.filter(position__contest=contest, act_number=act_number)
        .select_related("position", "registration__candidate")
        .order_by("position__code", "seat", "order")
    )


def act_title(act_number: str) -> str:
    """``Ato de nomeação – Portaria 10/2026`` (the act's number names its kind)."""
    return f"Ato de nomeação – {act_number}"


_FREED_BY = {
    Nomination.Status.WITHDRAWN: "em decorrência da desistência de {}",
    Nomination.Status.NO_SHOW: "em decorrência da falta de posse de {} no prazo legal, que tornou sem efeito a "
    "sua nomeação",
    Nomination.Status.ANNULLED: "em decorrência da anulação da nomeação de {}",
    Nomination.Status.END_OF_LIST: "em decorrência do pedido de {} de reclassificação para o fim da lista",
}
_ENDED = tuple(_FREED_BY)


def _vacancy_causes(nominations: Sequence[Nomination], contest: Contest) -> dict[int, str]:
    """Why each nomination's seat is vacant, by nomination id: a seat filled before and reopened (the last
    earlier holder of the same seat: withdrawal, no-show, annulment, end of the list) or a new vacancy (the
    edital's, or one opened during the validity, with its act). Two queries whatever the number."""
    positions = {n.position_id for n in nominations}
    earlier: dict[tuple[int, int], list[tuple[int, str, str]]] = {}
    ended = (
        Nomination.objects.filter(position__in=positions, status__in=_ENDED)
        .order_by("order")
        .values_list(
            "position_id",
            "seat",
            "order",
            "status",
            "registration__candidate__social_name",
            "registration__candidate__full_name",
        )
    )
    for position_id, seat, order, status, social_name, full_name in ended:
        earlier.setdefault((position_id, seat), []).append((order, status, social_name or full_name))
    openings: dict[int, list[VacancyOpening]] = {}
    for opening in VacancyOpening.objects.filter(position__in=positions).order_by("date", "pk"):
        openings.setdefault(opening.position_id, []).append(opening)
    edital = edital_title(contest)
    causes: dict[int, str] = {}
    for nomination in nominations:
        before = [
            row
            for row in earlier.get((nomination.position_id, nomination.seat), [])
            if row[0] < nomination.order
        ]
        if before:
            _order, status, name = before[-1]
            causes[nomination.pk] = _FREED_BY[Nomination.Status(status)].format(name.upper())
            continue
        causes[nomination.pk] = _new_vacancy(
            nomination.seat, openings.get(nomination.position_id, []), edital
        )
    return causes


def _new_vacancy(seat: int, openings: Sequence[VacancyOpening], edital: str) -> str:
    ordered = sorted(openings, key=lambda o: (o.kind != VacancyOpening.Kind.EDITAL, o.date, o.pk))
    total = 0
    for opening in ordered:
        total += opening.count
        if seat <= total:
            if opening.kind == VacancyOpening.Kind.EDITAL:
                return f"vaga prevista no {edital}"
            source = f" {by(opening.act)}" if opening.act else ""
            return f"vaga aberta durante a validade do concurso{source}, em {date_in_full(opening.date)}"
    return "vaga do cargo"


@dataclass(frozen=True)
class Nominee:
    """One line of an article: who, their classification and list, the seat and why it is vacant."""

    inciso: str
    name: str
    number: str
    rank: int | None
    list_name: str
    seat: int
    seat_kind: str
    cause: str
    reverted: bool
    precarious: bool = False  # made under a court order not yet final (STF Tema 476)
    court_case: str = ""  # that order's CNJ number; '' when the case is in segredo de justiça


@dataclass(frozen=True)
class Article:
    """An article naming the nominees of one position."""

    label: str
    post: str
    legal_regime: str
    nominees: Sequence[Nominee]


def nomination_act_context(
    contest: Contest, act_number: str, *, signer_name: str = "", signer_office: str = ""
) -> dict[str, Any]:
    """What ``pdf/nomination_act.html`` reads. The signer is the one the publication form records; for the
    draft, the authority the organisation records for nomination acts."""
    nominations = act_nominations(contest, act_number)
    if not nominations:
        raise ValidationError(f"Nenhuma nomeação com o ato nº {act_number}.")
    if not signer_name.strip() and not signer_office.strip():
        initial = signer_initial(Document.Kind.NOMINATION_ACT)
        signer_name, signer_office = initial["signer_name"], initial["signer_office"]
    policy = contest.policy
    group = policy.group_label
    entries = ResultEntry.objects.filter(
        run__in={n.run_id for n in nominations}, registration__in=[n.registration_id for n in nominations]
    )
    ranks = {(row[0], row[1]): row[2] for row in entries.values_list("registration_id", "list", "rank")}
    causes = _vacancy_causes(nominations, contest)
    cases = court_cases.cases_of(n.registration_id for n in nominations)
    by_position: dict[int, list[Nomination]] = {}
    for nomination in nominations:
        by_position.setdefault(nomination.position_id, []).append(nomination)

    def nominee(i: int, nomination: Nomination) -> Nominee:
        list_name = schedule.list_label(nomination.source_list, group)
        return Nominee(
            inciso=roman(i),
            name=nomination.registration.candidate.display_name.upper(),
            number=nomination.registration.number,
            rank=ranks.get((nomination.registration_id, nomination.source_list)),
            list_name=list_name[0].lower() + list_name[1:],
            seat=nomination.seat,
            seat_kind=schedule.kind_label(nomination.seat_kind, group).lower(),
            cause=causes[nomination.pk],
            reverted=nomination.reverted,
            precarious=nomination.registration_id in cases,
            court_case=cases.get(nomination.registration_id, ""),
        )

    articles = [
        Article(
            article_label(n),
            post_phrase(named[0].position),
            named[0].position.legal_regime.strip(),
            [nominee(i, nomination) for i, nomination in enumerate(named, start=1)],
        )
        for n, named in enumerate(by_position.values(), start=1)
    ]
    first = nominations[0]
    name = ActName.parse(act_number)
    signature = signature_block(signer_name, signer_office, on=first.act_date)
    law = law_citation(policy)
    return {
        "contest": contest,
        "act": name,
        "act_date": first.act_date,
        # "nº" and its number on one line (a justified line would spread them apart).
        "edital": edital_title(contest).replace("nº ", "nº\u00a0"),
        "public_contest": f"Concurso Público nº\u00a0{contest.number}/{contest.year}",
        "articles": articles,
        "single": len(nominations) == 1,
        "deadline_article": article_label(len(articles) + 1),
        "force_article": article_label(len(articles) + 2),
        "order_citation": f"{policy.citation_order} {of(law)}" if policy.citation_order else "",
        "homologation": (by(contest.homologation_act) if contest.homologation_act else ""),
        "signature": signature,
        "authority": preamble(signature) if signature.office else "",
        "deadline_days": contest.office_deadline_days,
        "deadline_basis": contest.office_deadline_basis.strip(),
        "office_requirements": bool(contest.office_requirement_items),
    }


def render_nomination_act(
    contest: Contest,
    act_number: str,
    stamp: Stamp | None = None,
    *,
    signer_name: str = "",
    signer_office: str = "",
) -> bytes:
    """The Portaria de nomeação as PDF (a draft, "minuta", without ``stamp``)."""
    context = nomination_act_context(
        contest, act_number, signer_name=signer_name, signer_office=signer_office
    )
    return render_pdf("pdf/nomination_act.html", context, stamp or Stamp(), title=act_title(act_number))


@transaction.atomic
def nomination_act_publish(
    *,
    contest: Contest,
    act_number: str,
    by: User | None,
    signer_name: str,
    signer_office: str,
    gazette_edition: str = "",
    gazette_page: str = "",
    summary: str = "",
) -> Document:
    subject = nomination_act_subject(act_number)
    return document_publish(
        contest=contest,
        kind=Document.Kind.NOMINATION_ACT,
        subject=subject,
        title=act_title(act_number),
        render=lambda stamp: render_nomination_act(
            contest, act_number, stamp, signer_name=signer_name, signer_office=signer_office
        ),
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        previous=current_version(contest, Document.Kind.NOMINATION_ACT, subject),
        summary=summary,
    )


# The nomination letter (personal, never published) ------------------------------------------------------


def letter_title(nomination: Nomination) -> str:
    return f"Comunicação de nomeação – inscrição {nomination.registration.number}"


def render_nomination_letter(nomination: Nomination) -> bytes:
    """The letter that tells one nominee of their nomination, in the one letter layout
    (``candidates.letters``). Personal: it carries the code, so it is printed for the candidate and never
    published."""
    return render_letters([letters.nomination_letter(nomination)], title=letter_title(nomination))
