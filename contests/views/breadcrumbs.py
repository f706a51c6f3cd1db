"""The trail at the top of a staff page, built by the view and drawn by ``templates/includes/breadcrumbs.html``:
a list of (label, url) pairs from the widest page to the current one, whose url is ``None``."""

from __future__ import annotations

from django.urls import reverse

from contests.models import Contest, Position

Crumb = tuple[str, str | None]


def here(label: object) -> Crumb:
    """The current page: the last crumb, not a link."""
    return (str(label), None)


def contest_trail(contest: Contest | None, *tail: Crumb) -> list[Crumb]:
    """Concursos › Concurso 7/2026 › ``tail``."""
    trail: list[Crumb] = [("Concursos", reverse("contests:list"))]
    if contest is not None:
        trail.append((f"Concurso {contest.number}/{contest.year}", contest.get_absolute_url()))
    return [*trail, *tail]


def position_trail(position: Position, *tail: Crumb) -> list[Crumb]:
    """Concursos › Concurso 7/2026 › TLEG › ``tail``."""
    return contest_trail(position.contest, (position.code, position.get_absolute_url()), *tail)
