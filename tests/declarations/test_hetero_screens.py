"""Jurídico's heteroidentification screens and the candidate's link (RULES §5): forming the commissions
(diversity warning, the appeal commission refused with a member in common), the draw announced then performed and
its public recomputation, the signed no-conflict declaration (PDF by content), sessions, calls, the acts
published through the documents pipeline (public ones carry inscription and name only; the minutes are
restricted, CPF masked), the individual e-mail with the private link, the appeal within the deadline (a
late one refused with the day it ended), and the policy's consequences of a no-show and of an open
procedure (the opinions attached)."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from candidates.models import Registration
from contests.documents.models import RESTRICTED_KINDS, Document
from contests.models import AccessLog
from declarations.hetero import draw as draw_rules
from declarations.hetero import services as hs
from declarations.hetero.periods import appeal_period_open
from declarations.links import hetero_link_issue
from declarations.models import (
    Appeal,
    Commission,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Procedure,
    Session,
    Verification,
)
from tests.builders import make_classified_position, make_contest, make_user, set_policy
from tests.declarations.hetero_world import SEED, a_day_passes, at
from tests.pages import post_form

pytestmark = pytest.mark.django_db

COLOURS = ("preta", "parda", "branca")
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def lines(prefix: str, n: int, role: str | None = "Comissão", gender=None) -> list[tuple]:
    """``n`` people (name, office, gender, colour, the user name of their Comissão account or None)."""
    out = []
    for i in range(1, n + 1):
        username = f"{prefix.lower()}{i}"
        if role and not User.objects.filter(username=username).exists():
            make_user(username, role)
        out.append(
            (f"{prefix} {i}", "Servidor(a)", gender or ("feminino", "masculino")[i % 2], COLOURS[i % 3],
             username if role else None)
        )  # fmt: skip
    return out


def member_fill(members: list[tuple]) -> dict[str, str]:
    """The member table's fields, one block per person, as a person fills them."""
    fill: dict[str, str] = {}
    for i, (name, office, gender, colour, _) in enumerate(members):
        fill |= {
            f"membros-{i}-name": name,
            f"membros-{i}-office": office,
            f"membros-{i}-gender": gender,
            f"membros-{i}-colour": colour,
        }
    return fill


def link_accounts(client, contest, kind, members) -> None:
    """Each member's Comissão account linked through the member's access page."""
    for name, *_, username in members:
        member = CommissionMember.objects.filter(
            commission__contest=contest, commission__kind=kind, name=name, user__isnull=True
        ).first()
        if username and member:
            url = reverse("declarations:hetero_member_access", args=[member.pk])
            response = post_form(client, url, {"user": str(User.objects.get(username=username).pk)})
            assert response.status_code == 302, response.content.decode()


@pytest.fixture
def contest():
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest)
    for registration in Registration.objects.filter(contest=contest).select_related("candidate"):
        registration.candidate.email = f"{registration.number.lower()}@example.org"
        registration.candidate.save()
    return contest


def form_commission(client, contest, kind, members):
    url = reverse("declarations:hetero_commission_form", args=[contest.slug])
    fill = {
        "kind": kind,
        "formed_on": "01/06/2026",
        "act_reference": "Portaria 5/2026",
        **member_fill(members),
    }
    page = post_form(client, url, fill, follow=True)
    link_accounts(client, contest, kind, members)
    return page


def pdf_text(document: Document) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(bytes(document.pdf))).pages)


def test_rules_s5_the_screen_warns_when_the_commission_is_not_diverse(client, cast, contest):
    client.force_login(cast["legal"])
    page = form_commission(client, contest, "first", lines("Membro", 5, gender="feminino"))
    text = page.content.decode()
    assert "constituída" in text and "mesmo gênero" in text
    assert Commission.objects.get(contest=contest).members.count() == 5
    assert (
        "mesmo gênero"
        in client.get(reverse("declarations:hetero_contest", args=[contest.slug])).content.decode()
    )


def test_rules_s5_the_appeal_commission_with_a_member_in_common_is_refused_and_nothing_is_written(
    client, cast, contest
):
    client.force_login(cast["legal"])
    form_commission(client, contest, "first", lines("Membro", 5))
    shared = [("Membro 2", "Servidor(a)", "feminino", "parda", None)]
    page = form_commission(client, contest, "appeal", shared + lines("Recursal", 2))
    assert page.status_code == 200 and "membro em comum" in page.content.decode()
    assert not Commission.objects.filter(kind="appeal").exists()
    assert CommissionMember.objects.count() == 5


def test_rules_s5_the_sizes_come_from_the_policy(client, cast, contest):
    set_policy(contest.policy, hetero_commission_size=3)
    client.force_login(cast["legal"])
    page = form_commission(client, contest, "first", lines("Membro", 5))
    assert "deve ter 3 membros" in page.content.decode() and not Commission.objects.exists()
    form_commission(client, contest, "first", lines("Membro", 3))
    assert Commission.objects.get().size == 3


def announce(client, contest, members, known_on):
    url = reverse("declarations:hetero_draw_announce", args=[contest.slug])
    fill = {
        "kind": "first",
        "seed_source": "Resultado do concurso nº 2950 da Mega-Sena",
        "seed_known_on": known_on.strftime("%d/%m/%Y"),
        "signer_name": "Ana Souza",
        "signer_office": "Procuradora",
        **member_fill(members),
    }
    return post_form(client, url, fill, follow=True)


def perform(client, announcement, seed=SEED):
    return client.post(
        reverse("declarations:hetero_draw_perform", args=[announcement.pk]),
        {"seed": seed, "formed_on": "01/06/2026", "act_reference": "Portaria 5/2026"},
        follow=True,
    )


def test_adc41_through_the_screens_a_seed_before_the_announced_date_is_refused(client, cast, contest):
    client.force_login(cast["legal"])
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    page = announce(client, contest, lines("Membro", 7), tomorrow)
    assert "Aviso de sorteio publicado" in page.content.decode()
    announcement = DrawAnnouncement.objects.get()
    page = perform(client, announcement)
    assert page.status_code == 200 and f"a partir de {tomorrow:%d/%m/%Y}" in page.content.decode()
    assert not Commission.objects.exists() and not MemberDraw.objects.exists()


def test_adc41_through_the_screens_a_notice_whose_seed_is_known_is_replaced_only_with_a_reason(
    client, cast, contest
):
    client.force_login(cast["legal"])
    today = timezone.localdate()
    tomorrow = today + datetime.timedelta(days=1)
    page = announce(client, contest, lines("Membro", 7), today)  # the seed on the notice's own day
    assert "depois do dia do aviso" in page.content.decode() and not DrawAnnouncement.objects.exists()
    announce(client, contest, lines("Membro", 7), tomorrow)
    first = DrawAnnouncement.objects.get()
    a_day_passes(first)  # its seed is known today: the lottery result is public
    page = announce(client, contest, lines("Membro", 6), tomorrow)
    assert "salvo por ato fundamentado" in page.content.decode()
    assert DrawAnnouncement.objects.count() == 1
    reason = "A fonte anunciada não foi divulgada: o sorteio da loteria foi adiado."
    url = reverse("declarations:hetero_draw_announce", args=[contest.slug])
    fill = {
        "kind": "first",
        "seed_source": "Resultado do concurso nº 2951 da Mega-Sena",
        "seed_known_on": tomorrow.strftime("%d/%m/%Y"),
        "replacement_reason": reason,
        "signer_name": "Ana Souza",
        "signer_office": "Procuradora",
        **member_fill([*lines("Membro", 6), ("Membro 8", "Servidor(a)", "feminino", "preta", None)]),
    }
    assert "Aviso de sorteio publicado" in post_form(client, url, fill, follow=True).content.decode()
    second = DrawAnnouncement.objects.exclude(pk=first.pk).get()
    assert second.replaces == first and second.replacement_reason == reason


def test_rules_s5_the_draw_through_the_screens_is_announced_recorded_published_and_recomputed(
    client, cast, contest
):
    client.force_login(cast["legal"])
    announce(client, contest, lines("Membro", 7), timezone.localdate() + datetime.timedelta(days=1))
    announcement = DrawAnnouncement.objects.get()
    a_day_passes(announcement)
    notice = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=announcement.subject)
    hub = client.get(reverse("declarations:hetero_contest", args=[contest.slug])).content.decode()
    assert "aguardando a semente" in hub and "Sortear: comissão de heteroidentificação" in hub
    perform(client, announcement)
    record = MemberDraw.objects.get()
    expected = draw_rules.draw(SEED, [f"Membro {i}" for i in range(1, 8)], 5)
    assert record.drawn == list(expected.drawn)
    assert sorted(m.name for m in Commission.objects.get().members.all()) == sorted(expected.drawn)
    public = client.get(reverse("public:hetero_draw", args=[record.pk])).content.decode()
    assert "confere com o registro" in public and "Resultado do concurso nº 2950 da Mega-Sena" in public
    assert notice.code in public and "a mesma lista e o mesmo número do sorteio" in public
    assert record.announcement == announcement
    page = client.post(
        reverse("declarations:hetero_draw_publish", args=[record.pk]),
        {"signer_name": "Ana Souza", "signer_office": "Procuradora"},
        follow=True,
    )
    document = Document.objects.get(kind=Document.Kind.HETERO_DRAW, subject=f"draw-{record.pk}")
    assert document.code in page.content.decode() and document.kind not in RESTRICTED_KINDS
    assert SEED in pdf_text(document).replace("\n", " ")
    again = client.post(
        reverse("declarations:hetero_draw_publish", args=[record.pk]),
        {"signer_name": "Ana Souza", "signer_office": "Procuradora"},
    )
    assert again.status_code == 200 and "retificação" in again.content.decode()
    assert Document.objects.filter(kind=Document.Kind.HETERO_DRAW).count() == 2  # the notice, the record
    assert "Mega-Sena" in pdf_text(document)


def test_rules_s5_the_no_conflict_declaration_must_be_a_pdf_by_content(client, cast, contest, settings):
    client.force_login(cast["legal"])
    form_commission(client, contest, "first", lines("Membro", 5))
    member = CommissionMember.objects.order_by("pk").first()
    url = reverse("declarations:hetero_no_conflict", args=[member.pk])
    fake = SimpleUploadedFile("declaracao.pdf", b"not a pdf at all", content_type="application/pdf")
    page = client.post(url, {"file": fake, "signed_on": "01/06/2026"})
    assert page.status_code == 200 and "PDF" in page.content.decode()
    member.refresh_from_db()
    assert not member.no_conflict_file
    good = SimpleUploadedFile("declaracao.pdf", PDF, content_type="application/pdf")
    assert client.post(url, {"file": good, "signed_on": "01/06/2026"}).status_code == 302
    member.refresh_from_db()
    assert member.no_conflict_signed_on == datetime.date(2026, 6, 1)
    download = client.get(reverse("declarations:hetero_no_conflict_file", args=[member.pk]))
    assert download.status_code == 200 and b"".join(download.streaming_content) == PDF
    assert AccessLog.objects.filter(user=cast["legal"], action="download").exists()
    client.force_login(cast["clerk"])
    assert client.get(reverse("declarations:hetero_no_conflict_file", args=[member.pk])).status_code == 403


def _formed_and_called(client, cast, contest):
    client.force_login(cast["legal"])
    form_commission(client, contest, "first", lines("Membro", 5))
    form_commission(client, contest, "appeal", lines("Recursal", 3))
    first = Commission.objects.get(kind="first")
    response = client.post(
        reverse("declarations:hetero_session_create", args=[contest.slug]),
        {"commission": first.pk, "day": "20/06/2026", "time": "09:30", "place": "Sala 1", "video_link": ""},
    )
    session = Session.objects.get()
    assert response.url == reverse("declarations:hetero_session", args=[session.pk])
    assert timezone.localtime(session.starts_at).strftime("%d/%m/%Y %H:%M") == "20/06/2026 09:30"
    client.post(reverse("declarations:hetero_call", args=[session.pk]), {"phase": ""})
    return session


def test_rules_s5_the_call_is_published_with_inscription_and_name_only(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    assert sorted(session.verifications.values_list("registration__number", flat=True)) == ["N1", "N2", "N3"]
    client.post(
        reverse("declarations:hetero_call_publish", args=[session.pk]),
        {"signer_name": "Ana Souza", "signer_office": "Procuradora"},
    )
    document = Document.objects.get(kind=Document.Kind.HETERO_CALL)
    text = pdf_text(document)
    n2 = Registration.objects.get(contest=contest, number="N2")
    assert "N2" in text and n2.candidate.display_name in text and "Sala 1" in text and "20/06/2026" in text
    assert n2.candidate.cpf not in text.replace(".", "").replace("-", "") and "preta" not in text


def _close_with(session, legal, votes: dict[str, tuple[bool, ...]], now=None, message_left=True):
    for verification in session.verifications.select_related("registration"):
        hs.attendance_record(
            verification=verification, attended=verification.registration.number in votes, by=legal
        )
        for member, vote in zip(
            session.commission.members.order_by("pk"),
            votes.get(verification.registration.number, ()),
            strict=False,
        ):
            hs.opinion_record(
                verification=verification, user=member.user, confirms=vote, reasons=f"Fenótipo {vote}."
            )
    from declarations.calendars import organization_calendar as case_calendar

    now = now or timezone.now()
    closed = hs.session_close(
        session=session, by=legal, now=now, calendar=case_calendar([now.year, now.year + 1])
    )
    # The appeal period starts when the message leaves (issue 25 N7): here, the close's day.
    left = closed.verifications.filter(outcome="not_confirmed", notified_on=None) if message_left else ()
    for verification in left:
        appeal_period_open(verification, on=timezone.localdate(now))
        verification.save(update_fields=["notified_on", "appeal_deadline"])
    return closed


def test_rules_s5_the_non_confirmed_candidate_is_told_by_email_with_a_private_link_and_appeals(
    client, cast, contest, django_capture_on_commit_callbacks
):
    session = _formed_and_called(client, cast, contest)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _close_with(session, cast["legal"], {"N1": (True,) * 5, "N2": (True, True, False, False, False)})
    assert [m.to for m in mail.outbox] == [["n2@example.org"]]
    body = mail.outbox[0].body
    verification = Verification.objects.get(registration__number="N2")
    assert (
        verification.appeal_deadline.strftime("%d/%m/%Y") in body
        and "Comunicado por e-mail" in verification.notice
    )
    url = next(word for word in body.split() if "/heteroidentificacao/resultado/" in word)
    path = url.split("127.0.0.1:8000")[-1] if "127.0.0.1:8000" in url else url[url.index("/hetero") :]
    client.logout()
    page = client.get(path).content.decode()
    assert "Não confirmada pela maioria: 3 pareceres contra 2." in page and "Fenótipo False." in page
    # The opinions are numbered, not attributed (the candidate view's reading of LGPD); the composition is shown.
    assert "Membro 1:" not in page and "Membro 1" in page
    response = client.post(path + "recurso/", {"reasons": "Sou preta; peço nova avaliação."}, follow=True)
    assert "Recurso recebido" in response.content.decode()
    assert Appeal.objects.get().reasons == "Sou preta; peço nova avaliação."
    assert "Enviar o recurso" not in response.content.decode()


def test_rules_s5_a_late_appeal_is_refused_with_the_day_the_deadline_ended(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    long_ago = at(datetime.date(2026, 6, 20), 18)
    _close_with(session, cast["legal"], {"N2": (False,) * 5}, now=long_ago)
    verification = Verification.objects.get(registration__number="N2")
    _, token = hetero_link_issue(verification=verification, by=None, now=timezone.now())
    page = client.post(
        reverse("declarations:hetero_portal_appeal", args=[token]), {"reasons": "Atrasado."}, follow=True
    )
    text = page.content.decode()
    assert f"terminou em {verification.appeal_deadline:%d/%m/%Y}" in text
    assert not Appeal.objects.exists()


def test_rules_s5_an_altered_link_gets_a_clear_page(client):
    page = client.get(reverse("declarations:hetero_portal", args=["abc:def"]))
    assert page.status_code == 403 and "não é válido" in page.content.decode()


def test_rules_s5_the_minutes_are_restricted_with_the_cpf_masked_and_the_members_named(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    _close_with(
        session,
        cast["legal"],
        {"N1": (True,) * 5, "N2": (True, True, False, False, False), "N3": (True,) * 5},
    )
    client.post(
        reverse("declarations:hetero_minutes_publish", args=[session.pk]),
        {"signer_name": "Membro 1", "signer_office": "Membro da comissão"},
    )
    document = Document.objects.get(kind=Document.Kind.HETERO_MINUTES)
    assert document.kind in RESTRICTED_KINDS
    text = pdf_text(document)
    n2 = Registration.objects.get(contest=contest, number="N2").candidate
    assert f"***.{n2.cpf[3:6]}.{n2.cpf[6:9]}-**" in text and n2.cpf not in text
    assert all(f"Membro {i}" in text for i in range(1, 6)) and "Fenótipo False." in text
    # The confirmed list: N1 and N3 (N2's non-confirmation may still be appealed).
    client.post(
        reverse("declarations:hetero_result_publish", args=[contest.slug]),
        {"signer_name": "Ana Souza", "signer_office": "Procuradora"},
    )
    result = pdf_text(Document.objects.get(kind=Document.Kind.HETERO_RESULT))
    assert "N1" in result and "N3" in result and "N2" not in result and "Fenótipo" not in result


def test_rules_s5_a_no_show_has_the_policy_consequence_shown_and_applied(client, cast, contest):
    set_policy(contest.policy, hetero_no_show="eliminate")
    session = _formed_and_called(client, cast, contest)
    page = client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    assert "não comparece: eliminação do concurso" in page
    _close_with(session, cast["legal"], {"N1": (True,) * 5, "N3": (True,) * 5})
    absent = Verification.objects.get(registration__number="N2")
    client.post(reverse("declarations:hetero_apply", args=[absent.pk]))
    absent.refresh_from_db()
    assert absent.consequence == "eliminate"
    assert absent.registration.status == Registration.Status.ELIMINATED


def test_rules_s5_under_open_procedure_the_procedure_opens_with_the_opinions_attached(client, cast, contest):
    set_policy(contest.policy, non_confirmation="open_procedure")
    session = _formed_and_called(client, cast, contest)
    past = at(datetime.date(2026, 6, 20), 18)
    _close_with(session, cast["legal"], {"N1": (True,) * 5, "N2": (False,) * 5, "N3": (True,) * 5}, now=past)
    n2 = Verification.objects.get(registration__number="N2")
    response = client.post(reverse("declarations:hetero_apply", args=[n2.pk]))
    procedure = Procedure.objects.get()
    assert response.url == procedure.get_absolute_url()
    attachment = procedure.acts.get(kind="opening").attachments.get()
    assert attachment.content_type == "application/pdf" and not attachment.protected
    assert "Fenótipo False." in procedure.facts


def test_rules_s5_the_call_takes_the_optants_who_reached_the_phase_the_edital_sets(client, cast, contest):
    from decimal import Decimal

    from candidates.models import PhaseResult
    from tests.builders import make_phase

    phase = make_phase(contest, name="Prova prática")
    for number, absent in (("N1", False), ("N2", True)):  # N3 never reached it
        registration = Registration.objects.get(contest=contest, number=number)
        PhaseResult.objects.create(
            registration=registration, phase=phase, absent=absent, score=None if absent else Decimal(70)
        )
    client.force_login(cast["legal"])
    form_commission(client, contest, "first", lines("Membro", 5))
    first = Commission.objects.get()
    client.post(
        reverse("declarations:hetero_session_create", args=[contest.slug]),
        {"commission": first.pk, "day": "20/06/2026", "time": "09:30", "place": "Sala 1"},
    )
    session = Session.objects.get()
    client.post(reverse("declarations:hetero_call", args=[session.pk]), {"phase": phase.pk})
    assert list(session.verifications.values_list("registration__number", flat=True)) == ["N1"]


def test_rules_s5_presence_and_the_recording_reference_and_hash(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    members = list(session.commission.members.order_by("name"))
    url = reverse("declarations:hetero_session_record", args=[session.pk])
    bad = client.post(
        url,
        {"present": [m.pk for m in members[:3]], "recording_reference": "HD 3", "recording_sha256": "xyz"},
    )
    assert bad.status_code == 200 and "64 caracteres" in bad.content.decode()
    assert session.present.count() == 5
    digest = "a" * 64
    response = client.post(
        url,
        {
            "present": [m.pk for m in members[:4]],
            "recording_reference": "HD 3, pasta 2026",
            "recording_sha256": digest,
        },
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.present.count() == 4 and session.recording_sha256 == digest
    page = client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    assert "HD 3, pasta 2026" in page and digest in page


# Bulk work: one table, one button, one audited act per candidate or member --------------------------------


def test_the_attendance_table_records_every_candidate_in_one_step_one_act_each(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    n1, n2, n3 = (Verification.objects.get(registration__number=n) for n in ("N1", "N2", "N3"))
    url = reverse("declarations:hetero_session", args=[session.pk])
    response = post_form(client, url, {"compareceu": str(n1.pk)}, follow=True)
    assert "1 compareceu; 3 registros alterados" in response.content.decode()
    assert [v.attended for v in (n1, n2, n3) if not v.refresh_from_db()] == [True, False, False]
    assert n2.history.first().history_change_reason == "Ausência registrada"
    assert n2.history.first().history_user == cast["legal"]
    # Again with the same marks: nothing changes, no new history row.
    rows = n1.history.count()
    post_form(client, url, {"compareceu": str(n1.pk)})
    assert n1.history.count() == rows


def test_every_final_result_is_applied_in_one_step_one_act_each(client, cast, contest):
    session = _formed_and_called(client, cast, contest)
    _close_with(session, cast["legal"], {"N1": (True,) * 5, "N3": (True,) * 5})  # N2 absent
    url = reverse("declarations:hetero_session", args=[session.pk])
    page = client.get(url).content.decode()
    assert "Resultados definitivos a aplicar" in page and "Aplicar a todos os marcados" in page
    response = post_form(client, url, {}, containing="aplicar", follow=True)
    assert "Resultado definitivo aplicado a 3 candidatos" in response.content.decode()
    consequences = dict(Verification.objects.values_list("registration__number", "consequence"))
    assert consequences == {"N1": "none", "N2": "keep_open", "N3": "none"}
    n2 = Registration.objects.get(contest=contest, number="N2")
    assert n2.status == Registration.Status.EXCLUDED_FROM_RESERVE
    assert "Resultados definitivos a aplicar" not in client.get(url).content.decode()


def test_the_no_conflict_declarations_of_a_commission_are_sent_in_one_form_or_none(client, cast, contest):
    client.force_login(cast["legal"])
    form_commission(client, contest, "first", lines("Membro", 5))
    commission = Commission.objects.get()
    members = list(commission.members.order_by("pk"))
    url = reverse("declarations:hetero_no_conflict_many", args=[commission.pk])
    assert url in client.get(reverse("declarations:hetero_contest", args=[contest.slug])).content.decode()

    def upload(content: bytes) -> SimpleUploadedFile:
        return SimpleUploadedFile("declaracao.pdf", content, content_type="application/pdf")

    fill = {f"arquivo_{m.pk}": upload(PDF) for m in members[:2]} | {
        f"assinada_{m.pk}": "01/06/2026" for m in members[:2]
    }
    bad = fill | {f"arquivo_{members[1].pk}": upload(b"not a pdf")}
    page = post_form(client, url, bad)
    assert page.status_code == 200 and "PDF" in page.content.decode()
    assert not CommissionMember.objects.filter(no_conflict_signed_on__isnull=False).exists()  # none at all
    fill = {f"arquivo_{m.pk}": upload(PDF) for m in members[:2]} | {
        f"assinada_{m.pk}": "01/06/2026" for m in members[:2]
    }
    assert post_form(client, url, fill).status_code == 302
    signed = CommissionMember.objects.filter(no_conflict_signed_on=datetime.date(2026, 6, 1))
    assert sorted(signed.values_list("pk", flat=True)) == [members[0].pk, members[1].pk]
    # A date without its file is refused with the field named.
    page = post_form(client, url, {f"assinada_{members[2].pk}": "01/06/2026"})
    assert "Escolha o arquivo da declaração assinada" in page.content.decode()


def test_the_member_table_takes_one_field_each_and_more_rows_on_request(client, cast, contest):
    client.force_login(cast["legal"])
    url = reverse("declarations:hetero_commission_form", args=[contest.slug])
    page = client.get(url).content.decode()
    assert "membros-7-name" in page and "membros-8-name" not in page and "<textarea" not in page
    more = client.post(url, {**management(8), "membros-0-name": "Ana", "mais_linhas": "1"}).content.decode()
    assert "membros-15-name" in more and 'value="Ana"' in more and not Commission.objects.exists()
    # A row half filled is refused with what is missing.
    half = client.post(
        url, {**management(8), "kind": "first", "formed_on": "01/06/2026", "membros-0-name": "Ana"}
    )
    assert "Informe o cargo" in half.content.decode() and not Commission.objects.exists()


def management(rows: int) -> dict[str, str]:
    return {
        "membros-TOTAL_FORMS": str(rows),
        "membros-INITIAL_FORMS": "0",
        "membros-MIN_NUM_FORMS": "0",
        "membros-MAX_NUM_FORMS": "60",
    }
