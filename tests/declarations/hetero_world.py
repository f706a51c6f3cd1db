"""A heteroidentification world on a contest: a first commission drawn from a pool (the cast's Comissão
user among its members), an appeal commission, a session with the racial-reserve candidates called."""

from __future__ import annotations

import datetime

from django.utils import timezone

from declarations.hetero import services as hs
from tests.builders import make_user

SEED = "Mega-Sena concurso 2900: 05 12 23 34 45 56"
GENDERS = ("feminino", "masculino")
COLOURS = ("preta", "parda", "branca")


def at(day: datetime.date, hour: int = 10) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def people(prefix: str, n: int, role: str | None = "Comissão", first_user=None) -> list[hs.MemberInput]:
    return [
        hs.MemberInput(
            name=f"{prefix} {i}",
            office="Servidor(a)",
            gender=GENDERS[i % 2],
            colour=COLOURS[i % 3],
            user=(
                first_user
                if i == 1 and first_user
                else make_user(f"{prefix.lower()}{i}", role)
                if role
                else None
            ),
            no_conflict_signed_on=datetime.date(2026, 6, 1),
        )
        for i in range(1, n + 1)
    ]


def make_hetero_world(cast: dict, contest) -> dict:
    """Without a draw, so the cast's Comissão user is surely a member of the first commission."""
    legal = cast["legal"]
    day = datetime.date(2026, 6, 1)
    first = hs.commission_form(
        contest=contest, kind="first", pool=people("Membro", 5, first_user=cast["commission"]),
        formed_on=day, by=legal, now=at(day),
    )  # fmt: skip
    appeal = hs.commission_form(
        contest=contest, kind="appeal", pool=people("Recursal", 3), formed_on=day, by=legal, now=at(day)
    )
    # The published record of a draw (a drawn commission is formed in the services' tests).
    from declarations.hetero.draw import draw as compute
    from declarations.models import MemberDraw

    result = compute(SEED, ["A", "B", "C", "D", "E", "F", "G"], 5)
    draw = MemberDraw.objects.create(
        commission=first.commission, seed=result.seed, pool=list(result.pool), pool_digest=result.pool_digest,
        k=5, algorithm=result.algorithm, result=[e.member for e in result.ranking], drawn_at=at(day),
        drawn_by=legal,
    )  # fmt: skip
    from declarations.models import DrawAnnouncement

    announcement = DrawAnnouncement.objects.create(
        contest=contest, kind="first", k=5, pool=[{"name": m, "office": "x", "gender": "f", "colour": "preta", "user": None} for m in result.pool],
        pool_digest=result.pool_digest, algorithm=result.algorithm, seed_source="Mega-Sena 2900", seed_known_on=day,
        announced_at=at(day), announced_by=legal,
    )  # fmt: skip
    session = hs.session_schedule(
        commission=first.commission, starts_at=at(datetime.date(2026, 6, 20)), place="Sala 1", by=legal
    )
    called = hs.candidates_call(session=session, by=legal)
    from declarations.links import hetero_link_issue

    _, token = hetero_link_issue(verification=called[0], by=legal, now=timezone.now())
    # A published act of heteroidentification (a blank page stands in for the PDF the pipeline renders:
    # its gazette text, read back from it, is empty).
    import io

    from pypdf import PdfWriter

    from contests.documents.models import Document

    blank = PdfWriter()
    blank.add_blank_page(width=595, height=842)
    pdf = io.BytesIO()
    blank.write(pdf)

    document = Document.objects.create(
        contest=contest, kind=Document.Kind.HETERO_DRAW, subject=f"draw-{draw.pk}", title="Sorteio",
        pdf=pdf.getvalue(), sha256=f"{draw.pk:064d}", code=f"HD{draw.pk:02d}-TEST", published_at=timezone.now(),
        published_by=legal, signer_name="Ana Souza", signer_office="Procuradora",
    )  # fmt: skip
    return {
        "hetero_document": document,
        "hetero_token": token,
        "member": first.commission.members.order_by("pk").first(),
        "hetero_session": session,
        "verification": called[0],
        "draw": draw,
        "draw_announcement": announcement,
        "appeal_commission": appeal.commission,
    }


def a_day_passes(announcement) -> None:
    """The day a draw notice announced for tomorrow becomes the day its seed is known (the notice is moved
    one day back: the seed's date is strictly after the notice's day, and screens use the real clock)."""
    from declarations.models import DrawAnnouncement

    DrawAnnouncement.objects.filter(pk=announcement.pk).update(
        announced_at=announcement.announced_at - datetime.timedelta(days=1),
        seed_known_on=announcement.seed_known_on - datetime.timedelta(days=1),
    )
    announcement.refresh_from_db()
