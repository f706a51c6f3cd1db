"""The procedure's screens: the access matrix (Jurídico conducts, Auditoria reads, Secretaria 403), the
case page and its log, act forms with preview, the refusal shown and nothing changed, downloads logged;
the candidate's private page: acknowledge, file before the deadline, a late filing refused, a bad link."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from contests.models import AccessLog
from declarations import links
from declarations.models import Procedure, ProcedureAct, ProcedureLink
from declarations.procedure import services
from tests.access import ROLES, assert_access
from tests.builders import make_registration, set_policy
from tests.pages import forms_on, post_form

pytestmark = pytest.mark.django_db
PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.fixture
def case(cast):
    registration = make_registration(racial_category="preta")
    registration.candidate.email = "c@example.org"
    registration.candidate.save()
    return services.procedure_open(
        registration=registration,
        origin=Procedure.Origin.COMPLAINT,
        complainant="Denunciante Sigiloso",
        facts="Fotografia incompatível.",
        by=cast["legal"],
        today=timezone.localdate(),
    )


def opened_in_january(case):
    """The case opened on 5 January 2026 (a notice never takes effect before the opening, Lei 9.784 art. 26)."""
    Procedure.objects.filter(pk=case.pk).update(opened_on=datetime.date(2026, 1, 5))
    case.refresh_from_db()


def url(name, case, *args):
    return reverse(f"declarations:{name}", args=[case.year, case.number, *args])


@pytest.mark.parametrize("who", ROLES)
def test_desk_and_case_page_access_matrix(client_for, who, case):
    assert_access(client_for, who, reverse("declarations:list"), {"legal", "auditor"})
    response = assert_access(client_for, who, url("detail", case), {"legal", "auditor"})
    if who in ("legal", "auditor"):
        assert "Denunciante Sigiloso" in response.content.decode()
        assert AccessLog.objects.filter(object_id=str(case.pk), action="view").exists()


@pytest.mark.parametrize("who", ROLES)
def test_act_forms_are_for_legal_staff_only(client_for, who, case):
    assert_access(client_for, who, url("act", case, "evidence"), {"legal"})
    assert_access(client_for, who, url("notify", case), {"legal"})


@pytest.mark.parametrize("who", ROLES)
def test_open_access_matrix(client_for, who, case):
    assert_access(client_for, who, reverse("declarations:open", args=[case.registration.pk]), {"legal"})


def test_desk_lists_overdue_first(client_for, case, cast):
    opened_in_january(case)
    services.notice_send(procedure=case, by=cast["legal"], today=datetime.date(2026, 1, 5), means="in_person")
    other = services.procedure_open(
        registration=make_registration(racial_category="parda"),
        origin="ex_officio",
        facts="x",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    services.notice_send(procedure=other, by=cast["legal"], today=timezone.localdate(), means="in_person")
    body = client_for("legal").get(reverse("declarations:list")).content.decode()
    assert body.index(str(case)) < body.index(str(other))
    assert "vencido há" in body


def test_open_through_the_form(client_for, cast):
    registration = make_registration(racial_category="parda")
    response = client_for("legal").post(
        reverse("declarations:open", args=[registration.pk]), {"origin": "ex_officio", "facts": "Indícios."}
    )
    procedure = Procedure.objects.get(registration=registration)
    assert response.status_code == 302 and response["Location"] == procedure.get_absolute_url()
    history = procedure.history.first()
    assert (history.history_user, history.history_change_reason) == (cast["legal"], "Instauração")
    opening = procedure.acts.get()
    assert opening.history.first().history_user == cast["legal"]


def test_instaurar_from_the_procedures_list_leads_to_the_opening_form(client_for, cast):
    registration = make_registration(racial_category="parda")
    client = client_for("legal")
    page = client.get(reverse("declarations:list")).content.decode()
    assert f'href="{reverse("declarations:open_choose")}">Instaurar processo</a>' in page
    # A number the contest does not have is refused with the reason, on the same page.
    # The chooser is a search (GET): read from the page, filled, sent to its own action.
    url = reverse("declarations:open_choose")
    (chooser,) = [form for form in forms_on(client.get(url).content.decode()) if "number" in form.visible]
    assert chooser.method == "get"
    fill = {"contest": str(registration.contest.pk), "number": "999999"}
    response = client.get(chooser.action or url, {**chooser.values, **fill})
    assert response.status_code == 200
    assert "não tem a inscrição 999999" in response.content.decode()
    fill["number"] = registration.number
    response = client.get(chooser.action or url, {**chooser.values, **fill})
    assert response["Location"] == reverse("declarations:open", args=[registration.pk])
    response = post_form(client, response["Location"], {"origin": "ex_officio", "facts": "Indícios."})
    procedure = Procedure.objects.get(registration=registration)
    assert response["Location"] == procedure.get_absolute_url()
    assert procedure.history.first().history_user == cast["legal"]


def test_the_instaurar_button_is_only_for_who_conducts(client_for, case):
    page = client_for("auditor").get(reverse("declarations:list")).content.decode()
    assert reverse("declarations:open_choose") not in page


def test_an_unlawful_act_is_refused_with_the_reason_and_changes_nothing(client_for, case):
    response = client_for("legal").post(
        url("act", case, "decision"), {"outcome": "falsity", "text": "Decido."}
    )
    assert response.status_code == 200
    assert "ainda não foi intimado" in response.content.decode()
    assert case.acts.count() == 1


def test_act_preview_renders_the_document_without_saving(client_for, case, cast):
    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")
    response = client_for("legal").post(
        url("notify", case), {"means": "in_person", "text": "Teste", "preview": "1"}
    )
    assert "Intimação" in response.content.decode() and "art. 27" in response.content.decode()
    assert case.acts.count() == 2


def test_notice_by_email_through_the_form_sends_the_mail(
    client_for, case, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("legal").post(url("notify", case), {"means": "email"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and "/processo/" in mailoutbox[0].body
    assert case.acts.get(kind="notice").delivery == ProcedureAct.Delivery.SENT


@pytest.mark.parametrize("who", ROLES)
def test_attachment_download_is_permission_checked_and_logged(client_for, who, case, cast):
    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")
    act = services.act_record(
        procedure=case,
        kind="evidence",
        by=cast["legal"],
        today=timezone.localdate(),
        text="Prova.",
        uploads=[SimpleUploadedFile("prova.pdf", PDF)],
    )
    attachment = act.attachments.get()
    response = assert_access(client_for, who, url("attachment", case, attachment.pk), {"legal", "auditor"})
    if who in ("legal", "auditor"):
        assert b"".join(response.streaming_content) == PDF
        assert AccessLog.objects.filter(action="download", detail="prova.pdf").exists()


def test_n12_an_attachment_is_stored_and_downloaded_by_the_type_of_its_content(client_for, case, cast):
    # A PDF/HTML polyglot uploaded as ``.html`` kept that name and downloaded as ``.html``.
    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")
    act = services.act_record(
        procedure=case,
        kind="evidence",
        by=cast["legal"],
        today=timezone.localdate(),
        text="Prova.",
        uploads=[SimpleUploadedFile("prova.html", PDF + b"<html><script>alert(1)</script></html>")],
    )
    attachment = act.attachments.get()
    assert attachment.file.name.endswith(".pdf")
    response = client_for("legal").get(url("attachment", case, attachment.pk))
    assert response["Content-Disposition"] == 'attachment; filename="prova.pdf"'
    assert response["Content-Type"] == "application/pdf"


# The candidate's page ----------------------------------------------------------------------------------


def portal_link(case, cast):
    return links.link_issue(
        procedure=case, holder="candidate", name="Candidata", by=cast["legal"], now=timezone.now()
    )


def test_portal_acknowledge_then_file_a_defence_with_a_pdf(client, case, cast):
    act = services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="email")
    _link, token = portal_link(case, cast)
    page = client.get(reverse("declarations:portal", args=[token])).content.decode()
    assert "Dou ciência" in page and "Denunciante Sigiloso" not in page
    client.post(reverse("declarations:portal_acknowledge", args=[token, act.pk]))
    act.refresh_from_db()
    assert act.on == timezone.localdate()
    response = client.post(
        reverse("declarations:portal_file", args=[token]),
        {"kind": "defence", "text": "Minha defesa.", "attachments": [SimpleUploadedFile("defesa.pdf", PDF)]},
        follow=True,
    )
    assert "Defesa recebida" in response.content.decode()
    defence = case.acts.get(kind="defence")
    assert defence.attachments.get().name == "defesa.pdf" and defence.by is None


def test_portal_late_filing_is_refused_with_the_day_the_deadline_ended(client, case, cast):
    opened_in_january(case)
    services.notice_send(procedure=case, by=cast["legal"], today=datetime.date(2026, 1, 5), means="in_person")
    _link, token = portal_link(case, cast)
    response = client.post(
        reverse("declarations:portal_file", args=[token]), {"kind": "defence", "text": "Tarde."}, follow=True
    )
    assert "terminou em 15/01/2026" in response.content.decode()
    assert not case.acts.filter(kind="defence").exists()


def test_portal_withholds_protected_attachments(client, case, cast):
    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")
    act = services.act_record(
        procedure=case,
        kind="evidence",
        by=cast["legal"],
        today=timezone.localdate(),
        text="Denúncia.",
        uploads=[SimpleUploadedFile("denuncia.pdf", PDF)],
        protected=True,
    )
    _link, token = portal_link(case, cast)
    assert "denuncia.pdf" not in client.get(reverse("declarations:portal", args=[token])).content.decode()
    pk = act.attachments.get().pk
    assert client.get(reverse("declarations:portal_download", args=[token, pk])).status_code == 404


@pytest.mark.parametrize("damage", ["altered", "revoked", "expired", "garbage"])
def test_portal_bad_link_gets_a_clear_page(client, case, cast, damage):
    link, token = portal_link(case, cast)
    if damage == "altered":
        token = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    elif damage == "revoked":
        links.link_revoke(link=link, by=cast["legal"], now=timezone.now())
    elif damage == "expired":
        ProcedureLink.objects.filter(pk=link.pk).update(
            expires_at=timezone.now() - datetime.timedelta(days=1)
        )
    else:
        token = "nada"
    response = client.get(reverse("declarations:portal", args=[token]))
    assert response.status_code == 403
    body = response.content.decode()
    assert "Link indisponível" in body
    assert ("expirou" in body) is (damage in ("revoked", "expired"))
    assert str(case) not in body  # nothing of the case behind a link that does not work


def test_every_private_page_with_an_altered_link_gets_the_clear_page(client, case, cast):
    act = case.acts.get()
    _link, token = portal_link(case, cast)
    token = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    gets = [("portal_document", [token, act.pk]), ("portal_download", [token, 1])]
    posts = [
        ("portal_acknowledge", [token, act.pk]),
        ("portal_file", [token]),
        ("portal_representative", [token]),
    ]
    for name, args in gets:
        response = client.get(reverse(f"declarations:{name}", args=args))
        assert response.status_code == 403 and "Link indisponível" in response.content.decode(), name
    for name, args in posts:
        response = client.post(reverse(f"declarations:{name}", args=args), {"kind": "defence", "text": "x"})
        assert response.status_code == 403 and "Link indisponível" in response.content.decode(), name
    assert case.acts.count() == 1


def test_rules5_tacit_acknowledgement_is_offered_only_where_the_policy_records_a_legal_basis(
    client_for, cast
):
    def pending_email_case():
        registration = make_registration(racial_category="parda")
        registration.candidate.email = "c@example.org"
        registration.candidate.save()
        procedure = services.procedure_open(
            registration=registration,
            origin="ex_officio",
            facts="x",
            by=cast["legal"],
            today=timezone.localdate(),
        )
        services.notice_send(procedure=procedure, by=cast["legal"], today=timezone.localdate(), means="email")
        return client_for("legal").get(url("detail", procedure)).content.decode()

    page = pending_email_case()
    assert "aguarda ciência" in page and "Ciência tácita" not in page
    set_policy(
        "santa-maria",
        electronic_notice_basis="Edital, item 12.3, aceito na inscrição",
        tacit_acknowledgement_days=10,
    )
    assert "Ciência tácita" in pending_email_case()


@pytest.mark.parametrize(("years", "warns"), [(6, True), (4, False)])
def test_art54_the_case_page_warns_when_the_favourable_act_is_over_five_years_old(
    client_for, cast, years, warns
):
    registration = make_registration(
        racial_category="parda", registered_on=timezone.localdate() - datetime.timedelta(days=365 * years + 2)
    )
    procedure = services.procedure_open(
        registration=registration,
        origin="ex_officio",
        facts="x",
        by=cast["legal"],
        today=timezone.localdate(),
    )
    page = client_for("legal").get(url("detail", procedure)).content.decode()
    assert ("má-fé precisa ser provada" in page) is warns


def test_portal_page_works_on_a_phone(client, case, cast):
    _link, token = portal_link(case, cast)
    page = client.get(reverse("declarations:portal", args=[token])).content.decode()
    assert 'name="viewport" content="width=device-width' in page


@pytest.mark.parametrize("who", ["clerk", "legal", "auditor", "commission"])
def test_registration_page_shows_the_status_and_links_the_case_only_to_who_may_read_it(client_for, who, case):
    registration = case.registration
    page = client_for(who).get(
        reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    )
    if who == "commission":  # reads no registration (nor any procedure)
        assert page.status_code == 403
        return
    assert page.status_code == 200
    body = page.content.decode()
    assert "Processos sobre a autodeclaração" in body and "PA nº" in body
    assert (case.get_absolute_url() in body) is (who in ("legal", "auditor"))
    assert "Fotografia incompatível" not in body


def test_desk_queries_do_not_grow_with_the_cases(client_for, case, cast):
    from tests.queries import assert_queries_do_not_grow

    services.notice_send(procedure=case, by=cast["legal"], today=timezone.localdate(), means="in_person")

    def more_cases():
        for _ in range(5):
            other = services.procedure_open(
                registration=make_registration(racial_category="parda"),
                origin="ex_officio",
                facts="x",
                by=cast["legal"],
                today=timezone.localdate(),
            )
            services.notice_send(
                procedure=other, by=cast["legal"], today=timezone.localdate(), means="in_person"
            )

    assert_queries_do_not_grow(client_for("legal"), reverse("declarations:list"), more_cases)


def test_the_act_and_notice_forms_are_views_of_the_case_and_are_logged(client_for, case):
    """Both forms show the case (the notice form also the candidate's address): each view is logged."""
    client = client_for("legal")
    assert client.get(url("notify", case)).status_code == 200
    assert client.get(url("act", case, "evidence")).status_code == 200
    details = set(AccessLog.objects.filter(object_id=str(case.pk)).values_list("detail", flat=True))
    assert "intimação" in details
    assert any(detail.startswith("ato: ") for detail in details)
