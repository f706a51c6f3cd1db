"""What the public sees moves on with the service that publishes it (DESIGN.md: one ``publication_record``,
no signals): the public nomination page, its CSV and its JSON change, content and ETag, as soon as the act's
transaction commits (with a cache shared by several processes too: test_publication_shared_cache.py).

Plain functions with the test client, anonymous. A service's commit is played with
``django_capture_on_commit_callbacks(execute=True)`` (the test's own transaction never commits), except in the
transactional test, where the service's transaction really commits.
"""

from __future__ import annotations

import contextlib
import datetime
import io
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.models import signals
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfWriter

from candidates.models import Nomination
from candidates.services.nominations import nomination_withdraw, nominations_call, vacancies_open
from contests.documents.models import Document
from contests.documents.services import document_publish, edital_publish, edital_rectify
from contests.models import Contest, Publication
from contests.publication import generation, publication_record
from contests.services import (
    contest_extend_validity,
    contest_homologate,
    contest_set_status,
    contest_update,
    organization_save,
    position_create,
    position_update,
)
from tests.builders import final_result, make_contest, make_world
from tests.contests.test_documents import ready_contest
from tests.portal.test_views_contests import vacancy_cells

pytestmark = pytest.mark.django_db

ACT_DATE = datetime.date(2026, 6, 10)


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def nomination_urls(world) -> list[str]:
    slug, pk = world["contest"].slug, world["position"].pk
    return [
        reverse("public:nominations", args=[slug, pk]),
        reverse("public:nominations_data", args=[slug, pk, "csv"]),
        reverse("public:nominations_data", args=[slug, pk, "json"]),
    ]


def call(world, cast, act_number: str = "Portaria 77/2026") -> list[Nomination]:
    return nominations_call(
        position=world["position"], count=1, act_number=act_number, act_date=ACT_DATE, by=cast["clerk"]
    )


def withdraw(world, cast) -> Nomination:
    statement = SimpleUploadedFile("termo.pdf", b"%PDF-1.4 termo", content_type="application/pdf")
    return nomination_withdraw(
        nomination=world["nomination"], statement_file=statement, by=cast["clerk"], date=ACT_DATE
    )


def open_vacancies(world, cast):
    return vacancies_open(
        position=world["position"],
        count=2,
        date=datetime.date(2026, 7, 1),
        act="Lei 12/2026",
        by=cast["clerk"],
    )


def assert_changed(client, before: dict, *, shows: str, showed: str) -> None:
    """Each page's content and ETag changed: it now has ``shows`` (and had ``showed`` before)."""
    for url, first in before.items():
        after = client.get(url)
        assert after.status_code == 200, url
        assert after["ETag"] != first["ETag"], url
        assert shows in after.content.decode(), url
        assert showed in first.content.decode(), url


# The per-process cache (the default) ------------------------------------------------------------------


def test_a_call_changes_the_public_nomination_pages_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    before = {url: client.get(url) for url in nomination_urls(world)}
    with django_capture_on_commit_callbacks(execute=True):
        call(world, cast)
    assert_changed(client, before, shows="Portaria 77/2026", showed="Portaria 10/2026")
    assert all("Portaria 77/2026" not in first.content.decode() for first in before.values())


def test_a_withdrawal_changes_the_public_nomination_pages_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    urls = nomination_urls(world)
    before = {url: client.get(url) for url in urls}
    with django_capture_on_commit_callbacks(execute=True):
        withdraw(world, cast)
    html, csv, json = (client.get(url).content.decode() for url in urls)
    assert html.count("Desistente") == 2 and before[urls[0]].content.decode().count("Desistente") == 1
    assert csv.count(";withdrawn;") == 2 and '"situacao": "active"' not in json
    assert all(client.get(url)["ETag"] != first["ETag"] for url, first in before.items())


def test_an_opening_makes_the_stored_nomination_pages_stale_and_shows_on_the_contest_page(
    client, world, cast, django_capture_on_commit_callbacks
):
    """An opening changes no nomination row: the nomination pages are rendered again (no stored answer is
    served) and, their content being the same, keep their ETag (a browser's copy is still good); the
    contest's page shows the new vacancies."""
    contest_url = reverse("public:contest", args=[world["contest"].slug])
    urls = [contest_url, *nomination_urls(world)]
    before = {url: client.get(url) for url in urls}
    with django_capture_on_commit_callbacks(execute=True):
        open_vacancies(world, cast)
    for url in urls[1:]:
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url)
        assert len(queries) > 0, url  # rendered again, not replayed
        assert again["ETag"] == before[url]["ETag"], url
    assert client.get(contest_url)["ETag"] != before[contest_url]["ETag"]
    assert vacancy_cells(client, world["contest"], world["position"].code)[0] == "7"  # 5 + 2


def test_a_call_then_its_seat_freed_then_filled_again_each_show_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    """The same request cycle as the staff's: every act is on the public page as soon as it is recorded."""
    url = nomination_urls(world)[0]
    seen = [client.get(url)]
    for act in (lambda: call(world, cast, "Portaria 20/2026"), lambda: withdraw(world, cast)):
        with django_capture_on_commit_callbacks(execute=True):
            act()
        seen.append(client.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        call(world, cast, "Portaria 21/2026")
    seen.append(client.get(url))
    assert len({page["ETag"] for page in seen}) == len(seen)
    assert "Portaria 21/2026" in seen[-1].content.decode()


# Commit, not signals ------------------------------------------------------------------------------------


def test_a_call_written_in_bulk_moves_the_generation_when_it_commits(
    world, cast, django_capture_on_commit_callbacks
):
    first = generation()
    with django_capture_on_commit_callbacks() as callbacks:
        call(world, cast)
        assert generation() == first  # not before the commit: another process would store the old page
    assert callbacks  # the stale pages are marked by what runs at the commit (checked below)
    for callback in callbacks:
        callback()
    assert generation() > first


@contextlib.contextmanager
def no_model_signals() -> Iterator[None]:
    """Every receiver of every model signal disconnected (history included) while the block runs."""
    every = [
        signals.pre_init,
        signals.post_init,
        signals.pre_save,
        signals.post_save,
        signals.pre_delete,
        signals.post_delete,
        signals.m2m_changed,
    ]
    kept = [(signal, signal.receivers) for signal in every]
    for signal in every:
        signal.receivers = []
        signal.sender_receivers_cache.clear()
    try:
        yield
    finally:
        for signal, receivers in kept:
            signal.receivers = receivers
            signal.sender_receivers_cache.clear()


def test_without_any_signal_the_public_pages_move_on_all_the_same(
    client, world, cast, django_capture_on_commit_callbacks
):
    before = {url: client.get(url) for url in nomination_urls(world)}
    with no_model_signals():
        assert not signals.post_save.has_listeners(Nomination)
        with django_capture_on_commit_callbacks(execute=True):
            call(world, cast)
        assert_changed(client, before, shows="Portaria 77/2026", showed="Portaria 10/2026")
        middle = {url: client.get(url) for url in nomination_urls(world)}
        with django_capture_on_commit_callbacks(execute=True):
            withdraw(world, cast)
        for url, first in middle.items():
            assert client.get(url)["ETag"] != first["ETag"], url


@pytest.mark.django_db(transaction=True)
def test_the_services_own_commit_moves_the_public_pages_on(client, settings, tmp_path):
    """No test helper: the call's transaction commits for real, and its on-commit hook runs."""
    from tests.builders import make_cast

    settings.MEDIA_ROOT = tmp_path
    cast = make_cast()
    world = make_world(cast)
    before = {url: client.get(url) for url in nomination_urls(world)}
    call(world, cast)
    assert_changed(client, before, shows="Portaria 77/2026", showed="Portaria 10/2026")


# The record ---------------------------------------------------------------------------------------------


def test_each_act_is_recorded_once_with_who_what_and_where(world, cast):
    contest, position = world["contest"], world["position"]
    url = reverse("public:nominations", args=[contest.slug, position.pk])
    start = Publication.objects.count()
    call(world, cast)
    withdraw(world, cast)
    open_vacancies(world, cast)
    added = list(Publication.objects.order_by("pk")[start:])
    assert [(p.kind, p.title, p.url, p.by) for p in added] == [
        (
            Publication.Kind.NOMINATION_CALL,
            f"Nomeação de 1 candidato para {position.title} (Portaria 77/2026)",
            url,
            cast["clerk"],
        ),
        (
            Publication.Kind.NOMINATION_EVENT,
            f"Desistência na {world['nomination'].seat}ª vaga de {position.title}",
            url,
            cast["clerk"],
        ),
        (
            Publication.Kind.VACANCY_OPENING,
            f"Abertura de 2 vagas em {position.title} (Lei 12/2026)",
            reverse("public:contest", args=[contest.slug]),
            cast["clerk"],
        ),
    ]
    assert all(p.contest == contest for p in added)


def test_a_publication_is_never_changed_nor_deleted(world, cast):
    from django.core.exceptions import ValidationError

    publication = publication_record(
        contest=world["contest"],
        kind=Publication.Kind.CONTEST,
        title="Situação do concurso: Homologado",
        by=None,
    )
    publication.title = "Outra coisa"
    with pytest.raises(ValidationError, match="não se altera"):
        publication.save()
    with pytest.raises(ValidationError, match="não se altera"):
        publication.delete()


def test_the_world_s_publications_are_on_the_contest_audit_trail(client_for, world):
    url = reverse("candidates:contest_audit_trail", args=[world["contest"].slug])
    text = client_for("auditor").get(url, {"what": "Publicação"}).content.decode()
    assert '<span class="history__kind">Publicação</span>' in text
    assert f"Nomeação de 2 candidatos para {world['position'].title} (Portaria 10/2026)" in text
    assert "Resultado final publicado em" in text


def one_page_pdf(label: str) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=72, height=72)
    writer.add_metadata({"/Title": label})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def added_since(start: int) -> list[tuple[str, str]]:
    return [(p.kind, p.title) for p in Publication.objects.order_by("pk")[start:]]


def test_the_edital_is_one_publication_and_its_rectification_another(cast):
    manager = cast["manager"]
    contest = ready_contest()
    start = Publication.objects.count()
    first = edital_publish(contest=contest, by=manager)
    contest.refresh_from_db()
    assert contest.status == Contest.Status.PUBLISHED  # the status follows the edital: no second line
    second = edital_rectify(contest=contest, by=manager, summary="Número de questões da prova.")
    assert added_since(start) == [
        (Publication.Kind.EDITAL, first.title),
        (Publication.Kind.RECTIFICATION, f"Retificação 1 de {first.title}"),
    ]
    assert Publication.objects.get(title=first.title).url == reverse("public:verify", args=[first.code])
    assert second.code in Publication.objects.order_by("pk").last().url


def test_a_restricted_act_is_no_publication_and_an_effects_act_names_nobody(world):
    contest = world["contest"]
    start = Publication.objects.count()
    for kind, title in (
        (Document.Kind.PROCEDURE_ACT, "Notificação de Fulana de Tal"),
        (Document.Kind.HETERO_MINUTES, "Ata da sessão de Fulana de Tal"),
        (
            Document.Kind.PROCEDURE_EFFECTS,
            "Eliminação de Fulana de Tal, inscrição A, nos termos do Processo 1/2026",
        ),
    ):
        document_publish(
            contest=contest,
            kind=kind,
            subject=f"s-{kind}",
            title=title,
            render=lambda stamp, title=title: one_page_pdf(title),
            by=None,
            signer_name="Fulana",
            signer_office="Presidente",
        )
    assert added_since(start) == [
        (Publication.Kind.PROCEDURE_EFFECTS, "Ato de eliminação ou anulação (processo administrativo)")
    ]


def test_contest_changes_are_publications_once_the_edital_is_out(cast):
    clerk, manager = cast["clerk"], cast["manager"]
    draft = make_contest()
    start = Publication.objects.count()
    position = position_create(
        contest=draft, by=clerk, data={"code": "ANLE", "title": "Analista"}, edital_vacancies=3
    )
    contest_update(contest=draft, by=clerk, data={"title": "Outro título"})
    assert added_since(start) == []  # nobody outside sees a draft
    contest = make_contest(status=Contest.Status.PUBLISHED)  # the edital's vacancies may still change
    position = position_create(
        contest=contest, by=clerk, data={"code": "ANLE", "title": "Analista"}, edital_vacancies=3
    )
    position_update(position=position, by=clerk, data={"title": "Analista Legislativo"}, edital_vacancies=4)
    contest_update(contest=contest, by=clerk, data={"title": "Concurso da Câmara"})
    contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    contest_homologate(contest=contest, by=manager, date=datetime.date(2026, 6, 1), act="Decreto 1/2026")
    contest_extend_validity(contest=contest, by=manager, act="Decreto 2/2027")
    organization_save(
        by=manager, data={"name": "Câmara Municipal", "municipality": "Santa Maria", "state": "RS"}
    )
    assert added_since(start) == [
        (Publication.Kind.POSITION, "Cargo criado: ANLE – Analista"),
        (
            Publication.Kind.POSITION,
            "Cargo alterado (denominação, vagas do edital): ANLE – Analista Legislativo",
        ),
        (Publication.Kind.CONTEST, "Dados do concurso alterados: título"),
        (Publication.Kind.CONTEST, "Situação do concurso: Em andamento"),
        (Publication.Kind.CONTEST, "Homologação do concurso em 01/06/2026 (Decreto 1/2026)"),
        (Publication.Kind.CONTEST, "Validade do concurso prorrogada até 01/06/2030 (Decreto 2/2027)"),
        (Publication.Kind.ORGANIZATION, "Dados da organização atualizados"),
    ]
    assert Publication.objects.order_by("pk").last().contest is None


def test_a_nominee_s_corrected_name_changes_the_public_nomination_pages_at_once(
    client, world, cast, django_capture_on_commit_callbacks
):
    """The nomination order reads names live: the clerk's correction is a publication, not a stale page."""
    from candidates.services.registrations import candidate_update

    nominee = world["nomination"].registration.candidate
    urls = nomination_urls(world)
    before = {url: client.get(url) for url in urls}
    with django_capture_on_commit_callbacks(execute=True):
        candidate_update(candidate=nominee, by=cast["clerk"], data={"full_name": "Nome Corrigido da Silva"})
    assert all("Nome Corrigido da Silva" in client.get(url).content.decode() for url in urls)
    assert all(client.get(url)["ETag"] != first["ETag"] for url, first in before.items())
    record = Publication.objects.filter(kind=Publication.Kind.NOMINATION_EVENT).latest("at")
    assert "Nome Corrigido" not in record.title and world["position"].title in record.title
