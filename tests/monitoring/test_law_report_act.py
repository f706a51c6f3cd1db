"""The law's report as an act (issue 23): "Gerar relatório" on the report screen publishes the periodic or
final report through the documents pipeline (versioned, verifiable, public), with the monitoring body's
section; its figures are kept as published."""

from __future__ import annotations

import pytest
from django.urls import reverse

from contests.documents.models import Document
from monitoring.models import LawReport
from tests.monitoring.test_indicators import world  # noqa: F401  (the fixture)
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db
URL = "/relatorios-da-lei/gerar/"


def scope_query(world) -> str:  # noqa: F811
    return f"?policy={world['contest'].policy.pk}&start=01/01/2026&end=31/12/2026"


FILL = {
    "kind": "periodic",
    "number": "1",
    "conclusions": "A reserva foi aplicada em todos os cargos com vagas suficientes.",
    "signer_name": "Maria Souza",
    "signer_office": "Secretária Municipal de Assistência Social",
}


def test_the_report_screen_links_to_generate_with_its_scope(client_for, world):  # noqa: F811
    client = client_for("manager")
    html = client.get("/relatorios-da-lei/" + scope_query(world)).content.decode()
    assert "Gerar relatório" in html
    assert 'href="/relatorios-da-lei/gerar/?policy=' in html
    auditor = client_for("auditor").get("/relatorios-da-lei/" + scope_query(world)).content.decode()
    assert "Gerar relatório" not in auditor


def test_generate_publishes_a_verifiable_public_versioned_report(client, client_for, world):  # noqa: F811
    manager = client_for("manager")
    page = post_form(manager, URL + scope_query(world), FILL)
    assert page.status_code == 302, page.content.decode()[:3000]
    report = LawReport.objects.get()
    document = report.document
    assert page["Location"] == reverse("public:verify", args=[document.code])
    assert (document.kind, document.contest, document.policy, document.version) == (
        Document.Kind.LAW_REPORT,
        None,
        world["contest"].policy,
        1,
    )
    assert bytes(document.pdf).startswith(b"%PDF")
    assert report.conclusions == FILL["conclusions"]
    # The figures as published: T1 everyone registered, 9 (test_indicators' world).
    everyone = [
        r
        for r in report.rows
        if r["indicador"] == "T1" and r["grupo"] == "Todos" and r["medida"] == "inscritos"
    ]
    assert [r["valor"] for r in everyone] == ["9"]
    # Public: the verification page and the PDF, anonymously.
    verify = client.get(reverse("public:verify", args=[document.code]))
    assert verify.status_code == 200
    assert "Relatório periódico" in verify.content.decode()
    assert client.get(reverse("public:document_pdf", args=[document.code])).status_code == 200
    # Its text for the gazette, charts and all (their glyphs read no control character into the XML).
    assert client.get(reverse("public:document_text", args=[document.code, "docx"])).status_code == 200
    # Again, same kind and number: a new version, which says what it changes.
    again = post_form(manager, URL + scope_query(world), FILL)
    assert again.status_code == 200
    assert "Resuma o que a retificação altera." in again.content.decode()
    again = post_form(manager, URL + scope_query(world), {**FILL, "summary": "Corrige as conclusões."})
    assert again.status_code == 302
    assert [d.version for d in document.versions()] == [1, 2]


def test_the_final_report_recommends_on_the_extension(client_for, world):  # noqa: F811
    page = post_form(client_for("manager"), URL + scope_query(world), {**FILL, "kind": "final"})
    assert page.status_code == 200
    assert "O relatório final recomenda se a lei deve ser prorrogada." in page.content.decode()
    assert not LawReport.objects.exists()


def test_the_generate_form_shows_the_monitoring_bodys_section(client_for, world):  # noqa: F811
    html = client_for("manager").get(URL + scope_query(world)).content.decode()
    (form,) = [f for f in forms_on(html) if f.method == "post" and "conclusions" in f.visible]
    assert {"conclusions", "recommendation", "kind", "number", "signer_name", "signer_office"} <= set(
        form.visible
    )


def test_open_data_serves_the_published_figures_with_the_dictionary(
    client,
    client_for,
    world,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    assert "Nenhum relatório da lei publicado ainda." in client.get("/dados-abertos/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the public pages' generation moves on
        post_form(client_for("manager"), URL + scope_query(world), FILL)
    report = LawReport.objects.get()
    page = client.get("/dados-abertos/").content.decode()
    csv_url = reverse("public:law_report_data", args=[report.document.code, "csv"])
    json_url = reverse("public:law_report_data", args=[report.document.code, "json"])
    assert csv_url in page and json_url in page
    assert "supressão complementar" in page  # the dictionary's 'valor'
    text = client.get(csv_url).content.decode("utf-8-sig")
    assert text.splitlines()[0] == "indicador;concurso;cargo;grupo;medida;valor;nota"
    # As published: T1 racial registrants 3 and PcD 1 suppressed; everyone 9.
    assert ";Todos;inscritos;9;" in text
    assert ";Reserva racial;inscritos;<5;" in text
    data = client.get(json_url).json()
    assert data["relatorio"]["codigo_de_verificacao"] == report.document.code
    assert data["linhas"] == report.rows
    for registration in world["position"].registrations.select_related("candidate"):
        assert registration.candidate.full_name not in text
    assert client.get("/dados-abertos/relatorios-da-lei/NAOEXISTE.csv").status_code == 404
    assert (
        client.get(reverse("public:law_report_data", args=[report.document.code, "xml"])).status_code == 404
    )
