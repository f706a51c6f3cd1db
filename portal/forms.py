"""The public site's forms: the candidate's own page (contest, inscription number, access code) and the
verification of a document (its code, or its file to compare)."""

from __future__ import annotations

from typing import cast

from django import forms

from contests import selectors as contest_selectors
from contests.documents.render import normalize_code
from contests.forms import StaffFormMixin
from contests.models import Contest

# A published document is far smaller; a larger upload is refused while it is read (the verification
# view's upload handler) and again here.
MAX_UPLOAD = 50 * 1024 * 1024
TOO_LARGE = "O arquivo passa de 50 MB: não é um documento publicado aqui."


class CandidateLookupForm(StaffFormMixin, forms.Form):
    """Contest, inscription number and personal access code (``candidates.access``): posted, never in a
    URL. Only contests out of draft are offered."""

    contest = forms.ModelChoiceField(
        label="Concurso", queryset=Contest.objects.none(), empty_label="Escolha o concurso"
    )
    number = forms.CharField(
        label="Número de inscrição",
        max_length=30,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    code = forms.CharField(
        label="Código de acesso",
        max_length=40,
        help_text="Enviado por e-mail ou impresso na carta que você recebeu, no formato ABCD-EFGH-JK. "
        "Perdeu o código? Peça outro à Secretaria do concurso.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["contest"])
        field.queryset = contest_selectors.lookup_contests()
        field.error_messages["invalid_choice"] = "Escolha um dos concursos da lista."

    def clean_number(self) -> str:
        return self.cleaned_data["number"].strip()


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Código de verificação",
        max_length=40,
        help_text="Como impresso no documento, por exemplo 7KQ4-M2XD (maiúsculas, espaços e hífen não importam).",
    )

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        # Letters, digits and the hyphen only: the code goes into the page's address (a "/" would make
        # no address at all).
        if not code or not code.isascii() or not code.replace("-", "").isalnum():
            raise forms.ValidationError("Informe o código impresso no documento, por exemplo 7KQ4-M2XD.")
        return code


class UploadForm(forms.Form):
    file = forms.FileField(label="Arquivo PDF a conferir")

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD:  # a backstop: the view's upload handler skips it while it is read
            raise forms.ValidationError(TOO_LARGE)
        return file
