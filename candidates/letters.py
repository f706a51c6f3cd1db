"""The candidates' personal letters, in the one letter layout (``contests.documents.letters``): the access
code (one, or a contest's batch for those without e-mail) and the nomination. Each letter carries the
candidate's access code, computed now (``candidates.access``): a letter is never stored."""

from __future__ import annotations

import datetime

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from candidates import access
from candidates.engine import schedule
from candidates.models import Nomination, Registration
from candidates.tasks import page_url
from contests.documents.letters import Letter


def recipient(registration: Registration) -> str:
    candidate = registration.candidate
    return candidate.social_name or candidate.full_name


def reference(registration: Registration) -> str:
    return f"Inscrição {registration.number} · {registration.contest}"


def with_code(
    registration: Registration, *, title: str, body_template: str, context: dict, **fields
) -> Letter:
    """A letter to ``registration``'s candidate with their current access code; ``body_template`` (under
    ``templates/pdf/letters/``) says what the letter is about."""
    body = render_to_string(body_template, {"registration": registration, **context})
    return Letter(
        title=title,
        recipient=recipient(registration),
        address=registration.candidate.address,
        reference=reference(registration),
        body=mark_safe(body),  # a template's output, autoescaped
        access_code=access.code_for(registration),
        access_url=page_url(),
        **fields,
    )


def access_code_letter(registration: Registration, *, today: datetime.date) -> Letter:
    return with_code(
        registration,
        title="Código de acesso à sua inscrição",
        body_template="pdf/letters/access_code.html",
        context={"contest": registration.contest, "position": registration.position},
        dated=today,
    )


def nomination_letter(nomination: Nomination) -> Letter:
    """The letter that tells one nominee of their nomination (sent by registered mail, RULES §4): the act,
    the seat, the deadline to take office."""
    registration = nomination.registration
    group = nomination.position.contest.policy.group_label
    return with_code(
        registration,
        title="Comunicação de nomeação",
        body_template="pdf/letters/nomination.html",
        context={
            "nomination": nomination,
            "position": nomination.position,
            "seat_kind": schedule.kind_label(nomination.seat_kind, group),
            "source_list": schedule.kind_label(nomination.source_list, group),
        },
        dated=nomination.act_date,
    )
