"""Positions, their vacancies and openings, and the live reservation preview."""

import datetime

import pytest
from django.urls import reverse

from contests import quotas, services
from contests.models import Contest, Position, VacancyOpening
from tests.access import ROLES, STAFF, assert_access
from tests.builders import final_result, make_contest, make_position, policy


def homologated_position(manager, vacancies=7):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_position(contest, vacancies=vacancies)
    final_result(contest)
    services.contest_homologate(
        contest=contest, by=manager, date=datetime.date(2026, 7, 1), act="Portaria 1/2026"
    )
    return position


def later_opening(position, by, count=2, date=datetime.date(2026, 9, 1)):
    return services.vacancy_opening_create(
        position=position, by=by, data={"kind": "later", "count": count, "date": date, "act": "Lei 100/2026"}
    )


def position_data(**overrides) -> dict:
    data = {
        "code": "TL",
        "title": "Técnico Legislativo",
        "post_kind": "cargo_efetivo",
        "legal_regime": "estatutário",
        "edital_vacancies": "7",
        "requirements": "",
        "salary": "3.500,00",
        "workload_hours": "40",
    }
    data.update(overrides)
    return data


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_position_create_access(client_for, who):
    contest = make_contest()
    assert_access(client_for, who, reverse("contests:position_create", args=[contest.slug]), {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_position_edit_access(client_for, who):
    position = make_position()
    url = reverse("contests:position_edit", args=[position.contest.slug, position.pk])
    assert_access(client_for, who, url, {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_position_detail_access(client_for, who):
    position = make_position()
    assert_access(client_for, who, position.get_absolute_url(), STAFF)


@pytest.mark.parametrize("who", ROLES)
def test_opening_create_access(client_for, cast, who):
    position = homologated_position(cast["manager"])
    url = reverse("contests:opening_create", args=[position.contest.slug, position.pk])
    assert_access(client_for, who, url, {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_opening_edit_access(client_for, cast, who):
    position = homologated_position(cast["manager"])
    opening = later_opening(position, cast["clerk"])
    url = reverse("contests:opening_edit", args=[position.contest.slug, position.pk, opening.pk])
    assert_access(client_for, who, url, {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_opening_delete_access(client_for, who):
    position = make_position()
    opening = position.openings.get()
    url = reverse("contests:opening_delete", args=[position.contest.slug, position.pk, opening.pk])
    assert_access(client_for, who, url, {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_preview_access(client_for, who):
    contest = make_contest()
    target = reverse("contests:reservation_preview", args=[contest.slug])
    response = assert_access(client_for, who, target, STAFF, data={"vagas": 5})
    if who in STAFF:
        assert response["Content-Type"] == "application/json"


def test_position_of_another_contest_is_404(client_for):
    position = make_position()
    other = make_contest()
    url = reverse("contests:position_detail", args=[other.slug, position.pk])
    assert client_for("clerk").get(url).status_code == 404


# Create and edit -------------------------------------------------------------------------------------


def test_clerk_creates_position_with_edital_vacancies(client_for, cast):
    contest = make_contest()
    response = client_for("clerk").post(
        reverse("contests:position_create", args=[contest.slug]), position_data()
    )
    position = Position.objects.get(contest=contest, code="TL")
    assert response.status_code == 302
    assert response.url == position.get_absolute_url()
    assert str(position.salary) == "3500.00"
    opening = position.openings.get()
    assert (opening.kind, opening.count, opening.date) == ("edital", 7, contest.edital_date)
    assert position.history.first().history_user == cast["clerk"]
    assert opening.history.first().history_user == cast["clerk"]


def test_save_and_add_another_position_returns_to_an_empty_form(client_for):
    contest = make_contest()
    url = reverse("contests:position_create", args=[contest.slug])
    client = client_for("clerk")
    assert "Salvar e cadastrar outro cargo" in client.get(url).content.decode()
    response = client.post(url, position_data(another="1"), follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert Position.objects.filter(contest=contest, code="TL").exists()
    page = response.content.decode()
    assert "Cargo TL criado com 7 vagas no edital." in page
    assert response.context["form"].initial.get("code") is None  # a new, empty form


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"edital_vacancies": "-1"}, "O número de vagas não pode ser negativo."),
        ({"edital_vacancies": "dois"}, "Informe um número inteiro."),
        ({"code": "T L"}, "Use letras, números, ponto, hífen ou sublinhado."),
        ({"title": ""}, "Este campo é obrigatório."),
    ],
)
def test_position_create_bad_input_changes_nothing(client_for, overrides, message):
    contest = make_contest()
    url = reverse("contests:position_create", args=[contest.slug])
    response = client_for("clerk").post(url, position_data(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Position.objects.filter(contest=contest).exists()
    assert not VacancyOpening.objects.exists()


def test_position_code_is_unique_in_the_contest(client_for):
    position = make_position(code="TL")
    url = reverse("contests:position_create", args=[position.contest.slug])
    response = client_for("clerk").post(url, position_data(code="tl"))
    assert "Já existe um cargo com este código neste concurso." in response.content.decode()
    assert Position.objects.filter(contest=position.contest).count() == 1


def test_clerk_edits_position_and_edital_vacancies(client_for, cast):
    position = make_position(vacancies=5, code="TL")
    url = reverse("contests:position_edit", args=[position.contest.slug, position.pk])
    response = client_for("clerk").post(url, position_data(title="Técnico II", edital_vacancies="8"))
    assert response.status_code == 302
    position.refresh_from_db()
    assert position.title == "Técnico II"
    assert position.vacancies == 8
    assert position.history.first().history_user == cast["clerk"]
    edital = position.openings.get()
    assert edital.history.first().history_user == cast["clerk"]
    assert edital.history.first().history_change_reason == "Vagas alteradas"


def test_edital_vacancies_cannot_change_after_registrations(client_for):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    position = make_position(contest, vacancies=5, code="TL")
    url = reverse("contests:position_edit", args=[contest.slug, position.pk])
    client = client_for("clerk")
    assert client.get(url).context["form"].fields["edital_vacancies"].disabled
    response = client.post(url, position_data(title="Outro", edital_vacancies="9"))
    assert response.status_code == 302
    position.refresh_from_db()
    assert position.title == "Outro"
    assert position.vacancies == 5


def test_edit_negative_vacancies_changes_nothing(client_for):
    position = make_position(vacancies=5, code="TL")
    url = reverse("contests:position_edit", args=[position.contest.slug, position.pk])
    response = client_for("clerk").post(url, position_data(title="Outro", edital_vacancies="-3"))
    assert "O número de vagas não pode ser negativo." in response.content.decode()
    position.refresh_from_db()
    assert position.vacancies == 5
    assert position.title != "Outro"


# Detail ----------------------------------------------------------------------------------------------


def test_position_detail_shows_reserve_explanation_and_cumulative_openings(client_for, cast):
    position = homologated_position(cast["manager"], vacancies=7)
    later_opening(position, cast["clerk"], count=2)
    response = client_for("auditor").get(position.get_absolute_url())
    page = response.content.decode()
    reservation = response.context["row"].reservation
    # 9 vacancies: 20% = 1.8 → 2 (SM art. 1 §3), 0.2 reserved ahead; PcD 5% = 0.45 → 1.
    assert (reservation.vacancies, reservation.open, reservation.racial, reservation.pcd) == (9, 6, 2, 1)
    assert reservation.racial_explanation in page
    assert "20% de 9 = 1,8 → 2" in page
    assert "0,2 já antecipado" in page and "-0,2" not in page  # in words, never negative
    openings = response.context["openings"]
    assert [(o["cumulative"], o["reservation"].racial, o["carried"]) for o in openings] == [
        (7, 1, "0,4 a considerar nas próximas vagas"),
        (9, 2, "0,2 já antecipado"),
    ]
    assert openings[1]["added"] == 1


# Openings --------------------------------------------------------------------------------------------


def test_clerk_opens_vacancies_during_validity(client_for, cast):
    position = homologated_position(cast["manager"], vacancies=7)
    url = reverse("contests:opening_create", args=[position.contest.slug, position.pk])
    data = {"count": "2", "date": "01/09/2026", "act": "Lei 100/2026", "note": ""}
    response = client_for("clerk").post(url, data)
    assert response.status_code == 302
    opening = position.openings.get(kind="later")
    assert (opening.count, opening.date, opening.act) == (2, datetime.date(2026, 9, 1), "Lei 100/2026")
    assert opening.history.first().history_user == cast["clerk"]
    # The fraction carried: 7 reserve 1 (0.4 owed); 2 more make 9 and reserve 2.
    assert position.reservation().racial == 2


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"count": "0"}, "Informe ao menos 1 vaga."),
        ({"count": "-2"}, "Informe ao menos 1 vaga."),
        (
            {"date": "01/09/2029"},
            "A data deve estar dentro da validade do concurso (01/07/2026 a 01/07/2028).",
        ),
        ({"act": ""}, "Este campo é obrigatório."),
    ],
)
def test_opening_bad_input_changes_nothing(client_for, cast, overrides, message):
    position = homologated_position(cast["manager"])
    url = reverse("contests:opening_create", args=[position.contest.slug, position.pk])
    data = {"count": "2", "date": "01/09/2026", "act": "Lei 100/2026", "note": "", **overrides}
    response = client_for("clerk").post(url, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not position.openings.filter(kind="later").exists()


def test_opening_before_homologation_is_refused(client_for):
    position = make_position(vacancies=2)
    url = reverse("contests:opening_create", args=[position.contest.slug, position.pk])
    client = client_for("clerk")
    assert "Concurso ainda não homologado" in client.get(url).content.decode()
    data = {"count": "1", "date": "01/09/2026", "act": "Lei 100/2026", "note": ""}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "só podem ser registradas depois da homologação" in response.content.decode()
    assert position.openings.count() == 1


def test_clerk_edits_an_opening(client_for, cast):
    position = homologated_position(cast["manager"])
    opening = later_opening(position, cast["clerk"], count=2)
    url = reverse("contests:opening_edit", args=[position.contest.slug, position.pk, opening.pk])
    data = {"count": "4", "date": "02/09/2026", "act": "Lei 101/2026", "note": "corrigido"}
    response = client_for("clerk").post(url, data)
    assert response.status_code == 302
    opening.refresh_from_db()
    assert (opening.count, opening.date, opening.act) == (4, datetime.date(2026, 9, 2), "Lei 101/2026")
    assert opening.history.first().history_user == cast["clerk"]


def test_editing_the_edital_opening_goes_to_the_position_form(client_for):
    position = make_position()
    opening = position.openings.get()
    url = reverse("contests:opening_edit", args=[position.contest.slug, position.pk, opening.pk])
    response = client_for("clerk").get(url)
    assert response.status_code == 302
    assert response.url == reverse("contests:position_edit", args=[position.contest.slug, position.pk])


def test_clerk_deletes_vacancies_of_a_draft(client_for, cast):
    position = make_position(vacancies=3)
    opening = position.openings.get()
    url = reverse("contests:opening_delete", args=[position.contest.slug, position.pk, opening.pk])
    response = client_for("clerk").post(url)
    assert response.status_code == 302
    assert not position.openings.exists()
    record = VacancyOpening.history.filter(id=opening.pk).first()
    assert record.history_type == "-"
    assert record.history_user == cast["clerk"]


def test_vacancies_of_a_published_contest_cannot_be_deleted(client_for):
    position = make_position(make_contest(status=Contest.Status.PUBLISHED), vacancies=3)
    opening = position.openings.get()
    url = reverse("contests:opening_delete", args=[position.contest.slug, position.pk, opening.pk])
    response = client_for("clerk").post(url, follow=True)
    assert "só podem ser excluídas antes da publicação do edital" in response.content.decode()
    assert position.openings.count() == 1


# Live preview ----------------------------------------------------------------------------------------


def test_preview_is_the_quota_engine_answer(client_for):
    contest = make_contest()
    data = (
        client_for("clerk")
        .get(reverse("contests:reservation_preview", args=[contest.slug]), {"vagas": 7})
        .json()
    )
    expected = quotas.reservation(
        7, policy().racial_rule(), contest.pcd_rule(), citations=policy().citations()
    )
    assert (data["vacancies"], data["open"], data["racial"], data["pcd"]) == (7, 5, 1, 1)
    assert data["carried_fraction"] == "0.4"
    assert data["carried_fraction_display"].startswith("0,4 a considerar nas próximas vagas")
    assert data["racial_explanation"] == expected.racial_explanation
    assert data["pcd_explanation"] == expected.pcd_explanation
    assert "1 reservada a negros" in data["summary"]


def test_preview_below_threshold_explains_it(client_for):
    contest = make_contest()
    url = reverse("contests:reservation_preview", args=[contest.slug])
    data = client_for("clerk").get(url, {"vagas": 2}).json()
    assert data["racial"] == 0
    assert "só se aplica a partir de 3 vagas" in data["racial_explanation"]


def test_preview_of_an_opening_counts_the_vacancies_already_open(client_for, cast):
    position = homologated_position(cast["manager"], vacancies=7)
    url = reverse("contests:reservation_preview", args=[position.contest.slug])
    data = client_for("clerk").get(url, {"vagas": 2, "cargo": position.pk}).json()
    assert (data["vacancies"], data["racial"]) == (9, 2)


def test_preview_replacing_the_edital_vacancies(client_for):
    position = make_position(vacancies=7)
    edital = position.openings.get()
    url = reverse("contests:reservation_preview", args=[position.contest.slug])
    data = client_for("clerk").get(url, {"vagas": 13, "cargo": position.pk, "substituir": edital.pk}).json()
    assert (data["vacancies"], data["racial"]) == (13, 3)


@pytest.mark.parametrize(
    ("value", "message"),
    [("-1", "O número de vagas não pode ser negativo."), ("abc", "Informe um número inteiro de vagas.")],
)
def test_preview_bad_input(client_for, value, message):
    contest = make_contest()
    url = reverse("contests:reservation_preview", args=[contest.slug])
    response = client_for("clerk").get(url, {"vagas": value})
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_forms_link_the_preview(client_for):
    contest = make_contest()
    page = client_for("clerk").get(reverse("contests:position_create", args=[contest.slug])).content.decode()
    assert "data-reservation-preview" in page
    assert reverse("contests:reservation_preview", args=[contest.slug]) in page
    assert "js/reservation-preview.js" in page
