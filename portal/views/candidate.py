"""The candidate's own page, opened with the contest, the inscription number and the personal access code
(``candidates.access``); no search by CPF. The code travels only in a POST body, never in a URL; the answer
is ``private, no-store`` and ``noindex``. Wrong codes are throttled per inscription and address, per address,
and space out the tries on an inscription tried from everywhere (``candidates.services.access_throttle``, in
the database: the same for every worker); a try that must wait is answered at once with 429, ``Retry-After``
and the wait in words, never by holding the worker. An unknown inscription and a wrong code get the same
answer, so the page tells nobody which numbers exist. What it shows is read from published data
only (``candidates.standing``), and the calls to a heteroidentification session still open (date, time,
place: the candidate's own).
"""

from __future__ import annotations

from typing import cast

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from candidates import access, seat_notices
from candidates.models import Registration
from candidates.services import access_throttle
from candidates.standing import candidate_standing, registration_by_number
from contests import selectors as contest_selectors
from contests.models import Contest
from contests.wording import plural
from declarations.hetero.selectors import calls_of
from portal.forms import CandidateLookupForm
from portal.pages import query_text
from portal.views.frame import portal_context

REFUSED = (
    "Não encontramos uma inscrição com este número e este código de acesso neste concurso. Confira os "
    "dados (o código tem 10 letras e números, como ABCD-EFGH-JK) e tente de novo."
)
LOCKED = (
    "Muitas tentativas sem sucesso a partir deste endereço. Por segurança, a consulta está bloqueada por "
    "{wait}. Tente de novo depois disso ou, se perdeu o código, peça outro à Secretaria do concurso."
)
SLOWED = (
    "Esta inscrição recebeu muitas tentativas com código errado. Por segurança, aguarde {wait} antes de "
    "tentar de novo. Confira o código (10 letras e números, como ABCD-EFGH-JK)."
)


def wait_text(seconds: int) -> str:
    """'45 segundos', '1 minuto', '12 minutos' (minutes rounded up from a minute on)."""
    if seconds < 60:
        return plural(seconds, "segundo", "segundos")
    return plural(-(-seconds // 60), "minuto", "minutos")


def _check(contest: Contest, number: str, code: str) -> Registration | None:
    registration = registration_by_number(contest, number)
    if registration is None:
        access.derive(key="-", registration_id=0, version=0)  # about the same work as a real check
        return None
    return registration if access.matches(registration, code) else None


def _forget_code(form: CandidateLookupForm) -> None:
    """A refused code is not written back into the page."""
    data = cast(QueryDict, form.data).copy()  # request.POST, immutable
    data["code"] = ""
    form.data = data


def _page(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    # The portal's frame (templates/public/base.html), with this page's trail.
    frame = {"search_target": "id_number"} if "form" in context else {}  # Alt+3: the number, when asked
    context = {**portal_context([("Minha inscrição", None)], **frame), **context}
    response = render(request, "public/candidate_lookup.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache  # private, no-store: the page is one person's
@require_http_methods(["GET", "POST"])
def candidate_lookup(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        initial = {}
        slug = query_text(request, "concurso")
        if slug:
            contest = contest_selectors.lookup_contest(slug[:80])
            if contest is not None:
                initial["contest"] = contest.pk
        return _page(request, {"form": CandidateLookupForm(initial=initial)})
    form = CandidateLookupForm(request.POST)
    if not form.is_valid():
        return _page(request, {"form": form})
    contest = form.cleaned_data["contest"]
    number = form.cleaned_data["number"]
    now = timezone.now()
    keys = access_throttle.keys(
        contest_id=contest.pk, number=number, address=request.META.get("REMOTE_ADDR") or "desconhecido"
    )
    verdict = access_throttle.verdict(keys, now=now)
    if verdict.retry_after:
        message = LOCKED if verdict.locked else SLOWED
        form.add_error(None, message.format(wait=wait_text(verdict.retry_after)))
        _forget_code(form)
        response = _page(request, {"form": form}, status=429)
        response["Retry-After"] = str(verdict.retry_after)
        return response
    registration = _check(contest, number, form.cleaned_data["code"])
    if registration is None:
        access_throttle.failure_record(keys, now=now)
        form.add_error(None, REFUSED)
        _forget_code(form)
        return _page(request, {"form": form})
    return _page(
        request,
        {
            "standing": candidate_standing(registration),
            "hetero_calls": calls_of(registration),
            "phase_make_ups": seat_notices.phase_make_ups(registration),
        },
    )
