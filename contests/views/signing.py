"""The organisation's signing certificate (issue 20): Gestão uploads the body's A1 certificate; the readers
of the organisation's screen see which certificate signs (subject, issuer, serial, validity) and the ones
it replaced."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from contests.documents import services as document_services
from contests.documents import signing
from contests.forms import add_service_errors
from contests.models import SigningCertificate
from contests.signing_forms import SigningCertificateForm
from contests.views.access import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here


@staff_view("contests.view_signingcertificate")
def signing_certificate(request: AuthenticatedHttpRequest) -> HttpResponse:
    can_upload = request.user.has_perm("contests.add_signingcertificate")
    if request.method == "POST" and not can_upload:
        raise PermissionDenied
    form = None
    if can_upload:
        form = SigningCertificateForm(
            request.POST if request.method == "POST" else None,
            request.FILES if request.method == "POST" else None,
        )
        if request.method == "POST" and form.is_valid():
            try:
                certificate = document_services.signing_certificate_replace(
                    data=form.cleaned_data["content"],
                    password=form.cleaned_data["certificate_password"],
                    by=request.user,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"Certificado de {certificate.common_name} instalado: os próximos documentos publicados "
                    "saem assinados com ele.",
                )
                return redirect("contests:signing_certificate")
    breadcrumbs = [("Organização", reverse("contests:organization")), here("Certificado de assinatura")]
    context = {
        "form": form,
        "current": SigningCertificate.current(),
        "replaced": SigningCertificate.objects.filter(active=False)
        .select_related("uploaded_by")
        .order_by("-replaced_at")[:20],
        "settings_fallback": signing.uses_settings_certificate(),
        "other_backend": signing.backend_label(),
        "breadcrumbs": breadcrumbs,
    }
    return render(request, "contests/signing_certificate.html", context)
