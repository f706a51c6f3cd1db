"""The files joined to a candidate's appeal, downloaded by Jurídico and Auditoria or by a member of the
appeal commission that judges that appeal (``rules.may_read_appeal_files``): every download logged (LGPD),
never cached."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse
from django.shortcuts import get_object_or_404

from contests.audit import log_access
from contests.views import AuthenticatedHttpRequest
from declarations.hetero import rules, selectors
from declarations.models import AppealAttachment

RECORD = "declarations.record_opinion"
VIEW = "declarations.view_session"


@login_required
def appeal_attachment(request: AuthenticatedHttpRequest, pk: int) -> FileResponse:
    user = request.user
    if not user.has_perm(VIEW) and not user.has_perm(RECORD):
        raise PermissionDenied
    attachment = get_object_or_404(
        AppealAttachment.objects.select_related("appeal__verification", "appeal__judged_in__session"), pk=pk
    )
    appeal = attachment.appeal
    judged_in = appeal.judged_in
    judges_it = (
        judged_in is not None
        and user.has_perm(RECORD)
        and selectors.member_for(session=judged_in.session, user=user) is not None
    )
    if not rules.may_read_appeal_files(sees_every_session=user.has_perm(VIEW), judges_it=judges_it):
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
