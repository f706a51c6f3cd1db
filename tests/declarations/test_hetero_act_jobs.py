"""Issue 25 N13, second half: long heteroidentification acts are published by the task queue, never
rendered in the request. The minutes of a session print every explanation and every member's reasons (each
up to TEXT_MAX_CHARS): past DOCUMENTS_TASK_CHARS characters or DOCUMENTS_TASK_ROWS candidates the page
queues them and the person follows the job's page ("Gerando o PDF da ata"); the contest's result past
DOCUMENTS_TASK_ROWS rows likewise. Shorter acts are published in the request, as before."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from contests import jobs as contest_jobs
from contests.documents import render
from contests.documents.models import Document
from contests.models import Job
from declarations.hetero import jobs
from declarations.models import Opinion
from tests.declarations.test_hetero_screens import _close_with, _formed_and_called, contest  # noqa: F401
from tests.queue import run_queued_tasks

pytestmark = pytest.mark.django_db

VOTES = {"N1": (True,) * 5, "N2": (True, True, False, False, False), "N3": (True,) * 5}
SIGNER = {"signer_name": "Membro 1", "signer_office": "Membro da comissão"}


@pytest.fixture(autouse=True)
def database_queue(settings):
    """The queue as in production (the declarations' tests run tasks inline by default)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def session(client, cast, contest):  # noqa: F811
    session = _close_with(_formed_and_called(client, cast, contest), cast["legal"], VOTES)
    reasons = "O colegiado observou o conjunto dos traços fenotípicos da pessoa candidata. " * 20
    Opinion.objects.filter(verification__session=session).update(reasons=reasons)
    return session


@pytest.fixture
def no_rendering(monkeypatch):
    """Any PDF rendering fails the test (the request must only enqueue)."""

    def refuse(*args, **kwargs):
        raise AssertionError("o PDF foi gerado dentro do pedido")

    monkeypatch.setattr(render, "pdf_from_html", refuse)
    return monkeypatch


def publish(client, session, **fill):
    url = reverse("declarations:hetero_minutes_publish", args=[session.pk])
    return client.post(url, {**SIGNER, "summary": "", **fill}, follow=True)


def test_long_minutes_are_queued_and_the_page_follows_the_job(client, session, settings, no_rendering):
    """Before: the minutes of a long session were rendered in the request (a minute of a worker)."""
    settings.DOCUMENTS_TASK_CHARS = 10_000
    assert jobs.minutes_text_chars(session) > 10_000
    response = publish(client, session)
    job = Job.objects.get(kind=Job.Kind.HETERO_MINUTES)
    assert response.redirect_chain[-1][0] == job.get_absolute_url()
    html = response.content.decode()
    assert "Na fila" in html and '<meta http-equiv="refresh" content="2">' in html
    assert not Document.objects.filter(kind=Document.Kind.HETERO_MINUTES).exists()
    (queued,) = DBTaskResult.objects.ready()
    assert queued.task_path == "declarations.hetero.jobs.minutes_job"
    assert queued.args_kwargs["kwargs"] == {"session_id": session.pk, **SIGNER, "summary": ""}  # no opinions
    # Asking again while it waits gives the same job.
    assert publish(client, session).redirect_chain[-1][0] == job.get_absolute_url()

    no_rendering.undo()
    seen = []
    original = contest_jobs.Running.progress

    def progress_then_look(self, message, done=0, total=0):
        original(self, message, done, total)
        seen.append(client.get(job.get_absolute_url()).content.decode())

    no_rendering.setattr(contest_jobs, "PROGRESS_INTERVAL", 0)
    no_rendering.setattr(contest_jobs.Running, "progress", progress_then_look)
    assert run_queued_tasks() == 1
    assert any("Em andamento" in page and "Gerando o PDF da ata." in page for page in seen)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    document = Document.objects.get(kind=Document.Kind.HETERO_MINUTES)
    assert job.document == document and job.requested_by.username == "legal"
    html = client.get(job.get_absolute_url()).content.decode()
    assert "Concluído" in html and document.code in html
    assert reverse("declarations:hetero_session", args=[session.pk]) in html


def test_minutes_of_many_candidates_are_queued_too(client, session, settings, no_rendering):
    settings.DOCUMENTS_TASK_ROWS = 2  # the session called three
    assert publish(client, session).redirect_chain[-1][0] == Job.objects.get().get_absolute_url()
    assert not Document.objects.filter(kind=Document.Kind.HETERO_MINUTES).exists()


def test_a_refusal_is_said_at_once_without_queueing(client, session, settings):
    settings.DOCUMENTS_TASK_CHARS = 10_000
    response = publish(client, session, signer_name="Alguém de Fora")
    assert "A ata é assinada pelos membros presentes" in response.content.decode()
    assert not Job.objects.exists() and not DBTaskResult.objects.exists()


def test_short_minutes_are_still_published_in_the_request(client, session):
    assert jobs.minutes_text_chars(session) < 50_000  # the default threshold
    response = publish(client, session)
    assert response.redirect_chain[-1][0] == reverse("declarations:hetero_session", args=[session.pk])
    assert Document.objects.filter(kind=Document.Kind.HETERO_MINUTES).exists()
    assert not Job.objects.exists()


def test_a_long_result_is_published_by_the_queue(client, session, settings, no_rendering):
    """The contest's result (the confirmed, one row each) past DOCUMENTS_TASK_ROWS rows: queued too."""
    settings.DOCUMENTS_TASK_ROWS = 1  # N1 and N3 confirmed
    slug = session.commission.contest.slug
    url = reverse("declarations:hetero_result_publish", args=[slug])
    response = client.post(
        url, {"signer_name": "Ana Souza", "signer_office": "Procuradora", "summary": ""}, follow=True
    )
    job = Job.objects.get(kind=Job.Kind.HETERO_RESULT)
    assert response.redirect_chain[-1][0] == job.get_absolute_url()
    assert "Na fila" in response.content.decode()
    assert not Document.objects.filter(kind=Document.Kind.HETERO_RESULT).exists()
    no_rendering.undo()
    assert run_queued_tasks() == 1
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    assert job.document == Document.objects.get(kind=Document.Kind.HETERO_RESULT)
