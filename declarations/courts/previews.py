"""What complying with a court order will do, said before it is done (issue 22): ``order_effects_apply``
run inside a savepoint that is always rolled back (``declarations.procedure.previews.rehearse``), read for
each candidate in the order's scope (status before and after, their nominations' changes) and the seats'
engine's messages. Nothing is computed twice, nothing stays written; a refusal is the service's own message.
The confirmation page shows these lines; "Confirmar" then calls the same service for real."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError

from candidates.models import Nomination, Registration
from contests.audit import User
from declarations.courts import effects
from declarations.models import CourtOrder
from declarations.procedure.previews import Preview, _refused, rehearse


def _nomination_line(nomination: Nomination, before: str | None) -> str:
    now = nomination.get_status_display().lower()
    if before is None:
        return (
            f"Nova nomeação na {nomination.seat}ª vaga: inscrição nº {nomination.registration.number}, {now}."
        )
    was = Nomination.Status(before).label.lower()
    return (
        f"Nomeação de {nomination.act_date:%d/%m/%Y} ({nomination.act_number}, {nomination.seat}ª vaga, "
        f"inscrição nº {nomination.registration.number}): de “{was}” a “{now}”."
    )


def order_effects_apply_preview(*, order: CourtOrder, by: User, today: datetime.date) -> Preview:
    """What ``effects.order_effects_apply`` does to ``order``'s candidates and their positions' seats."""

    def run() -> Preview:
        done = set(order.effects.values_list("registration_id", flat=True))
        reached = list(order.registrations.exclude(pk__in=done).order_by("number"))
        statuses = {r.pk: r.get_status_display().lower() for r in reached}
        positions = {r.position_id for r in reached}
        before = dict(Nomination.objects.filter(position__in=positions).values_list("pk", "status"))
        messages = effects.order_effects_apply(order=order, by=by, today=today)
        lines: list[str] = []
        for registration in Registration.objects.filter(pk__in=statuses).select_related("candidate"):
            now = registration.get_status_display().lower()
            name = registration.candidate.social_name or registration.candidate.full_name
            change = (
                f"passa de “{statuses[registration.pk]}” a “{now}”"
                if now != statuses[registration.pk]
                else f"continua “{now}”"
            )
            lines.append(
                f"Inscrição nº {registration.number} ({name}): {change}, a partir de {today:%d/%m/%Y}."
            )
        changed = Nomination.objects.filter(position__in=positions).select_related("registration")
        for nomination in changed.order_by("position_id", "order"):
            if before.get(nomination.pk) != nomination.status:
                lines.append(_nomination_line(nomination, before.get(nomination.pk)))
        lines += [f"Ordem de nomeação: {message}" for message in messages]
        return Preview(tuple(lines))

    try:
        return rehearse(run)
    except ValidationError as error:
        return _refused(error)
