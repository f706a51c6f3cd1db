"""Background jobs: the job's page (who may follow it, what it says while queued, running, done or failed)
and ``job_run``, which every task wraps its work in (once only; a refusal or a crash ends it failed)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django_tasks import task

from contests import jobs
from contests.jobs import UNEXPECTED, JobCrashed, JobRefused, job_enqueue, job_run
from contests.models import AccessLog, Job
from tests.access import ROLES
from tests.builders import make_contest, make_job

pytestmark = pytest.mark.django_db
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@task()
def count_to(job_id: str, *, total: int, fail: str = "") -> None:
    """A job for these tests: counts, then finishes, refuses or crashes as told."""
    with job_run(job_id) as running:
        if running is None:
            return
        for n in range(1, total + 1):
            running.progress(f"Contando: {n} de {total}", n, total)
        if fail == "refused":
            raise JobRefused("Nada foi feito: o concurso mudou.")
        if fail == "invalid":
            raise ValidationError("Informe quem assina.")
        if fail == "crash":  # an error whose message quotes personal data (as a database error can)
            cpf = "123.456.789-09"
            raise RuntimeError(f"CPF {cpf} no meio de um traceback")
        running.finish(text=f"Contei até {total}.", url="/painel/", label="Voltar ao painel")


def page(client, job):
    return client.get(reverse("contests:job", args=[job.pk]))


@pytest.fixture
def contest():
    return make_contest()


@pytest.mark.parametrize("who", ROLES)
def test_who_follows_a_job(client_for, cast, contest, who):
    job = make_job(contest, cast["clerk"])
    expected = {
        "anonymous": 302,
        "outsider": 403,  # no contest at all
        "commission": 404,  # sees the contest, not the lists this job produces
    }.get(who, 200)
    response = client_for(who).get(reverse("contests:job", args=[job.pk]))
    assert response.status_code == expected


def test_the_asker_follows_the_job_without_the_permission_it_names(client_for, cast, contest):
    job = make_job(contest, cast["commission"], permission="candidates.import_registrations")
    assert page(client_for("commission"), job).status_code == 200
    assert page(client_for("legal"), job).status_code == 404


def test_an_unknown_job_is_404(client_for):
    assert client_for("clerk").get("/tarefas/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_queued_job_refreshes_itself_and_says_so(client_for, cast, contest, settings):
    settings.TASKS = DUMMY
    job = job_enqueue(
        kind=Job.Kind.RESULT_LIST_PDF,
        contest=contest,
        by=cast["clerk"],
        title="Contagem",
        permission="candidates.view_resultrun",
        task=count_to,
        origin_url="/painel/",
        total=3,
    )
    assert job.status == Job.Status.QUEUED and job.task_id
    html = page(client_for("clerk"), job).content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "Na fila" in html and "Voltar à página de onde a tarefa foi pedida" in html


def test_progress_then_the_result_link(client_for, cast, contest, settings, monkeypatch):
    settings.TASKS = DUMMY
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0)
    job = job_enqueue(
        kind=Job.Kind.RESULT_LIST_PDF,
        contest=contest,
        by=cast["clerk"],
        title="Contagem",
        permission="candidates.view_resultrun",
        task=count_to,
        total=4,
    )
    client = client_for("clerk")
    seen = []

    def progress_then_look(self, message, done=0, total=0):
        original(self, message, done, total)
        seen.append(page(client, job).content.decode())

    original = jobs.Running.progress
    monkeypatch.setattr(jobs.Running, "progress", progress_then_look)
    count_to.call(str(job.pk), total=4)
    assert "Em andamento" in seen[1] and "Contando: 2 de 4" in seen[1]
    assert '<progress value="2" max="4">50%</progress>' in seen[1]
    html = page(client, job).content.decode()
    assert "http-equiv" not in html
    assert "Concluído" in html and "Contei até 4." in html
    assert '<a class="button button--primary" href="/painel/">Voltar ao painel</a>' in html


@pytest.mark.parametrize(
    ("fail", "error"),
    [
        ("refused", "Nada foi feito: o concurso mudou."),
        ("invalid", "Informe quem assina."),
        ("crash", UNEXPECTED),
    ],
)
def test_a_failed_job_says_why_in_portuguese(client_for, cast, contest, settings, caplog, fail, error):
    settings.TASKS = DUMMY
    job = job_enqueue(
        kind=Job.Kind.RESULT_LIST_PDF,
        contest=contest,
        by=cast["clerk"],
        title="Contagem",
        permission="candidates.view_resultrun",
        task=count_to,
        total=1,
    )
    if fail == "crash":
        # Raised again for the queue to record, without the message (it may quote personal data).
        with pytest.raises(JobCrashed) as crashed:
            count_to.call(str(job.pk), total=1, fail=fail)
        assert "RuntimeError" in str(crashed.value) and "123.456.789-09" not in str(crashed.value)
        assert crashed.value.__cause__ is None and crashed.value.__suppress_context__
    else:
        count_to.call(str(job.pk), total=1, fail=fail)
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.error == error and job.finished_at
    html = page(client_for("clerk"), job).content.decode()
    assert "A tarefa falhou" in html and error in html
    assert "123.456.789-09" not in html and "123.456.789-09" not in caplog.text


def test_a_job_runs_once(cast, contest, settings):
    settings.TASKS = DUMMY
    job = job_enqueue(
        kind=Job.Kind.RESULT_LIST_PDF,
        contest=contest,
        by=cast["clerk"],
        title="Contagem",
        permission="candidates.view_resultrun",
        task=count_to,
        total=2,
    )
    count_to.call(str(job.pk), total=2)
    finished = Job.objects.get(pk=job.pk).finished_at
    count_to.call(str(job.pk), total=2, fail="crash")  # a second delivery of the same task does nothing
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.finished_at == finished


def test_the_generated_file_is_downloaded_logged_and_forgotten_after_a_day(client_for, cast, contest):
    import datetime

    from django.utils import timezone

    job = make_job(contest, cast["clerk"])
    client = client_for("manager")
    html = page(client, job).content.decode()
    link = reverse("contests:job_output", args=[job.pk])
    assert f'href="{link}">Baixar lista-minuta.pdf</a>' in html
    response = client.get(link)
    assert response.content == b"%PDF-1.4 lista"
    assert 'filename="lista-minuta.pdf"' in response["Content-Disposition"]
    assert AccessLog.objects.filter(object_id=str(job.pk), action="view_sensitive").exists()
    Job.objects.filter(pk=job.pk).update(finished_at=timezone.now() - datetime.timedelta(hours=25))
    assert client.get(link).status_code == 404  # past its time, even before it is deleted
    assert "já foi apagado" in page(client, job).content.decode()
    jobs._forget_old_outputs()
    assert Job.objects.filter(pk=job.pk, output__isnull=True).exists()
