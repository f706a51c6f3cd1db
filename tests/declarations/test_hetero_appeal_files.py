"""Files on the candidate's appeal against the commission's decision (RULES §5; courts ask that the
candidate can prove what they allege): sent through the private link's page (a multipart form), a bounded
number and total size refused in Portuguese, each checked by content, hashed and kept privately under the
extension of the type found; Jurídico and the appeal commission download them (logged, never cached),
others get 403."""

from __future__ import annotations

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import StopUpload
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from contests.models import AccessLog
from declarations.hetero import appeal_files, rules
from declarations.hetero import services as hs
from declarations.links import hetero_link_issue
from declarations.models import Appeal, AppealAttachment, CommissionMember, Verification
from tests.declarations.test_hetero_screens import _close_with, _formed_and_called
from tests.declarations.test_hetero_screens import contest as screens_contest
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32

contest = pytest.fixture(screens_contest.__wrapped__, name="contest")  # type: ignore[attr-defined]


def _portal(client, cast, contest):
    """N2 not confirmed today (the appeal period open) and the path of their private page."""
    session = _formed_and_called(client, cast, contest)
    _close_with(session, cast["legal"], {"N1": (True,) * 5, "N2": (False,) * 5})
    verification = Verification.objects.get(registration__number="N2")
    _, token = hetero_link_issue(verification=verification, by=None, now=timezone.now())
    client.logout()
    return verification, reverse("declarations:hetero_portal", args=[token])


def test_rules_s5_the_appeal_carries_files_checked_by_content_hashed_and_named_by_their_type(
    client,
    cast,
    contest,
):
    verification, url = _portal(client, cast, contest)
    form = next(f for f in forms_on(client.get(url).content.decode()) if "reasons" in f.visible)
    assert form.enctype == "multipart/form-data" and "attachments" in form.visible
    files = [SimpleUploadedFile("laudo.html", PDF), SimpleUploadedFile("foto.png", PNG)]
    page = post_form(
        client, url, {"reasons": "Sou parda; junto laudo e foto.", "attachments": files}, follow=True
    )
    text = page.content.decode()
    assert "Recurso recebido" in text and "laudo.pdf" in text and hashlib.sha256(PDF).hexdigest() in text
    appeal = Appeal.objects.get(verification=verification)
    stored = list(appeal.attachments.order_by("pk"))
    assert [(a.name, a.content_type, a.size) for a in stored] == [
        ("laudo.html", "application/pdf", len(PDF)),
        ("foto.png", "image/png", len(PNG)),
    ]
    assert stored[0].sha256 == hashlib.sha256(PDF).hexdigest() and stored[0].file.name.endswith(".pdf")
    assert stored[0].download_name == "laudo.pdf" and stored[1].file.name.endswith(".png")
    assert stored[0].history.count() == 1  # audited


def test_rules_s5_too_many_files_too_large_or_not_a_document_are_refused_in_portuguese(
    client,
    cast,
    contest,
    settings,
):
    _, url = _portal(client, cast, contest)
    too_many = [SimpleUploadedFile(f"f{i}.pdf", PDF) for i in range(appeal_files.MAX_FILES + 1)]
    page = post_form(client, url, {"reasons": "Razões.", "attachments": too_many})
    assert page.status_code == 200 and "Envie no máximo 5 arquivos" in page.content.decode()
    assert "Razões." in page.content.decode()  # what was typed stays
    big = PDF + b"0" * (appeal_files.MAX_TOTAL_BYTES // 2)
    page = post_form(
        client,
        url,
        {"reasons": "Razões.", "attachments": [SimpleUploadedFile(f"{i}.pdf", big) for i in range(3)]},
    )
    assert "Os arquivos passam de 20 MB no total, o limite do recurso" in page.content.decode()
    page = post_form(
        client, url, {"reasons": "Razões.", "attachments": [SimpleUploadedFile("x.pdf", b"<html>")]}
    )
    assert "não é PDF nem imagem" in page.content.decode()
    assert not Appeal.objects.exists() and not AppealAttachment.objects.exists()


def test_rules_s5_the_staff_and_the_appeal_commission_download_the_files_logged_and_never_cached(
    client,
    cast,
    contest,
):
    verification, url = _portal(client, cast, contest)
    post_form(client, url, {"reasons": "Junto laudo.", "attachments": [SimpleUploadedFile("laudo", PDF)]})
    attachment = AppealAttachment.objects.get()
    download = reverse("declarations:hetero_appeal_attachment", args=[attachment.pk])
    assert client.get(download).status_code == 302  # to the login page
    client.force_login(cast["legal"])
    session_page = client.get(reverse("declarations:hetero_session", args=[verification.session_id]))
    assert download in session_page.content.decode()
    response = client.get(download)
    assert response.status_code == 200 and b"".join(response.streaming_content) == PDF
    assert "private, no-store" in response["Cache-Control"] and "laudo.pdf" in response["Content-Disposition"]
    assert AccessLog.objects.filter(user=cast["legal"], action="download", detail__contains="laudo").exists()
    # A member of the first commission (whose decision is appealed) may not; nor, before the appeal is
    # distributed, a member of an appeal commission: only the one that judges THIS appeal, once called.
    first_member = CommissionMember.objects.filter(commission__kind="first").exclude(user=None).first()
    client.force_login(first_member.user)
    assert client.get(download).status_code == 403
    appeal_judge = CommissionMember.objects.filter(commission__kind="appeal").exclude(user=None).first()
    client.force_login(appeal_judge.user)
    assert client.get(download).status_code == 403
    # Distributed to the appeal commission's session: its members see the reasons and the file there.
    client.force_login(cast["legal"])
    appeal_commission = appeal_judge.commission
    judged_session = hs.session_schedule(
        commission=appeal_commission, starts_at=timezone.now(), place="Sala 2", by=cast["legal"]
    )
    hs.appeal_call(appeal=attachment.appeal, session=judged_session, by=cast["legal"])
    client.force_login(appeal_judge.user)
    page = client.get(reverse("declarations:hetero_session", args=[judged_session.pk])).content.decode()
    assert "Junto laudo." in page and download in page
    assert client.get(download).status_code == 200
    assert AccessLog.objects.filter(
        user=appeal_judge.user, object_id=str(verification.pk), action="download"
    ).exists()


def _appeal_form(client, url):
    return next(f for f in forms_on(client.get(url).content.decode()) if "reasons" in f.visible)


def test_rules_s5_a_file_under_another_field_stops_the_upload_and_nothing_is_recorded(client, cast, contest):
    _, url = _portal(client, cast, contest)
    form = _appeal_form(client, url)
    page = client.post(
        form.action or url, {**form.values, "reasons": "Razões.", "outro": SimpleUploadedFile("x.pdf", PDF)}
    )
    assert page.status_code == 200 and appeal_files.UNKNOWN_FILE_FIELD in page.content.decode()
    assert not Appeal.objects.exists() and not AppealAttachment.objects.exists()


def test_rules_s5_the_limits_are_enforced_while_the_upload_is_read():
    """The handler stops at the sixth file and at the byte past 20 MB: the rest is never kept."""
    request = RequestFactory().post("/")
    handler = appeal_files.AppealUploadLimit(request)
    for _ in range(appeal_files.MAX_FILES):
        handler.new_file("attachments", "f.pdf", "application/pdf", None)
    with pytest.raises(StopUpload):
        handler.new_file("attachments", "f.pdf", "application/pdf", None)
    assert appeal_files.upload_refusal(request) == appeal_files.TOO_MANY_FILES
    request = RequestFactory().post("/")
    handler = appeal_files.AppealUploadLimit(request)
    handler.new_file("attachments", "f.pdf", "application/pdf", None)
    chunk = b"0" * (1024 * 1024)
    for _ in range(appeal_files.MAX_TOTAL_BYTES // len(chunk)):
        assert handler.receive_data_chunk(chunk, 0) == chunk
    with pytest.raises(StopUpload):
        handler.receive_data_chunk(b"0", 0)
    assert appeal_files.upload_refusal(request) == appeal_files.TOO_LARGE


def test_django_refuses_more_files_than_any_form_takes(settings):
    assert settings.DATA_UPLOAD_MAX_NUMBER_FILES == 20


def test_rules_s5_may_read_appeal_files_is_the_staff_or_the_commission_judging_it():
    assert rules.may_read_appeal_files(sees_every_session=True, judges_it=False)
    assert rules.may_read_appeal_files(sees_every_session=False, judges_it=True)
    assert not rules.may_read_appeal_files(sees_every_session=False, judges_it=False)
