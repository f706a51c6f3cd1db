"""The protocol receipts' PDFs: to the holder of the private link (the candidate or their representative)
and to Jurídico and Auditoria on the case page; each download logged (LGPD)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from contests.audit import log_access
from contests.views import AuthenticatedHttpRequest, staff_view
from declarations.models import FilingReceipt, Procedure
from declarations.procedure.views.candidate import _link_or_error as link_or_error
from declarations.procedure.views.candidate import link_holder
from declarations.procedure.views.staff import VIEW, get_procedure_for_user


def case_receipt(procedure: Procedure, pk: int) -> FilingReceipt:
    """The receipt ``pk`` of ``procedure`` with its PDF (another case's: 404)."""
    return get_object_or_404(
        FilingReceipt.objects.select_related("document", "act__procedure").filter(
            act__procedure=procedure, document__isnull=False
        ),
        pk=pk,
    )


def serve_receipt(receipt: FilingReceipt) -> HttpResponse:
    assert receipt.document is not None
    response = HttpResponse(bytes(receipt.document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="protocolo-{receipt.number:06d}-{receipt.year}.pdf"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


def portal_receipt(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    link = link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    receipt = case_receipt(link.procedure, pk)
    log_access(
        user=None,
        via_link=link_holder(link),
        obj=link.procedure,
        action="document",
        detail=f"{link.name}: {receipt}",
        request=request,
    )
    return serve_receipt(receipt)


@staff_view(VIEW)
def staff_receipt(request: AuthenticatedHttpRequest, year: int, number: int, pk: int) -> HttpResponse:
    procedure = get_procedure_for_user(request.user, year, number)
    receipt = case_receipt(procedure, pk)
    log_access(user=request.user, obj=procedure, action="document", detail=str(receipt), request=request)
    return serve_receipt(receipt)
