"""Deterministic builders for tests: ``make_contest(**overrides)`` and friends. No random data."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth.models import Group, User

from contests.models import Contest, Policy, Position, VacancyOpening

_counter = itertools.count(1)

ROLE_USERS = {
    "clerk": "Secretaria",
    "legal": "Jurídico",
    "commission": "Comissão",
    "manager": "Gestão",
    "auditor": "Auditoria",
}
PASSWORD = "senha-de-teste-123"


def make_user(username: str, role: str | None = None, **extra) -> User:
    user = User.objects.create_user(username=username, password=PASSWORD, first_name=username.title(), **extra)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def make_cast() -> dict[str, User]:
    """The fixed cast: one user per role plus an outsider with no role."""
    cast = {key: make_user(key, role) for key, role in ROLE_USERS.items()}
    cast["outsider"] = make_user("outsider")
    return cast


def policy(slug: str = "santa-maria") -> Policy:
    return Policy.objects.get(slug=slug)


def make_contest(**overrides) -> Contest:
    n = next(_counter)
    data = {
        "slug": f"concurso-{n}",
        "number": str(n),
        "year": 2026,
        "title": f"Concurso de teste {n}",
        "policy": overrides.pop("policy", None) or policy(),
        "edital_date": datetime.date(2026, 3, 2),
        "registration_start": datetime.date(2026, 3, 9),
        "registration_end": datetime.date(2026, 4, 8),
    }
    data.update(overrides)
    contest = Contest(**data)
    contest.full_clean()
    contest.save()
    return contest


def make_position(contest: Contest | None = None, vacancies: int | None = 5, **overrides) -> Position:
    contest = contest or make_contest()
    n = next(_counter)
    data = {"code": f"C{n}", "title": f"Cargo {n}"}
    data.update(overrides)
    position = Position.objects.create(contest=contest, **data)
    if vacancies is not None:
        VacancyOpening.objects.create(
            position=position, kind=VacancyOpening.Kind.EDITAL, count=vacancies, date=contest.edital_date
        )
    return position
