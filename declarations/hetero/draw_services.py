"""The auditable draw of a commission's members in two steps (RULES §5; ADC 41; the algorithm in ``draw.py``),
so that "the seed is public and fixed before the draw" is enforced, not promised:

1. ``draw_announce``: Jurídico fixes the pool, k and the seed's public SOURCE, with the date from which the
   seed is known (strictly after the notice's day); the notice is recorded (who, when) and published as an
   act ("Aviso de sorteio") in the same transaction, before any seed is accepted. A new notice replaces the
   pending one (kept on record), and from the day the pending one's seed is known only by a reasoned act;
   once a draw is performed, its notice is final.
2. ``draw_perform``: later, the seed typed by Jurídico is refused before the announced date, and the
   members are drawn from the announced pool and k only; the commission is formed from the drawn members
   and the draw's record (``MemberDraw``) is linked to its notice, its public page recorded as a
   publication. A notice is drawn at most once.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from contests.audit import User, audited_save
from contests.models import Contest, Publication
from contests.publication import publication_record
from declarations.hetero import draw as draw_rules
from declarations.hetero import rules
from declarations.hetero.documents import Signer, announcement_publish
from declarations.hetero.selectors import announcement_document, pending_announcement
from declarations.hetero.services import (
    Formed,
    MemberInput,
    commission_create,
    policy_size,
)
from declarations.models import Commission, DrawAnnouncement, MemberDraw


def _refuse(message: str, field: str | None = None) -> None:
    raise ValidationError({field: message} if field else message)


def _refuse_if(message: str | None, field: str | None = None) -> None:
    if message:
        _refuse(message, field)


@transaction.atomic
def draw_announce(
    *,
    contest: Contest,
    kind: str,
    pool: Sequence[MemberInput],
    seed_source: str,
    seed_known_on: datetime.date,
    by: User,
    now: datetime.datetime,
    signer: Signer,
    replacement_reason: str = "",
) -> DrawAnnouncement:
    """Record and publish the notice of a draw of ``contest``'s commission of ``kind``: ``pool`` (the
    eligible members), k (the policy's size) and the seed's public source, known from ``seed_known_on``
    (strictly after today). A pending notice of the same commission is replaced and stays on record; from
    the day its seed is known, only with ``replacement_reason`` (a reasoned act, printed on the draw's
    record): otherwise a public result could be re-rolled by announcing again."""
    Contest.objects.select_for_update().get(pk=contest.pk)  # two officers announcing at once
    kind = rules.Kind(kind)
    if Commission.objects.filter(contest=contest, kind=kind).exists():
        _refuse(f"O concurso já tem {rules.KIND_LABELS[kind]}: não há sorteio a anunciar.")
    k = policy_size(contest, kind)
    algorithm = draw_rules.ALGORITHM
    try:
        names = draw_rules.check([m.name for m in pool], k, algorithm)
    except draw_rules.DrawError as exc:
        _refuse(str(exc), "members")
    keys = [name.casefold() for name in names]
    if len(set(keys)) != len(keys):
        _refuse("Há membros repetidos na lista de sorteáveis (o mesmo nome).", "members")
    source = " ".join(seed_source.split())
    if not source:
        _refuse("Informe a fonte pública da semente.", "seed_source")
    today = timezone.localdate(now)
    _refuse_if(draw_rules.notice_problem(today=today, seed_known_on=seed_known_on), "seed_known_on")
    reason = " ".join(replacement_reason.split())
    previous = pending_announcement(contest, kind)
    if previous is not None:
        previous = DrawAnnouncement.objects.select_for_update().get(pk=previous.pk)
        _refuse_if(
            draw_rules.replacement_problem(
                today=today, pending_known_on=previous.seed_known_on, reason=reason
            ),
            "replacement_reason",
        )
        previous.replaced_at = now
        audited_save(
            previous,
            by=by,
            reason="Aviso de sorteio substituído por novo aviso" + (f": {reason}" if reason else ""),
        )
    elif reason:
        _refuse(
            "Não há aviso vigente a substituir: deixe o motivo da substituição em branco.",
            "replacement_reason",
        )
    announcement = DrawAnnouncement(
        contest=contest,
        kind=kind,
        pool=[
            {
                "name": name,  # as hashed (normalised): the notice prints what the draw hashes
                "office": m.office.strip(),
                "gender": m.gender.strip(),
                "colour": m.colour.strip(),
                "email": m.email.strip(),
                "user": m.user.pk if m.user else None,
            }
            for m, name in zip(pool, names, strict=True)
        ],
        pool_digest=draw_rules.pool_digest(names, algorithm),
        k=k,
        algorithm=algorithm,
        seed_source=source,
        seed_known_on=seed_known_on,
        announced_at=now,
        announced_by=by,
        replaces=previous,
        replacement_reason=reason,
    )
    audited_save(announcement, by=by, reason="Aviso de sorteio dos membros")
    announcement_publish(announcement=announcement, by=by, signer=signer)
    return announcement


def _members(announcement: DrawAnnouncement) -> dict[str, MemberInput]:
    users = get_user_model().objects.in_bulk([e["user"] for e in announcement.pool if e.get("user")])
    return {
        draw_rules.normalise(e["name"], announcement.algorithm): MemberInput(
            name=e["name"],
            office=e["office"],
            gender=e["gender"],
            colour=e["colour"],
            email=e.get("email", ""),
            user=users.get(e["user"]) if e.get("user") else None,
        )
        for e in announcement.pool
    }


@transaction.atomic
def draw_perform(
    *,
    announcement: DrawAnnouncement,
    seed: str,
    formed_on: datetime.date,
    act_reference: str = "",
    by: User,
    now: datetime.datetime,
) -> Formed:
    """Draw the announced commission with the public ``seed`` (no earlier than the announced date), from
    the announced pool and k only, form it from the drawn members and keep the draw's record, linked to the
    notice. Refused: a replaced notice, a notice already drawn, an unpublished notice, a pool that no longer
    matches its published digest."""
    contest = announcement.contest
    Contest.objects.select_for_update().get(pk=contest.pk)  # serialises with announce and form
    announcement = DrawAnnouncement.objects.select_for_update().get(pk=announcement.pk)
    if MemberDraw.objects.filter(announcement=announcement).exists():
        _refuse("O sorteio deste aviso já foi realizado: o resultado é definitivo.")
    if announcement.replaced_at is not None:
        _refuse(
            f"Este aviso foi substituído em {timezone.localtime(announcement.replaced_at):%d/%m/%Y}: "
            "sorteie pelo aviso vigente."
        )
    if announcement_document(announcement) is None:
        _refuse("O aviso de sorteio não foi publicado: nenhuma semente é aceita antes da publicação.")
    today = timezone.localdate(now)
    if today < announcement.seed_known_on:
        _refuse(
            f"A semente só é aceita a partir de {announcement.seed_known_on:%d/%m/%Y}, a data anunciada "
            f"para a fonte pública ({announcement.seed_source}).",
            "seed",
        )
    names = announcement.names
    algorithm = announcement.algorithm  # the notice's: a notice published with v1 is drawn with v1
    if draw_rules.pool_digest(names, algorithm) != announcement.pool_digest:
        _refuse(
            "A lista de sorteáveis não confere com a do aviso publicado (resumo SHA-256): o sorteio "
            "não pode ser feito. Publique um novo aviso."
        )
    try:
        result = draw_rules.draw(seed, names, announcement.k, algorithm)
    except draw_rules.DrawError as exc:
        _refuse(str(exc), "seed")
    by_name = _members(announcement)
    chosen = [by_name[name] for name in result.drawn]
    commission, warnings = commission_create(
        contest=contest,
        kind=rules.Kind(announcement.kind),
        chosen=chosen,
        size=announcement.k,
        formed_on=formed_on,
        act_reference=act_reference,
        by=by,
    )
    record = MemberDraw(
        commission=commission,
        announcement=announcement,
        seed=result.seed,
        pool=list(result.pool),
        pool_digest=result.pool_digest,
        k=result.k,
        algorithm=result.algorithm,
        result=[entry.member for entry in result.ranking],
        drawn_at=now,
        drawn_by=by,
    )
    audited_save(record, by=by, reason="Sorteio público dos membros, conforme o aviso")
    # The draw's public page (seed, pool, result, recomputed) exists from now on.
    publication_record(
        contest=contest,
        kind=Publication.Kind.HETEROIDENTIFICATION,
        title=f"Resultado do sorteio dos membros da {commission.get_kind_display().lower()}",
        by=by,
        url=reverse("public:hetero_draw", args=[record.pk]),
    )
    return Formed(commission, warnings, record)
