"""The candidates' personal letters, in the one letter layout (``contests.documents.letters``): the access
code (one, or a contest's batch for those without e-mail) and the nomination. Each letter carries the
candidate's access code, computed now (``candidates.access``): a letter is never stored."""

from __future__ import annotations

import datetime

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from candidates import access
from candidates.acts import ActName, by, post_phrase, published_act, with_article
from candidates.engine import schedule
from candidates.models import Nomination, Registration, ResultEntry
from candidates.tasks import page_url
from contests.documents.letters import Letter
from contests.documents.render import verification_url
from contests.models import Organization
from contests.wording import agreeing


def recipient(registration: Registration) -> str:
    return registration.candidate.display_name


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
    """The letter that tells one nominee of their nomination (sent by registered mail): the act, the post,
    the seat and the list, the deadline to take office, the documents and examinations it asks for, where
    to go. It says the act can be checked on the portal only once the act is published there."""
    registration = nomination.registration
    position = nomination.position
    contest = position.contest
    group = contest.policy.group_label
    act = ActName.parse(nomination.act_number)
    published = published_act(contest, nomination.act_number)
    list_name = schedule.list_label(nomination.source_list, group)
    act_name = with_article(act.name)
    return with_code(
        registration,
        title="Comunicação de nomeação",
        body_template="pdf/letters/nomination.html",
        context={
            "nomination": nomination,
            "position": position,
            "contest": contest,
            "post": post_phrase(position),
            "public_contest": f"Concurso Público nº {contest.number}/{contest.year}",
            "act_by": by(act.name),
            "act_published": agreeing(act.kind, "publicado"),
            "this_act": act.this,
            "seat_kind": schedule.kind_label(nomination.seat_kind, group).lower(),
            "list_name": list_name[0].lower() + list_name[1:],
            "published": published,
            "published_note": (
                f"{act_name[0].upper()}{act_name[1:]} foi {agreeing(act.kind, 'publicado')} e pode ser "
                f"{agreeing(act.kind, 'conferido')} no portal do concurso"
            ),
            "rank": ResultEntry.objects.filter(
                run=nomination.run_id, registration=registration, list=nomination.source_list
            )
            .values_list("rank", flat=True)
            .first(),
            "verify_url": verification_url(published.code) if published else "",
            "requirements": contest.office_requirement_items,
            "place": contest.office_place.strip(),
            "organization": Organization.current(),
        },
        dated=nomination.act_date,
    )
