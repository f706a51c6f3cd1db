"""Privacy by design on the public portal (RULES §7): a crawl of every public page reachable from
``/`` with the demo data (``seed_demo``), following links, the open data (CSV, JSON) and the published PDFs
included, fails on candidate-level data: a candidate's CPF in any format (digits, formatted, masked), birth
date (dd/mm/aaaa or ISO) or e-mail. Words that legal text and list titles use (``CPF``, ``nascimento``,
``e-mail``) are not data and do not fail it.
"""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from collections import deque
from dataclasses import dataclass
from urllib.parse import urldefrag, urlsplit

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import resolve, reverse

from candidates.models import Candidate, ResultRun
from contests.models import Contest

pytestmark = pytest.mark.django_db

# Not the portal's to crawl: the staff's login and workspace, static files, the candidate's own page
# (its code is the credential; built apart).
SKIPPED = (
    "/entrar/",
    "/sair/",
    "/senha/",
    "/painel/",
    "/admin/",
    "/static/",
    "/media/",
    "/publico/minha-inscricao/",
)
LINK = re.compile(r"""href="([^"#][^"]*)\"""")
MAX_PAGES = 400


@dataclass(frozen=True)
class Person:
    cpf: str
    birth: str  # ISO
    email: str


def forbidden(person: Person) -> list[str]:
    """Every way a page could show this person's protected data."""
    cpf = person.cpf
    found = [
        cpf,
        f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}",
        f"{cpf[3:6]}.{cpf[6:9]}",
        f"{cpf[:9]}-{cpf[9:]}",
    ]
    if person.birth:
        year, month, day = person.birth.split("-")
        found += [person.birth, f"{day}/{month}/{year}", f"{int(day)}/{int(month)}/{year}"]
    if person.email:
        found.append(person.email.lower())
    return found


def leaks(content: str, people: list[Person]) -> list[str]:
    lowered = content.lower()
    return [needle for person in people for needle in forbidden(person) if needle.lower() in lowered]


def test_the_leak_finder_finds_each_kind_of_leak():
    person = Person(cpf="52998224725", birth="1990-07-04", email="Fulana@Exemplo.example")
    for page in (
        "CPF 529.982.247-25",
        "cpf 52998224725",
        "***.982.247-**",
        "nascida em 04/07/1990",
        '"nascimento": "1990-07-04"',
        "escreva a fulana@exemplo.example",
    ):
        assert leaks(page, [person]), page
    assert not leaks("Nome, CPF, data de nascimento e e-mail nunca são publicados (LGPD).", [person])


def text_of(response) -> str:
    if response["Content-Type"].startswith("application/pdf"):
        from pypdf import PdfReader

        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(response.content)).pages)
    # An act's text for the official gazette as .docx or .odt: the words of its XML.
    for content_type, member in (
        ("application/vnd.openxml", "word/document.xml"),
        ("application/vnd.oasis", "content.xml"),
    ):
        if response["Content-Type"].startswith(content_type):
            with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
                return re.sub(r"<[^>]+>", " ", archive.read(member).decode("utf-8"))
    return response.content.decode("utf-8")


def crawl(client: Client, starts: list[str]) -> dict[str, str]:
    """Every same-site page reachable from ``starts`` by links: {url: text}."""
    seen: dict[str, str] = {}
    queue = deque(starts)
    while queue and len(seen) < MAX_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        assert response.status_code == 200, f"{url}: {response.status_code}"
        seen[url] = text_of(response)
        if not response["Content-Type"].startswith("text/html"):
            continue
        for href in LINK.findall(seen[url]):
            href = urldefrag(href.replace("&amp;", "&"))[0]
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not href.startswith("/") or href.startswith(SKIPPED):
                continue
            queue.append(href)
    return seen


def publish_law_reports():
    """A second Santa Maria law report (the demo publishes nº 1) published, then rectified (two versions, both
    public)."""
    from django.contrib.auth.models import User

    from monitoring import acts
    from monitoring.indicators import Scope

    policy = Contest.objects.get(slug="demo-santa-maria-concluido").policy
    scope = Scope(policy, datetime.date(2000, 1, 1), datetime.date(2099, 12, 31))
    written = acts.Written("periodic", 2, "Conclusões.", "", "Maria Souza", "Secretária")
    by = User.objects.filter(is_superuser=False).order_by("pk").first()
    first = acts.law_report_publish(scope=scope, written=written, summary="", by=by)
    second = acts.law_report_publish(scope=scope, written=written, summary="Corrige o texto.", by=by)
    return [first, second]


def small_cells(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The rows of a law report that count people and show 1 to 4 of them."""

    def people(row: dict[str, str]) -> bool:
        what, indicator = row["medida"], row["indicador"]
        return (
            indicator in ("T1", "T3", "T5", "T6")
            or (indicator == "T7" and not what.startswith("ordens"))
            or (indicator == "T8" and what == "nomeações")
            or (indicator == "T2" and what == "reservadas preenchidas por cotistas")
        )

    return [row for row in rows if people(row) and row["valor"] in ("1", "2", "3", "4")]


def test_no_public_page_of_the_demo_shows_a_cpf_a_birth_date_or_an_email(client, settings):
    settings.DEBUG = True  # the demo with its users, as `make demo` makes it
    call_command("seed_demo", stdout=io.StringIO())
    people = [
        Person(cpf=cpf, birth=birth.isoformat() if birth else "", email=email)
        for cpf, birth, email in Candidate.objects.values_list("cpf", "birth_date", "email")
    ]
    assert len(people) >= 20 and all(p.birth and p.email for p in people)
    contest = Contest.objects.get(slug="demo-santa-maria-concluido")
    run = ResultRun.objects.get(contest=contest, kind=ResultRun.Kind.FINAL)
    position = contest.positions.get(code="AADM")
    searches = [
        reverse("public:run", args=[contest.slug, run.pk]) + "?q=a",
        reverse("public:list", args=[contest.slug, run.pk, position.pk, "racial"]) + "?q=conceicao",
        reverse("public:home") + "?q=santa",
    ]
    law_reports = publish_law_reports()
    pages = crawl(client, [reverse("public:home"), *searches])

    reached = {resolve(urlsplit(url).path).view_name for url in pages}
    for name in (
        "public:home",
        "public:contest",
        "public:run",
        "public:list",
        "public:list_data",
        "public:nominations",
        "public:nominations_data",
        "public:contest_feed",
        "public:privacy",
        "public:accessibility",
        "public:data_dictionary",
        "public:verify",
        "public:document_pdf",
        "public:document_text",
        "public:law_report_data",
    ):
        assert name in reached, f"o rastreamento não chegou a {name}"
    # The law's reports (issue 23): both versions of the one rectified reached by the crawl, their open data
    # with no count of 1 to 4 people.
    for report in law_reports:
        for fmt in ("csv", "json"):
            assert reverse("public:law_report_data", args=[report.document.code, fmt]) in pages
        assert not small_cells(report.rows)
    csv_text = pages[reverse("public:law_report_data", args=[law_reports[0].document.code, "csv"])]
    assert "<5" in csv_text
    assert any(url.endswith(".csv") for url in pages) and any(url.endswith(".json") for url in pages)
    # The crawl did see the people: their names are on the lists.
    names = set(Candidate.objects.values_list("full_name", flat=True))
    assert sum(any(name in text for text in pages.values()) for name in names) >= 20
    # A social name replaces the civil one everywhere (Decreto 8.727/2016).
    assert any("Carla Souza" in text for text in pages.values())
    assert not any("Carlos Henrique Souza" in text for text in pages.values())

    found = {url: leaks(text, people) for url, text in pages.items()}
    assert not any(found.values()), {url: hits for url, hits in found.items() if hits}
    # The demo's procedure (facts, complainant, even that it exists) is the Jurídico's only.
    from declarations.models import Procedure
    from workspace.management.commands._demo_hetero import PROCEDURE_COMPLAINANT, PROCEDURE_FACTS

    procedure = Procedure.objects.get(status=Procedure.Status.OPEN)
    secrets = [PROCEDURE_FACTS[:40], PROCEDURE_COMPLAINANT, str(procedure), "Denúncia fictícia"]
    assert not [(url, s) for url, text in pages.items() for s in secrets if s in text]


def test_a_procedure_s_effects_name_the_party_only_in_their_public_act(
    client, cast, settings, tmp_path, django_capture_on_commit_callbacks
):
    """A final decision of falsity annuls a cotista's nomination: the crawl reaches the nomination pages,
    the feed and the act. Nothing protected anywhere; the procedure's content nowhere; its number (and so
    the party as a party) only with the public act of the effects (RULES §7), never in the feed."""
    import datetime

    from candidates.services.nominations import nominations_call
    from contests.documents.models import Document
    from declarations.procedure import services
    from tests.builders import make_world
    from tests.declarations.test_documents import decide_falsity, open_case

    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    position = world["position"]
    nominations_call(
        position=position,
        count=3,
        act_number="Portaria 11/2026",
        act_date=datetime.date(2026, 6, 20),
        by=cast["clerk"],
    )
    cotista = position.registrations.get(number="N2")
    case = open_case(cotista, cast["legal"])
    decide_falsity(case, cast["legal"])
    final_on = datetime.date(2026, 7, 29)
    services.act_record(procedure=case, kind="final", by=cast["legal"], today=final_on)
    with django_capture_on_commit_callbacks(execute=True):
        services.effects_apply(procedure=case, by=cast["legal"], today=final_on)
    act = Document.objects.get(kind=Document.Kind.PROCEDURE_EFFECTS)

    pages = crawl(client, [reverse("public:home")])
    reached = {resolve(urlsplit(url).path).view_name for url in pages}
    for name in ("public:contest", "public:nominations", "public:contest_feed"):
        assert name in reached, f"o rastreamento não chegou a {name}"
    act_pages = {act.get_absolute_url(), act.get_absolute_url() + "documento.pdf"}  # /verificar/<código>/
    assert act_pages <= set(pages)
    people = [
        Person(cpf=cpf, birth=birth.isoformat() if birth else "", email=email)
        for cpf, birth, email in Candidate.objects.values_list("cpf", "birth_date", "email")
    ]
    found = {url: leaks(text, people) for url, text in pages.items()}
    assert not any(found.values()), {url: hits for url, hits in found.items() if hits}
    for secret in ("Indícios de falsidade", "Falsidade confirmada: fundamentos", "Proposta.", "Alegações."):
        assert not [url for url, text in pages.items() if secret in text], secret
    # The act: its verification page, its PDF, and its title among the contest's published documents.
    from declarations.procedure.documents import procedure_full_name

    names = (str(case), procedure_full_name(case))  # "PA nº 1/2026", and as the act writes it in full
    naming = {url for url, text in pages.items() if any(n in " ".join(text.split()) for n in names)}
    contest_page = reverse("public:contest", args=[world["contest"].slug])
    # The act's gazette text (.txt, .docx, .odt) beside its PDF, when the crawl reads them.
    exports = {url for url in pages if url.startswith(act.get_absolute_url() + "texto.")}
    assert naming == {*act_pages, *exports, contest_page}
    documents = pages[contest_page].split('id="documentos"', 1)[1].split("</section>", 1)
    assert str(case) in documents[0] and str(case) not in documents[1]
    feed = next(text for url, text in pages.items() if url.endswith(".atom"))
    assert "Efeitos de decisão em processo administrativo" in feed
    assert cotista.candidate.display_name not in feed and cotista.candidate.full_name not in feed


def test_a_nomination_under_a_court_order_is_sub_judice_and_nothing_of_the_case_goes_public(
    client, cast, settings, tmp_path, django_capture_on_commit_callbacks
):
    """A court order keeps a nominee's seat, is complied with and then confirmed (the seat released): the
    public nomination order says "sub judice" while the case is not final; the crawl finds no private
    detail of the case (its court, judging body, summary, file), and its CNJ number only in the nomination
    act, which must cite it (issue 22)."""
    import datetime

    from django.utils import timezone

    from candidates.services.nominations import nominations_call
    from declarations.courts import effects, services
    from tests.builders import make_world
    from tests.declarations.courts_world import CASE_NUMBER, make_court_order

    settings.MEDIA_ROOT = tmp_path
    world = make_world(cast)
    position = world["position"]
    nominations_call(
        position=position,
        count=3,
        act_number="Portaria 11/2026",
        act_date=datetime.date(2026, 6, 20),
        by=cast["clerk"],
    )
    nominee = position.registrations.get(number="N2")
    today = timezone.localdate()
    order = make_court_order(
        world["contest"], cast["legal"], [nominee], summary="Segredo: fundamentos da liminar."
    )
    with django_capture_on_commit_callbacks(execute=True):
        effects.order_effects_apply(order=order, by=cast["legal"], today=today)
        services.court_order_status(
            order=order,
            status="confirmed",
            decided_on=today,
            note="Sentença confirma.",
            by=cast["legal"],
            today=today,
        )
    pages = crawl(client, [reverse("public:home")])
    nominations = next(
        text for url, text in pages.items() if resolve(urlsplit(url).path).view_name == "public:nominations"
    )
    assert "Nomeação ativa (aguardando posse) (sub judice)" in nominations
    for secret in ("Segredo: fundamentos", order.body, "decisao.pdf", order.court, "Sentença confirma"):
        assert not [url for url, text in pages.items() if secret in text], secret
    assert not [url for url, text in pages.items() if CASE_NUMBER in text and not url.endswith(".pdf")]
