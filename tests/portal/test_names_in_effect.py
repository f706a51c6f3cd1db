"""Issue 25 N11: a published person's name on the public site is the name in effect, at once.

(a) A corrected name showed on the public pages only when their stored copy expired (5 minutes; a day for
a published list); (c) a social name adopted after a list was computed left the civil name on the
published lists, their search, their CSV and JSON (Decreto 8.727/2016: the social name is the one the body
uses; candidates.services.names). The published PDF stays the act as published (docs/readings.md).

Plain functions with the test client, anonymous; a service's commit played with
``django_capture_on_commit_callbacks(execute=True)``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.urls import reverse

from candidates.models import ResultEntry
from candidates.services.imports import commit, parse_upload
from candidates.services.registrations import candidate_update
from contests.models import Publication
from portal import snapshots
from tests import builders
from tests.builders import make_world
from tests.candidates.test_imports import AFTER_CLOSE, HEADER, ROWS, csv_file

pytestmark = pytest.mark.django_db

SOCIAL = "Ariel Nogueira Prates"


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def listed_not_nominated(world):
    """A registration on the published general list that no nomination names."""
    entry = (
        ResultEntry.objects.filter(run=world["run"], list=ResultEntry.List.OPEN)
        .exclude(registration__nominations__isnull=False)
        .select_related("registration__candidate")
        .order_by("rank")
        .first()
    )
    return entry.registration


def public_urls(world) -> dict[str, str]:
    contest, run, position = world["contest"], world["run"], world["position"]
    args = [contest.slug, run.pk, position.pk, "geral"]
    return {
        "list": reverse("public:list", args=args),
        "csv": reverse("public:list_data", args=[*args, "csv"]),
        "json": reverse("public:list_data", args=[*args, "json"]),
        "run": reverse("public:run", args=[contest.slug, run.pk]),
    }


def names_in_csv(content: bytes) -> list[str]:
    rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    return [row["nome"] for row in rows]


def names_in_json(content: bytes) -> list[str]:
    return [line["nome"] for line in json.loads(content)["linhas"]]


def test_a_social_name_adopted_after_publication_shows_on_every_public_list_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    registration = listed_not_nominated(world)
    civil = registration.candidate.full_name
    urls = public_urls(world)
    before = {name: client.get(url) for name, url in urls.items()}  # stored
    assert f">{civil}<" in before["list"].content.decode()
    for url in (urls["list"], urls["run"]):  # the searches' indexes of this generation are built
        assert f">{civil}<" in client.get(url, {"q": civil}).content.decode()
    assert civil in names_in_csv(before["csv"].content) and civil in names_in_json(before["json"].content)

    with django_capture_on_commit_callbacks(execute=True):
        candidate_update(candidate=registration.candidate, by=cast["clerk"], data={"social_name": SOCIAL})

    after = {name: client.get(url) for name, url in urls.items()}
    assert all(after[name]["ETag"] != before[name]["ETag"] for name in ("list", "csv", "json"))
    page = after["list"].content.decode()
    assert f">{SOCIAL}<" in page and f">{civil}<" not in page
    assert SOCIAL in names_in_csv(after["csv"].content) and civil not in names_in_csv(after["csv"].content)
    assert SOCIAL in names_in_json(after["json"].content) and civil not in names_in_json(
        after["json"].content
    )
    # The search finds the person by the name in effect, and no longer by the former one: a search for the
    # civil name answering with the social name would tie the two together.
    found = client.get(urls["list"], {"q": "ariel nogueira"}).content.decode()
    assert f">{SOCIAL}<" in found
    for url in (urls["list"], urls["run"]):
        gone = client.get(url, {"q": civil}).content.decode()
        assert SOCIAL not in gone and f">{civil}<" not in gone
    # No publication names the person (a list is not republished: the lines follow the person).
    assert not Publication.objects.filter(title__contains=SOCIAL).exists()


def test_a_corrected_civil_name_shows_at_once_and_the_published_pdf_stays_the_act(
    client, world, cast, django_capture_on_commit_callbacks
):
    registration = listed_not_nominated(world)
    url = public_urls(world)["list"]
    stale = client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        candidate_update(
            candidate=registration.candidate, by=cast["clerk"], data={"full_name": "Nome Corrigido da Silva"}
        )
    fresh = client.get(url)
    assert fresh["ETag"] != stale["ETag"]
    assert ">Nome Corrigido da Silva<" in fresh.content.decode()


def test_a_name_changed_by_an_import_shows_on_the_published_list(
    client, cast, settings, tmp_path, django_capture_on_commit_callbacks
):
    """The organiser's file is the other way a name changes: the same home (services.names)."""
    settings.MEDIA_ROOT = tmp_path
    contest = builders.make_example_contest()
    commit(contest, parse_upload(csv_file(), filename="a.csv"), None, cast["clerk"], today=AFTER_CLOSE)
    run = builders.publish_final(contest, cast["manager"])
    entry = ResultEntry.objects.filter(run=run, number="1001").exclude(list=ResultEntry.List.OUT).first()
    assert entry.name == "Carla Rocha Pereira"
    url = reverse("public:list", args=[contest.slug, run.pk, entry.position_id, "geral"])
    client.get(url)
    renamed = [ROWS[0].replace("Carla Rocha Pereira;;", f"Carla Rocha Pereira;{SOCIAL};"), *ROWS[1:]]
    with django_capture_on_commit_callbacks(execute=True):
        commit(contest, parse_upload(csv_file(renamed, HEADER), filename="b.csv"), None, cast["clerk"],
               today=AFTER_CLOSE)  # fmt: skip
    page = client.get(url).content.decode()
    assert f">{SOCIAL}<" in page and ">Carla Rocha Pereira<" not in page
    assert set(
        ResultEntry.objects.filter(registration=entry.registration).values_list("name", flat=True)
    ) == {SOCIAL}


def test_the_portal_s_snapshot_of_a_list_follows_the_name_in_effect(
    client, world, cast, settings, django_capture_on_commit_callbacks
):
    """The static snapshot (portal/snapshots.py) is written again after a name changes, as after a
    publication: the file a web server sends never keeps the former name."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    root = Path(settings.STORAGES["snapshots"]["OPTIONS"]["location"])
    registration = listed_not_nominated(world)
    civil = registration.candidate.full_name
    path = public_urls(world)["list"]
    snapshots.rebuild(world["contest"].slug)
    listed = root / snapshots.Address(path).file_name
    assert f">{civil}<".encode() in listed.read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        candidate_update(candidate=registration.candidate, by=cast["clerk"], data={"social_name": SOCIAL})
    written = listed.read_bytes()
    assert f">{SOCIAL}<".encode() in written and f">{civil}<".encode() not in written
    assert written == client.get(path).content


def test_a_name_change_removes_the_list_files_at_its_commit_before_the_queue_runs(
    client, world, cast, settings, django_capture_on_commit_callbacks
):
    """Until the queued snapshot runs (a stopped worker: for hours), no file keeps the former name: the
    contest's list files go at the commit and the server asks the application, already current."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # nothing runs
    root = Path(settings.STORAGES["snapshots"]["OPTIONS"]["location"])
    registration = listed_not_nominated(world)
    path = public_urls(world)["list"]
    snapshots.rebuild(world["contest"].slug)
    listed = root / snapshots.Address(path).file_name
    assert listed.exists()
    with django_capture_on_commit_callbacks(execute=True):
        candidate_update(candidate=registration.candidate, by=cast["clerk"], data={"social_name": SOCIAL})
    assert not listed.exists()
    assert f">{SOCIAL}<".encode() in client.get(path).content
