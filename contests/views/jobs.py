"""The page of a background job (``contests.jobs``): what is happening, refreshed every 2 seconds while it
runs (a ``<meta http-equiv="refresh">``: the CSP forbids inline scripts), then the result or the error;
and the file the job generated, when it generated one."""

from __future__ import annotations

import datetime
import uuid

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from contests.audit import User, log_access
from contests.jobs import job_output, output_available
from contests.models import Job
from contests.views.access import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import contest_trail, here

# A job that has said nothing for this long has probably lost its worker: the page says so.
SILENT_AFTER = datetime.timedelta(minutes=10)


def get_job_for_user(user: User, pk: uuid.UUID) -> Job:
    """The job ``pk``: 404 unless the user may see contests and either asked for it or holds the
    permission the job names (the one that gives access to what it produces)."""
    if not user.has_perm("contests.view_contest"):
        raise Http404
    job = get_object_or_404(Job.objects.defer("output").select_related("contest", "requested_by"), pk=pk)
    if job.requested_by_id != user.pk and not user.has_perm(job.permission):
        raise Http404
    return job


@require_safe
@staff_view("contests.view_contest")
def job_detail(request: AuthenticatedHttpRequest, pk: uuid.UUID) -> HttpResponse:
    job = get_job_for_user(request.user, pk)
    silent = (
        not job.is_finished and job.updated_at is not None and timezone.now() - job.updated_at > SILENT_AFTER
    )
    has_output = bool(job.output_name) and output_available(job)
    return render(
        request,
        "contests/job_detail.html",
        {
            "contest": job.contest,
            "breadcrumbs": contest_trail(job.contest, here(job.title)),
            "job": job,
            "silent": silent,
            "has_output": has_output,
        },
    )


@require_safe
@staff_view("contests.view_contest")
def job_file(request: AuthenticatedHttpRequest, pk: uuid.UUID) -> HttpResponse:
    """The file the job generated (a draft list's PDF), while it is kept; its download is logged like the
    export it replaces."""
    job = get_job_for_user(request.user, pk)
    output = job_output(job)
    if output is None:
        raise Http404
    log_access(
        user=request.user,
        obj=job,
        action="view_sensitive",
        detail=f"arquivo gerado em segundo plano: {job.output_name}",
        request=request,
    )
    response = HttpResponse(output, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{job.output_name}"'
    return response
