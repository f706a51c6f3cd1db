"""The files joined to a candidate's appeal, downloaded by Jurídico and Auditoria or by a member of the
contest's appeal commission (which judges it): every download logged (LGPD), never cached."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse
from django.shortcuts import get_object_or_404

from contests.audit import log_access
from contests.views import AuthenticatedHttpRequest
from declarations.hetero import rules
from declarations.models import AppealAttachment, CommissionMember

RECORD = "declarations.record_opinion"
VIEW = "declarations.view_session"


@login_required
def appeal_attachment(request: AuthenticatedHttpRequest, pk: int) -> FileResponse:
    user = request.user
    if not user.has_perm(VIEW) and not user.has_perm(RECORD):
        raise PermissionDenied
    attachment = get_object_or_404(
        AppealAttachment.objects.select_related("appeal__verification__session__commission"), pk=pk
    )
    appeal = attachment.appeal
    if not user.has_perm(VIEW):
        contest_id = appeal.verification.session.commission.contest_id
        judges = CommissionMember.objects.filter(
            commission__contest_id=contest_id, commission__kind=rules.Kind.APPEAL, user=user
        )
        if not judges.exists():
            raise PermissionDenied
    log_access(
        user=user,
        obj=appeal.verification,
        request=request,
        action="download",
        detail=f"anexo do recurso: {attachment.name}",
    )
    response = FileResponse(
        attachment.file.open("rb"),
        as_attachment=True,
        filename=attachment.download_name,
        content_type=attachment.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
