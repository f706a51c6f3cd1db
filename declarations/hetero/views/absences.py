"""Jurídico records a candidate's justified absence and calls them to a later session of the same
commission, where the edital provides a second call (``second_call``); refused, in Portuguese, when it does
not or when no justification is given."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from contests.audit import log_access
from contests.forms import add_service_errors
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from declarations.hetero.forms import SecondCallForm
from declarations.hetero.second_call import second_call as second_call_record
from declarations.models import Session, Verification

MANAGE = "declarations.manage_heteroidentification"


@staff_view(MANAGE)
def second_call(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    absent = get_object_or_404(
        Verification.objects.select_related(
            "registration__candidate", "session__commission__contest__policy__procedure_law"
        ),
        pk=pk,
    )
    sessions = Session.objects.filter(
        commission=absent.session.commission, closed_at__isnull=True, starts_at__gt=absent.session.starts_at
    ).order_by("starts_at")
    form = SecondCallForm(request.POST or None, sessions=sessions)
    if request.method == "POST" and form.is_valid():
        try:
            record = second_call_record(
                absent=absent,
                session=form.cleaned_data["session"],
                justification=form.cleaned_data["justification"],
                by=request.user,
                now=timezone.now(),
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"Inscrição {absent.registration.number} chamada em segunda chamada para a "
                f"{str(record.verification.session).lower()}. "
                + (
                    "A convocação (data, hora e local, com o link privado) segue por e-mail."
                    if absent.registration.candidate.email
                    else "Sem e-mail cadastrado: comunique a convocação por carta."
                ),
            )
            return redirect("declarations:hetero_session", pk=record.verification.session_id)
    # The page names the candidate and their absence (and, after a refusal, the justification typed): logged.
    log_access(user=request.user, obj=absent, request=request, detail="segunda chamada")
    law = absent.session.commission.contest.policy.procedure_law
    lead = (
        f"Inscrição {absent.registration.number} ({absent.registration.candidate.display_name}), ausente à "
        f"{str(absent.session).lower()}. "
        + (
            "O edital prevê nova sessão para a ausência justificada e comprovada."
            if law.hetero_second_call
            else "O edital (política do concurso) não prevê segunda chamada."
        )
    )
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": "Segunda chamada por ausência justificada",
            "lead": lead,
            "submit": "Registrar a justificativa e chamar",
            "multipart": False,
            "breadcrumbs": [
                ("Heteroidentificação", reverse("declarations:hetero_sessions")),
                (str(absent.session), reverse("declarations:hetero_session", args=[absent.session_id])),
                here("Segunda chamada"),
            ],
        },
    )
