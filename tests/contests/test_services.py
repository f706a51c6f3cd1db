"""The contests services: every write validated, atomic, and recorded in history with who acted.

Plain functions with the ``cast`` fixture (which brings the database). A refused write must leave the
database as it was: no row changed, no history row added.
"""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from contests import lifecycle, services
from contests.models import Contest, Holiday, Organization, Policy, Position, VacancyOpening
from tests import builders
from tests.builders import final_result

D = datetime.date
_copies = itertools.count(1)


def _contest_data(**overrides) -> dict:
    data = {
        "slug": "camara-2026",
        "number": "1",
        "year": 2026,
        "title": "Cargos efetivos da Câmara",
        "policy": Policy.objects.get(slug="santa-maria"),
        "edital_date": D(2026, 2, 2),
        "registration_start": D(2026, 2, 9),
        "registration_end": D(2026, 3, 10),
    }
    data.update(overrides)
    return data


def _policy_copy(slug: str, by, **changes) -> Policy:
    """A copy of a seeded policy, made through ``policy_create``, with ``changes`` (e.g. the law's dates)."""
    base = Policy.objects.get(slug=slug)
    data = {
        field.name: getattr(base, field.name) for field in Policy._meta.concrete_fields if field.name != "id"
    }
    data.update(slug=f"{slug}-copia-{next(_copies)}", previous_version=base, version=2, **changes)
    return services.policy_create(by=by, data=data)


def _messages(error: ValidationError) -> list[str]:
    return error.messages


def _history_count(obj) -> int:
    return obj.history.count()


@pytest.fixture
def manager(cast):
    return cast["manager"]


@pytest.fixture
def clerk(cast):
    return cast["clerk"]


@pytest.fixture
def homologated(clerk, manager):
    """A Santa Maria contest with a position of 2 vacancies, homologated on 01/06/2026."""
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest,
        by=clerk,
        data={"code": "ALEG", "title": "Assistente Legislativo"},
        edital_vacancies=2,
    )
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    contest = services.contest_homologate(
        contest=contest, by=manager, date=D(2026, 6, 1), act="Portaria nº 10/2026"
    )
    return contest, position


# History names who acted -----------------------------------------------------------------------------------


def test_contest_create_records_the_user(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    record = contest.history.get()
    assert record.history_user == clerk
    assert record.history_type == "+"
    assert record.history_change_reason == "Concurso criado"


def test_position_create_records_the_user_on_position_and_vacancies(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "TLEG", "title": "Técnico Legislativo"}, edital_vacancies=7
    )
    assert position.history.get().history_user == clerk
    opening = position.openings.get()
    assert (opening.kind, opening.count, opening.date) == (VacancyOpening.Kind.EDITAL, 7, D(2026, 2, 2))
    assert opening.history.get().history_user == clerk
    assert position.vacancies == 7


def test_contest_update_records_the_user_and_the_change(clerk, manager):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_update(contest=contest, by=manager, data={"title": "Novo título"})
    latest = contest.history.first()
    assert (latest.title, latest.history_user, latest.history_type) == ("Novo título", manager, "~")
    assert latest.history_change_reason == "Concurso alterado"


def test_update_without_change_writes_no_history(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_update(contest=contest, by=clerk, data={"title": contest.title})
    assert _history_count(contest) == 1


def test_policy_update_records_the_user(manager):
    policy = Policy.objects.get(slug="santa-maria")
    services.policy_update(policy=policy, by=manager, data={"act_number": "9.247/2021"})
    assert Policy.objects.get(pk=policy.pk).act_number == "9.247/2021"
    assert policy.history.first().history_user == manager


def test_organization_and_holiday_record_the_user(manager):
    organization = services.organization_save(
        by=manager, data={"name": "Câmara Municipal de Teste", "municipality": "Teste", "state": "RS"}
    )
    assert organization.history.get().history_user == manager
    holiday = services.holiday_save(
        by=manager, data={"date": D(2026, 5, 17), "name": "Aniversário do município", "recurring": True}
    )
    assert holiday.history.get().history_user == manager
    services.holiday_delete(holiday=holiday, by=manager)
    assert not Holiday.objects.exists()
    assert Holiday.history.first().history_type == "-"
    assert Holiday.history.first().history_user == manager


def test_organization_save_keeps_one_row(manager):
    services.organization_save(by=manager, data={"name": "A", "municipality": "M", "state": "RS"})
    services.organization_save(by=manager, data={"name": "B", "municipality": "M", "state": "RS"})
    assert list(Organization.objects.values_list("name", flat=True)) == ["B"]


# Validation: clear Portuguese messages, nothing changed ----------------------------------------------------


def test_negative_vacancy_count_is_refused_and_nothing_changes(clerk):
    position = builders.make_position(vacancies=None)
    with pytest.raises(ValidationError) as raised:
        services.vacancy_opening_create(
            position=position,
            by=clerk,
            data={"kind": VacancyOpening.Kind.EDITAL, "count": -1, "date": D(2026, 3, 2)},
        )
    assert _messages(raised.value) == ["O número de vagas não pode ser negativo."]
    assert not VacancyOpening.objects.exists()
    assert not VacancyOpening.history.exists()


def test_negative_vacancy_update_is_refused_and_nothing_changes(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "A", "title": "A"}, edital_vacancies=3
    )
    opening = position.openings.get()
    with pytest.raises(ValidationError) as raised:
        services.vacancy_opening_update(opening=opening, by=clerk, data={"count": -2})
    assert _messages(raised.value) == ["O número de vagas não pode ser negativo."]
    assert VacancyOpening.objects.get(pk=opening.pk).count == 3
    assert _history_count(opening) == 1


def test_policy_percent_of_120_is_refused_and_nothing_changes(manager):
    policy = Policy.objects.get(slug="santa-maria")
    before = _history_count(policy)
    with pytest.raises(ValidationError) as raised:
        services.policy_update(policy=policy, by=manager, data={"percent": Decimal(120)})
    assert "O percentual deve estar entre 0 e 100." in raised.value.message_dict["percent"]
    assert Policy.objects.get(pk=policy.pk).percent == Decimal(20)
    assert _history_count(policy) == before


def test_validity_of_60_months_is_refused_and_nothing_changes(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    with pytest.raises(ValidationError) as raised:
        services.contest_update(contest=contest, by=clerk, data={"validity_months": 60})
    assert (
        "A validade do concurso é de até 2 anos (CF art. 37, III)."
        in raised.value.message_dict["validity_months"]
    )
    assert Contest.objects.get(pk=contest.pk).validity_months == 24
    assert _history_count(contest) == 1


def test_homologation_with_60_months_of_validity_is_refused_and_nothing_changes(clerk, manager):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(
            contest=contest, by=manager, date=D(2026, 6, 1), act="Portaria", validity_months=60
        )
    assert (
        "A validade do concurso é de até 2 anos (CF art. 37, III)."
        in raised.value.message_dict["validity_months"]
    )
    contest.refresh_from_db()
    assert (contest.homologation_date, contest.status) == (None, Contest.Status.IN_PROGRESS)
    assert _history_count(contest) == 2


def test_contest_with_edital_outside_its_policy_validity_is_refused(clerk, manager):
    """A copy of the SM policy given the dates of a law in force 2022–2024 (two years, for the test)."""
    dated = _policy_copy(
        "santa-maria",
        manager,
        publication_date=D(2022, 3, 1),
        effective_date=D(2022, 3, 1),
        duration_years=2,
    )
    with pytest.raises(ValidationError) as raised:
        services.contest_create(by=clerk, data=_contest_data(policy=dated))
    assert raised.value.message_dict["policy"] == [
        "A política vigorou até 29/02/2024 (vigência de 2 anos); o edital é de 02/02/2026."
    ]
    assert not Contest.objects.exists()
    assert not Contest.history.exists()


def test_contest_with_edital_before_its_policy_is_refused(clerk, manager):
    dated = _policy_copy("santa-maria", manager, effective_date=D(2026, 3, 1))
    with pytest.raises(ValidationError) as raised:
        services.contest_create(by=clerk, data=_contest_data(policy=dated))
    assert raised.value.message_dict["policy"] == [
        "A política só vigora a partir de 01/03/2026; o edital é de 02/02/2026."
    ]
    assert not Contest.objects.exists()


def test_ar_art5_par2_refuses_an_edital_before_its_effect_date(clerk, manager):
    dated = _policy_copy(
        "angra-dos-reis", manager, publication_date=D(2026, 3, 1), effective_date=D(2026, 3, 1)
    )
    with pytest.raises(ValidationError) as raised:
        services.contest_create(by=clerk, data=_contest_data(policy=dated, edital_date=D(2026, 2, 27)))
    assert raised.value.message_dict["policy"] == [
        "A lei não se aplica a editais publicados antes da sua vigência (01/03/2026), art. 5º §2º."
    ]
    assert not Contest.objects.exists()
    # From the effect date on, the same contest is accepted.
    contest = services.contest_create(
        by=clerk,
        data=_contest_data(policy=dated, edital_date=D(2026, 3, 1), registration_start=D(2026, 3, 9)),
    )
    assert contest.policy == dated


def test_ar_art5_par2_edital_date_change_is_checked_too(clerk, manager):
    dated = _policy_copy("angra-dos-reis", manager, effective_date=D(2026, 1, 15))
    contest = services.contest_create(by=clerk, data=_contest_data(policy=dated))
    with pytest.raises(ValidationError) as raised:
        services.contest_update(contest=contest, by=clerk, data={"edital_date": D(2026, 1, 14)})
    assert "art. 5º §2º" in raised.value.message_dict["policy"][0]
    assert Contest.objects.get(pk=contest.pk).edital_date == D(2026, 2, 2)


def test_duplicate_edital_vacancies_are_refused(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "A", "title": "A"}, edital_vacancies=3
    )
    with pytest.raises(ValidationError) as raised:
        services.vacancy_opening_create(
            position=position,
            by=clerk,
            data={"kind": VacancyOpening.Kind.EDITAL, "count": 2, "date": D(2026, 2, 2)},
        )
    assert _messages(raised.value) == [
        "Este cargo já tem as vagas do edital; altere-as em vez de criar outras."
    ]
    assert position.vacancies == 3


def test_edital_vacancies_frozen_once_registrations_run(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "A", "title": "A"}, edital_vacancies=3
    )
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    with pytest.raises(ValidationError) as raised:
        services.vacancy_opening_update(opening=position.openings.get(), by=clerk, data={"count": 4})
    assert "registre uma abertura de vagas" in _messages(raised.value)[0]
    assert position.vacancies == 3


def test_policy_cannot_be_swapped_once_the_edital_is_published(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.PUBLISHED, by=clerk)
    with pytest.raises(ValidationError) as raised:
        services.contest_update(
            contest=contest, by=clerk, data={"policy": Policy.objects.get(slug="angra-dos-reis")}
        )
    assert raised.value.message_dict["policy"] == [
        "A política de um concurso com edital publicado não pode ser trocada."
    ]
    assert Contest.objects.get(pk=contest.pk).policy.slug == "santa-maria"


# Homologation and validity (CF art. 37, III) ----------------------------------------------------------------


def test_cf_art37_iii_homologation_starts_24_months_of_validity(homologated, manager):
    contest, _ = homologated
    assert contest.status == Contest.Status.HOMOLOGATED
    assert (contest.homologation_date, contest.homologation_act) == (D(2026, 6, 1), "Portaria nº 10/2026")
    assert contest.validity_months == 24
    assert contest.validity_end == D(2028, 6, 1)
    record = contest.history.first()
    assert (record.history_user, record.history_change_reason) == (manager, "Concurso homologado")


def test_cf_art37_iii_validity_extended_once_for_the_same_period(homologated, manager):
    contest, _ = homologated
    contest = services.contest_extend_validity(contest=contest, by=manager, act="Portaria nº 50/2028")
    assert contest.validity_extended
    assert contest.validity_end == D(2030, 6, 1)
    assert contest.history.first().history_user == manager
    with pytest.raises(ValidationError) as raised:
        services.contest_extend_validity(contest=contest, by=manager, act="Portaria nº 60/2030")
    assert _messages(raised.value) == ["A validade só pode ser prorrogada uma vez (CF art. 37, III)."]
    assert Contest.objects.get(pk=contest.pk).validity_extension_act == "Portaria nº 50/2028"


def test_shorter_validity_is_extended_by_the_same_shorter_period(clerk, manager):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    contest = services.contest_homologate(
        contest=contest, by=manager, date=D(2026, 6, 1), act="Portaria", validity_months=12
    )
    assert contest.validity_end == D(2027, 6, 1)
    contest = services.contest_extend_validity(contest=contest, by=manager, act="Portaria de prorrogação")
    assert contest.validity_end == D(2028, 6, 1)


def test_extension_needs_homologation_and_an_act(clerk, manager):
    contest = services.contest_create(by=clerk, data=_contest_data())
    with pytest.raises(ValidationError) as raised:
        services.contest_extend_validity(contest=contest, by=manager, act="Portaria")
    assert _messages(raised.value) == ["Só um concurso homologado tem validade a prorrogar."]
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(contest)
    contest = services.contest_homologate(contest=contest, by=manager, date=D(2026, 6, 1), act="Portaria")
    with pytest.raises(ValidationError) as raised:
        services.contest_extend_validity(contest=contest, by=manager, act="   ")
    assert raised.value.message_dict == {"validity_extension_act": ["Informe o ato de prorrogação."]}
    assert not Contest.objects.get(pk=contest.pk).validity_extended


def test_homologation_is_refused_twice_without_act_or_when_cancelled(homologated, clerk, manager):
    contest, _ = homologated
    final_result(contest)
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(contest=contest, by=manager, date=D(2026, 7, 1), act="Outra")
    assert _messages(raised.value) == ["O concurso já está homologado."]
    assert Contest.objects.get(pk=contest.pk).homologation_date == D(2026, 6, 1)

    other = services.contest_create(by=clerk, data=_contest_data(slug="outro", number="2"))
    services.contest_set_status(contest=other, status=Contest.Status.IN_PROGRESS, by=clerk)
    final_result(other)
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(contest=other, by=manager, date=D(2026, 6, 1), act=" ")
    assert raised.value.message_dict == {"homologation_act": ["Informe o ato de homologação."]}
    services.contest_set_status(contest=other, status=Contest.Status.CANCELLED, by=manager)
    final_result(other)
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(contest=other, by=manager, date=D(2026, 6, 1), act="Portaria")
    assert _messages(raised.value) == ["Um concurso cancelado não muda mais de situação."]


def test_status_homologated_only_through_homologation(clerk):
    """Updated for the lifecycle: a draft is refused first because its edital is not published."""
    contest = services.contest_create(by=clerk, data=_contest_data())
    with pytest.raises(ValidationError) as raised:
        services.contest_set_status(contest=contest, status=Contest.Status.HOMOLOGATED, by=clerk)
    assert _messages(raised.value) == [lifecycle.HOMOLOGATION_NEEDS_EDITAL]
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=clerk)
    with pytest.raises(ValidationError) as raised:
        services.contest_set_status(contest=contest, status=Contest.Status.HOMOLOGATED, by=clerk)
    assert _messages(raised.value) == [
        "Use a homologação para homologar o concurso: ela registra a data, o ato e a validade "
        "(CF art. 37, III)."
    ]
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.IN_PROGRESS


# Later openings: only within validity (SM art. 1 §1) -------------------------------------------------------


def _open(position: Position, by, day: datetime.date, count: int = 1) -> VacancyOpening:
    return services.vacancy_opening_create(
        position=position,
        by=by,
        data={
            "kind": VacancyOpening.Kind.LATER,
            "count": count,
            "date": day,
            "act": "Lei de criação de cargos",
        },
    )


def test_sm_art1_par1_later_opening_within_validity_counts_on_the_cumulative_total(homologated, clerk):
    _, position = homologated
    assert position.reservation().racial == 0  # 2 vacancies: below the threshold of 3
    opening = _open(position, clerk, D(2027, 3, 1))
    assert opening.history.get().history_user == clerk
    position = Position.objects.get(pk=position.pk)
    assert position.vacancies == 3
    assert position.reservation().racial == 1  # threshold on the cumulative count (RULES §2)


def test_later_opening_before_homologation_is_refused(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "A", "title": "A"}, edital_vacancies=2
    )
    with pytest.raises(ValidationError) as raised:
        _open(position, clerk, D(2026, 5, 1))
    assert _messages(raised.value) == [
        "Vagas abertas durante a validade só podem ser registradas depois da homologação; "
        "antes dela, altere as vagas do edital."
    ]
    assert position.vacancies == 2


@pytest.mark.parametrize("day", [D(2026, 5, 31), D(2028, 6, 2)])
def test_later_opening_outside_validity_is_refused(homologated, clerk, day):
    _, position = homologated
    with pytest.raises(ValidationError) as raised:
        _open(position, clerk, day)
    assert raised.value.message_dict == {
        "date": ["A data deve estar dentro da validade do concurso (01/06/2026 a 01/06/2028)."]
    }
    assert position.vacancies == 2
    assert not VacancyOpening.objects.filter(kind=VacancyOpening.Kind.LATER).exists()


@pytest.mark.parametrize("day", [D(2026, 6, 1), D(2028, 6, 1)])
def test_later_opening_on_the_first_and_last_day_of_validity(homologated, clerk, day):
    _, position = homologated
    _open(position, clerk, day)
    assert Position.objects.get(pk=position.pk).vacancies == 3


def test_later_opening_within_the_extended_validity(homologated, clerk, manager):
    contest, position = homologated
    with pytest.raises(ValidationError):
        _open(position, clerk, D(2029, 1, 10))
    services.contest_extend_validity(contest=contest, by=manager, act="Portaria de prorrogação")
    _open(position, clerk, D(2029, 1, 10))
    assert Position.objects.get(pk=position.pk).vacancies == 3


def test_later_opening_needs_at_least_one_vacancy(homologated, clerk):
    _, position = homologated
    with pytest.raises(ValidationError):
        _open(position, clerk, D(2027, 1, 4), count=0)
    assert Position.objects.get(pk=position.pk).vacancies == 2


def test_sm_art1_par4_openings_carry_the_fraction(homologated, clerk):
    """7 vacancies reserve 1 (0,4 owed); 2 more make 9 and reserve 2."""
    contest, _ = homologated
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "TLEG", "title": "Técnico Legislativo"}, edital_vacancies=7
    )
    first = position.reservation()
    assert (first.racial, first.carried_fraction) == (1, Decimal("0.4"))
    _open(position, clerk, D(2027, 2, 1), count=2)
    position = Position.objects.get(pk=position.pk)
    assert position.reservation().racial == 2


# Position.reservation(): threshold on the position or on the contest (SM art. 1 §2) ------------------------


def _contest_with_positions(clerk, manager, basis: str, sizes: list[int]) -> list[Position]:
    """A policy copy at 30% (where the basis matters at 2 vacancies) and a contest with these positions."""
    policy = _policy_copy("santa-maria", manager, percent=Decimal(30), threshold_basis=basis)
    n = next(_copies)
    contest = services.contest_create(
        by=clerk, data=_contest_data(slug=f"c{n}", number=str(n), policy=policy, pcd_percent=Decimal(0))
    )
    return [
        services.position_create(
            contest=contest, by=clerk, data={"code": f"P{i}", "title": f"Cargo {i}"}, edital_vacancies=size
        )
        for i, size in enumerate(sizes, start=1)
    ]


def test_sm_art1_par2_threshold_on_the_position(clerk, manager):
    small, large = _contest_with_positions(clerk, manager, Policy.ThresholdBasis.POSITION, [2, 3])
    assert small.reservation().racial == 0
    assert small.reservation().threshold_applies is False
    assert small.reservation().racial_explanation.startswith(
        "2 vagas no cargo: a reserva a negros só se aplica a partir de 3 vagas, art. 1º §2º"
    )
    assert large.reservation().racial == 1


def test_sm_art1_par2_threshold_on_the_contest(clerk, manager):
    small, large = _contest_with_positions(clerk, manager, Policy.ThresholdBasis.CONTEST, [2, 3])
    assert small.reservation().racial == 1  # 5 vacancies in the contest; 30% of 2 = 0,6 → 1
    assert small.reservation().threshold_applies is True
    assert large.reservation().racial == 1


def test_sm_art1_par2_threshold_on_the_contest_below_three_in_all(clerk, manager):
    (only,) = _contest_with_positions(clerk, manager, Policy.ThresholdBasis.CONTEST, [2])
    assert only.reservation().racial == 0
    assert only.reservation().racial_explanation.startswith("2 vagas no concurso:")


def test_reservation_for_a_hypothetical_count(clerk, manager):
    """``vacancies=`` asks what the reserve would be; on the contest basis the others still count."""
    small, _ = _contest_with_positions(clerk, manager, Policy.ThresholdBasis.CONTEST, [2, 3])
    assert small.reservation(vacancies=1).racial == 0  # 0,3 → 0
    assert small.reservation(vacancies=5).racial == 2  # 1,5 → 2
    (alone,) = _contest_with_positions(clerk, manager, Policy.ThresholdBasis.POSITION, [2])
    assert alone.reservation(vacancies=3).racial == 1


def test_reservation_uses_the_policy_citations_and_the_contest_pcd_rule(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "ANSI", "title": "Analista de Sistemas"}, edital_vacancies=13
    )
    result = position.reservation()
    assert (result.racial, result.pcd, result.open) == (3, 1, 9)
    assert result.racial_explanation == (
        "20% de 13 = 2,6 → 3 (fração igual ou maior que 0,5 arredonda para cima, art. 1º §3º); "
        "0,4 já reservado por antecipação, art. 1º §4º."
    )
    assert result.pcd_explanation == "5% de 13 = 0,65 → 1."


def test_ar_reservation_names_its_beneficiaries(clerk):
    contest = services.contest_create(
        by=clerk, data=_contest_data(policy=Policy.objects.get(slug="angra-dos-reis"))
    )
    position = services.position_create(
        contest=contest, by=clerk, data={"code": "A", "title": "A"}, edital_vacancies=3
    )
    result = position.reservation()
    assert (result.racial, result.pcd, result.open) == (1, 0, 2)  # no threshold (RULES §1)
    assert result.racial_explanation.startswith("20% de 3 = 0,6 → 1 (fração igual ou maior que 0,5 arredonda")
    assert "art. 1º §1º" in result.racial_explanation


# Policies: edit while unused, new version once a published contest uses one --------------------------------


def test_policy_update_refused_when_a_published_contest_uses_it(clerk, manager):
    policy = Policy.objects.get(slug="santa-maria")
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.PUBLISHED, by=clerk)
    before = _history_count(policy)
    with pytest.raises(ValidationError) as raised:
        services.policy_update(policy=policy, by=manager, data={"threshold": 2})
    assert _messages(raised.value) == [
        "Esta política é usada por um concurso com edital publicado e não pode ser alterada: "
        "crie uma nova versão."
    ]
    assert Policy.objects.get(pk=policy.pk).threshold == 3
    assert _history_count(policy) == before


def test_policy_update_allowed_while_only_drafts_use_it(clerk, manager):
    policy = Policy.objects.get(slug="santa-maria")
    services.contest_create(by=clerk, data=_contest_data())
    services.policy_update(policy=policy, by=manager, data={"gazette_edition": "DOE nº 1.234"})
    assert Policy.objects.get(pk=policy.pk).gazette_edition == "DOE nº 1.234"


# policy_new_version computes max(base.version, *next_versions), which raises TypeError while the policy has
# no next version yet: every first new version fails. The fix is max([base.version, *next_versions]).
def test_policy_new_version_copies_and_links(clerk, manager):
    base = Policy.objects.get(slug="santa-maria")
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.PUBLISHED, by=clerk)
    new = services.policy_new_version(
        policy=base, by=manager, data={"act_number": "9.247/2021", "threshold": 2}
    )
    assert (new.slug, new.version, new.previous_version) == ("santa-maria-v2", 2, base)
    assert (new.act_number, new.threshold) == ("9.247/2021", 2)
    for field in (
        "name",
        "percent",
        "rounding",
        "beneficiary_groups",
        "citation_rounding",
        "nomination_order",
    ):
        assert getattr(new, field) == getattr(base, field)
    assert str(new) == "Santa Maria (RS) – Câmara Municipal (v2)"
    record = new.history.get()
    assert (record.history_user, record.history_change_reason) == (
        manager,
        "Nova versão de Santa Maria (RS) – Câmara Municipal",
    )
    # The published contest keeps the version it used, unchanged.
    base.refresh_from_db()
    assert (base.version, base.threshold, base.act_number) == (1, 3, "9247/2021")
    assert Contest.objects.get(pk=contest.pk).policy == base


def test_policy_new_version_numbers_follow_on(manager):
    base = Policy.objects.get(slug="angra-dos-reis")
    second = services.policy_new_version(policy=base, by=manager)
    third = services.policy_new_version(policy=base, by=manager)
    assert [(p.slug, p.version) for p in (second, third)] == [
        ("angra-dos-reis-v2", 2),
        ("angra-dos-reis-v3", 3),
    ]


def test_policy_new_version_of_a_version(manager):
    second = services.policy_new_version(policy=Policy.objects.get(slug="angra-dos-reis"), by=manager)
    third = services.policy_new_version(policy=second, by=manager)
    assert (third.slug, third.version, third.previous_version) == ("angra-dos-reis-v3", 3, second)


def test_policy_new_version_with_invalid_data_is_refused_and_nothing_changes(manager):
    base = Policy.objects.get(slug="santa-maria")
    with pytest.raises(ValidationError) as raised:
        services.policy_new_version(policy=base, by=manager, data={"percent": Decimal(120)})
    assert "O percentual deve estar entre 0 e 100." in raised.value.message_dict["percent"]
    assert Policy.objects.count() == 2


def test_policy_new_version_after_branching_takes_the_next_free_number(manager):
    base = Policy.objects.get(slug="santa-maria")
    second = services.policy_new_version(policy=base, by=manager)
    services.policy_new_version(policy=base, by=manager)
    fourth = services.policy_new_version(policy=second, by=manager)
    assert (fourth.slug, fourth.version, fourth.previous_version) == ("santa-maria-v4", 4, second)


def test_slug_of_a_published_contest_cannot_change(clerk):
    contest = services.contest_create(by=clerk, data=_contest_data())
    services.contest_set_status(contest=contest, status=Contest.Status.PUBLISHED, by=clerk)
    with pytest.raises(ValidationError) as excinfo:
        services.contest_update(contest=contest, by=clerk, data={"slug": "outro"})
    assert "identificador" in str(excinfo.value)
    assert Contest.objects.get(pk=contest.pk).slug == contest.slug
