"""Contests in the staff workspace: list, detail, create, edit, status, homologation, validity."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from contests import services
from contests.models import Contest, Policy
from tests.access import ROLES, STAFF, assert_access
from tests.builders import final_result, make_contest, make_position, policy


def contest_data(**overrides) -> dict:
    data = {
        "title": "Concurso de Agentes",
        "number": "7",
        "year": "2026",
        "slug": "concurso-7-2026",
        "edital_date": "02/03/2026",
        "policy": policy().pk,
        "registration_start": "09/03/2026",
        "registration_end": "08/04/2026",
        "pcd_percent": "5",
        "pcd_rounding": "up",
        "pcd_cap_percent": "20",
        "pcd_threshold": "1",
        "office_deadline_days": "30",
        "notes": "",
    }
    data.update(overrides)
    return data


def homologate(contest, by):
    """Publish the edital (a homologation needs it) and homologate on 01/07/2026."""
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=by)
    final_result(contest)
    return services.contest_homologate(
        contest=contest, by=by, date=datetime.date(2026, 7, 1), act="Portaria 1/2026"
    )


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_contest_list_access(client_for, who):
    assert_access(client_for, who, reverse("contests:list"), STAFF)


@pytest.mark.parametrize("who", ROLES)
def test_contest_detail_access(client_for, who):
    contest = make_contest()
    assert_access(client_for, who, reverse("contests:detail", args=[contest.slug]), STAFF)


@pytest.mark.parametrize("who", ROLES)
def test_contest_create_access(client_for, who):
    assert_access(client_for, who, reverse("contests:create"), {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_contest_edit_access(client_for, who):
    contest = make_contest()
    # Gestão edits no contest data: Secretaria does (DESIGN.md).
    assert_access(client_for, who, reverse("contests:edit", args=[contest.slug]), {"clerk"})


@pytest.mark.parametrize("who", ROLES)
def test_contest_homologate_access(client_for, who):
    contest = make_contest()
    assert_access(client_for, who, reverse("contests:homologate", args=[contest.slug]), {"manager"})


@pytest.mark.parametrize("who", ROLES)
def test_contest_extend_validity_access(client_for, cast, who):
    contest = homologate(make_contest(), cast["manager"])
    assert_access(client_for, who, reverse("contests:extend_validity", args=[contest.slug]), {"manager"})


@pytest.mark.parametrize("who", ROLES)
def test_contest_status_access(client_for, who):
    contest = make_contest()
    target = reverse("contests:status", args=[contest.slug])
    allowed = {"clerk"}
    data = {"status": "published"}
    response = assert_access(client_for, who, target, allowed, method="post", data=data, ok=302)
    if who in allowed:
        assert response.url == contest.get_absolute_url()


def test_unknown_contest_is_404(client_for):
    assert client_for("clerk").get(reverse("contests:detail", args=["nao-existe"])).status_code == 404


# List and detail -------------------------------------------------------------------------------------


def test_list_shows_contests_and_filters_by_status(client_for):
    draft = make_contest(title="Concurso Rascunho")
    make_contest(title="Concurso Publicado", status=Contest.Status.PUBLISHED)
    client = client_for("clerk")
    page = client.get(reverse("contests:list")).content.decode()
    assert "Concurso Rascunho" in page and "Concurso Publicado" in page
    page = client.get(reverse("contests:list"), {"situacao": "published"}).content.decode()
    assert "Concurso Publicado" in page and draft.title not in page


def test_detail_shows_positions_reserve_and_warnings(client_for):
    contest = make_contest()
    make_position(contest, vacancies=7, code="TL", title="Técnico")
    make_position(contest, vacancies=2, code="AN", title="Analista")
    make_position(contest, vacancies=2, code="MO", title="Motorista")
    response = client_for("commission").get(contest.get_absolute_url())
    page = response.content.decode()
    rows = {row.position.code: row.reservation for row in response.context["rows"]}
    # SM: 20% of 7 = 1.4 → 1 racial; PcD 5% of 7 = 0.35 → 1; open 5; 0.4 carried.
    assert (rows["TL"].racial, rows["TL"].pcd, rows["TL"].open) == (1, 1, 5)
    # 2 vacancies: below the threshold of 3 (SM art. 1 §2); PcD capped at 20% of 2 → 0.
    assert (rows["AN"].racial, rows["AN"].pcd, rows["AN"].open) == (0, 0, 2)
    assert "0,4" in page
    # The founding texts give no dates: the screen says so.
    assert policy().missing_dates_warning in page
    # 11 vacancies together reserve 2; split 7 + 2 + 2 they reserve 1 (ADC 41).
    assert response.context["fragmentation"] == {"shortfall": 1, "total": 11, "whole": 2, "split": 1}
    assert "ADC 41" in page


def test_detail_without_fragmentation_has_no_warning(client_for):
    contest = make_contest()
    make_position(contest, vacancies=10)
    make_position(contest, vacancies=5)
    response = client_for("clerk").get(contest.get_absolute_url())
    assert response.context["fragmentation"] is None
    assert "ADC 41" not in response.content.decode()


def test_detail_shows_validity_end_when_homologated(client_for, cast):
    contest = homologate(make_contest(), cast["manager"])
    page = client_for("auditor").get(contest.get_absolute_url()).content.decode()
    assert "01/07/2028" in page
    assert "Homologado" in page


# Create ----------------------------------------------------------------------------------------------


def test_clerk_creates_contest(client_for, cast):
    response = client_for("clerk").post(reverse("contests:create"), contest_data())
    contest = Contest.objects.get(slug="concurso-7-2026")
    assert response.status_code == 302
    assert response.url == contest.get_absolute_url()
    assert contest.title == "Concurso de Agentes"
    assert contest.edital_date == datetime.date(2026, 3, 2)
    assert contest.pcd_percent == Decimal(5)
    assert contest.status == Contest.Status.DRAFT
    assert contest.history.first().history_user == cast["clerk"]


def test_identifier_and_year_come_from_number_and_edital_date_when_left_blank(client_for):
    """Fewer clicks: the year is the edital's, the identifier concurso-<number>-<year>, and a taken
    identifier gets a suffix; both stay editable."""
    client = client_for("clerk")
    response = client.post(
        reverse("contests:create"), contest_data(number="12", year="", slug="", edital_date="05/01/2027")
    )
    contest = Contest.objects.get(number="12")
    assert response.status_code == 302
    assert (contest.year, contest.slug) == (2027, "concurso-12-2027")
    Contest.objects.filter(pk=contest.pk).update(number="12-a")  # the identifier stays taken
    client.post(
        reverse("contests:create"), contest_data(number="12", year="", slug="", edital_date="05/01/2027")
    )
    assert Contest.objects.get(number="12").slug == "concurso-12-2027-2"
    client.post(reverse("contests:create"), contest_data(number="13", slug="meu-concurso"))
    assert Contest.objects.get(number="13").slug == "meu-concurso"


def test_editing_with_a_blank_identifier_keeps_the_address(client_for):
    contest = make_contest()
    data = contest_data(number=contest.number, year=str(contest.year), slug="", title="Outro título")
    client_for("clerk").post(reverse("contests:edit", args=[contest.slug]), data)
    contest.refresh_from_db()
    assert (contest.title, contest.slug) == ("Outro título", f"concurso-{contest.number}")


def test_contest_refuses_policy_not_in_force_on_edital_date(client_for):
    later = Policy.objects.get(slug="santa-maria")
    later.effective_date = later.publication_date = datetime.date(2027, 1, 1)
    later.save()
    response = client_for("clerk").post(reverse("contests:create"), contest_data(policy=later.pk))
    assert response.status_code == 200
    assert "A política só vigora a partir de 01/01/2027" in response.content.decode()
    assert "policy" in response.context["form"].errors
    assert not Contest.objects.filter(slug="concurso-7-2026").exists()


def test_contest_refuses_edital_before_a_law_excluding_prior_editais(client_for):
    angra = policy("angra-dos-reis")
    angra.publication_date = angra.effective_date = datetime.date(2026, 6, 1)
    angra.save()
    response = client_for("clerk").post(reverse("contests:create"), contest_data(policy=angra.pk))
    assert "não se aplica a editais publicados antes da sua vigência" in response.content.decode()
    assert not Contest.objects.filter(slug="concurso-7-2026").exists()


def test_contest_refuses_edital_after_the_law_expired(client_for):
    angra = policy("angra-dos-reis")
    angra.publication_date = angra.effective_date = datetime.date(2015, 6, 1)  # 10 years: to 31/05/2025
    angra.save()
    response = client_for("clerk").post(reverse("contests:create"), contest_data(policy=angra.pk))
    assert "A política vigorou até 31/05/2025 (vigência de 10 anos, art. 5º)" in response.content.decode()
    assert not Contest.objects.filter(slug="concurso-7-2026").exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("pcd_percent", "120", "menor ou igual a 100"),
        ("edital_date", "31/02/2026", "Informe uma data válida"),
        ("registration_end", "01/03/2026", "O fim das inscrições não pode ser anterior ao início."),
        ("slug", "novo", "Este identificador é reservado"),
    ],
)
def test_contest_create_bad_input(client_for, field, value, message):
    response = client_for("clerk").post(reverse("contests:create"), contest_data(**{field: value}))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Contest.objects.filter(title="Concurso de Agentes").exists()


def test_contest_create_accepts_decimal_comma(client_for):
    client_for("clerk").post(reverse("contests:create"), contest_data(pcd_percent="7,5"))
    assert Contest.objects.get(slug="concurso-7-2026").pcd_percent == Decimal("7.5")


# Edit and status -------------------------------------------------------------------------------------


def test_clerk_edits_contest(client_for, cast):
    contest = make_contest()
    data = contest_data(slug=contest.slug, number=contest.number, title="Novo título")
    response = client_for("clerk").post(reverse("contests:edit", args=[contest.slug]), data)
    assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.title == "Novo título"
    record = contest.history.first()
    assert record.history_user == cast["clerk"]
    assert "title" in record.diff_against(record.prev_record).changed_fields


def test_published_contest_cannot_change_policy(client_for):
    contest = make_contest(status=Contest.Status.PUBLISHED)
    other = policy("angra-dos-reis")
    data = contest_data(slug=contest.slug, number=contest.number, policy=other.pk, title="Outro título")
    response = client_for("clerk").post(reverse("contests:edit", args=[contest.slug]), data)
    assert response.status_code == 200
    assert "não pode ser trocada" in response.content.decode()
    contest.refresh_from_db()
    assert contest.policy.slug == "santa-maria"
    assert contest.title != "Outro título"


def test_status_change_is_recorded(client_for, cast):
    contest = make_contest()
    client_for("clerk").post(reverse("contests:status", args=[contest.slug]), {"status": "published"})
    contest.refresh_from_db()
    assert contest.status == Contest.Status.PUBLISHED
    assert contest.history.first().history_user == cast["clerk"]


def test_status_form_cannot_homologate(client_for):
    contest = make_contest()
    client_for("clerk").post(reverse("contests:status", args=[contest.slug]), {"status": "homologated"})
    contest.refresh_from_db()
    assert contest.status == Contest.Status.DRAFT


def test_status_needs_post(client_for):
    contest = make_contest()
    assert client_for("clerk").get(reverse("contests:status", args=[contest.slug])).status_code == 405


# Homologation and validity ---------------------------------------------------------------------------


def test_manager_homologates_after_a_confirmation_step(client_for, cast):
    contest = make_contest(
        status=Contest.Status.IN_PROGRESS, final_result_published_on=datetime.date(2026, 5, 4)
    )
    data = {"date": "01/07/2026", "act": "Portaria 12/2026", "gazette": "DOE 1234", "validity_months": "12"}
    client = client_for("manager")
    url = reverse("contests:homologate", args=[contest.slug])
    # Step 1: what will be recorded, the validity's end computed; nothing is saved yet.
    response = client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Confirmar a homologação" in page and "01/07/2027" in page and "Portaria 12/2026" in page
    contest.refresh_from_db()
    assert contest.homologation_date is None and contest.history.count() == 1
    # "Voltar e corrigir": the form again, with what was typed.
    page = client.post(url, {**data, "edit": "1"}).content.decode()
    assert 'value="Portaria 12/2026"' in page and "Continuar" in page
    # Step 2: confirmed.
    response = client.post(url, {**data, "confirm": "1"})
    assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.homologation_date == datetime.date(2026, 7, 1)
    assert contest.homologation_act == "Portaria 12/2026"
    assert contest.homologation_gazette == "DOE 1234"
    assert contest.validity_months == 12
    assert contest.status == Contest.Status.HOMOLOGATED
    assert contest.validity_end == datetime.date(2027, 7, 1)
    assert contest.history.first().history_user == cast["manager"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"validity_months": "60"}, "A validade do concurso é de até 24 meses (CF art. 37, III)."),
        ({"validity_months": "0"}, "A validade deve ser de ao menos 1 mês."),
        ({"act": ""}, "Este campo é obrigatório."),
        ({"date": "01/01/2026"}, "A homologação não pode ser anterior ao edital."),
    ],
)
def test_homologation_bad_input_changes_nothing(client_for, overrides, message):
    contest = make_contest(
        status=Contest.Status.IN_PROGRESS, final_result_published_on=datetime.date(2026, 5, 4)
    )
    data = {
        "date": "01/07/2026",
        "act": "Portaria 12/2026",
        "gazette": "",
        "validity_months": "24",
        **overrides,
    }
    response = client_for("manager").post(reverse("contests:homologate", args=[contest.slug]), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    contest.refresh_from_db()
    assert contest.homologation_date is None
    assert contest.status == Contest.Status.IN_PROGRESS
    assert contest.history.count() == 1


def test_a_refusal_shows_before_the_confirmation(client_for):
    contest = make_contest(status=Contest.Status.IN_PROGRESS)
    data = {"date": "01/01/2026", "act": "Portaria 12/2026", "gazette": "", "validity_months": "24"}
    page = client_for("manager").post(reverse("contests:homologate", args=[contest.slug]), data).content
    assert "A homologação não pode ser anterior ao edital." in page.decode()
    assert "Confirmar a homologação" not in page.decode()


def test_homologation_before_the_final_result_says_why_and_what_to_do(client_for):
    # Issue 19: a contest homologated while its registrations had not even opened.
    contest = make_contest(
        status=Contest.Status.PUBLISHED,
        edital_date=datetime.date(2026, 11, 30),
        registration_start=datetime.date(2026, 12, 7),
        registration_end=datetime.date(2027, 1, 6),
    )
    data = {"date": "01/12/2026", "act": "Portaria 12/2026", "gazette": "", "validity_months": "24"}
    page = (
        client_for("manager").post(reverse("contests:homologate", args=[contest.slug]), data).content.decode()
    )
    assert (
        "A homologação só pode ser registrada depois do fim das inscrições (06/01/2027) e da publicação do "
        "resultado final" in page
    )
    assert "o resultado final ainda não foi publicado" in page
    assert "Confirmar a homologação" not in page
    contest.refresh_from_db()
    assert contest.homologation_date is None


def test_homologating_twice_is_refused(client_for, cast):
    contest = homologate(make_contest(), cast["manager"])
    data = {"date": "02/07/2026", "act": "Outra", "gazette": "", "validity_months": "24"}
    response = client_for("manager").post(reverse("contests:homologate", args=[contest.slug]), data)
    assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.homologation_act == "Portaria 1/2026"


def test_manager_extends_validity_once(client_for, cast):
    contest = homologate(make_contest(), cast["manager"])
    client = client_for("manager")
    url = reverse("contests:extend_validity", args=[contest.slug])
    response = client.post(url, {"act": "Decreto 45/2027"})
    assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.validity_extended
    assert contest.validity_extension_act == "Decreto 45/2027"
    assert contest.validity_end == datetime.date(2030, 7, 1)
    assert contest.history.first().history_user == cast["manager"]
    # A second extension is refused (CF art. 37 III: once).
    response = client.post(url, {"act": "Decreto 99/2028"}, follow=True)
    assert "só pode ser prorrogada uma vez" in response.content.decode() or "já foi prorrogada" in (
        response.content.decode()
    )
    contest.refresh_from_db()
    assert contest.validity_extension_act == "Decreto 45/2027"


def test_extending_needs_an_act(client_for, cast):
    contest = homologate(make_contest(), cast["manager"])
    response = client_for("manager").post(
        reverse("contests:extend_validity", args=[contest.slug]), {"act": "  "}
    )
    assert response.status_code == 200
    contest.refresh_from_db()
    assert not contest.validity_extended


def test_extending_before_homologation_redirects(client_for):
    contest = make_contest()
    response = client_for("manager").post(
        reverse("contests:extend_validity", args=[contest.slug]), {"act": "X"}
    )
    assert response.status_code == 302
    contest.refresh_from_db()
    assert not contest.validity_extended


def test_list_shows_each_contests_reserved_vacancies_summed_over_its_positions(client_for):
    contest = make_contest(title="Concurso com reserva")
    make_position(contest, vacancies=13, code="AN")  # 3 racial, 1 PcD
    make_position(contest, vacancies=7, code="TL")  # 1 racial, 1 PcD
    response = client_for("clerk").get(reverse("contests:list"))
    listed = next(c for c in response.context["page"] if c.pk == contest.pk)
    assert listed.reserved == {"open": 14, "racial": 4, "pcd": 2}
    page = response.content.decode()
    assert "Reservadas a negros" in page and "Reservadas a pessoas com deficiência" in page
