"""The candidate's private link to their heteroidentification result (RULES §5): no account; they read the
result, the count and every opinion's reasons and the commission's composition, and file the appeal with
reasons before the deadline (a late one is refused with the day the deadline ended). An altered, expired or
revoked link gets a clear page.

What the link shows (our reading of LGPD and of Lei 9.784): the result, the count of opinions and every
opinion's reasons (the candidate must know them to appeal, arts. 3º II and 50), and the commission's
composition (its designation is a public act, and the candidate may argue a member's impediment, arts.
18–20); but not which member wrote which opinion: that attribution is not needed for the defence and would
expose the members, so the opinions are numbered, not signed, on the candidate's page (the restricted
minutes keep the attribution)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from contests.audit import log_access
from contests.forms import add_service_errors
from declarations.hetero import appeal_files, rules, selectors
from declarations.hetero import services as hs
from declarations.hetero.forms import AppealForm
from declarations.links import LinkError, hetero_link_resolve
from declarations.models import VerificationLink


def _link_or_error(request: HttpRequest, token: str) -> VerificationLink | HttpResponse:
    try:
        return hetero_link_resolve(token, now=timezone.now())
    except LinkError as error:
        return render(request, "declarations/portal_error.html", {"message": str(error)}, status=403)


def _page(
    request: HttpRequest, link: VerificationLink, token: str, form: AppealForm | None = None
) -> HttpResponse:
    verification = link.verification
    page = selectors.result_page(verification)
    today = timezone.localdate()
    open_for_appeal = (
        page.appeal is None
        and verification.outcome == rules.Outcome.NOT_CONFIRMED
        and verification.appeal_deadline is not None
        and today <= verification.appeal_deadline
    )
    return render(
        request,
        "declarations/hetero_portal.html",
        {
            "link": link,
            "token": token,
            "verification": verification,
            "registration": verification.registration,
            "opinions": page.opinions,
            "members": page.members,
            "appeal": page.appeal,
            "appeal_files": list(page.appeal.attachments.order_by("pk")) if page.appeal else [],
            "judged": page.judged,
            "judged_opinions": page.judged_opinions,
            "form": form or (AppealForm() if open_for_appeal else None),
            "late": page.appeal is None
            and verification.appeal_deadline is not None
            and today > verification.appeal_deadline,
        },
    )


@never_cache
def portal(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    log_access(
        user=None,
        obj=link.verification,
        action="portal",
        detail=link.name,
        request=request,
        via_link="Candidato(a)",
    )
    return _page(request, link, token)


@csrf_exempt  # the upload's bounds are enforced while it is read: CSRF is checked after the handler is set
@require_POST
def appeal(request: HttpRequest, token: str) -> HttpResponse:
    request.upload_handlers = [appeal_files.AppealUploadLimit(request), *request.upload_handlers]
    return _appeal(request, token)


@csrf_protect
def _appeal(request: HttpRequest, token: str) -> HttpResponse:
    link = _link_or_error(request, token)
    if isinstance(link, HttpResponse):
        return link
    data, files = request.POST, request.FILES  # read here, through the handler
    refused = appeal_files.upload_refusal(request)
    form = AppealForm(data, files if not refused else None)
    if refused:
        form.is_valid()
        form.add_error("attachments", refused)  # nothing recorded; the reasons stay typed when read
        return _page(request, link, token, form)
    if form.is_valid():
        try:
            hs.appeal_file(
                verification=link.verification,
                reasons=form.cleaned_data["reasons"],
                now=timezone.now(),
                uploads=form.cleaned_data["attachments"],
            )
        except ValidationError as error:
            if hasattr(error, "error_dict") and "attachments" in error.error_dict:
                add_service_errors(form, error)  # the files refused: the reasons stay typed
                return _page(request, link, token, form)
            for message in error.messages:
                messages.error(request, message)
            return redirect("declarations:hetero_portal", token=token)
        messages.success(
            request,
            f"Recurso recebido em {timezone.localtime():%d/%m/%Y %H:%M}. Ele será julgado pela comissão recursal; "
            "a convocação será publicada.",
        )
        return redirect("declarations:hetero_portal", token=token)
    return _page(request, link, token, form)
