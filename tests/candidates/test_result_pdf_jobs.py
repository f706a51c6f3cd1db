"""A long run's PDF goes through the task queue (database backend), never rendered in the request: the
staff's export and Gestão's publication, followed on the job's page from the run's page."""

import re

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from candidates import documents
from contests import jobs
from contests.documents import fastlist, render
from contests.documents.models import Document
from contests.models import AccessLog, Job
from tests.builders import make_classified_position, make_contest, publish_final
from tests.queue import run_queued_tasks

pytestmark = pytest.mark.django_db
PEOPLE = [(f"L{n:03d}", "parda" if n % 3 == 0 else None) for n in range(80)]  # about 110 rows, 3 pages


@pytest.fixture(autouse=True)
def small_thresholds(settings):
    """A "long" list of a hundred rows."""
    settings.DOCUMENTS_TASK_ROWS = 50


@pytest.fixture
def run(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, vacancies=10, people=PEOPLE, code="ANSI", title="Analista")
    return publish_final(contest, cast["manager"])


@pytest.fixture
def no_rendering(monkeypatch):
    """Any PDF rendering fails the test (the request must only enqueue)."""

    def refuse(*args, **kwargs):
        raise AssertionError("o PDF foi gerado dentro do pedido")

    monkeypatch.setattr(documents, "render_blocks", refuse)
    monkeypatch.setattr(render, "pdf_from_html", refuse)
    return monkeypatch


def form_action(html: str, marker: str) -> str:
    """The action of the page's form whose button says ``marker``."""
    for form in re.findall(r"<form\b.*?</form>", html, flags=re.S):
        if marker in form and (action := re.search(r'action="([^"]+)"', form)):
            return action.group(1)
    raise AssertionError(f"nenhum formulário com {marker!r}")


def link(html: str, label: str) -> str:
    found = re.search(rf'href="([^"]+)">{re.escape(label)}', html)
    assert found, f"nenhum link {label!r}"
    return found.group(1)


def test_a_long_lists_pdf_is_queued_then_followed_to_its_file(client_for, run, no_rendering, monkeypatch):
    assert documents.result_list_rows(run) > 50
    client = client_for("clerk")
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Lista longa (" in page and "o PDF é gerado em segundo plano" in page
    # The direct address of the PDF renders nothing either: back to the run's page, which says why.
    export = reverse("candidates:result_export", args=[run.contest.slug, run.pk, "pdf"])
    response = client.get(export, follow=True)
    assert response.redirect_chain[-1][0] == run.get_absolute_url()
    assert "o PDF é gerado em segundo plano" in response.content.decode()

    response = client.post(form_action(page, "PDF (minuta, sem validade)"), follow=True)
    job = Job.objects.get(kind=Job.Kind.RESULT_LIST_PDF)
    assert response.redirect_chain[-1][0] == job.get_absolute_url()
    html = response.content.decode()
    assert "Na fila" in html and '<meta http-equiv="refresh" content="2">' in html
    (queued,) = DBTaskResult.objects.ready()
    assert queued.task_path == "candidates.jobs.result_list_pdf_job"
    assert queued.args_kwargs == {"args": [str(job.pk)], "kwargs": {"run_id": run.pk}}  # ids only
    asked = AccessLog.objects.filter(
        object_id=str(run.pk), action="view_sensitive", detail__contains="segundo plano"
    )
    assert asked.count() == 1  # the request for the PDF itself, not the page that offered it
    # Asking again while it waits gives the same job.
    assert client.post(form_action(page, "PDF (minuta, sem validade)")).url == job.get_absolute_url()

    # The worker renders it, page by page; the page shows each step.
    no_rendering.undo()
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0)
    seen = []
    original = jobs.Running.progress

    def progress_then_look(self, message, done=0, total=0):
        original(self, message, done, total)
        seen.append(client.get(job.get_absolute_url()).content.decode())

    monkeypatch.setattr(jobs.Running, "progress", progress_then_look)
    assert run_queued_tasks() == 1
    assert any("Em andamento" in s and "Gerando o PDF: página 1 de 3" in s for s in seen)
    assert all('<meta http-equiv="refresh" content="2">' in s for s in seen)

    html = client.get(job.get_absolute_url()).content.decode()
    assert "Concluído" in html and "http-equiv" not in html
    response = client.get(link(html, f"Baixar lista-{run.number}-publicada.pdf"))
    assert response["Content-Type"] == "application/pdf"
    assert render.page_count(response.content) == 3
    assert link(html, "Voltar à lista") == run.get_absolute_url()


def test_the_page_of_a_short_list_still_links_the_pdf(client_for, cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    run = publish_final(contest, cast["manager"])
    client = client_for("clerk")
    page = client.get(run.get_absolute_url()).content.decode()
    export = reverse("candidates:result_export", args=[contest.slug, run.pk, "pdf"])
    assert f'href="{export}">PDF (minuta, sem validade)' in page
    assert client.get(export)["Content-Type"] == "application/pdf"
    assert not Job.objects.exists()


def publish_through_the_page(client, run):
    page = client.get(run.get_absolute_url())
    form = page.context["document_form"]
    data = dict.fromkeys(form.fields, "") | {"signer_name": "Gestora", "signer_office": "Presidente"}
    return client.post(form_action(page.content.decode(), "Publicar documento"), data, follow=True)


def test_a_long_lists_document_is_published_by_the_queue(client_for, cast, run, no_rendering):
    client = client_for("manager")
    response = publish_through_the_page(client, run)
    job = Job.objects.get(kind=Job.Kind.RESULT_LIST_DOCUMENT)
    assert response.redirect_chain[-1][0] == job.get_absolute_url()
    assert "Na fila" in response.content.decode()
    assert not Document.objects.exists()

    no_rendering.undo()
    assert run_queued_tasks() == 1
    html = client.get(job.get_absolute_url()).content.decode()
    document = Document.objects.get(kind=Document.Kind.RESULT_LIST)
    assert "Concluído" in html and document.code in html
    assert link(html, "Ver o documento publicado") == document.get_absolute_url()
    assert client.get(document.get_absolute_url()).status_code == 200
    assert document.published_by == cast["manager"] and document.pages == 3
    assert document.subject == f"run-{run.pk}" and document.signer_name == "Gestora"
    job.refresh_from_db()
    assert job.document == document


def test_a_publication_overtaken_meanwhile_fails_and_says_why(client_for, cast, run, no_rendering):
    client = client_for("manager")
    job_url = publish_through_the_page(client, run).redirect_chain[-1][0]
    no_rendering.undo()
    # Another manager published the same list in the meantime (here through the service).
    documents.result_list_publish(run=run, by=cast["manager"], signer_name="Outra", signer_office="Chefe")
    assert run_queued_tasks() == 1
    html = client.get(job_url).content.decode()
    assert "A tarefa falhou" in html
    assert "O documento desta lista já foi publicado" in html
    assert Document.objects.count() == 1


def test_a_rendering_that_crashes_fails_the_job_and_the_queue_records_it(client_for, run, monkeypatch):
    client = client_for("clerk")
    page = client.get(run.get_absolute_url()).content.decode()
    job_url = client.post(form_action(page, "PDF (minuta, sem validade)")).url

    def crash(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(fastlist, "build", crash)
    run_queued_tasks()
    html = client.get(job_url).content.decode()
    assert "A tarefa falhou" in html and jobs.UNEXPECTED in html
    failed = DBTaskResult.objects.get()
    assert failed.status == "FAILED" and failed.exception_class_path == "contests.jobs.JobCrashed"


@pytest.mark.parametrize(("who", "status"), [("outsider", 403), ("commission", 404), ("auditor", 200)])
def test_who_else_may_follow_the_job(client_for, run, who, status):
    client = client_for("clerk")
    page = client.get(run.get_absolute_url()).content.decode()
    job_url = client.post(form_action(page, "PDF (minuta, sem validade)")).url
    assert client_for(who).get(job_url).status_code == status
