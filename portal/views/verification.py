"""The verification of a published document (``/verificar/``): by its code, with every version of its act,
and by its file (the holder uploads the PDF; its SHA-256 is compared with the versions'). Not stored in the
page cache: the page answers uploads.

A restricted document (``RESTRICTED_KINDS``: procedure acts, heteroidentification minutes) is confirmed
authentic by its code, kind, date of issue, version and SHA-256, and its holder may upload the file to
compare; its title, any name and the PDF are never shown to the public (the PDF address is a 404).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from contests import selectors as contest_selectors
from contests.documents.models import RESTRICTED_KINDS, Document
from contests.documents.services import verify_file
from contests.views.gazette import export_response
from portal import forms
from portal.views.frame import Crumb, portal_context


class LimitedUpload(FileUploadHandler):
    """Skips an uploaded file as soon as its received bytes pass ``limit``: the size is checked while the
    upload is read, not after it was stored whole."""

    def __init__(self, request: HttpRequest, limit: int | None = None) -> None:
        super().__init__(request)
        self.limit = forms.MAX_UPLOAD if limit is None else limit
        self.too_large = False
        self.seen = self.unknown = False

    def new_file(self, field_name: str, *args: object, **kwargs: object) -> None:
        # Only the form's one file field, once: any other file field of an anonymous request is skipped
        # here, never spooled to disk (three 40 MB extra fields were written to temporary files).
        if field_name != "file" or self.seen:
            self.unknown = True
            raise SkipFile
        self.seen = True
        super().new_file(field_name, *args, **kwargs)  # type: ignore[arg-type]

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > self.limit:
            self.too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler (memory or temporary file) builds the file


@require_http_methods(["GET"])
def verify_home(request: HttpRequest) -> HttpResponse:
    form = forms.CodeForm(request.GET or None)
    if form.is_valid():
        return redirect("public:verify", code=form.cleaned_data["code"])
    context = portal_context([("Verificar documento", None)], form=form)
    return render(request, "public/verify_home.html", context)


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
    document = contest_selectors.document_by_code(code)
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    if request.method == "GET" and code != document.code:
        # Typed by hand ("abcd1234", "abcd 1234"): the page lives at the code as printed.
        return redirect("public:verify", code=document.code)
    restricted = is_restricted(document)
    versions = [] if restricted else contest_selectors.document_versions(document)
    form = forms.UploadForm(request.POST, request.FILES) if request.method == "POST" else forms.UploadForm()
    result = None
    if request.method == "POST":
        if handler.unknown:
            form.is_valid()
            form.errors.pop("file", None)
            form.add_error("file", "Envie um único arquivo, no campo do formulário: nada foi comparado.")
        elif handler.too_large:
            form.is_valid()
            form.errors.pop("file", None)
            form.add_error("file", forms.TOO_LARGE)
        elif form.is_valid():
            try:
                result = verify_file(
                    stream=form.cleaned_data["file"].file, code=document.code, max_bytes=forms.MAX_UPLOAD
                )
            except ValidationError as error:
                form.add_error("file", error.messages[0])
    crumbs: list[Crumb] = [("Verificar documento", reverse("public:verify_home")), (document.code, None)]
    context = portal_context(
        crumbs,
        document=document,
        versions=versions,
        form=form,
        result=result,
        restricted=restricted,
        other_restricted=result is not None and is_restricted(result.document),
        contest_public=not restricted and document.contest is not None and document.contest.edital_published,
    )
    return render(request, "public/verify.html", context)


@require_http_methods(["GET"])
def document_pdf(request: HttpRequest, code: str) -> HttpResponse:
    document = contest_selectors.public_document_pdf(code)
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{document.kind}-{document.code}-v{document.version}.pdf"'
    )
    response["ETag"] = f'"{document.sha256}"'
    response["Cache-Control"] = "public, max-age=86400, immutable"
    return response


@require_http_methods(["GET"])
def document_text(request: HttpRequest, code: str, fmt: str) -> HttpResponse:
    """The act's text for the official gazette (txt, docx, odt): the PDF's words; like the PDF, never for
    a restricted kind."""
    document = contest_selectors.public_document_pdf(code)
    if document is None:
        raise Http404("Nenhum documento publicado tem este código.")
    return export_response(
        document, fmt, filename=f"{document.kind}-{document.code}-v{document.version}", public=True
    )
