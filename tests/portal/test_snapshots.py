"""The published portal's static snapshot (issue 24): after a publication commits, the public pages it
changes are files holding the bytes the view sends; ``portal_snapshot`` rebuilds them all and removes what
is no longer public; nothing private is ever written (the candidate's page, a search, a CPF)."""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from candidates.models import Registration
from candidates.services.nominations.calls import nominations_call
from candidates.services.results import result_run_compute, result_run_publish
from contests.models import Contest
from contests.publication import publication_record
from portal import snapshots
from tests.builders import homologate, make_classified_position, make_contest
from tests.queue import run_queued_tasks

pytestmark = pytest.mark.django_db

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def root(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.TASKS = IMMEDIATE  # the snapshot's task runs inline, after the publication's commit
    return Path(settings.STORAGES["snapshots"]["OPTIONS"]["location"])


@pytest.fixture
def contest(cast):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    make_classified_position(contest)
    return contest


def publish(contest, by, django_capture_on_commit_callbacks):
    """Compute and publish a final run as the services do, the commit's callbacks run."""
    with django_capture_on_commit_callbacks(execute=True):
        run = result_run_publish(run=result_run_compute(contest=contest, by=by), kind="final", by=by)
    return run


def file_of(root: Path, path: str, page: int = 1) -> Path:
    return root / snapshots.Address(path, page).file_name


def test_a_publication_writes_the_pages_it_changes_with_the_views_bytes(
    client, cast, contest, root, django_capture_on_commit_callbacks
):
    contest_path = reverse("public:contest", args=[contest.slug])
    run = publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    position = contest.positions.get()
    list_path = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    csv_path = reverse("public:list_data", args=[contest.slug, run.pk, position.pk, "geral", "csv"])

    first = Registration.objects.filter(position=position).order_by("-final_score").first()
    listed = file_of(root, list_path).read_bytes()
    assert first.number.encode() in listed
    for path in (list_path, csv_path, contest_path, reverse("public:home")):
        assert file_of(root, path).read_bytes() == client.get(path).content, path
    assert (
        reverse("public:run", args=[contest.slug, run.pk]).encode()
        in file_of(root, contest_path).read_bytes()
    )

    # A correction: the nomination order appears and the contest's page changes; the list stays as it was.
    list_stat, contest_before = file_of(root, list_path).stat(), file_of(root, contest_path).read_bytes()
    homologate(contest)
    with django_capture_on_commit_callbacks(execute=True):
        called = nominations_call(
            position=position,
            count=1,
            act_number="Portaria 7/2026",
            act_date=datetime.date(2026, 6, 10),
            by=cast["clerk"],
        )
    nominations_path = reverse("public:nominations", args=[contest.slug, position.pk])
    nominated = file_of(root, nominations_path).read_bytes()
    assert called[0].registration.number.encode() in nominated
    assert nominated == client.get(nominations_path).content
    assert file_of(root, contest_path).read_bytes() != contest_before
    assert file_of(root, contest_path).read_bytes() == client.get(contest_path).content
    assert file_of(root, list_path).stat().st_mtime_ns == list_stat.st_mtime_ns  # same bytes: not rewritten


def test_the_pages_that_change_lose_their_file_at_the_commit_until_the_task_writes_them(
    cast, contest, root, settings, django_capture_on_commit_callbacks
):
    publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    contest_file = file_of(root, reverse("public:contest", args=[contest.slug]))
    assert contest_file.exists()
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # no worker
    run = publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    assert not contest_file.exists()  # the server asks the application, which is current
    assert not file_of(root, reverse("public:home")).exists()
    position = contest.positions.get()
    assert not file_of(
        root, reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    ).exists()


def test_the_command_rebuilds_every_page_and_removes_what_is_no_longer_public(
    client, cast, contest, root, settings, django_capture_on_commit_callbacks
):
    settings.PORTAL_SNAPSHOTS = False  # nothing written at the publication: the command writes it all
    run = publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    assert not root.exists() or not any(root.rglob("*.html"))
    out = io.StringIO()
    call_command("portal_snapshot", stdout=out)
    assert "escritas" in out.getvalue()
    position = contest.positions.get()
    written = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    base = f"publico/concursos/{contest.slug}/resultados/{run.pk}/cargos/{position.pk}"
    assert {
        f"{base}/geral/index.html",
        f"{base}/geral.csv",
        f"{base}/geral.json",
        f"{base}/racial/index.html",
    } <= written
    assert f"publico/concursos/{contest.slug}/index.html" in written
    for name in written:  # each file is what the view sends at its address
        path = "/" + re.sub(r"index(\.pagina-\d+)?\.html$", "", name)
        assert client.get(path).content == (root / name).read_bytes(), name

    # Idempotent: nothing rewritten the second time.
    again = io.StringIO()
    call_command("portal_snapshot", "--contest", contest.slug, stdout=again)
    assert again.getvalue().startswith("Snapshot do portal: 0 escritas")

    # A stray file, and a contest no longer public: removed.
    stray = root / f"publico/concursos/{contest.slug}/resultados/999/index.html"
    stray.parent.mkdir(parents=True)
    stray.write_text("velha")
    gone = root / "publico/concursos/cancelado/index.html"
    gone.parent.mkdir(parents=True)
    gone.write_text("velha")
    call_command("portal_snapshot", stdout=io.StringIO())
    assert not stray.exists() and not gone.exists()
    Contest.objects.filter(pk=contest.pk).update(edital_published_on=None, status=Contest.Status.DRAFT)
    call_command("portal_snapshot", "--contest", contest.slug, stdout=io.StringIO())
    assert not any((root / f"publico/concursos/{contest.slug}").rglob("*.*"))


def test_the_snapshot_holds_only_public_pages_never_a_cpf(
    client, cast, contest, root, django_capture_on_commit_callbacks
):
    publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    call_command("portal_snapshot", stdout=io.StringIO())
    files = [p for p in root.rglob("*") if p.is_file()]
    assert files
    cpfs = list(Registration.objects.filter(contest=contest).values_list("candidate__cpf", flat=True))
    assert cpfs
    lookup = reverse("public:candidate").lstrip("/")
    for path in files:
        name, body = str(path.relative_to(root)), path.read_bytes()
        assert not name.startswith((lookup, "verificar", "painel", "entrar", "static")), name
        for cpf in cpfs:
            digits = re.sub(r"\D", "", cpf)
            formatted = f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"
            assert digits.encode() not in body and formatted.encode() not in body, name
    # The candidate's page, a staff page, a list page past the last: never a file, even asked for by name.
    assert snapshots.render(snapshots.Address(reverse("public:candidate"))) is None
    assert snapshots.render(snapshots.Address(reverse("home"))) is None
    run = contest.result_runs.get()
    past = reverse("public:list", args=[contest.slug, run.pk, contest.positions.get().pk, "geral"])
    assert snapshots.render(snapshots.Address(past, 99)) is None


def test_the_database_queue_holds_one_snapshot_per_contest_and_its_worker_writes_it(
    cast, contest, root, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    run = publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    waiting = DBTaskResult.objects.filter(task_path=snapshots.snapshot_publish.module_path)
    assert [task.args_kwargs["args"] for task in waiting] == [[contest.slug]]
    assert waiting.get().priority < 0  # after the notices and PDFs waiting with it
    run_queued_tasks()
    position = contest.positions.get()
    assert file_of(root, reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])).exists()
    publish(contest, cast["manager"], django_capture_on_commit_callbacks)  # the last one ran: a new one
    assert waiting.filter(status="READY").count() == 1


def test_after_a_publication_a_list_is_rendered_again_only_when_its_witnesses_change(
    client, cast, root, django_capture_on_commit_callbacks
):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    make_classified_position(contest, people=[(f"P{i:03d}", None) for i in range(60)])
    run = publish(contest, cast["manager"], django_capture_on_commit_callbacks)
    position = contest.positions.get()
    base = reverse("public:list", args=[contest.slug, run.pk, position.pk, "geral"])
    second, csv = file_of(root, base, 2), file_of(root, base.rstrip("/") + ".csv")
    assert b"P059" in second.read_bytes() and b"P059" in csv.read_bytes()
    second.write_bytes(b"adulterada")  # what a publication does not look at again

    def publish_contest_data() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            publication_record(contest=contest, kind="contest", title="Dados do concurso", by=None)

    publish_contest_data()  # the first page and the JSON unchanged: the list's other files are not rendered
    assert second.read_bytes() == b"adulterada"
    Contest.objects.filter(pk=contest.pk).update(number="77")
    publish_contest_data()  # the first page changed (the contest's number): every page rendered again
    assert second.read_bytes() == client.get(base + "?pagina=2").content
    assert b"77/2026" in second.read_bytes()
    second.write_bytes(b"adulterada")
    call_command("portal_snapshot", stdout=io.StringIO())  # the command renders every page
    assert second.read_bytes() == client.get(base + "?pagina=2").content
