"""Issue 25 N13: free text is bounded per field, the limit shown: 2 MB of facts made a 429-page act in 59 s.
Every workspace text area (and the candidate's) takes at most TEXT_MAX_CHARS characters, renders
``maxlength`` and says "Até 10.000 caracteres"; more is refused in Portuguese, nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from declarations.models import Procedure
from tests.builders import make_registration
from tests.pages import forms_on

pytestmark = pytest.mark.django_db


def test_the_facts_of_an_opening_are_bounded_and_the_limit_is_shown(client_for, cast):
    registration = make_registration(racial_category="parda")
    client = client_for("legal")
    url = reverse("declarations:open", args=[registration.pk])
    html = client.get(url).content.decode()
    assert 'maxlength="10000"' in html and "Até 10.000 caracteres." in html
    form = next(f for f in forms_on(html) if f.method == "post" and "facts" in f.visible)
    response = client.post(url, {**form.values, "origin": "ex_officio", "facts": "x" * 10_001})
    assert response.status_code == 200
    assert "no máximo 10000 caracteres" in response.content.decode()
    assert not Procedure.objects.exists()
    assert client.post(url, {**form.values, "origin": "ex_officio", "facts": "x" * 10_000}).status_code == 302


def test_every_free_text_field_of_the_workspace_and_the_candidate_is_bounded():
    from django import forms

    from declarations.hetero.forms import AppealForm, OpinionForm
    from declarations.procedure.forms import FilingForm, OpenForm

    for form in (OpenForm(), FilingForm(), OpinionForm(), AppealForm()):
        for name, field in form.fields.items():
            if isinstance(field.widget, forms.Textarea):
                assert field.max_length and "caracteres" in str(field.help_text), (type(form).__name__, name)
