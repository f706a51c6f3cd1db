"""Issue 25 N8: upload limits beyond the single file. A private link files at most so many files and bytes
per filing and per day; a file field the form does not have is refused; /verificar/ never spools an extra
anonymous file field to disk; the proxy's documented body limit is the application's (one setting), and a
larger body is refused unread."""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.urls import reverse
from django.utils import timezone

from contests.documents.models import Document
from contests.documents.render import pdf_from_html
from contests.documents.services import document_publish
from declarations import links
from declarations.models import ProcedureAct
from declarations.procedure import services
from tests import builders

pytestmark = pytest.mark.django_db
PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.fixture
def link(cast):
    registration = builders.make_registration(racial_category="preta")
    procedure = services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="Indícios.",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    services.notice_send(procedure=procedure, by=cast["legal"], today=timezone.localdate(), means="in_person")
    link, token = links.link_issue(
        procedure=procedure, holder="candidate", name="Candidata", by=cast["legal"], now=timezone.now()
    )
    return link, token


def pdfs(n, size=0):
    return [SimpleUploadedFile(f"p{i}.pdf", PDF + b"0" * max(0, size - len(PDF))) for i in range(n)]


def test_a_filing_through_a_link_is_bounded_in_files_and_bytes(link, settings):
    settings.LINK_FILING_MAX_FILES = 3
    link, _ = link
    with pytest.raises(Exception, match="Cada protocolo aceita até 3 arquivos"):
        services.candidate_file(
            link=link, kind="evidence", text="Provas.", uploads=pdfs(4), now=timezone.now()
        )
    assert not ProcedureAct.objects.filter(kind="evidence").exists()
    settings.LINK_FILING_MAX_MB = 1
    with pytest.raises(Exception, match="1 MB no total"):
        services.candidate_file(
            link=link, kind="evidence", text="Provas.", uploads=pdfs(2, 600 * 1024), now=timezone.now()
        )


def test_a_link_files_at_most_so_much_per_day(link, settings):
    settings.LINK_DAILY_MAX_FILES = 4
    link, _ = link
    for _ in range(2):
        services.candidate_file(
            link=link, kind="evidence", text="Provas.", uploads=pdfs(2), now=timezone.now()
        )
    with pytest.raises(Exception, match="o limite de hoje foi atingido"):
        services.candidate_file(
            link=link, kind="evidence", text="Provas.", uploads=pdfs(1), now=timezone.now()
        )
    assert ProcedureAct.objects.filter(kind="evidence").count() == 2


def test_an_unknown_file_field_in_a_filing_is_refused(client, link):
    _, token = link
    response = client.post(
        reverse("declarations:portal_file", args=[token]),
        {"kind": "evidence", "text": "Provas.", "attachments": pdfs(1), "extra": pdfs(1)[0]},
        follow=True,
    )
    assert "fora do campo" in response.content.decode()
    assert not ProcedureAct.objects.filter(kind="evidence").exists()


def test_verificar_never_spools_an_extra_anonymous_file_field(client):
    document = document_publish(
        contest=builders.make_contest(),
        kind=Document.Kind.EDITAL,
        subject="Edital",
        title="Edital de abertura",
        render=lambda stamp: pdf_from_html(f"<p>Edital {stamp.code}</p>"),
        by=None,
        signer_name="Servidora Signatária",
        signer_office="Gestão",
    )
    big = b"x" * (6 * 1024 * 1024)  # above FILE_UPLOAD_MAX_MEMORY_SIZE: would go to a temporary file
    spooled = []
    real = TemporaryFileUploadHandler.new_file

    def spy(self, field_name, *args, **kwargs):
        spooled.append(field_name)
        return real(self, field_name, *args, **kwargs)

    with mock.patch.object(TemporaryFileUploadHandler, "new_file", spy):
        response = client.post(
            reverse("public:verify", args=[document.code]),
            {"extra1": SimpleUploadedFile("a.bin", big), "extra2": SimpleUploadedFile("b.bin", big)},
        )
    assert response.status_code == 200 and spooled == []
    assert "Envie um único arquivo" in response.content.decode()


def test_a_body_larger_than_the_setting_is_refused_unread(client, settings):
    settings.REQUEST_BODY_MAX_MB = 1
    response = client.post(
        reverse("public:verify_home"), data=b"x" * (1024 * 1024 + 1), content_type="application/octet-stream"
    )
    assert response.status_code == 413 and "1 MB" in response.content.decode()


def test_the_proxy_limit_documented_is_the_applications():
    text = (Path(django_settings.BASE_DIR) / "docs" / "operations.md").read_text()
    documented = {int(m) for m in re.findall(r"client_max_body_size (\d+)m", text)}
    assert documented == {django_settings.REQUEST_BODY_MAX_MB}
    assert django_settings.REQUEST_BODY_MAX_MB * 1024 * 1024 > 50 * 1024 * 1024  # the largest file accepted
