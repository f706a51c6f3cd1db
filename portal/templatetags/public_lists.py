"""The lines of a published list's table (``templates/public/list.html``), written in Python.

A list page shows 50 lines and the public asks for one again with every search: in the template language
each line's five cells cost about 30 µs (1.5 ms a page, a third of answering a search, December 2026);
written here, with the same escaping, a few µs. The lines come from ``candidates.published.row_text``: places
and score already as the public reads them.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

LINE = (
    '<tr><td class="num" data-label="Classificação">{}º</td><td data-label="Inscrição">{}</td>'
    '<td data-label="Nome">{}</td><td class="num" data-label="Nota final">{}</td>'
    '<td class="num" data-label="Na lista geral">{}º</td></tr>'
)


@register.simple_tag
def list_lines(rows: Iterable[Mapping[str, Any]]) -> SafeString:
    """The ``<tr>`` of each line, in order: place, inscription, name, score, place on the general list.
    Every value is escaped (``escape``: what ``{{ }}`` does, and no double escape of a value already
    marked safe)."""
    line = LINE.format
    return mark_safe(  # every value below is escaped
        "\n".join(
            line(
                escape(row["rank"]),
                escape(row["number"]),
                escape(row["name"]),
                escape(row["score"]),
                escape(row["general_rank"]),
            )
            for row in rows
        )
    )


def escape(value: Any) -> str:
    """``conditional_escape`` of a value, its plain texts and integers without its checks for lazy and safe
    texts (each cost a wrapper and a generator: 250 values a page, a sixth of answering a search). A plain
    ``str`` is escaped as Django's ``escape`` does (``html.escape``), an integer has nothing to escape."""
    kind = type(value)
    if kind is str:
        return html.escape(value)
    if kind is int:
        return str(value)
    return conditional_escape(value)
