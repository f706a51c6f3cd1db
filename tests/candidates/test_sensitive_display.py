"""Defect 8 (LGPD): every display of a racial option, a PcD condition or a full CPF is logged in
the access log, or the page does not show it. One test per place that showed one of them unlogged."""

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from candidates.models import Candidate, Registration, SelfDeclaration
from candidates.services.registrations import registration_set_status
from candidates.services.results import result_run_compute
from contests.models import AccessLog
from tests.builders import make_candidate, make_classified_position, make_contest, make_registration

CPF = "03688169077"  # 036.881.690-77


def logs(user=None, **filters):
    rows = AccessLog.objects.filter(**filters)
    return rows.filter(user=user) if user is not None else rows


@pytest.fixture
def contest(db):
    return make_contest()


@pytest.fixture
def registration(contest):
    position = make_classified_position(contest, code="ALEG", people=())
    return make_registration(
        position, make_candidate(cpf=CPF), racial_category="parda", pcd_reserve=True, number="501"
    )


@pytest.fixture
def reader(db):
    """Reads registrations but neither the candidate's data nor the sensitive ones (Comissão read them
    before it was narrowed to its sessions; a custom group still could)."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    user = User.objects.create_user("reader-sensitive", password="x")
    user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=("view_contest", "view_position", "view_registration"),
            content_type__app_label__in=("contests", "candidates"),
        )
    )
    client = Client()
    client.force_login(user)
    return client


def detail_url(registration):
    return reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])


# The registration list -----------------------------------------------------------------------------------


def test_list_shows_no_cotista_badge_so_it_logs_nothing(client_for, registration):
    page = client_for("clerk").get(reverse("candidates:registration_list", args=[registration.contest.slug]))
    text = page.content.decode()
    assert "501" in text
    assert "Cotista" not in text and "Reserva a negros</th>" not in text
    assert not AccessLog.objects.exists()


# The registration detail: the full CPF -------------------------------------------------------------------


def test_detail_masks_the_cpf_until_asked_and_logs_the_full_cpf(client_for, cast, registration):
    client = client_for("clerk")
    text = client.get(detail_url(registration)).content.decode()
    assert "***.881.690-**" in text and "036.881.690-77" not in text
    assert not AccessLog.objects.exists()
    text = client.get(detail_url(registration), {"cpf_completo": "1"}).content.decode()
    assert "036.881.690-77" in text and "consulta registrada no registro de acessos" in text
    log = logs(cast["clerk"], object_id=str(registration.pk)).get()
    assert (log.action, log.detail) == ("view_sensitive", "CPF completo")


def test_history_masks_a_changed_cpf_unless_the_full_cpf_is_shown(client_for, cast, registration):
    candidate = registration.candidate
    candidate.cpf = "52998224725"
    candidate._history_user = cast["clerk"]
    candidate.save()
    client = client_for("clerk")
    text = client.get(detail_url(registration)).content.decode()
    assert "036.881.690-77" not in text and "529.982.247-25" not in text
    assert "***.982.247-**" in text
    text = client.get(detail_url(registration), {"cpf_completo": "1"}).content.decode()
    assert "036.881.690-77" in text and "529.982.247-25" in text
    assert logs(cast["clerk"]).count() == 1


def test_full_cpf_is_not_shown_to_who_may_not_see_candidates(reader, registration):
    text = reader.get(detail_url(registration), {"cpf_completo": "1"}).content.decode()
    assert "881.690" not in text
    assert not AccessLog.objects.exists()


# The registration detail: free-text status reasons -------------------------------------------------------


def test_status_reason_typed_by_a_clerk_is_hidden_from_who_may_not_see_sensitive_data(
    reader, cast, registration
):
    registration_set_status(
        registration=registration, status="eliminated", by=cast["clerk"], reason="laudo CID F84 recusado"
    )
    text = reader.get(detail_url(registration)).content.decode()
    assert "CID F84" not in text
    assert "Eliminad" in text  # the status itself and the fixed words of the reason stay
    assert not AccessLog.objects.exists()


def test_status_reason_is_shown_with_the_logged_sensitive_view(client_for, cast, registration):
    registration_set_status(
        registration=registration, status="eliminated", by=cast["clerk"], reason="laudo CID F84 recusado"
    )
    client = client_for("clerk")
    assert "CID F84" not in client.get(detail_url(registration)).content.decode()
    assert not AccessLog.objects.exists()
    text = client.get(detail_url(registration), {"dados_sensiveis": "1"}).content.decode()
    assert "CID F84" in text
    assert logs(cast["clerk"], object_id=str(registration.pk)).count() == 1


# The edit form: the stored option revealed by a form error ---------------------------------------------


def test_edit_form_error_naming_the_stored_option_is_logged(client_for, cast, contest):
    position = make_classified_position(contest, code="BLEG", people=())
    registration = make_registration(position, make_candidate(cpf=CPF), number="777")  # no reserve
    data = {
        "full_name": registration.candidate.full_name,
        "cpf": CPF,
        "position": position.pk,
        "number": "777",
        "registered_on": "",
        "pcd_reserve": "",
        "preferred_reserve": "racial",  # refused: the stored registration has no racial option
    }
    url = reverse("candidates:registration_edit", args=[contest.slug, registration.pk])
    response = client_for("clerk").post(url, data)
    assert response.status_code == 200
    assert response.context["form"].errors["preferred_reserve"]
    log = logs(cast["clerk"], object_id=str(registration.pk)).get()
    assert "condição PcD" in log.detail and "CPF completo" in log.detail


def test_edit_form_shows_the_cpf_so_it_is_logged_even_without_sensitive_permission(client_for, cast):
    # A user who may edit candidates but not see sensitive data: the form still holds the full CPF.
    from django.contrib.auth.models import Permission

    registration = make_registration(candidate=make_candidate(cpf=CPF))
    user = User.objects.create_user("editor")
    perms = Permission.objects.filter(
        codename__in=["view_contest", "view_registration", "change_registration", "change_candidate"]
    )
    user.user_permissions.set(perms)
    client = client_for("anonymous")
    client.force_login(user)
    url = reverse("candidates:registration_edit", args=[registration.contest.slug, registration.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert "pcd_reserve" not in response.context["form"].fields
    assert logs(user, object_id=str(registration.pk)).get().detail == "formulário de edição: CPF completo"


# A run's lists, drafts included --------------------------------------------------------------------------


@pytest.fixture
def pcd_draft(cast):
    contest = make_contest(pcd_percent=5)
    position = make_classified_position(contest, code="CLEG")
    Registration.objects.filter(position=position, number="N1").update(pcd_reserve=True)
    return result_run_compute(contest=contest, by=cast["clerk"])


@pytest.mark.parametrize("lista", ["pcd", "racial", "geral", "fora"])
def test_each_list_of_a_draft_run_is_logged_when_shown(client_for, cast, pcd_draft, lista):
    Registration.objects.filter(number="A").update(status="eliminated")  # someone out of the lists
    run = result_run_compute(contest=pcd_draft.contest, by=cast["clerk"])
    url = reverse("candidates:result_detail", args=[run.contest.slug, run.pk])
    response = client_for("auditor").get(url, {"lista": lista})
    assert response.status_code == 200
    shown = response.context["page"].object_list
    if not shown:
        assert not AccessLog.objects.exists()
        return
    log = logs(cast["auditor"], object_id=str(run.pk)).get()
    assert log.action == "view_sensitive" and "CLEG" in log.detail


def test_pcd_list_of_a_draft_is_logged(client_for, cast, pcd_draft):
    url = reverse("candidates:result_detail", args=[pcd_draft.contest.slug, pcd_draft.pk])
    text = client_for("clerk").get(url, {"lista": "pcd"}).content.decode()
    assert "N1" in text
    log = logs(cast["clerk"], object_id=str(pcd_draft.pk)).get()
    assert "pessoas com deficiência" in log.detail


def test_comparison_of_runs_is_logged(client_for, cast, pcd_draft):
    from candidates.services.results import result_run_publish

    result_run_publish(run=pcd_draft, kind="preliminary", by=cast["manager"])
    Registration.objects.filter(number="N1").update(status="eliminated")
    second = result_run_compute(contest=pcd_draft.contest, by=cast["clerk"])
    url = reverse("candidates:result_compare", args=[second.contest.slug, second.pk])
    response = client_for("auditor").get(url)
    assert response.context["page"].object_list
    assert "comparação" in logs(cast["auditor"], object_id=str(second.pk)).get().detail


# The admin -----------------------------------------------------------------------------------------------


@pytest.fixture
def root_client(client, db):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    client.root = root
    return client


def test_admin_registration_list_has_no_reserve_column_or_filter(root_client, registration):
    text = root_client.get(reverse("admin:candidates_registration_changelist")).content.decode()
    assert "501" in text
    assert "pcd_reserve" not in text and "racial_reserve" not in text
    log = logs(root_client.root).get()
    assert log.content_type == ContentType.objects.get_for_model(ContentType)


@pytest.mark.parametrize(
    "model, page",
    [
        (Registration, "change"),
        (Registration, "history"),
        (Candidate, "changelist"),
        (Candidate, "change"),
        (SelfDeclaration, "changelist"),
        (SelfDeclaration, "change"),
    ],
)
def test_admin_sensitive_pages_are_logged(root_client, registration, model, page):
    obj = {
        Registration: registration,
        Candidate: registration.candidate,
        SelfDeclaration: registration.self_declaration,
    }[model]
    name = f"admin:candidates_{model._meta.model_name}_{page}"
    url = reverse(name) if page == "changelist" else reverse(name, args=[obj.pk])
    assert root_client.get(url).status_code == 200
    log = logs(root_client.root).get()
    assert log.action == "view_sensitive" and log.detail.startswith("administração")
    if page != "changelist":
        assert log.object_id == str(obj.pk)


def test_admin_past_version_of_a_registration_is_logged(root_client, registration):
    version = registration.history.first()
    url = reverse("admin:candidates_registration_simple_history", args=[registration.pk, version.history_id])
    assert root_client.get(url).status_code == 200
    assert "versão" in logs(root_client.root, object_id=str(registration.pk)).get().detail


def test_admin_result_entries_are_logged(root_client, pcd_draft):
    assert (
        root_client.get(reverse("admin:candidates_resultentry_changelist"), {"list": "pcd"}).status_code
        == 200
    )
    assert logs(root_client.root).count() == 1


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_the_export_of_all_lists_of_a_draft_is_logged(client_for, cast, pcd_draft, fmt):
    url = reverse("candidates:result_export", args=[pcd_draft.contest.slug, pcd_draft.pk, fmt])
    response = client_for("clerk").get(url)
    assert response.status_code == 200
    log = logs(cast["clerk"], object_id=str(pcd_draft.pk)).get()
    assert log.action == "view_sensitive" and fmt.upper() in log.detail
