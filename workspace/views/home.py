"""The home page ("Pendências"): what waits for each of the user's roles, with counts and links."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from contests.views.access import AuthenticatedHttpRequest
from workspace import pendencies


@login_required
def home(request: AuthenticatedHttpRequest) -> HttpResponse:
    sections = pendencies.home_sections(request.user, today=timezone.localdate())
    return render(request, "contests/home.html", {"sections": sections})
