"""/verificar/ takes a code as a person types it: spaces, lower case, no hyphen or a dash instead of it
lead to the document's page at its printed code, from the form and from the address alike."""

from __future__ import annotations

import pytest

from contests.documents.models import Document
from contests.documents.render import normalize_code, pdf_from_html
from contests.documents.services import document_publish
from tests import builders
from tests.pages import forms_on

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("ABCD-1234", "ABCD-1234"),
        (" abcd 1234 ", "ABCD-1234"),
        ("abcd1234", "ABCD-1234"),
        ("abcd-1234", "ABCD-1234"),
        ("ABCD – 1234", "ABCD-1234"),
        ("AB CD 12 34", "ABCD-1234"),
        ("abc", "ABC"),
    ],
)
def test_a_typed_code_is_normalised_to_the_printed_form(typed, stored):
    assert normalize_code(typed) == stored


@pytest.fixture
def document():
    return document_publish(
        contest=builders.make_contest(),
        kind=Document.Kind.EDITAL,
        subject="Edital",
        title="Edital de abertura",
        render=lambda stamp: pdf_from_html(f"<p>Edital {stamp.code}</p>"),
        by=None,
        signer_name="Servidora Signatária",
        signer_office="Gestão",
    )


def typed_variants(code: str) -> list[str]:
    raw = code.replace("-", "")
    return [f" {raw[:4].lower()} {raw[4:].lower()} ", raw.lower(), raw, code.lower()]


def test_the_form_finds_the_document_whatever_the_spacing_case_or_hyphen(client, document):
    (form,) = [f for f in forms_on(client.get("/verificar/").content.decode()) if "code" in f.visible]
    assert form.method == "get"
    for typed in typed_variants(document.code):
        response = client.get(form.action or "/verificar/", {"code": typed}, follow=True)
        assert response.status_code == 200, typed
        assert response.redirect_chain[-1][0] == f"/verificar/{document.code}/", typed
        assert "Edital de abertura" in response.content.decode()


def test_an_address_typed_by_hand_redirects_to_the_printed_code(client, document):
    raw = document.code.replace("-", "")
    for path in (f"/verificar/{raw.lower()}/", f"/verificar/{raw[:4]}%20{raw[4:]}/"):
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"] == f"/verificar/{document.code}/"


def test_an_unknown_code_is_still_a_404_and_an_empty_one_a_message(client, document):
    assert client.get("/verificar/ZZZZ-ZZZZ/").status_code == 404
    page = client.get("/verificar/", {"code": " - "})
    assert page.status_code == 200
    assert "Informe o código impresso no documento" in page.content.decode()
