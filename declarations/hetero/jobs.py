"""Long acts of the heteroidentification through the task queue (issue 25, N13): the minutes of a session
hold every candidate's explanation and every member's reasons, each up to ``TEXT_MAX_CHARS``; a session
of many candidates makes an act of hundreds of pages, which took a web worker for up to a minute. Past
``DOCUMENTS_TASK_CHARS`` characters of that text, or ``DOCUMENTS_TASK_ROWS`` candidates, the page that publishes the minutes queues them
(``contests.jobs``) and follows the job's page ("Gerando o PDF da ata"); shorter minutes are rendered
in the request, as before. Only ids and the form's values go through the queue.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.db.models.functions import Length
from django.urls import reverse
from django_tasks import task

from contests.audit import User
from contests.jobs import JobRefused, job_enqueue, job_in_flight, job_run
from contests.models import Contest, Job
from declarations.hetero import documents
from declarations.models import Opinion, Session, Verification

# Who, besides the person who asked, may follow the job: whoever manages the heteroidentification.
PERMISSION = "declarations.manage_heteroidentification"
SESSION_GONE = "A sessão não existe mais: nada foi publicado."
CONTEST_GONE = "O concurso não existe mais: nada foi publicado."
ASKER_GONE = "A conta de quem pediu a publicação não existe mais: nada foi publicado; peça de novo."


def minutes_text_chars(session: Session) -> int:
    """The characters of free text the session's minutes print (explanations and opinions' reasons)."""
    explained = Verification.objects.filter(session=session).aggregate(n=Sum(Length("explanation")))["n"]
    reasoned = Opinion.objects.filter(verification__session=session).aggregate(n=Sum(Length("reasons")))["n"]
    return (explained or 0) + (reasoned or 0)


def minutes_in_background(session: Session) -> bool:
    """Whether the minutes are long: more candidates than ``DOCUMENTS_TASK_ROWS`` (a list's bound) or more
    free text than ``DOCUMENTS_TASK_CHARS``."""
    rows = Verification.objects.filter(session=session).count()
    return rows > settings.DOCUMENTS_TASK_ROWS or minutes_text_chars(session) > settings.DOCUMENTS_TASK_CHARS


def minutes_subject(session: Session) -> str:
    return f"minutes-{session.pk}"


def minutes_enqueue(*, session: Session, by: User, signer: documents.Signer, origin_url: str = "") -> Job:
    """Queue the minutes' publication, after the checks that need no rendering (refused here, at once,
    with ``ValidationError``); asking again while it waits gives the same job."""
    documents.minutes_publish_check(session=session, signer=signer)
    job = job_in_flight(kind=Job.Kind.HETERO_MINUTES, subject=minutes_subject(session))
    if job is not None:
        return job
    return job_enqueue(
        kind=Job.Kind.HETERO_MINUTES,
        contest=session.commission.contest,
        by=by,
        title=f"Publicação da ata: {session}",
        permission=PERMISSION,
        task=minutes_job,
        origin_url=origin_url,
        subject=minutes_subject(session),
        session_id=session.pk,
        signer_name=signer.name,
        signer_office=signer.office,
        summary=signer.summary,
    )


@task()
def minutes_job(job_id: str, session_id: int, signer_name: str, signer_office: str, summary: str) -> None:
    """Render and publish the minutes (checked again: the session may have changed while it waited)."""
    with job_run(job_id) as running:
        if running is None:
            return
        session = Session.objects.select_related("commission__contest").filter(pk=session_id).first()
        if session is None:
            raise JobRefused(SESSION_GONE)
        if running.job.requested_by is None:
            raise JobRefused(ASKER_GONE)
        running.progress("Gerando o PDF da ata.")
        document = documents.minutes_publish(
            session=session,
            by=running.job.requested_by,
            signer=documents.Signer(signer_name, signer_office, summary),
        )
        running.finish(
            text=f"Publicado: {document.title} (código {document.code}).",
            document=document,
            url=reverse("declarations:hetero_session", args=[session.pk]),
            label="Voltar à sessão",
        )


# The result: the confirmed -----------------------------------------------------------------------------


def result_rows(contest: Contest, *, today: datetime.date) -> int:
    return len(documents.result_publish_check(contest=contest, today=today))


def result_in_background(contest: Contest, *, today: datetime.date) -> bool:
    """Whether the result is long (more rows than ``DOCUMENTS_TASK_ROWS``); an empty one is not (the
    request refuses it)."""
    try:
        return result_rows(contest, today=today) > settings.DOCUMENTS_TASK_ROWS
    except ValidationError:
        return False


def result_enqueue(
    *, contest: Contest, by: User, signer: documents.Signer, today: datetime.date, origin_url: str = ""
) -> Job:
    documents.result_publish_check(contest=contest, today=today)
    job = job_in_flight(kind=Job.Kind.HETERO_RESULT, subject="result")
    if job is not None and job.contest_id == contest.pk:
        return job
    return job_enqueue(
        kind=Job.Kind.HETERO_RESULT,
        contest=contest,
        by=by,
        title="Publicação do resultado da heteroidentificação",
        permission=PERMISSION,
        task=result_job,
        origin_url=origin_url,
        subject="result",
        contest_id=contest.pk,
        signer_name=signer.name,
        signer_office=signer.office,
        summary=signer.summary,
        today=today.isoformat(),
    )


@task()
def result_job(
    job_id: str, contest_id: int, signer_name: str, signer_office: str, summary: str, today: str
) -> None:
    """Render and publish the result, as of the day it was asked for (checked again)."""
    with job_run(job_id) as running:
        if running is None:
            return
        contest = Contest.objects.filter(pk=contest_id).first()
        if contest is None or running.job.requested_by is None:
            raise JobRefused(ASKER_GONE if contest is not None else CONTEST_GONE)
        running.progress("Gerando o PDF do resultado.")
        document = documents.result_publish(
            contest=contest,
            by=running.job.requested_by,
            signer=documents.Signer(signer_name, signer_office, summary),
            today=datetime.date.fromisoformat(today),
        )
        running.finish(
            text=f"Publicado: {document.title} (código {document.code}).",
            document=document,
            url=reverse("declarations:hetero_contest", args=[contest.slug]),
            label="Voltar à heteroidentificação do concurso",
        )
