"""Registrations in the staff workspace: list and search, create, edit, detail and history, the racial
option (added, given up, corrected with a justification) and the LGPD rules on sensitive data."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from candidates.models import AllocationLedger, Candidate, Nomination, Registration, SelfDeclaration
from candidates.services.nominations import nominations_call
from contests.models import AccessLog
from tests.access import ROLES, STAFF, assert_access
from tests.builders import (
    homologate,
    make_candidate,
    make_classified_position,
    make_contest,
    make_example_contest,
    make_phase,
    make_registration,
    make_user,
    publish_final,
)

SENSITIVE_VIEWERS = {"clerk", "legal", "manager", "auditor"}
# Comissão sees registrations only in its own sessions (DESIGN.md): not these screens.
REGISTRATION_READERS = STAFF - {"commission"}
CLERK_ONLY = {"clerk"}
CPF = "03688169077"  # 036.881.690-77, from the example file


@pytest.fixture
def reader(db):
    """A user who may read registrations but neither the candidate's data nor the sensitive ones. No role
    of DESIGN.md has only this since Comissão was narrowed; a custom group could, and
    the screens must still mask for it."""
    user = make_user("reader")
    user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=("view_contest", "view_position", "view_registration"),
            content_type__app_label__in=("contests", "candidates"),
        )
    )
    client = Client()
    client.force_login(user)
    return client


def open_contest(**overrides):
    """A contest whose registrations are still open (they close in a month)."""
    today = timezone.localdate()
    return make_example_contest(
        registration_start=today - datetime.timedelta(days=10),
        registration_end=today + datetime.timedelta(days=30),
        **overrides,
    )


def closed_contest(**overrides):
    """A contest whose registrations closed yesterday."""
    today = timezone.localdate()
    return make_example_contest(
        registration_start=today - datetime.timedelta(days=40),
        registration_end=today - datetime.timedelta(days=1),
        **overrides,
    )


def position(contest, code="TLEG"):
    return contest.positions.get(code=code)


def url(name, registration_or_contest, *extra):
    if isinstance(registration_or_contest, Registration):
        return reverse(
            f"candidates:{name}",
            args=[registration_or_contest.contest.slug, registration_or_contest.pk, *extra],
        )
    return reverse(f"candidates:{name}", args=[registration_or_contest.slug, *extra])


def form_data(contest, **overrides):
    data = {
        "full_name": "João da Silva Araújo",
        "social_name": "",
        "cpf": "036.881.690-77",
        "birth_date": "13/05/1990",
        "email": "joao@example.org",
        "phone": "",
        "address": "",
        "position": position(contest).pk,
        "number": "5001",
        "registered_on": (contest.registration_end - datetime.timedelta(days=2)).strftime("%d/%m/%Y"),
        "jury_service": "",
        "racial": "",
        "declared_on": "",
        "pcd_reserve": "",
        "preferred_reserve": "",
    }
    data.update(overrides)
    return data


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_registration_list_access(client_for, who):
    contest = make_example_contest()
    assert_access(client_for, who, url("registration_list", contest), REGISTRATION_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_registration_detail_access(client_for, who):
    registration = make_registration(position(make_example_contest()))
    assert_access(client_for, who, url("registration_detail", registration), REGISTRATION_READERS)


@pytest.mark.parametrize("who", ROLES)
def test_registration_sensitive_detail_access(client_for, who):
    registration = make_registration(position(make_example_contest()), racial_category="parda")
    target = url("registration_detail", registration) + "?dados_sensiveis=1"
    assert_access(client_for, who, target, SENSITIVE_VIEWERS)


@pytest.mark.parametrize("who", ROLES)
def test_registration_create_access(client_for, who):
    assert_access(client_for, who, url("registration_create", make_example_contest()), CLERK_ONLY)


@pytest.mark.parametrize("who", ROLES)
def test_registration_edit_access(client_for, who):
    registration = make_registration(position(make_example_contest()))
    assert_access(client_for, who, url("registration_edit", registration), CLERK_ONLY)


@pytest.mark.parametrize("who", ROLES)
def test_registration_declaration_access(client_for, who):
    registration = make_registration(position(make_example_contest()), racial_category="preta")
    assert_access(client_for, who, url("registration_declaration", registration), CLERK_ONLY)


@pytest.mark.parametrize("who", ROLES)
def test_registration_status_access(client_for, who):
    registration = make_registration(position(make_example_contest()))
    data = {"status": "withdrawn", "reason": "Desistência protocolada"}
    assert_access(
        client_for,
        who,
        url("registration_status", registration),
        CLERK_ONLY,
        method="post",
        data=data,
        ok=302,
    )


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize(
    ("name", "category", "data"),
    [
        ("registration_racial_option", None, {"racial": "parda"}),
        ("registration_give_up", "preta", {"on": "01/01/2026", "reason": ""}),
        ("registration_correct", "preta", {"racial": "", "justification": "Erro de digitação na ficha"}),
    ],
)
def test_racial_option_actions_access(client_for, who, name, category, data):
    registration = make_registration(position(open_contest()), racial_category=category)
    assert_access(client_for, who, url(name, registration), CLERK_ONLY, method="post", data=data, ok=302)


def test_racial_option_actions_need_post(client_for):
    registration = make_registration(position(make_example_contest()), racial_category="preta")
    assert client_for("clerk").get(url("registration_give_up", registration)).status_code == 405


def test_registration_of_another_contest_is_404(client_for):
    registration = make_registration(position(make_example_contest()))
    other = make_example_contest()
    target = reverse("candidates:registration_detail", args=[other.slug, registration.pk])
    assert client_for("clerk").get(target).status_code == 404


# List: search, filters, masking ----------------------------------------------------------------------


def test_search_ignores_accents_and_case(client_for):
    contest = make_example_contest()
    joao = make_registration(position(contest), make_candidate(full_name="João da Conceição"), number="1001")
    make_registration(position(contest), make_candidate(full_name="Maria Souza"), number="1002")
    client = client_for("clerk")
    for term in ("joao", "JOAO", "João", "conceicao", "joão conceição", "CONCEIÇÃO"):
        page = client.get(url("registration_list", contest), {"busca": term}).context["page"]
        assert [r.pk for r in page.object_list] == [joao.pk], term
    assert not client.get(url("registration_list", contest), {"busca": "joana"}).context["page"].object_list


def test_search_finds_a_name_stored_with_accents_in_capitals(client_for):
    contest = make_example_contest()
    registration = make_registration(position(contest), make_candidate(full_name="ÚRSULA CONCEIÇÃO"))
    page = (
        client_for("clerk")
        .get(url("registration_list", contest), {"busca": "ursula conceicao"})
        .context["page"]
    )
    assert [r.pk for r in page.object_list] == [registration.pk]


def test_search_by_social_name_and_inscription_number(client_for, reader):
    contest = make_example_contest()
    social = make_registration(
        position(contest), make_candidate(full_name="Civil Name", social_name="Lúcia Andrade"), number="2001"
    )
    other = make_registration(position(contest), number="2002")
    client = reader
    page = client.get(url("registration_list", contest), {"busca": "lucia"}).context["page"]
    assert [r.pk for r in page.object_list] == [social.pk]
    page = client.get(url("registration_list", contest), {"busca": "2002"}).context["page"]
    assert [r.pk for r in page.object_list] == [other.pk]
    # The list shows the social name instead of the civil name (Decreto 8.727/2016).
    content = client.get(url("registration_list", contest)).content.decode()
    assert "Lúcia Andrade" in content and "Civil Name" not in content


def test_search_by_cpf_only_for_staff_who_see_candidates(client_for, reader):
    contest = make_example_contest()
    registration = make_registration(position(contest), make_candidate(cpf=CPF))
    make_registration(position(contest))
    clerk = client_for("clerk")
    for term in ("036.881.690-77", CPF, "881.690"):
        page = clerk.get(url("registration_list", contest), {"busca": term}).context["page"]
        assert [r.pk for r in page.object_list] == [registration.pk], term
    page = reader.get(url("registration_list", contest), {"busca": CPF}).context["page"]
    assert not page.object_list


def test_list_masks_cpf_and_shows_no_reserve(client_for, reader):
    contest = make_example_contest()
    make_registration(position(contest), make_candidate(cpf=CPF), racial_category="parda", pcd_reserve=True)
    clerk_page = client_for("clerk").get(url("registration_list", contest)).content.decode()
    assert "***.881.690-**" in clerk_page
    assert "036.881.690-77" not in clerk_page
    # Neither the racial option (the "Cotista" badge was shown unlogged), the
    # declaration nor the PcD condition is in the list: the filter by reserve, logged, finds them.
    assert "Cotista" not in clerk_page
    assert "Parda" not in clerk_page and "PcD</td>" not in clerk_page
    reader_page = reader.get(url("registration_list", contest)).content.decode()
    assert "Cotista" not in reader_page
    assert "881.690" not in reader_page


def test_the_name_in_the_list_leads_to_the_registration(client_for):
    contest = make_example_contest()
    registration = make_registration(position(contest), make_candidate(full_name="Maria Aparecida"))
    html = client_for("clerk").get(url("registration_list", contest)).content.decode()
    detail = reverse("candidates:registration_detail", args=[contest.slug, registration.pk])
    assert f'<th scope="row"><a href="{detail}">Maria Aparecida</a></th>' in html


def test_filters_position_status_and_reserve(client_for, cast):
    contest = make_example_contest()
    racial = make_registration(position(contest, "TLEG"), racial_category="", number="3001")
    pcd = make_registration(position(contest, "ANSI"), pcd_reserve=True, number="3002")
    withdrawn = make_registration(position(contest, "ANSI"), number="3003", status="withdrawn")
    client = client_for("clerk")

    def found(**params):
        page = client.get(url("registration_list", contest), params).context["page"]
        return {r.pk for r in page.object_list}

    assert found(cargo=position(contest, "ANSI").pk) == {pcd.pk, withdrawn.pk}
    assert found(situacao="withdrawn") == {withdrawn.pk}
    assert not AccessLog.objects.exists()
    assert found(reserva="racial") == {racial.pk}
    assert found(reserva="pcd") == {pcd.pk}
    assert found(reserva="ampla") == {withdrawn.pk}
    # Querying who opted for a reserve is logged like a view of sensitive data.
    logs = AccessLog.objects.filter(user=cast["clerk"], object_id=str(contest.pk))
    assert logs.count() == 3
    assert "Reservada a pessoas com deficiência" in logs.order_by("at", "pk")[1].detail


def test_reserve_filter_is_ignored_without_sensitive_permission(client_for, reader):
    contest = make_example_contest()
    make_registration(position(contest), racial_category="preta")
    make_registration(position(contest))
    response = reader.get(url("registration_list", contest), {"reserva": "racial"})
    assert len(response.context["page"].object_list) == 2
    assert "reserva" not in response.context["form"].fields
    assert not AccessLog.objects.exists()


def test_list_is_paginated_by_inscription_number(client_for):
    contest = make_example_contest()
    for n in range(1, 53):
        make_registration(position(contest), number=str(n))
    client = client_for("clerk")
    first = client.get(url("registration_list", contest)).context["page"]
    assert first.paginator.count == 52
    assert [r.number for r in first.object_list][:3] == ["1", "2", "3"]
    second = client.get(url("registration_list", contest), {"pagina": 2}).context["page"]
    assert [r.number for r in second.object_list] == ["51", "52"]


# Create ----------------------------------------------------------------------------------------------


def test_clerk_creates_registration_with_declaration(client_for, cast):
    contest = open_contest()
    response = client_for("clerk").post(
        url("registration_create", contest), form_data(contest, racial="parda", pcd_reserve="on")
    )
    registration = Registration.objects.get(contest=contest, number="5001")
    assert response.status_code == 302
    assert response.url == url("registration_detail", registration)
    assert registration.candidate.cpf == CPF
    assert registration.racial_reserve and registration.pcd_reserve
    declaration = registration.self_declaration
    assert declaration.category == "parda"
    assert declaration.declared_on == registration.registered_on
    for record in (
        registration.history.get(),
        registration.candidate.history.get(),
        declaration.history.get(),
    ):
        assert record.history_user == cast["clerk"]


def test_create_negra_without_distinction(client_for):
    contest = open_contest()
    client_for("clerk").post(url("registration_create", contest), form_data(contest, racial="negra"))
    declaration = SelfDeclaration.objects.get(registration__number="5001")
    assert declaration.category == ""


def test_create_offers_only_the_policys_categories(client_for):
    contest = open_contest()  # Santa Maria: pretos e pardos
    client = client_for("clerk")
    form = client.get(url("registration_create", contest)).context["form"]
    assert [value for value, _ in form.fields["racial"].choices] == ["", "preta", "parda", "negra"]
    response = client.post(url("registration_create", contest), form_data(contest, racial="indigena"))
    assert response.status_code == 200
    assert "racial" in response.context["form"].errors
    assert not Registration.objects.exists()


def test_declaration_after_registrations_closed_is_refused(client_for):
    contest = closed_contest()
    data = form_data(
        contest,
        racial="preta",
        registered_on=(contest.registration_end - datetime.timedelta(days=5)).strftime("%d/%m/%Y"),
        declared_on=(contest.registration_end + datetime.timedelta(days=1)).strftime("%d/%m/%Y"),
    )
    response = client_for("clerk").post(url("registration_create", contest), data)
    assert response.status_code == 200
    assert "é posterior ao fim das inscrições" in response.content.decode()
    # All or nothing: not even the candidate was kept.
    assert not Registration.objects.exists()
    assert not Candidate.objects.filter(cpf=CPF).exists()


def test_create_links_an_existing_candidate_by_cpf(client_for):
    contest = open_contest()
    candidate = make_candidate(cpf=CPF, full_name="João da Silva Araújo", phone="55 3220-0000")
    response = client_for("clerk").post(url("registration_create", contest), form_data(contest), follow=True)
    assert "já estava cadastrado" in response.content.decode()
    registration = Registration.objects.get(number="5001")
    assert registration.candidate == candidate
    candidate.refresh_from_db()
    assert candidate.phone == "55 3220-0000"  # a blank field keeps what was stored
    assert candidate.email == "joao@example.org"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cpf", "036.881.690-78", "dígitos verificadores não conferem"),
        ("number", "1001", "Já existe uma inscrição com este número"),
        ("position", "", "Este campo é obrigatório"),
        ("preferred_reserve", "pcd", "deve ser uma das reservas escolhidas na inscrição"),
    ],
)
def test_create_bad_input(client_for, field, value, message):
    contest = open_contest()
    make_registration(position(contest), number="1001")
    response = client_for("clerk").post(
        url("registration_create", contest), form_data(contest, **{field: value})
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Registration.objects.filter(number="5001").exists()


# Edit, detail and history ----------------------------------------------------------------------------


def test_clerk_edits_registration_and_history_names_the_clerk(client_for, cast):
    contest = make_example_contest()
    registration = make_registration(position(contest), make_candidate(cpf=CPF), number="7001")
    data = form_data(
        contest,
        full_name="Joana Prado",
        number="7002",
        position=position(contest, "ANSI").pk,
        registered_on="",
    )
    client = client_for("clerk")
    response = client.post(url("registration_edit", registration), data)
    assert response.status_code == 302
    registration.refresh_from_db()
    assert (registration.number, registration.position.code) == ("7002", "ANSI")
    assert registration.candidate.full_name == "Joana Prado"
    record = registration.history.first()
    assert record.history_user == cast["clerk"]
    assert {"number", "position"} <= set(record.diff_against(record.prev_record).changed_fields)
    assert registration.candidate.history.first().history_user == cast["clerk"]
    page = client.get(url("registration_detail", registration)).content.decode()
    assert "Clerk" in page  # who
    assert "7001" in page and "7002" in page  # what, field by field
    assert "Joana Prado" in page


def test_edit_form_shows_pcd_condition_and_logs_it(client_for, cast):
    registration = make_registration(position(make_example_contest()), pcd_reserve=True)
    response = client_for("clerk").get(url("registration_edit", registration))
    assert response.context["form"].initial["pcd_reserve"] is True
    assert AccessLog.objects.filter(user=cast["clerk"], object_id=str(registration.pk)).count() == 1


def test_edit_refused_keeps_registration(client_for):
    contest = make_example_contest()
    registration = make_registration(position(contest), number="7001")
    make_registration(position(contest), number="7002")
    response = client_for("clerk").post(
        url("registration_edit", registration), form_data(contest, number="7002", registered_on="")
    )
    assert response.status_code == 200
    registration.refresh_from_db()
    assert registration.number == "7001"


def test_detail_shows_masked_cpf_to_staff_and_phase_results(client_for, reader):
    contest = make_example_contest()
    objective = make_phase(contest, name="Objetiva", pass_mark=50)
    registration = make_registration(position(contest), make_candidate(cpf=CPF))
    registration.phase_results.create(phase=objective, score=42)
    clerk_page = client_for("clerk").get(url("registration_detail", registration)).content.decode()
    assert "***.881.690-**" in clerk_page  # in full on request, logged (test_sensitive_display.py)
    assert "Objetiva" in clerk_page and "42,00" in clerk_page
    assert "Abaixo da nota mínima" in clerk_page
    reader_page = reader.get(url("registration_detail", registration)).content.decode()
    assert "881.690" not in reader_page


def test_sensitive_data_shown_on_request_and_logged(client_for, cast):
    registration = make_registration(
        position(make_example_contest()), racial_category="parda", pcd_reserve=True
    )
    client = client_for("clerk")
    page = client.get(url("registration_detail", registration)).content.decode()
    assert "Parda" not in page
    assert not AccessLog.objects.exists()
    response = client.get(url("registration_detail", registration), {"dados_sensiveis": "1"})
    page = response.content.decode()
    assert "Parda" in page
    assert "Reserva para pessoas com deficiência" in page
    log = AccessLog.objects.get()
    assert log.user == cast["clerk"]
    assert log.object_id == str(registration.pk)
    assert log.action == "view_sensitive"


def test_sensitive_data_refused_without_permission_and_not_logged(client_for, reader):
    registration = make_registration(position(make_example_contest()), racial_category="parda")
    response = reader.get(url("registration_detail", registration), {"dados_sensiveis": "1"})
    assert response.status_code == 403
    assert not AccessLog.objects.exists()


def test_status_change_is_recorded_with_reason(client_for, cast):
    registration = make_registration(position(make_example_contest()))
    client = client_for("clerk")
    client.post(
        url("registration_status", registration), {"status": "withdrawn", "reason": "Pedido de 02/05"}
    )
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN
    record = registration.history.first()
    assert record.history_user == cast["clerk"]
    assert "Pedido de 02/05" in record.history_change_reason
    # Without a reason nothing changes.
    client.post(url("registration_status", registration), {"status": "active", "reason": ""})
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN


def test_eliminating_a_nominee_on_the_registration_page_frees_the_seat_at_once(client_for, cast):
    """RULES §4 item 4: the seat strip shows the seat free right after the status change, and the next
    call fills it from the same list (the racial seat from the racial list)."""
    contest = make_contest(pcd_percent=0)
    worked = make_classified_position(contest, code="ALEG")
    homologate(contest, timezone.localdate() - datetime.timedelta(days=60))
    publish_final(contest, cast["manager"])
    today = timezone.localdate()
    nominations_call(position=worked, count=5, act_number="Portaria 1/2026", act_date=today, by=cast["clerk"])
    strip = reverse("candidates:nomination_list", args=[contest.slug, worked.pk])
    client = client_for("clerk")
    assert 'title="Vaga 3, reservada a negros: ocupada por' in client.get(strip).content.decode()

    n2 = worked.registrations.get(number="N2")
    response = client.post(
        url("registration_status", n2), {"status": "eliminated", "reason": "Falsidade: processo 3/2026"}
    )
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Situação alterada para “Eliminada”" in page
    assert "A 3ª vaga fica livre" in page
    assert 'title="Vaga 3, reservada a negros: livre"' in client.get(strip).content.decode()
    annulled = Nomination.objects.get(registration=n2)
    assert (annulled.status, annulled.ended_on) == (Nomination.Status.ANNULLED, today)
    assert annulled.history.first().history_user == cast["clerk"]

    call = reverse("candidates:nomination_call", args=[contest.slug, worked.pk])
    data = {"count": "1", "act_number": "Portaria 2/2026", "act_date": today.strftime("%d/%m/%Y")}
    data["notified_gazette"] = "on"
    preview = client.post(call, {**data, "step": "preview"}).content.decode()
    assert "3ª vaga · Reservada a negros</strong>: inscrição N3" in preview
    version = AllocationLedger.objects.get(position=worked).version
    confirm = client.post(call, {**data, "step": "confirm", "version": str(version), "previewed": "1"})
    assert confirm.status_code == 302
    latest = Nomination.objects.filter(position=worked).latest("order")
    assert (latest.seat, latest.registration.number, latest.source_list) == (3, "N3", "racial")
    assert 'title="Vaga 3, reservada a negros: ocupada por' in client.get(strip).content.decode()


# The racial option -----------------------------------------------------------------------------------


def test_declaration_page_is_a_logged_sensitive_view(client_for, cast):
    registration = make_registration(position(make_example_contest()), racial_category="preta")
    page = client_for("clerk").get(url("registration_declaration", registration)).content.decode()
    assert "Preta" in page
    assert AccessLog.objects.filter(user=cast["clerk"], object_id=str(registration.pk)).exists()


def test_racial_option_added_while_registrations_open(client_for, cast):
    registration = make_registration(position(open_contest()))
    response = client_for("clerk").post(url("registration_racial_option", registration), {"racial": "preta"})
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.racial_reserve
    declaration = registration.self_declaration
    assert (declaration.category, declaration.declared_on) == ("preta", timezone.localdate())
    assert declaration.history.first().history_user == cast["clerk"]


def test_racial_option_cannot_be_added_after_registrations_close(client_for):
    registration = make_registration(position(closed_contest()))
    client = client_for("clerk")
    page = client.get(url("registration_declaration", registration)).content.decode()
    assert "não pode mais ser acrescentada" in page
    response = client.post(url("registration_racial_option", registration), {"racial": "preta"})
    assert response.status_code == 200
    assert "não pode ser acrescentada depois do fim das inscrições" in response.content.decode()
    registration.refresh_from_db()
    assert not registration.racial_reserve
    assert not SelfDeclaration.objects.exists()


def test_candidate_gives_up_the_reserve(client_for, cast):
    registration = make_registration(
        position(closed_contest()), racial_category="parda", preferred_reserve="racial"
    )
    response = client_for("clerk").post(
        url("registration_give_up", registration), {"on": "10/05/2026", "reason": "Requerimento 12/2026"}
    )
    assert response.status_code == 302
    registration.refresh_from_db()
    assert not registration.racial_reserve
    assert registration.preferred_reserve == ""
    declaration = registration.self_declaration
    assert declaration.status == SelfDeclaration.Status.GIVEN_UP
    assert declaration.ended_on == datetime.date(2026, 5, 10)
    record = declaration.history.first()
    assert record.history_user == cast["clerk"]
    assert "Requerimento 12/2026" in record.history_change_reason


def test_correction_without_justification_is_refused(client_for):
    registration = make_registration(position(closed_contest()), racial_category="parda")
    client = client_for("clerk")
    for justification in ("", "erro"):
        response = client.post(
            url("registration_correct", registration), {"racial": "preta", "justification": justification}
        )
        assert response.status_code == 200
        assert "justification" in response.context["correction_form"].errors
    declaration = SelfDeclaration.objects.get(registration=registration)
    assert declaration.category == "parda"
    assert declaration.history.count() == 1


def test_correction_with_justification_is_recorded_and_shown_in_history(client_for, cast):
    registration = make_registration(position(closed_contest()), racial_category="parda")
    justification = "Ficha de inscrição marca preta; digitado parda por engano"
    client = client_for("clerk")
    response = client.post(
        url("registration_correct", registration), {"racial": "preta", "justification": justification}
    )
    assert response.status_code == 302
    declaration = SelfDeclaration.objects.get(registration=registration)
    assert (declaration.category, declaration.justification) == ("preta", justification)
    record = declaration.history.first()
    assert record.history_user == cast["clerk"]
    assert justification in record.history_change_reason
    # The history shows it with the sensitive data (a logged view), not without.
    assert justification not in client.get(url("registration_detail", registration)).content.decode()
    page = client.get(url("registration_detail", registration), {"dados_sensiveis": "1"}).content.decode()
    assert justification in page
    assert "Autodeclaração" in page


def test_correction_removes_an_option_typed_by_mistake_after_close(client_for):
    registration = make_registration(position(closed_contest()), racial_category="")
    client_for("clerk").post(
        url("registration_correct", registration),
        {"racial": "", "justification": "A ficha não marca a opção pela reserva"},
    )
    registration.refresh_from_db()
    assert not registration.racial_reserve
    assert registration.self_declaration.status == SelfDeclaration.Status.CORRECTED


def test_history_without_sensitive_data_hides_the_reserves(client_for):
    contest = closed_contest()
    registration = make_registration(position(contest), racial_category="parda")
    client = client_for("clerk")
    client.post(
        url("registration_give_up", registration), {"on": "10/05/2026", "reason": "Pedido"}, follow=True
    )
    page = client.get(url("registration_detail", registration)).content.decode()
    assert "Renúncia" not in page
    assert "Concorre à reserva racial" not in page
    page = client.get(url("registration_detail", registration), {"dados_sensiveis": "1"}).content.decode()
    assert "Renúncia à reserva racial" in page


def test_contest_detail_links_to_registrations_and_import(client_for):
    contest = make_contest()
    page = client_for("clerk").get(contest.get_absolute_url()).content.decode()
    assert url("registration_list", contest) in page
    assert url("import_upload", contest) in page
    page = client_for("commission").get(contest.get_absolute_url()).content.decode()
    assert url("registration_list", contest) not in page
    assert url("import_upload", contest) not in page


def test_correction_to_the_same_option_is_refused(client_for):
    registration = make_registration(position(closed_contest()), racial_category="parda")
    response = client_for("clerk").post(
        url("registration_correct", registration), {"racial": "parda", "justification": "Nada mudou na ficha"}
    )
    assert response.status_code == 200
    assert "não há o que corrigir" in response.content.decode()
    assert SelfDeclaration.objects.get(registration=registration).history.count() == 1


def test_registration_dated_after_registrations_closed_is_refused(client_for):
    contest = closed_contest()
    late = (contest.registration_end + datetime.timedelta(days=1)).strftime("%d/%m/%Y")
    response = client_for("clerk").post(
        url("registration_create", contest), form_data(contest, registered_on=late)
    )
    assert "não pode ser posterior ao fim das inscrições" in response.content.decode()
    assert not Registration.objects.exists()


def test_history_shows_the_cpf_formatted(client_for):
    contest = make_example_contest()
    registration = make_registration(position(contest), make_candidate(cpf=CPF), number="7001")
    client = client_for("clerk")
    client.post(
        url("registration_edit", registration), form_data(contest, cpf="096.807.849-40", number="7001")
    )
    page = client.get(url("registration_detail", registration)).content.decode()
    assert "***.807.849-**" in page and "***.881.690-**" in page  # masked until the full CPF is asked
    page = client.get(url("registration_detail", registration), {"cpf_completo": "1"}).content.decode()
    assert "096.807.849-40" in page and "036.881.690-77" in page
