"""A procedure's effects change what the public sees and say so through the service that applies them
(DESIGN.md: one ``publication_record``, no signals): a final decision of falsity annuls a cotista's
nomination, and the public nomination page, its CSV and its JSON move on (content and ETag) in the same
request cycle; the next call reaches the next cotista, and the page shows it at once too. Each effect is one
publication naming the act's kind and the position, never the party (RULES §7), and the contest's Atom feed
shows it so.

Every public-page test runs twice: with the per-process cache (the default: the process that applies the
effects also serves the pages) and with the shared cache (a real Redis on 127.0.0.1:6379, two cache
instances standing for two processes: the effects applied in one are seen by the other; skipped, saying
why, when no Redis answers). A service's commit is played with ``django_capture_on_commit_callbacks``.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.conf import settings
from django.core.cache import caches

from candidates.models import Nomination, Registration
from candidates.services.nominations import nominations_call
from contests.documents.models import Document
from contests.models import Publication
from contests.publication import generation
from declarations.models import ProcedureLaw
from declarations.procedure import documents, services
from tests.builders import make_world, set_policy
from tests.contests.test_feed import entries, feed_url
from tests.contests.test_publication import no_model_signals, nomination_urls
from tests.contests.test_publication_shared_cache import process, two_processes  # noqa: F401 (a fixture)
from tests.declarations.test_documents import decide_falsity, open_case

pytestmark = pytest.mark.django_db
D = datetime.date
# decide_falsity ends on the 8th day after the opening (1 July); the appeal's 10 days have run by then.
FINAL_ON = D(2026, 7, 29)
EFFECTS = "Efeitos de decisão em processo administrativo"


@pytest.fixture
def world(cast, settings, tmp_path):
    """``make_world`` (seat 1: A active; seat 2: N1 withdrawn) and a second call: B takes seat 2, the
    cotista N2 the reserved seat 3, C seat 4."""
    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    nominations_call(
        position=world["position"],
        count=3,
        act_number="Portaria 11/2026",
        act_date=D(2026, 6, 20),
        by=cast["clerk"],
    )
    cotista = world["position"].registrations.get(number="N2")
    assert Nomination.objects.get(registration=cotista).seat_kind == "racial"
    return {**world, "cotista": cotista}


@pytest.fixture(params=["per-process", "shared"])
def processes(request):
    """(the process that applies the effects, the process that serves the public pages afterwards)."""
    if request.param == "per-process":
        return caches["public"], caches["public"]
    return request.getfixturevalue("two_processes")


def decided(world, cast):
    """A procedure on the cotista with a final decision of falsity, its effects not applied yet."""
    case = open_case(world["cotista"], cast["legal"])
    decide_falsity(case, cast["legal"])
    services.act_record(procedure=case, kind="final", by=cast["legal"], today=FINAL_ON)
    return case


def apply_effects(case, cast):
    return services.effects_apply(procedure=case, by=cast["legal"], today=FINAL_ON)


def cotista_row(client, world, url: str) -> str:
    """The cotista's line in the page at ``url`` (HTML table row, CSV line or JSON object as text)."""
    text = client.get(url).content.decode()
    if url.endswith(".json"):
        rows = json.loads(text)["nomeacoes"]
        return json.dumps(next(row for row in rows if row["inscricao"] == "N2"))
    if url.endswith(".csv"):
        return next(line for line in text.splitlines() if ";N2;" in line)
    return next(row for row in text.split("<tr>") if ">N2</td>" in row)


ANNULLED = {"html": "Nomeação anulada", "csv": ";annulled;", "json": '"situacao": "annulled"'}


def kind_of(url: str) -> str:
    return "json" if url.endswith(".json") else "csv" if url.endswith(".csv") else "html"


# The public nomination page, its CSV and its JSON --------------------------------------------------------


def test_effects_annul_the_nomination_and_the_public_pages_show_it_then_the_next_cotista_called(
    client, world, cast, processes, django_capture_on_commit_callbacks
):
    first, second = processes
    case = decided(world, cast)
    urls = nomination_urls(world)
    with process(second):
        before = {url: client.get(url) for url in urls}
        assert all(client.get(url)["ETag"] == page["ETag"] for url, page in before.items())  # stored
        assert all(ANNULLED[kind_of(url)] not in cotista_row(client, world, url) for url in urls)
    with process(first), django_capture_on_commit_callbacks(execute=True):
        apply_effects(case, cast)
    with process(second):
        for url, page in before.items():
            after = client.get(url)
            assert after.status_code == 200 and after["ETag"] != page["ETag"], url
            assert ANNULLED[kind_of(url)] in cotista_row(client, world, url), url
        middle = {url: client.get(url) for url in urls}
        assert "Portaria 12/2026" not in middle[urls[0]].content.decode()
    # The next call reaches the next cotista on the freed reserved seat.
    with process(first), django_capture_on_commit_callbacks(execute=True):
        called = nominations_call(
            position=world["position"],
            count=1,
            act_number="Portaria 12/2026",
            act_date=D(2026, 8, 3),
            by=cast["clerk"],
        )
    assert [(n.registration.number, n.seat, n.seat_kind) for n in called] == [("N3", 3, "racial")]
    with process(second):
        for url, page in middle.items():
            after = client.get(url)
            assert after["ETag"] != page["ETag"], url
            assert "N3" in after.content.decode() and "Portaria 12/2026" in after.content.decode(), url


def test_the_feed_shows_the_effects_entry_naming_nobody(
    client, world, cast, processes, django_capture_on_commit_callbacks
):
    first, second = processes
    case = decided(world, cast)
    contest, candidate = world["contest"], world["cotista"].candidate
    with process(second):
        before = client.get(feed_url(contest))
    with process(first), django_capture_on_commit_callbacks(execute=True):
        result = apply_effects(case, cast)
    with process(second):
        after = client.get(feed_url(contest))
    assert after["ETag"] != before["ETag"]
    found = entries(after)
    assert [entry["title"] for entry in found[:2]] == [
        f"{EFFECTS} – {world['position'].title}",
        f"Ordem de nomeação de {world['position'].title} atualizada",
    ]
    assert found[0]["link"] == settings.PUBLIC_BASE_URL + result.document.get_absolute_url()
    assert found[0]["summary"].startswith("Efeitos de processo administrativo")
    text = after.content.decode()
    for secret in (
        candidate.full_name,
        candidate.display_name,
        candidate.cpf,
        f"{candidate.cpf[:3]}.{candidate.cpf[3:6]}.{candidate.cpf[6:9]}-{candidate.cpf[9:]}",
        str(case),  # "PA nº 1/2026"
        "inscrição N2",
        "Eliminação de",
    ):
        assert secret not in text, secret
    # The act itself names the party (RULES §7): one click away, on /verificar/.
    assert candidate.display_name in client.get(result.document.get_absolute_url()).content.decode()


def test_without_any_signal_the_effects_move_the_public_pages_on(
    client, world, cast, django_capture_on_commit_callbacks
):
    case = decided(world, cast)
    before = {url: client.get(url) for url in nomination_urls(world)}
    with no_model_signals(), django_capture_on_commit_callbacks(execute=True):
        apply_effects(case, cast)
    for url, page in before.items():
        assert client.get(url)["ETag"] != page["ETag"], url
        assert ANNULLED[kind_of(url)] in cotista_row(client, world, url), url


# The record -----------------------------------------------------------------------------------------------


def effects_publications(start: int) -> list[tuple[str, str, str]]:
    return [
        (p.kind, p.title, p.url)
        for p in Publication.objects.order_by("pk")[start:]
        if p.kind == Publication.Kind.PROCEDURE_EFFECTS
    ]


def test_the_effects_are_one_publication_naming_the_position_moved_on_when_they_commit(
    world, cast, django_capture_on_commit_callbacks
):
    case = decided(world, cast)
    start = Publication.objects.count()
    first = generation()
    with django_capture_on_commit_callbacks() as callbacks:
        result = apply_effects(case, cast)
        assert generation() == first  # not before the commit
    assert callbacks  # the stale pages are marked by what runs at the commit (checked below)
    for callback in callbacks:
        callback()
    assert generation() > first
    added = list(Publication.objects.order_by("pk")[start:])
    title = world["position"].title
    assert [(p.kind, p.title) for p in added] == [
        (Publication.Kind.NOMINATION_EVENT, f"Ordem de nomeação de {title} atualizada"),
        (Publication.Kind.PROCEDURE_EFFECTS, f"{EFFECTS} – {title}"),
    ]
    effects = added[-1]
    assert (effects.contest, effects.by) == (world["contest"], cast["legal"])
    assert effects.url == result.document.get_absolute_url()
    assert result.document.kind == Document.Kind.PROCEDURE_EFFECTS  # the act: no second line of its own


def test_art61_effects_undone_and_restored_are_one_publication_each(world, cast):
    set_policy(world["contest"].policy, falsity_effect=ProcedureLaw.FalsityEffect.FIRST_DECISION)
    legal, cotista = cast["legal"], world["cotista"]
    case = open_case(cotista, legal)
    day = decide_falsity(case, legal)
    start = Publication.objects.count()
    services.effects_apply(procedure=case, by=legal, today=day)

    def record(kind, days, **kw):
        return services.act_record(
            procedure=case, kind=kind, by=legal, today=day + datetime.timedelta(days=days), **kw
        )

    record("appeal", 2, text="Recorro.")
    record("reconsideration", 3, outcome="dismissed", text="Reconsidero: improcedente.")
    cotista.refresh_from_db()
    assert cotista.status == Registration.Status.ACTIVE
    services.notice_send(procedure=case, by=legal, today=day + datetime.timedelta(days=4), means="in_person")
    record("appeal", 5, text="Recurso do denunciante.", filed_by="O denunciante", standing="affected")
    # The candidate is heard on the third party's appeal before a change for the worse (arts. 62, 64).
    services.notice_send(
        procedure=case,
        by=legal,
        today=day + datetime.timedelta(days=6),
        means="in_person",
        kind="appeal_notice",
    )
    record("appeal_answer", 6, text="Contrarrazões.")
    record("reconsideration", 6, outcome="dismissed", text="Mantenho.")
    record("superior_decision", 7, outcome="falsity", text="Falsidade confirmada.")
    services.notice_send(procedure=case, by=legal, today=day + datetime.timedelta(days=8), means="in_person")
    services.effects_apply(procedure=case, by=legal, today=day + datetime.timedelta(days=8))
    versions = Document.objects.filter(kind=Document.Kind.PROCEDURE_EFFECTS).order_by("version")
    urls = [document.get_absolute_url() for document in versions]
    title = world["position"].title
    assert effects_publications(start) == [
        (Publication.Kind.PROCEDURE_EFFECTS, f"{EFFECTS} – {title}", urls[0]),
        (Publication.Kind.PROCEDURE_EFFECTS, f"{EFFECTS} tornados sem efeito – {title}", urls[1]),
        (Publication.Kind.PROCEDURE_EFFECTS, f"{EFFECTS} restabelecidos – {title}", urls[2]),
    ]
    assert documents.effects_document(case).version == 3
    names = {cotista.candidate.full_name, cotista.candidate.display_name}
    assert not [p for p in Publication.objects.all() if any(name in p.title for name in names)]
