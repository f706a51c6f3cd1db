"""The candidates' acts through the one PDF pipeline (``contests.documents``): the classification lists of a
result run (general and each reserve, per position) and the nomination act; for staff also CSV and XLSX.

What is printed follows RULES §7: name, inscription number, score and position; never the CPF, the
birth date, contacts or the declaration. Scores with a decimal comma.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates import letters
from candidates.acts import nomination_act_subject
from candidates.engine import schedule
from candidates.models import Nomination, ResultEntry, ResultRun
from candidates.services.results import result_run_publish
from contests.audit import User
from contests.documents.letters import render_letters
from contests.documents.models import Document
from contests.documents.render import Block, Progress, Stamp, render_blocks, render_pdf
from contests.documents.services import Prerendered, current_version, document_publish
from contests.models import Contest, Position
from contests.wording import decimal_comma

LIST_ORDER = (ResultEntry.List.OPEN, ResultEntry.List.RACIAL, ResultEntry.List.PCD)


def score_text(value: Decimal | None) -> str:
    """``Decimal("78.50")`` → ``"78,50"`` (the value as stored, decimal comma)."""
    return "—" if value is None else decimal_comma(value)


def run_title(run: ResultRun) -> str:
    """The document's title names the run by what it is, as the screens do: "Listas de
    classificação: Resultado final publicado em 30/11/2026", never a sequence number."""
    return f"Listas de classificação: {run.name}"


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
    run: ResultRun, stamp: Stamp | None = None, *, progress: Progress | None = None
) -> bytes:
    """The run's lists as PDF; a draft run (or no stamp) is a "minuta". ``progress``: see
    ``render_blocks``."""
    stamp = stamp or Stamp()
    if not run.is_published and not stamp.draft:
        raise ValidationError("Só uma lista publicada tem versão oficial.")
    contest = run.contest
    context = {
        "heading": f"{contest}",
        "intro": (
            "Candidatos aprovados em ordem de classificação, por cargo: a lista geral, com todos os aprovados, "
            "e as listas reservadas, com quem optou pela reserva na inscrição, na mesma ordem relativa."
        ),
        "closing": "Dados publicados nos termos da Lei nº 13.709/2018 (LGPD): sem CPF nem dados sensíveis.",
    }
    return render_blocks(
        "pdf/result_list.html", context, result_blocks(run), stamp, title=run_title(run), progress=progress
    )


def result_list_subject(run: ResultRun) -> str:
    return f"run-{run.pk}"


def result_list_publish_check(*, run: ResultRun, summary: str = "") -> None:
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


@transaction.atomic
def result_list_publish(
    *,
    run: ResultRun,
    by: User | None,
    signer_name: str,
    signer_office: str,
    gazette_edition: str = "",
    gazette_page: str = "",
    summary: str = "",
    prerendered: Prerendered | None = None,
) -> Document:
    """Publish the PDF of a published run (a rectification when that run already has one); rendered here,
    or before (``prerendered``: a long list, by the task queue)."""
    result_list_publish_check(run=run, summary=summary)
    subject = result_list_subject(run)
    previous = current_version(run.contest, Document.Kind.RESULT_LIST, subject)
    return document_publish(
        contest=run.contest,
        kind=Document.Kind.RESULT_LIST,
        subject=subject,
        title=run_title(run),
        render=lambda stamp: render_result_list(run, stamp),
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        previous=previous,
        summary=summary,
        prerendered=prerendered,
    )


@transaction.atomic
def result_run_publish_with_document(
    *,
    run: ResultRun,
    kind: str,
    by: User | None,
    signer_name: str,
    signer_office: str,
    gazette_edition: str = "",
    gazette_page: str = "",
) -> tuple[ResultRun, Document]:
    """Publish a draft run and its signed, verifiable PDF in one step (both or neither): a list is one act,
    not a list and then its document."""
    if not signer_name.strip() or not signer_office.strip():
        raise ValidationError("Informe o nome e o cargo de quem assina a lista.")
    run = result_run_publish(run=run, kind=kind, by=by)
    document = result_list_publish(
        run=run,
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
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


def act_nominations(contest: Contest, act_number: str) -> Sequence[Nomination]:
    return list(
        Nomination.objects.filter(position__contest=contest, act_number=act_number)
        .select_related("position", "registration__candidate")
        .order_by("position__code", "seat", "order")
    )


def act_title(act_number: str) -> str:
    """``Ato de nomeação – Portaria 10/2026`` (the act's number names its kind)."""
    return f"Ato de nomeação – {act_number}"


def render_nomination_act(contest: Contest, act_number: str, stamp: Stamp | None = None) -> bytes:
    """The nomination act: nominees in seat order, each with their list and the article of the order."""
    nominations = act_nominations(contest, act_number)
    if not nominations:
        raise ValidationError(f"Nenhuma nomeação com o ato nº {act_number}.")
    policy = contest.policy
    group = policy.group_label
    article = f"{policy.citation_order} do " if policy.citation_order else ""
    rows = []
    for nomination in nominations:
        kind = schedule.kind_label(nomination.seat_kind, group)
        source = schedule.kind_label(nomination.source_list, group)
        if nomination.reverted:
            source += " (vaga reservada revertida)"
        if nomination.compensated:
            source += " (compensada)"
        rows.append(
            {
                "position": f"{nomination.position.code} – {nomination.position.title}",
                "seat": nomination.seat,
                "kind": kind,
                "source": source,
                "number": nomination.registration.number,
                "name": nomination.registration.candidate.display_name,
                "why": nomination.why,
            }
        )
    first = nominations[0]
    context = {
        "contest": contest,
        "act_number": act_number,
        "act_date": first.act_date,
        "rows": rows,
        "law": f"{article}{policy.get_act_kind_display()} nº {policy.act_number} ({policy.jurisdiction})",
        "deadline_days": contest.office_deadline_days,
    }
    title = act_title(act_number)
    return render_pdf("pdf/nomination_act.html", context, stamp or Stamp(), title=title)


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
        render=lambda stamp: render_nomination_act(contest, act_number, stamp),
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
