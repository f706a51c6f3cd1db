"""Jurídico's screen of a verification's private links (issue 25, N2): every link sent to the candidate
(by e-mail or on a printed letter), when it was made and last used, until when it works, and a button that
revokes one (a link sent to a mistyped address, a letter lost). Each revocation is audited; a new link
sent revokes the older ones by itself (``declarations.links.link_supersede``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from contests.audit import log_access
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from declarations import links as link_service
from declarations.hetero.forms import LinkRevokeForm
from declarations.models import Verification, VerificationLink

MANAGE = "declarations.manage_heteroidentification"


@staff_view(MANAGE)
def verification_links(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    verification = get_object_or_404(
        Verification.objects.select_related("registration__candidate", "session__commission"), pk=pk
    )
    now = timezone.now()
    if request.method == "POST":
        form = LinkRevokeForm(request.POST, links=VerificationLink.objects.filter(verification=verification))
        link = form.cleaned_data["link"] if form.is_valid() else None
        if link is None:
            messages.error(request, " ".join(str(error) for error in form.errors.get("link", [])))
        elif not link.usable_at(now):
            messages.info(request, "Este link já não funcionava (revogado ou vencido).")
        else:
            link_service.link_revoke(
                link=link, by=request.user, now=now, reason="Link privado revogado pelo setor"
            )
            messages.success(
                request,
                f"Link de {link.name} criado em {timezone.localtime(link.created_at):%d/%m/%Y %H:%M} revogado: não abre mais.",
            )
        return redirect("declarations:hetero_links", pk=verification.pk)
    log_access(user=request.user, obj=verification, request=request, detail="links privados")
    rows = [
        {"link": link, "usable": link.usable_at(now)}
        for link in VerificationLink.objects.filter(verification=verification).order_by("-created_at", "-pk")
    ]
    return render(
        request,
        "declarations/hetero_links.html",
        {
            "verification": verification,
            "rows": rows,
            "breadcrumbs": [
                ("Heteroidentificação", reverse("declarations:hetero_sessions")),
                (
                    str(verification.session),
                    reverse("declarations:hetero_session", args=[verification.session_id]),
                ),
                here(f"Links privados ({verification.registration.number})"),
            ],
        },
    )
