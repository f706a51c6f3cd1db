"""Long work of the candidates app, run by the task queue (``contests.jobs``), never in a web request: the
PDF of a long result run (the staff's draft export, or the document Gestão publishes) and the commit of a
large import.

A view calls a ``*_enqueue`` function and redirects to the job's page; the task, in the worker
(``manage.py db_worker``), does the work with its progress on the job's page (a list rendered page by
page by ``contests.documents.render.render_blocks``; an import read, checked and written by
``candidates.services.imports.commit``) and ends the job with its result. Only ids, form values and the
name of the stored import go through the queue, never personal data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.urls import reverse
from django_tasks import task

from candidates.documents import (
    render_result_list,
    result_list_act_number,
    result_list_publish,
    result_list_publish_check,
    result_list_subject,
    run_title,
)
from candidates.models import ResultRun
from candidates.services.imports import (
    ImportChanged,
    ImportFileError,
    ImportRejected,
    commit,
    confirmed_phase_specs,
)
from candidates.services.imports.stored import delete_stored, load_stored, stored_name
from candidates.services.results import result_run_publish
from contests.audit import User
from contests.documents.models import Document
from contests.documents.render import page_count
from contests.documents.services import document_prerender, edital_number_or_next
from contests.jobs import JobRefused, job_enqueue, job_in_flight, job_run
from contests.models import Contest, Job
from contests.wording import thousands

# Who, besides the person who asked, may follow a list's job: whoever may read the run's lists.
RESULT_PERMISSION = "candidates.view_resultrun"
RUN_GONE = "A lista foi descartada antes de a tarefa começar: nada foi gerado."


def _run(run_id: int) -> ResultRun:
    run = ResultRun.objects.select_related("contest__policy", "position").filter(pk=run_id).first()
    if run is None:
        raise JobRefused(RUN_GONE)
    return run


# A run's PDF (the staff's export) ----------------------------------------------------------------------


def result_pdf_enqueue(*, run: ResultRun, by: User, origin_url: str = "") -> Job:
    """Queue the PDF of every list of ``run`` (a "minuta", as the export); the same person asking again
    while it is queued or running gets the same job."""
    subject = result_list_subject(run)
    job = job_in_flight(kind=Job.Kind.RESULT_LIST_PDF, subject=subject, by=by)
    if job is not None:
        return job
    return job_enqueue(
        kind=Job.Kind.RESULT_LIST_PDF,
        contest=run.contest,
        by=by,
        title=f"PDF (minuta) – {run_title(run)}",
        permission=RESULT_PERMISSION,
        task=result_list_pdf_job,
        origin_url=origin_url,
        subject=subject,
        run_id=run.pk,
    )


@task()
def result_list_pdf_job(job_id: str, run_id: int) -> None:
    """Render the run's lists as PDF, page by page, and keep the file on the job for its download."""
    with job_run(job_id) as running:
        if running is None:
            return
        run = _run(run_id)
        pdf = render_result_list(run, progress=running.progress)
        state = "publicada" if run.is_published else "minuta"
        running.finish(
            text=f"PDF gerado: {page_count(pdf)} páginas, sem validade oficial (minuta).",
            output=pdf,
            output_name=f"lista-{run.number}-{state}.pdf",
            url=run.get_absolute_url(),
            label="Voltar à lista",
        )


# A run's published document (Gestão) -------------------------------------------------------------------


def result_document_enqueue(
    *,
    run: ResultRun,
    by: User,
    signer_name: str,
    signer_office: str,
    edital_number: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
    origin_url: str = "",
) -> Job:
    """Queue the publication of the run's document, after the checks that need no rendering (refused
    here, at once, with ``ValidationError``)."""
    edital_number = edital_number_or_next(edital_number)
    result_list_publish_check(run=run, number=edital_number)
    subject = result_list_subject(run)
    job = job_in_flight(kind=Job.Kind.RESULT_LIST_DOCUMENT, subject=subject)
    if job is not None:
        return job
    return job_enqueue(
        kind=Job.Kind.RESULT_LIST_DOCUMENT,
        contest=run.contest,
        by=by,
        title=f"Publicação – {run_title(run)}",
        permission=RESULT_PERMISSION,
        task=result_list_document_job,
        origin_url=origin_url,
        subject=subject,
        run_id=run.pk,
        signer_name=signer_name,
        signer_office=signer_office,
        edital_number=edital_number,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
    )


@transaction.atomic
def result_run_publish_and_enqueue_document(
    *,
    run: ResultRun,
    kind: str,
    by: User,
    signer_name: str,
    signer_office: str,
    edital_number: str = "",
    gazette_edition: str = "",
    gazette_page: str = "",
    origin_url: str = "",
) -> tuple[ResultRun, Job]:
    """A long list: publish the run and queue its document in one transaction (the PDF is rendered by the
    worker; the list is published either way with its document on the way, never alone by mistake)."""
    edital_number = result_list_act_number(run, signer_name, signer_office, edital_number)
    run = result_run_publish(run=run, kind=kind, by=by)
    job = result_document_enqueue(
        run=run,
        by=by,
        signer_name=signer_name,
        signer_office=signer_office,
        edital_number=edital_number,
        gazette_edition=gazette_edition,
        gazette_page=gazette_page,
        origin_url=origin_url,
    )
    return run, job


@task()
def result_list_document_job(
    job_id: str,
    run_id: int,
    signer_name: str,
    signer_office: str,
    gazette_edition: str = "",
    gazette_page: str = "",
    edital_number: str = "",
) -> None:
    """Render the run's document with its verification code outside any transaction (the long part),
    then publish it in a short one that checks again that no other version came out meanwhile."""
    with job_run(job_id) as running:
        if running is None:
            return
        run = _run(run_id)
        result_list_publish_check(run=run, number=edital_number)
        prerendered = document_prerender(
            contest=run.contest,
            kind=Document.Kind.RESULT_LIST,
            subject=result_list_subject(run),
            render=lambda stamp: render_result_list(
                run,
                stamp,
                progress=running.progress,
                number=edital_number,
                signer_name=signer_name,
                signer_office=signer_office,
                gazette_edition=gazette_edition,
                gazette_page=gazette_page,
            ),
        )
        running.progress("Assinando e publicando o documento", running.job.total, running.job.total)
        document = result_list_publish(
            run=run,
            by=running.job.requested_by,
            signer_name=signer_name,
            signer_office=signer_office,
            edital_number=edital_number,
            gazette_edition=gazette_edition,
            gazette_page=gazette_page,
            prerendered=prerendered,
        )
        running.finish(
            text=(f"Documento publicado: {document.pages} páginas, código de verificação {document.code}."),
            url=document.get_absolute_url(),
            label="Ver o documento publicado",
            document=document,
        )


# A large import's commit (Secretaria) ------------------------------------------------------------------

IMPORT_PERMISSION = "candidates.import_registrations"
FILE_GONE = (
    "O arquivo enviado não está mais guardado (a importação foi cancelada, ou abandonada há mais de um "
    "dia): nada foi importado. Envie o arquivo de novo."
)
STAGES = {  # the importer's stages (``commit``'s progress) as the job's page says them
    "Lendo as linhas": "Importando: lendo a linha {done} de {total}",
    "Conferindo": "Importando: conferindo a linha {done} de {total}",
    "Gravando": "Importando: gravando o registro {done} de {total}",
}


def import_subject(token: str) -> str:
    return f"import-{token}"


def import_enqueue(
    *,
    contest: Contest,
    by: User,
    token: str,
    filename: str,
    rows: int,
    mapping: Mapping[str, str] | None,
    phases: Mapping[str, Sequence[str | None]],
    expected: str,
    origin_url: str = "",
    only_contest_positions: bool = False,
) -> Job:
    """Queue the commit of the stored import ``token`` as the clerk previewed it (``expected``: the
    preview's fingerprint); the same file asked again while it waits gets the same job."""
    job = job_in_flight(kind=Job.Kind.REGISTRATIONS_IMPORT, subject=import_subject(token))
    if job is not None:
        return job
    return job_enqueue(
        kind=Job.Kind.REGISTRATIONS_IMPORT,
        contest=contest,
        by=by,
        title=f"Importação de “{filename}” ({thousands(rows)} linhas)",
        permission=IMPORT_PERMISSION,
        task=registrations_import_job,
        origin_url=origin_url,
        subject=import_subject(token),
        token=token,
        mapping=dict(mapping) if mapping is not None else None,
        phases={name: list(spec) for name, spec in phases.items()},
        expected=expected,
        only_contest_positions=only_contest_positions,
    )


def import_progress_text(stage: str, done: int, total: int) -> str:
    template = STAGES.get(stage, "Importando: " + stage.lower() + ", {done} de {total}")
    return template.format(done=thousands(done), total=thousands(total))


@task()
def registrations_import_job(
    job_id: str,
    token: str,
    mapping: dict[str, str] | None,
    phases: dict[str, list[str | None]],
    expected: str,
    only_contest_positions: bool = False,
) -> None:
    """Commit the stored import, all or nothing, planned once under the contest's lock and refused if it
    would not do what the preview showed; the stored file is deleted once imported (kept after a refusal,
    so that the clerk sees the preview again)."""
    with job_run(job_id) as running:
        if running is None:
            return
        name = stored_name(token)
        if name is None:
            raise JobRefused(FILE_GONE)
        running.progress("Lendo o arquivo guardado")
        try:
            table = load_stored(name)
        except ImportFileError as error:
            raise JobRefused(f"Nada foi importado: {error}") from error
        contest = running.job.contest
        total = table.row_count
        # Checked and written in one transaction: on SQLite (one writer at a time) the page keeps this
        # message until the end; on PostgreSQL each step shows (``Running.progress``).
        running.progress(
            f"Importando {thousands(total)} linhas: conferência e gravação numa só etapa (tudo ou nada)",
            0,
            total,
        )

        def progress(stage: str, done: int, total: int) -> None:
            running.progress(import_progress_text(stage, done, total), done, total)

        try:
            result = commit(
                contest,
                table,
                mapping,
                running.job.requested_by,
                phase_specs=confirmed_phase_specs(phases),
                progress=progress,
                expected=expected,
                only_contest_positions=only_contest_positions,
            )
        except ImportChanged as changed:
            raise JobRefused(str(changed)) from changed
        except ImportRejected as rejected:
            raise JobRefused(f"Nada foi importado. {rejected.preview.summary}") from rejected
        delete_stored(token)
        running.finish(
            text=result.summary,
            url=reverse("candidates:registration_list", args=[contest.slug]),
            label="Ver as inscrições",
        )
