"""The import's commit does what the preview showed, planned once: a large file through the task queue
(database backend), its progress and result on the job's page; refused, writing nothing, when the data
changed since the preview, in the queue as in the request."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from candidates.models import Registration
from candidates.services.imports import plan
from candidates.views import imports as views
from contests import jobs
from contests.models import Job
from tests.builders import EXAMPLE_CSV, make_candidate, make_example_contest, make_registration
from tests.queue import run_queued_tasks

pytestmark = pytest.mark.django_db
EXAMPLE_ROWS = 132


@pytest.fixture
def contest():
    return make_example_contest()


@pytest.fixture
def media(settings, uploads_folder):
    settings.MEDIA_ROOT = uploads_folder / "media"
    return uploads_folder


def url(name, contest):
    return reverse(f"candidates:{name}", args=[contest.slug])


def stored_files(media):
    directory = media / "imports"
    return sorted(directory.iterdir()) if directory.exists() else []


def to_the_preview(client, contest):
    """Upload the example, accept the suggested columns, confirm the new phases as shown: the preview
    ready to import, as the clerk sees it."""
    upload = SimpleUploadedFile("inscricoes.csv", EXAMPLE_CSV.read_bytes())
    assert client.post(url("import_upload", contest), {"file": upload}).status_code == 302
    form = client.get(url("import_mapping", contest)).context["form"]
    columns = {name: field.initial or "" for name, field in form.fields.items()}
    assert client.post(url("import_mapping", contest), columns).status_code == 302
    phases = client.get(url("import_preview", contest)).context["phases_form"]
    data = {
        name: "" if field.initial is None else str(field.initial) for name, field in phases.fields.items()
    }
    response = client.post(url("import_preview", contest), data, follow=True)
    assert "Pronto para importar" in response.content.decode()
    return response.content.decode()


def import_action(html: str) -> str:
    forms = re.findall(
        r'<form method="post" action="([^"]+)"[^>]*>\s*<input[^>]+>\s*<button[^>]*>Importar<', html
    )
    assert len(forms) == 1, "o botão Importar"
    return forms[0]


def typed_by_hand(contest):
    """One of the file's registrations, typed by another clerk after the preview."""
    candidate = make_candidate(full_name="Wellington Gomes dos Santos", cpf="09680784940")
    make_registration(contest.positions.get(code="ALEG"), candidate=candidate, number="1002")


@pytest.fixture
def large(settings):
    settings.IMPORT_TASK_ROWS = 100  # the example's 132 rows are "large"


def no_planning_in_the_request(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a importação foi planejada ou gravada dentro do pedido")

    monkeypatch.setattr(views, "commit", refuse)
    monkeypatch.setattr(views, "preview", refuse)


# Transactional: on PostgreSQL the task writes its progress through a connection of its own, which sees the
# job's row only once it is committed, as it is when a clerk's request queues it.
@pytest.mark.django_db(transaction=True)
def test_a_large_import_is_queued_then_followed_to_its_result(
    client_for, cast, contest, media, large, monkeypatch
):
    client = client_for("clerk")
    html = to_the_preview(client, contest)
    assert "Arquivo grande: a importação roda em segundo plano" in html
    assert len(stored_files(media)) == 1

    no_planning_in_the_request(monkeypatch)
    response = client.post(import_action(html), follow=True)
    job = Job.objects.get(kind=Job.Kind.REGISTRATIONS_IMPORT)
    assert response.redirect_chain[-1][0] == job.get_absolute_url()
    page = response.content.decode()
    assert "Na fila" in page and '<meta http-equiv="refresh" content="2">' in page
    assert not Registration.objects.exists()
    (queued,) = DBTaskResult.objects.ready()
    assert queued.task_path == "candidates.jobs.registrations_import_job"
    arguments = json.dumps(queued.args_kwargs)
    assert "036.881.690-77" not in arguments and "Carla" not in arguments  # no personal data in the queue
    # Clicking again, or coming back to the preview, leads to the same job.
    assert client.post(url("import_commit", contest)).url == job.get_absolute_url()
    monkeypatch.undo()
    preview_page = client.get(url("import_preview", contest)).content.decode()
    assert "Importação em andamento" in preview_page and job.get_absolute_url() in preview_page

    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0)
    seen = []
    original = jobs.Running.progress

    def progress_then_look(self, message, done=0, total=0):
        original(self, message, done, total)
        seen.append(client.get(job.get_absolute_url()).content.decode())

    monkeypatch.setattr(jobs.Running, "progress", progress_then_look)
    assert run_queued_tasks() >= 1  # the import, then the access codes' e-mail it queues
    assert any("Importando 132 linhas" in s for s in seen)
    assert any("Importando: gravando o registro" in s for s in seen)

    page = client.get(job.get_absolute_url()).content.decode()
    assert "Concluído" in page and "Importação concluída: 132 inscrições criadas" in page
    found = re.search(r'href="([^"]+)">Ver as inscrições', page)
    assert found and client.get(found.group(1)).status_code == 200
    assert Registration.objects.filter(contest=contest).count() == EXAMPLE_ROWS
    assert Registration.objects.get(number="1001").history.get().history_user == cast["clerk"]
    assert stored_files(media) == []  # deleted once imported


def test_a_queued_import_refuses_when_the_data_changed_since_the_preview(client_for, contest, media, large):
    client = client_for("clerk")
    html = to_the_preview(client, contest)
    job_url = client.post(import_action(html)).url
    # Meanwhile another clerk types one of the file's registrations by hand.
    typed_by_hand(contest)
    run_queued_tasks()
    page = client.get(job_url).content.decode()
    assert "A tarefa falhou" in page
    assert "os dados do concurso mudaram desde a prévia" in page
    assert Registration.objects.filter(contest=contest).count() == 1  # nothing imported
    assert len(stored_files(media)) == 1  # kept: the clerk sees the new preview and imports again
    preview = client.get(url("import_preview", contest)).context["result"]
    assert (preview.new, preview.updated + preview.unchanged) == (EXAMPLE_ROWS - 1, 1)


def test_a_small_import_is_committed_in_the_request_planned_once(client_for, contest, media, monkeypatch):
    client = client_for("clerk")
    html = to_the_preview(client, contest)
    builds = []
    original = plan._Planner.build

    def count(self):
        builds.append(self)
        original(self)

    monkeypatch.setattr(plan._Planner, "build", count)
    response = client.post(import_action(html), follow=True)
    assert "Importação concluída: 132 inscrições criadas" in response.content.decode()
    assert len(builds) == 1
    assert (
        not Job.objects.exists()
        and not DBTaskResult.objects.filter(task_path="candidates.jobs.registrations_import_job").exists()
    )


def test_a_small_import_refuses_when_the_data_changed_since_the_preview(client_for, contest, media):
    client = client_for("clerk")
    html = to_the_preview(client, contest)
    typed_by_hand(contest)
    response = client.post(import_action(html), follow=True)
    assert response.redirect_chain[-1][0] == url("import_preview", contest)
    assert "os dados do concurso mudaram desde a prévia" in response.content.decode()
    assert Registration.objects.filter(contest=contest).count() == 1
    # The preview now shows the current plan, and importing it works.
    response = client.post(import_action(response.content.decode()), follow=True)
    assert "Importação concluída: 131 inscrições criadas" in response.content.decode()


@pytest.mark.parametrize(("who", "status"), [("legal", 404), ("manager", 404), ("outsider", 403)])
def test_an_import_job_is_followed_only_by_who_may_import(client_for, contest, media, large, who, status):
    client = client_for("clerk")
    job_url = client.post(import_action(to_the_preview(client, contest))).url
    assert client_for(who).get(job_url).status_code == status
