"""The public site of the contests app: verification of a published document (anonymous)."""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from contests.documents.models import Document
from contests.documents.services import verify_file

MAX_UPLOAD = 50 * 1024 * 1024


class CodeForm(forms.Form):
    code = forms.CharField(label="Código de verificação", max_length=12)


class UploadForm(forms.Form):
    file = forms.FileField(label="Arquivo PDF a conferir")

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD:
            raise forms.ValidationError("O arquivo passa de 50 MB: não é um documento publicado aqui.")
        return file


@require_http_methods(["GET"])
def verify_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.GET or None)
    if form.is_valid():
        return redirect("contests:verify", code=form.cleaned_data["code"].strip().upper())
    return render(request, "public/verify_home.html", {"form": form})


@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest, code: str) -> HttpResponse:
    document = Document.objects.select_related("contest").filter(code=code.upper()).first()
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    versions = list(document.versions().defer("pdf"))
    form = UploadForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        result = verify_file(data=form.cleaned_data["file"].read(), code=document.code)
    context = {"document": document, "versions": versions, "form": form, "result": result}
    return render(request, "public/verify.html", context)


@require_http_methods(["GET"])
def document_pdf(request: HttpRequest, code: str) -> HttpResponse:
    document = Document.objects.filter(code=code.upper()).first()
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{document.kind}-{document.code}-v{document.version}.pdf"'
    )
    response["ETag"] = f'"{document.sha256}"'
    return response
