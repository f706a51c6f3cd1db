"""The public page of a draw of commission members: anyone can recompute it (no account, no personal data
beyond the members' names, which the published record carries)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from declarations.hetero import documents, selectors


def draw_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The published draw (seed, pool, result), recomputed here by the same pure function anyone can run."""
    record = selectors.public_draw(pk)
    return render(request, "declarations/hetero_draw.html", documents.draw_context(record))
