"""Letters with the candidate's access code, for those without e-mail: one registration's, or the contest's
batch ("Imprimir cartas dos candidatos sem e-mail": one PDF, one letter per sheet, those whose current code
was never printed, ``letters.BATCH`` at a time). A letter carries a secret, so each print is a POST by a user
who may change registrations, recorded (``AccessCodeDelivery`` "carta impressa") and logged (one access-log
row per letter), and served ``private, no-store``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from candidates.letters import access_code_letter
from candidates.services.access import access_code_letters_printed, awaiting_letter
from candidates.views.registrations import get_registration_for_user
from contests.documents.letters import BATCH, render_letters
from contests.views import AuthenticatedHttpRequest, get_contest_for_user, staff_view
from contests.wording import plural

PERMS = ("contests.view_contest", "candidates.change_registration")


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@staff_view(*PERMS)
def registration_access_letter(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The letter with the registration's current code (no reissue: the code stays the same)."""
    registration = get_registration_for_user(request.user, slug, pk, change=True)
    now = timezone.now()
    pdf = render_letters(
        [access_code_letter(registration, today=timezone.localdate(now))],
        title=f"Código de acesso – inscrição {registration.number}",
    )
    access_code_letters_printed(
        registrations=[registration], by=request.user, now=now, request_ip=request.META.get("REMOTE_ADDR")
    )
    return pdf_response(pdf, f"carta-codigo-{registration.number.replace('/', '-')}.pdf")


@require_POST
@staff_view(*PERMS)
def access_letters(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The next batch of letters of the contest's candidates without e-mail whose code was never printed."""
    contest = get_contest_for_user(request.user, slug)
    pending = list(awaiting_letter(contest)[:BATCH])
    if not pending:
        messages.info(
            request,
            "Nenhuma carta a imprimir: todos os candidatos sem e-mail já têm a carta com o código atual. "
            "Para reimprimir a de um candidato, use a página da inscrição.",
        )
        return redirect(reverse("candidates:registration_list", args=[contest.slug]))
    now = timezone.now()
    pdf = render_letters(
        [access_code_letter(registration, today=timezone.localdate(now)) for registration in pending],
        title=f"Códigos de acesso – {plural(len(pending), 'carta', 'cartas')}",
    )
    access_code_letters_printed(
        registrations=pending, by=request.user, now=now, request_ip=request.META.get("REMOTE_ADDR")
    )
    return pdf_response(pdf, f"cartas-codigo-{contest.slug}.pdf")
