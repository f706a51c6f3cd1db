"""The candidate's own page, opened with the contest, the inscription number and the personal access code
(``candidates.access``); no search by CPF. The code travels only in a POST body, never in a URL; the answer
is ``private, no-store`` and ``noindex``. Wrong codes are throttled per client address and per inscription
(Django's cache: with several workers, a shared ``CACHE_URL``), and an unknown inscription and a wrong code
get the same answer, so the page tells nobody which numbers exist. What it shows is read from published data
only (``candidates.standing``), and the calls to a heteroidentification session still open (date, time,
place: the candidate's own).
"""

from __future__ import annotations

import hashlib
from typing import cast

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from candidates import access
from candidates.models import Registration
from candidates.standing import candidate_standing, registration_by_number
from contests import selectors as contest_selectors
from contests.models import Contest
from declarations.hetero.selectors import calls_of
from portal.forms import CandidateLookupForm
from portal.pages import query_text
from portal.views.frame import portal_context

# Failures before a lockout, and its length: 20 wrong tries from one address in 15 minutes, or 10 on one
# inscription in an hour (from anywhere). With 30¹⁰ codes, guessing one is out of reach either way.
MAX_FAILURES_PER_ADDRESS = 20
ADDRESS_WINDOW = 15 * 60
MAX_FAILURES_PER_REGISTRATION = 10
REGISTRATION_WINDOW = 60 * 60

REFUSED = (
    "Não encontramos uma inscrição com este número e este código de acesso neste concurso. Confira os "
    "dados (o código tem 10 letras e números, como ABCD-EFGH-JK) e tente de novo."
)
LOCKED = (
    "Muitas tentativas sem sucesso. Por segurança, a consulta está bloqueada por algum tempo (até "
    "{minutes} minutos). Tente mais tarde ou, se perdeu o código, peça outro à Secretaria do concurso."
)


def _keys(request: HttpRequest, contest: Contest, number: str) -> list[tuple[str, int, int]]:
    """(cache key, limit, window) of the counters a failure adds to; the inscription hashed, so the
    cache holds no personal data."""
    address = request.META.get("REMOTE_ADDR") or "desconhecido"
    inscription = hashlib.sha256(f"{contest.pk}:{number.upper()}".encode()).hexdigest()[:32]
    return [
        (f"access-code:address:{address}", MAX_FAILURES_PER_ADDRESS, ADDRESS_WINDOW),
        (f"access-code:registration:{inscription}", MAX_FAILURES_PER_REGISTRATION, REGISTRATION_WINDOW),
    ]


def _locked_out(keys: list[tuple[str, int, int]]) -> int:
    """The window (seconds) of the first counter at its limit, or 0."""
    for key, limit, window in keys:
        if (cache.get(key) or 0) >= limit:
            return window
    return 0


def _count_failure(keys: list[tuple[str, int, int]]) -> None:
    for key, _, window in keys:
        if not cache.add(key, 1, timeout=window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=window)


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
    keys = _keys(request, contest, number)
    window = _locked_out(keys)
    if window:
        form.add_error(None, LOCKED.format(minutes=window // 60))
        _forget_code(form)
        return _page(request, {"form": form, "locked": True}, status=429)
    registration = _check(contest, number, form.cleaned_data["code"])
    if registration is None:
        _count_failure(keys)
        form.add_error(None, REFUSED)
        _forget_code(form)
        return _page(request, {"form": form})
    return _page(
        request, {"standing": candidate_standing(registration), "hetero_calls": calls_of(registration)}
    )
