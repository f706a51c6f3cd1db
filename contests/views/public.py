"""The public site of the contests app: verification of a published document (anonymous).

A restricted document (``RESTRICTED_KINDS``: procedure acts, heteroidentification minutes) is confirmed
authentic by its code, kind, date of issue, version and SHA-256, and its holder may upload the file to
compare; its title, any name and the PDF are never shown to the public (the PDF address is a 404)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from contests.documents.models import RESTRICTED_KINDS, Document
from contests.documents.services import verify_file

MAX_UPLOAD = 50 * 1024 * 1024
TOO_LARGE = "O arquivo passa de 50 MB: não é um documento publicado aqui."


class CodeForm(forms.Form):
    code = forms.CharField(label="Código de verificação", max_length=12)


class UploadForm(forms.Form):
    file = forms.FileField(label="Arquivo PDF a conferir")

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD:  # a backstop: LimitedUpload skips it while it is read
            raise forms.ValidationError(TOO_LARGE)
        return file


class LimitedUpload(FileUploadHandler):
    """Skips an uploaded file as soon as its received bytes pass ``limit``: the size is checked while the
    upload is read, not after it was stored whole."""

    def __init__(self, request: HttpRequest, limit: int | None = None) -> None:
        super().__init__(request)
        self.limit = MAX_UPLOAD if limit is None else limit
        self.too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > self.limit:
            self.too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler (memory or temporary file) builds the file


@require_http_methods(["GET"])
def verify_home(request: HttpRequest) -> HttpResponse:
    form = CodeForm(request.GET or None)
    if form.is_valid():
        return redirect("contests:verify", code=form.cleaned_data["code"].strip().upper())
    return render(request, "public/verify_home.html", {"form": form})


def is_restricted(document: Document | None) -> bool:
    return document is not None and document.kind in RESTRICTED_KINDS


@csrf_exempt
@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest, code: str) -> HttpResponse:
    # The size limit is checked while the upload is read (Django's pattern for changing the upload
    # handlers: before the CSRF check reads the body, then the CSRF check itself).
    handler = LimitedUpload(request)
    request.upload_handlers = [handler, *request.upload_handlers]
    return _verify(request, code, handler)


@csrf_protect
def _verify(request: HttpRequest, code: str, handler: LimitedUpload) -> HttpResponse:
    document = Document.objects.select_related("contest").defer("pdf").filter(code=code.upper()).first()
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    restricted = is_restricted(document)
    versions = [] if restricted else list(document.versions().defer("pdf"))
    form = UploadForm(request.POST, request.FILES) if request.method == "POST" else UploadForm()
    result = None
    if request.method == "POST":
        if handler.too_large:
            form.is_valid()
            form.errors.pop("file", None)
            form.add_error("file", TOO_LARGE)
        elif form.is_valid():
            try:
                result = verify_file(
                    stream=form.cleaned_data["file"].file, code=document.code, max_bytes=MAX_UPLOAD
                )
            except ValidationError as error:
                form.add_error("file", error.messages[0])
    context = {
        "document": document,
        "restricted": restricted,
        "versions": versions,
        "form": form,
        "result": result,
        "other_restricted": result is not None and is_restricted(result.document),
    }
    return render(request, "public/verify.html", context)


@require_http_methods(["GET"])
def document_pdf(request: HttpRequest, code: str) -> HttpResponse:
    document = Document.objects.filter(code=code.upper()).first()
    if document is None or is_restricted(document):
        # A restricted document's PDF goes only to who may read it, through the procedure's own pages.
        raise Http404("Nenhum documento público tem este código.")
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{document.kind}-{document.code}-v{document.version}.pdf"'
    )
    response["ETag"] = f'"{document.sha256}"'
    return response
