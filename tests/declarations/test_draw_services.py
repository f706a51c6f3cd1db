"""The draw in two steps (declarations/draw_services.py; RULES §5, ADC 41: the seed is public and fixed
before the draw): the notice (pool, k, the seed's source) is recorded and published before any seed; the
seed is refused before the announced date; the members are drawn from the announced pool and k only; a
notice is drawn once; a new notice replaces a pending one, which stays on record."""

from __future__ import annotations

import datetime
import io
import shlex

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from contests.documents.models import Document
from contests.models import Publication
from declarations.hetero import documents, draw_services, selectors
from declarations.hetero import draw as draw_rules
from declarations.hetero import services as hs
from declarations.hetero.documents import Signer, draw_context
from declarations.models import Commission, CommissionMember, DrawAnnouncement, MemberDraw
from tests.builders import make_contest
from tests.declarations.test_heteroidentification_services import SEED, at, people

pytestmark = pytest.mark.django_db
D = datetime.date
SOURCE = "Resultado do concurso nº 2950 da Mega-Sena, de 05/06/2026"
SIGNER = Signer("Ana Souza", "Procuradora")
KNOWN_ON = D(2026, 6, 5)  # the day the announced lottery result is out


def announce(contest, by, *, pool=None, kind="first", known_on=KNOWN_ON, now=None):
    return draw_services.draw_announce(
        contest=contest,
        kind=kind,
        pool=pool if pool is not None else people("Membro", 7, role=None),
        seed_source=SOURCE,
        seed_known_on=known_on,
        by=by,
        now=now or at(D(2026, 6, 1)),
        signer=SIGNER,
    )


def perform(announcement, by, *, day=KNOWN_ON, seed=SEED):
    return draw_services.draw_perform(
        announcement=announcement, seed=seed, formed_on=day, by=by, now=at(day, 21)
    )


@pytest.fixture
def contest():
    return make_contest(pcd_percent=0)


def test_adc41_the_notice_is_recorded_and_published_before_any_seed(contest, cast):
    announcement = announce(contest, cast["legal"])
    assert announcement.k == contest.policy.procedure_law.hetero_commission_size == 5
    assert announcement.announced_by == cast["legal"] and announcement.seed_known_on == D(2026, 6, 5)
    assert announcement.pool_digest == draw_rules.pool_digest([f"Membro {i}" for i in range(1, 8)])
    document = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=announcement.subject)
    assert document.title.startswith("Aviso de sorteio")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(bytes(document.pdf))).pages)
    text = " ".join(text.split())
    assert "Mega-Sena" in text and "05/06/2026" in text and "Membro 7" in text and "SHA-256" in text
    assert not Commission.objects.exists() and not MemberDraw.objects.exists()


def test_adc41_the_draw_takes_the_announced_pool_and_k_and_is_linked_to_the_notice(contest, cast):
    announcement = announce(contest, cast["legal"])
    formed = perform(announcement, cast["legal"])
    expected = draw_rules.draw(SEED, [f"Membro {i}" for i in range(1, 8)], 5)
    assert formed.draw is not None and formed.draw.announcement == announcement
    assert formed.draw.drawn == list(expected.drawn)
    assert sorted(m.name for m in formed.commission.members.all()) == sorted(expected.drawn)
    assert formed.commission.size == 5


def test_adc41_a_seed_before_the_announced_date_is_refused_and_nothing_is_written(contest, cast):
    announcement = announce(contest, cast["legal"])
    with pytest.raises(ValidationError, match="a partir de 05/06/2026") as error:
        perform(announcement, cast["legal"], day=D(2026, 6, 4))
    assert "seed" in error.value.message_dict
    assert not Commission.objects.exists() and not MemberDraw.objects.exists()
    perform(announcement, cast["legal"], day=D(2026, 6, 5))  # from the announced day on, accepted
    assert MemberDraw.objects.count() == 1


def test_adc41_a_notice_for_a_date_already_past_is_refused(contest, cast):
    with pytest.raises(ValidationError, match="posterior a 01/06/2026"):
        announce(contest, cast["legal"], known_on=D(2026, 5, 31))
    assert not DrawAnnouncement.objects.exists() and not Document.objects.exists()


def test_adc41_the_seed_s_date_is_strictly_after_the_notice_s_day(contest, cast):
    # On the notice's own day the lottery result may already be out (a draw at 20h, a notice at 22h).
    with pytest.raises(ValidationError, match="depois do dia do aviso") as error:
        announce(contest, cast["legal"], known_on=D(2026, 6, 5), now=at(D(2026, 6, 5), 22))
    assert "seed_known_on" in error.value.message_dict
    assert not DrawAnnouncement.objects.exists() and not Document.objects.exists()
    announce(contest, cast["legal"], known_on=D(2026, 6, 6), now=at(D(2026, 6, 5), 22))  # the next day: fine


def names(prefix="Membro", n=7):
    return [f"{prefix} {i}" for i in range(1, n + 1)]


def test_adc41_a_draw_cannot_be_rerolled_once_its_seed_is_public(contest, cast):
    """The scratch sequence: announced on 1 June, the seed known on 5 June; at 22h on 5 June, the lottery
    result public, a second notice with the same source leaving out the member drawn first is refused, and
    the first notice, still in force, draws that member."""
    first_notice = announce(contest, cast["legal"])  # 1 June, seed known on 5 June
    unwanted = draw_rules.draw(SEED, names(), 5).drawn[0]
    pool = [m for m in people("Membro", 7, role=None) if m.name != unwanted]
    pool.append(hs.MemberInput(name="Membro 8", office="Servidor(a)", gender="feminino", colour="preta"))
    for known_on in (KNOWN_ON, D(2026, 6, 6)):  # the same day, or a later one: no re-roll without a reason
        with pytest.raises(ValidationError) as error:
            announce(contest, cast["legal"], pool=pool, known_on=known_on, now=at(KNOWN_ON, 22))
        assert set(error.value.message_dict) <= {"seed_known_on", "replacement_reason"}
    assert "ato fundamentado" in " ".join(error.value.messages)
    first_notice.refresh_from_db()
    assert first_notice.replaced_at is None and DrawAnnouncement.objects.count() == 1
    assert Document.objects.filter(kind=Document.Kind.HETERO_DRAW).count() == 1
    formed = perform(first_notice, cast["legal"], day=KNOWN_ON)
    assert unwanted in formed.draw.drawn


def test_adc41_a_notice_whose_seed_is_known_is_replaced_only_by_a_reasoned_act_on_the_record(
    client, contest, cast
):
    first_notice = announce(contest, cast["legal"])
    reason = "A Caixa suspendeu o sorteio nº 2950 da Mega-Sena; a fonte anunciada não foi divulgada."
    second = draw_services.draw_announce(
        contest=contest,
        kind="first",
        pool=people("Membro", 7, role=None),
        seed_source="Resultado do concurso nº 2951 da Mega-Sena, de 09/06/2026",
        seed_known_on=D(2026, 6, 9),
        replacement_reason=reason,
        by=cast["legal"],
        now=at(KNOWN_ON, 22),
        signer=SIGNER,
    )
    first_notice.refresh_from_db()
    assert first_notice.replaced_at == at(KNOWN_ON, 22)
    assert second.replaces == first_notice and second.replacement_reason == reason
    notice_pdf = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=second.subject)
    assert "suspendeu o sorteio" in pdf_text(notice_pdf.pdf)
    formed = perform(second, cast["legal"], day=D(2026, 6, 9))
    page = client.get(reverse("public:hetero_draw", args=[formed.draw.pk])).content.decode()
    assert "Avisos substituídos" in page and reason in page and "05/06/2026" in page
    document = documents.draw_publish(record=formed.draw, by=cast["legal"], signer=SIGNER)
    text = pdf_text(document.pdf)
    assert "AVISOS SUBSTITUÍDOS" in text and "suspendeu o sorteio nº 2950" in text


def pdf_text(pdf) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(bytes(pdf))).pages).split())


def test_adc41_a_pool_changed_after_the_notice_is_refused(contest, cast):
    announcement = announce(contest, cast["legal"])
    pool = [*announcement.pool[:-1], {**announcement.pool[-1], "name": "Pessoa Escolhida"}]
    DrawAnnouncement.objects.filter(pk=announcement.pk).update(pool=pool)
    announcement.refresh_from_db()
    with pytest.raises(ValidationError, match="não confere com a do aviso publicado"):
        perform(announcement, cast["legal"])
    assert not Commission.objects.exists() and not MemberDraw.objects.exists()


def test_adc41_a_notice_is_drawn_once(contest, cast):
    announcement = announce(contest, cast["legal"])
    formed = perform(announcement, cast["legal"])
    with pytest.raises(ValidationError, match="já foi realizado"):
        perform(announcement, cast["legal"], seed="outra semente", day=D(2026, 6, 6))
    assert list(MemberDraw.objects.all()) == [formed.draw]
    assert CommissionMember.objects.count() == 5
    with pytest.raises(ValidationError, match="já tem"):  # and no new notice once the commission exists
        announce(contest, cast["legal"])


def test_adc41_a_new_notice_replaces_a_pending_one_which_stays_on_record(contest, cast):
    old = announce(contest, cast["legal"])
    new = announce(contest, cast["legal"], pool=people("Outro", 6, role=None), now=at(D(2026, 6, 2)))
    old.refresh_from_db()
    assert old.replaced_at == at(D(2026, 6, 2)) and new.replaced_at is None
    assert selectors.pending_announcement(contest, "first") == new
    assert Document.objects.filter(kind=Document.Kind.HETERO_DRAW).count() == 2  # both notices public
    with pytest.raises(ValidationError, match="substituído"):
        perform(old, cast["legal"])
    formed = perform(new, cast["legal"])
    assert all(m.name.startswith("Outro") for m in formed.commission.members.all())


def test_adc41_a_pool_that_cannot_give_k_members_is_refused_at_the_notice(contest, cast):
    with pytest.raises(ValidationError, match="Não é possível sortear 5") as error:
        announce(contest, cast["legal"], pool=people("Membro", 4, role=None))
    assert "members" in error.value.message_dict
    assert not DrawAnnouncement.objects.exists()


def test_rules_s5_the_drawn_appeal_commission_with_a_member_in_common_is_refused(contest, cast):
    hs.commission_form(
        contest=contest,
        kind="first",
        pool=people("Membro", 5, role=None),
        formed_on=D(2026, 6, 1),
        by=cast["legal"],
        now=at(D(2026, 6, 1)),
    )
    pool = people("Membro", 3, role=None)  # every candidate of the appeal draw sits in the first
    announcement = announce(contest, cast["legal"], kind="appeal", pool=pool)
    with pytest.raises(ValidationError, match="membro em comum"):
        perform(announcement, cast["legal"])
    assert not Commission.objects.filter(kind="appeal").exists() and not MemberDraw.objects.exists()


def test_adc41_the_public_page_says_when_the_draw_did_not_take_the_announced_pool(client, contest, cast):
    formed = perform(announce(contest, cast["legal"]), cast["legal"])
    url = reverse("public:hetero_draw", args=[formed.draw.pk])
    page = client.get(url).content.decode()
    assert "a mesma lista e o mesmo número do sorteio" in page and "NÃO é a lista" not in page
    DrawAnnouncement.objects.filter(pk=formed.draw.announcement_id).update(pool_digest="0" * 64)  # tampered
    assert "NÃO é a lista ou o número do sorteio" in client.get(url).content.decode()


def test_adc41_the_published_command_recomputes_the_draw_even_with_quotes_in_the_seed(contest, cast):
    formed = perform(announce(contest, cast["legal"]), cast["legal"], seed='Mega-Sena "2950": $(05) 12')
    command = draw_context(formed.draw)["command"]
    out = io.StringIO()
    call_command(*shlex.split(command)[1:], stdout=out)
    assert out.getvalue().splitlines()[0] == ", ".join(formed.draw.drawn)


def test_the_notice_and_the_draw_are_each_a_publication_the_draw_s_at_its_public_page(contest, cast):
    start = Publication.objects.count()
    announcement = announce(contest, cast["legal"])
    formed = perform(announcement, cast["legal"])
    notice = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=announcement.subject)
    added = [(p.kind, p.title, p.url, p.by) for p in Publication.objects.order_by("pk")[start:]]
    assert added == [
        (
            Publication.Kind.HETEROIDENTIFICATION,
            "Aviso de sorteio dos membros da comissão de heteroidentificação",
            notice.get_absolute_url(),
            cast["legal"],
        ),
        (
            Publication.Kind.HETEROIDENTIFICATION,
            "Resultado do sorteio dos membros da comissão de heteroidentificação",
            reverse("public:hetero_draw", args=[formed.draw.pk]),
            cast["legal"],
        ),
    ]


def test_a_refused_draw_is_no_publication(contest, cast):
    announcement = announce(contest, cast["legal"])
    start = Publication.objects.count()
    with pytest.raises(ValidationError):
        perform(announcement, cast["legal"], day=D(2026, 6, 4))
    assert Publication.objects.count() == start
