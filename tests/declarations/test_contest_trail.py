"""The contest's audit trail (``candidates.trail``) holds the procedures and the heteroidentification too
(registered by ``declarations``), as each role may see them; every document the contest published, by its
title; times in America/Sao_Paulo, people by full name, files by name, never a storage path; the access log
names a private link's holder, never "(usuário excluído)"."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from candidates import trail
from contests.audit import log_access
from contests.models import AccessLog
from contests.wording import ACCESS_ACTIONS
from declarations.hetero import services as hs
from tests.builders import make_procedure_world, make_registration, make_world
from tests.declarations.hetero_world import make_hetero_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    for who, (first, last) in {"clerk": ("Clara", "Souza"), "legal": ("Júlia", "Reis")}.items():
        cast[who].first_name, cast[who].last_name = first, last
        cast[who].save()
    world = make_world(cast)
    nominee = world["position"].registrations.get(number="N2")  # has a self-declaration
    world.update(make_procedure_world(cast, nominee))
    world.update(make_hetero_world(cast, world["contest"]))
    return world


def page(client_for, who: str, world, **query) -> str:
    url = reverse("candidates:contest_audit_trail", args=[world["contest"].slug])
    response = client_for(who).get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def kinds(html: str) -> set[str]:
    return set(re.findall(r'<span class="history__kind">(.*?)</span>', html))


def test_the_auditor_sees_procedures_heteroidentification_and_documents(client_for, world):
    entries = trail.contest_trail(world["contest"], None)  # no reader: the parts kept by role stay out
    assert "Processo administrativo" not in {e.kind for e in entries}
    html = page(client_for, "auditor", world, pagina=1)
    every = set()
    for n in range(1, 6):
        every |= kinds(page(client_for, "auditor", world, pagina=n))
    for kind in (
        "Processo administrativo",
        "Ato do processo",
        "Anexo",
        "Comissão de heteroidentificação",
        "Membro de comissão",
        "Sorteio de membros",
        "Aviso de sorteio",
        "Sessão de heteroidentificação",
        "Verificação",
        "Documento publicado",
        "Concurso",
        "Nomeação",
        "Lista de classificação",
    ):
        assert any(k.startswith(kind) for k in every), (kind, every)
    assert "Júlia Reis" in html and ">legal<" not in html


def test_a_document_is_named_by_its_title(client_for, world):
    html = page(client_for, "auditor", world, what="Documento publicado")
    assert "Sorteio" in html and world["hetero_document"].code in html
    assert "Ana Souza (Procuradora)" in html


def test_a_procedure_act_is_signed_by_the_authority_and_prepared_by_the_clerk(client_for, world):
    """DESIGN point 11: the signer is the competent authority; who typed the act is "Elaborado por"."""
    text = re.sub(r"<[^>]+>", " ", page(client_for, "auditor", world, what="Documento publicado"))
    text = " ".join(text.split())
    assert "Assinado por Paula Ribeiro Matos (Presidente da Câmara Municipal)" in text
    assert "Elaborado por Júlia Reis" in text
    assert "Assinado por Júlia Reis" not in text


def test_the_clerk_sees_a_procedure_s_status_but_not_its_content(client_for, world):
    every = set()
    html = ""
    for n in range(1, 6):
        chunk = page(client_for, "clerk", world, pagina=n)
        every |= kinds(chunk)
        html += chunk
    assert "Processo administrativo" in every
    assert not {"Ato do processo", "Anexo", "Parecer", "Link privado"} & every
    assert "Indícios." not in html and "prova.pdf" not in html


def test_no_storage_path_and_no_token_hash_is_shown(client_for, world):
    html = "".join(page(client_for, "auditor", world, pagina=n) for n in range(1, 8))
    assert "<ins>termo.pdf</ins>" in html  # the withdrawal statement, by its file name
    assert "nominations/withdrawals/" not in html
    assert not re.search(r"\d{4}/\d{2}/prova", html)
    assert world["link"].token_hash not in html


def test_times_are_local_in_the_table_and_in_the_values(client_for, world, cast):
    run = world["run"]
    published = timezone.localtime(run.published_at)
    html = page(client_for, "auditor", world, what="Lista de classificação")
    assert f"{published:%d/%m/%Y %H:%M}" in html
    utc = run.published_at.astimezone(datetime.UTC)
    assert utc.hour != published.hour  # America/Sao_Paulo is never UTC
    assert f"<ins>{utc:%d/%m/%Y %H:%M}</ins>" not in html
    assert f"<ins>{published:%d/%m/%Y %H:%M}</ins>" in html  # "Publicada em", in local time
    # who published, by name, in the values too ("Publicada por")
    assert f"<ins>{cast['manager'].get_full_name() or cast['manager'].get_username()}</ins>" in html


def test_the_csv_carries_the_declarations_part(client_for, world):
    url = reverse("candidates:contest_audit_trail", args=[world["contest"].slug])
    text = client_for("auditor").get(url, {"formato": "csv"}).content.decode("utf-8-sig")
    assert ";Processo administrativo;" in text and ";Documento publicado;" in text


def test_a_candidate_reading_their_private_link_is_named_as_such(client, client_for, world):
    client.get(reverse("declarations:portal", args=[world["token"]]))
    log = AccessLog.objects.filter(action="portal").latest("at")
    assert log.user is None and log.via_link == "Candidato(a)"
    assert log.who == "Candidato(a), pelo link privado"
    html = client_for("auditor").get(reverse("contests:accesslog_list")).content.decode()
    assert "Candidato(a), pelo link privado" in html and "(usuário excluído)" not in html
    home = client_for("auditor").get(reverse("home")).content.decode()
    assert "Candidato(a), pelo link privado, acessou" in home
    csv = client_for("auditor").get(reverse("contests:accesslog_list"), {"formato": "csv"}).content.decode()
    assert "Candidato(a), pelo link privado" in csv


def test_the_auditor_home_words_every_action_in_portuguese(client_for, world, cast):
    for action in ACCESS_ACTIONS:
        log_access(user=cast["clerk"], obj=world["contest"], action=action)
    html = client_for("auditor").get(reverse("home")).content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    for code in ACCESS_ACTIONS:
        assert not re.search(rf"\b{code}\b", text), code
    assert "Clara Souza emitiu documento de" in text


def test_the_trail_s_queries_do_not_grow_with_the_heteroidentification_rows(world, cast):
    def queries() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            entries = trail.contest_trail(world["contest"], cast["auditor"])
        return len(captured), len(entries)

    few, rows = queries()
    for _ in range(8):
        make_registration(world["position"], racial_category="parda")
    called = hs.candidates_call(session=world["hetero_session"], by=cast["legal"])
    assert len(called) == 8
    many, more_rows = queries()
    assert more_rows >= rows + 8
    assert many <= few, f"{few} consultas com {rows} linhas, {many} com {more_rows}"
