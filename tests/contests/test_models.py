"""The contests models: the seeded founding laws (RULES.md §1), policy validity, contest validation.

Plain functions with the ``db`` fixture. Validation is read through ``full_clean()``, as every service
calls it; database constraints are checked by saving past it.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from contests.calendar import add_months, add_years
from contests.models import Contest, Policy, VacancyOpening
from declarations.models import ProcedureLaw
from tests import builders

D = datetime.date
REFERENCE_20_HALF_UP = [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5]


def _messages(error: ValidationError, field: str) -> list[str]:
    return error.message_dict[field]


# The seeded founding laws (RULES §1) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "santa_maria", "angra"),
    [
        ("percent", Decimal(20), Decimal(20)),
        ("threshold", 3, 0),
        ("threshold_basis", Policy.ThresholdBasis.POSITION, Policy.ThresholdBasis.POSITION),
        ("rounding", Policy.Rounding.HALF_UP, Policy.Rounding.HALF_UP),
        ("carries_fraction", True, True),
        ("nomination_order", Policy.NominationOrder.PROPORTIONAL, Policy.NominationOrder.EVERY_NTH),
        ("nth", 5, 5),
        ("duration_years", None, 10),
        ("excludes_prior_editais", False, True),
        ("beneficiary_groups", ["preta", "parda"], ["preta", "parda", "indigena"]),
        ("group_label", "negros", "negros e índios"),
        ("priority", Policy.Priority.PCD_FIRST, Policy.Priority.RACIAL_FIRST),
        ("open_competition_rule", "projected", "projected"),
        ("dual_rule", Policy.DualRule.CHOOSE, Policy.DualRule.CHOOSE),
        ("dual_default", Policy.DualDefault.RACIAL, Policy.DualDefault.RACIAL),
        ("dual_keeps_pcd_rights", True, True),
        (
            "non_confirmation",
            ProcedureLaw.NonConfirmation.OPEN_PROCEDURE,
            ProcedureLaw.NonConfirmation.OPEN_PROCEDURE,
        ),
        ("falsity_effect", ProcedureLaw.FalsityEffect.FINAL, ProcedureLaw.FalsityEffect.FINAL),
        ("monitoring_body", "", "Secretaria Municipal de Assistência Social"),
        ("monitoring_interval_years", None, 2),
        ("act_kind", Policy.ActKind.PROJETO_DE_LEI, Policy.ActKind.PROJETO_DE_LEI),
        ("act_number", "9247/2021", "094/2015"),
        ("jurisdiction", "Santa Maria/RS", "Angra dos Reis/RJ"),
        ("citation_threshold", "art. 1º §2º", ""),
        ("citation_rounding", "art. 1º §3º", "art. 1º §1º"),
        ("citation_carry", "art. 1º §4º", ""),
        ("citation_order", "art. 5º", "art. 3º §1º"),
        ("citation_falsity", "art. 3º §3º", "art. 2º"),
        ("version", 1, 1),
        ("previous_version", None, None),
    ],
)
def test_rules_par1_seeded_policies(db, field, santa_maria, angra):
    assert _seeded("santa-maria", field) == santa_maria
    assert _seeded("angra-dos-reis", field) == angra


def _seeded(slug: str, field: str):
    """A seeded policy's parameter, read where it is kept (the procedure's law: its row in declarations)."""
    policy = Policy.objects.get(slug=slug)
    law = policy.procedure_law
    return (
        getattr(law, field)
        if field in {f.name for f in law._meta.concrete_fields}
        else getattr(policy, field)
    )


def test_rules_par1_seeded_policies_cover_their_bodies_and_posts(db):
    sm, ar = Policy.objects.get(slug="santa-maria"), Policy.objects.get(slug="angra-dos-reis")
    assert "Câmara Municipal" in sm.covered_bodies
    assert "administração indireta" in ar.covered_bodies
    assert ar.covered_posts == "Cargos efetivos e empregos públicos."
    assert "art. 4º" in ar.candidate_guidance


@pytest.mark.parametrize("slug", ["santa-maria", "angra-dos-reis"])
def test_seeded_policies_are_valid(db, slug):
    Policy.objects.get(slug=slug).full_clean()


@pytest.mark.parametrize("slug", ["santa-maria", "angra-dos-reis"])
def test_rules_par2_seeded_policies_give_the_reference_values(db, slug):
    rule = Policy.objects.get(slug=slug).racial_rule()
    assert [rule.count(n) for n in range(1, 26)] == REFERENCE_20_HALF_UP


def test_sm_art1_par2_seeded_threshold_matters_at_30_percent(db):
    sm, ar = Policy.objects.get(slug="santa-maria"), Policy.objects.get(slug="angra-dos-reis")
    sm.percent = ar.percent = Decimal(30)
    assert sm.racial_rule().count(2) == 0
    assert ar.racial_rule().count(2) == 1


def test_seeded_citations_feed_the_explanations(db):
    assert Policy.objects.get(slug="santa-maria").citations() == {
        "threshold": "art. 1º §2º",
        "rounding": "art. 1º §3º",
        "carry": "art. 1º §4º",
    }


# Policy validity (RULES §1: dates the text does not give stay empty) ----------------------------------------


@pytest.mark.parametrize("slug", ["santa-maria", "angra-dos-reis"])
def test_missing_dates_count_as_in_force_and_say_so(db, slug):
    policy = Policy.objects.get(slug=slug)
    assert (policy.publication_date, policy.effective_date) == (None, None)
    assert policy.missing_dates == ["data de publicação", "início da vigência"]
    for day in (D(1990, 1, 1), D(2026, 2, 2), D(2100, 12, 31)):
        assert policy.in_force_on(day)
        assert policy.refusal_for_edital_date(day) == ""
    assert policy.missing_dates_warning == (
        "O texto disponível desta lei não informa: data de publicação, início da vigência. A política é "
        "tratada como vigente, mas confira as datas com o ato publicado antes de publicar editais."
    )


def test_ar_art5_duration_without_a_start_has_no_end(db):
    """Ten years from an unknown date: no end can be computed, so the law counts as in force."""
    ar = Policy.objects.get(slug="angra-dos-reis")
    assert ar.end_date is None


def test_missing_only_one_date_is_named(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.publication_date = D(2021, 12, 20)
    assert policy.missing_dates == ["início da vigência"]
    assert "não informa: início da vigência." in policy.missing_dates_warning
    policy.effective_date = D(2021, 12, 20)
    assert policy.missing_dates_warning == ""


def test_start_date_is_the_effect_date_or_else_the_publication(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.publication_date = D(2021, 12, 20)
    assert policy.start_date == D(2021, 12, 20)
    policy.effective_date = D(2022, 1, 1)
    assert policy.start_date == D(2022, 1, 1)


def _angra_in_force_from(day: datetime.date) -> Policy:
    """A copy of the AR policy (unsaved) with the dates the enacted law would have."""
    policy = Policy.objects.get(slug="angra-dos-reis")
    policy.publication_date = policy.effective_date = day
    return policy


@pytest.mark.parametrize(
    ("day", "in_force"),
    [
        (D(2016, 1, 14), False),  # before the effect date
        (D(2016, 1, 15), True),  # the effect date (art. 6: from publication)
        (D(2026, 1, 14), True),  # the last day of ten years (art. 5)
        (D(2026, 1, 15), False),
    ],
)
def test_ar_art5_in_force_for_ten_years(db, day, in_force):
    policy = _angra_in_force_from(D(2016, 1, 15))
    assert policy.end_date == D(2026, 1, 14)
    assert policy.in_force_on(day) is in_force


def test_ar_art5_par2_refuses_an_edital_before_its_effect_date(db):
    policy = _angra_in_force_from(D(2016, 1, 15))
    assert policy.refusal_for_edital_date(D(2015, 12, 1)) == (
        "A lei não se aplica a editais publicados antes da sua vigência (15/01/2016), art. 5º §2º."
    )
    assert policy.refusal_for_edital_date(D(2016, 1, 15)) == ""


def test_ar_art5_refuses_an_edital_after_ten_years(db):
    policy = _angra_in_force_from(D(2016, 1, 15))
    assert policy.refusal_for_edital_date(D(2026, 2, 2)) == (
        "A política vigorou até 14/01/2026 (vigência de 10 anos, art. 5º); o edital é de 02/02/2026."
    )


def test_policy_without_exclusion_still_refuses_an_edital_before_it(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.effective_date = D(2022, 3, 1)
    assert not policy.in_force_on(D(2022, 2, 28))
    assert policy.refusal_for_edital_date(D(2022, 2, 28)) == (
        "A política só vigora a partir de 01/03/2022; o edital é de 28/02/2022."
    )


def test_revocation_ends_the_policy_the_day_before(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.effective_date = D(2022, 3, 1)
    policy.revoked_on = D(2025, 6, 10)
    assert policy.end_date == D(2025, 6, 9)
    assert policy.in_force_on(D(2025, 6, 9))
    assert not policy.in_force_on(D(2025, 6, 10))


def test_revocation_before_ten_years_wins(db):
    policy = _angra_in_force_from(D(2016, 1, 15))
    policy.revoked_on = D(2020, 1, 1)
    assert policy.end_date == D(2019, 12, 31)


# Policy validation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("percent", [Decimal(120), Decimal("-1")])
def test_policy_percent_outside_0_100_is_refused(db, percent):
    policy = Policy.objects.get(slug="santa-maria")
    policy.percent = percent
    with pytest.raises(ValidationError) as raised:
        policy.full_clean()
    assert "O percentual deve estar entre 0 e 100." in _messages(raised.value, "percent")


def test_policy_percent_constraint_in_the_database(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.percent = Decimal(120)
    with pytest.raises(IntegrityError), transaction.atomic():
        policy.save()


def test_policy_effect_before_publication_is_refused(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.publication_date = D(2022, 3, 1)
    policy.effective_date = D(2022, 2, 1)
    with pytest.raises(ValidationError) as raised:
        policy.full_clean()
    assert _messages(raised.value, "effective_date") == ["A vigência não pode começar antes da publicação."]


def test_policy_revocation_before_its_start_is_refused(db):
    policy = Policy.objects.get(slug="santa-maria")
    policy.effective_date = D(2022, 3, 1)
    policy.revoked_on = D(2022, 1, 1)
    with pytest.raises(ValidationError) as raised:
        policy.full_clean()
    assert _messages(raised.value, "revoked_on") == [
        "A revogação não pode ser anterior ao início da vigência."
    ]


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([], "Informe ao menos um grupo beneficiário."),
        (["preta", "amarela"], "Grupos desconhecidos: amarela."),
    ],
)
def test_policy_beneficiary_groups_are_ibge_categories(db, groups, message):
    policy = Policy.objects.get(slug="santa-maria")
    policy.beneficiary_groups = groups
    with pytest.raises(ValidationError) as raised:
        policy.full_clean()
    assert message in _messages(raised.value, "beneficiary_groups")


def test_policy_str_names_the_version(db):
    policy = Policy.objects.get(slug="santa-maria")
    assert str(policy) == "Santa Maria (RS) – Câmara Municipal"
    policy.version = 2
    assert str(policy) == "Santa Maria (RS) – Câmara Municipal (v2)"


# Contest validation ----------------------------------------------------------------------------------------


def test_contest_validity_of_60_months_is_refused(db):
    contest = builders.make_contest()
    contest.validity_months = 60
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert "A validade do concurso é de até 2 anos (CF art. 37, III)." in _messages(
        raised.value, "validity_months"
    )


def test_contest_validity_constraint_in_the_database(db):
    contest = builders.make_contest()
    contest.validity_months = 60
    with pytest.raises(IntegrityError), transaction.atomic():
        contest.save()


def test_contest_edital_outside_its_policy_validity_is_refused(db):
    policy = Policy.objects.get(slug="angra-dos-reis")
    policy.publication_date = policy.effective_date = D(2016, 1, 15)
    contest = Contest(
        slug="fora-da-vigencia",
        number="9",
        year=2026,
        title="Fora da vigência",
        policy=policy,
        edital_date=D(2026, 2, 2),
    )
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "policy") == [
        "A política vigorou até 14/01/2026 (vigência de 10 anos, art. 5º); o edital é de 02/02/2026."
    ]


def test_ar_art5_par2_contest_with_edital_before_the_law_is_refused(db):
    policy = Policy.objects.get(slug="angra-dos-reis")
    policy.publication_date = policy.effective_date = D(2016, 1, 15)
    contest = Contest(
        slug="anterior",
        number="9",
        year=2015,
        title="Edital anterior",
        policy=policy,
        edital_date=D(2015, 11, 3),
    )
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "policy") == [
        "A lei não se aplica a editais publicados antes da sua vigência (15/01/2016), art. 5º §2º."
    ]


CAP_MESSAGE = (
    "A soma do percentual da reserva racial com o limite da reserva para pessoas com deficiência "
    "não pode passar de 100%."
)


def test_contest_racial_percent_plus_pcd_percent_over_100_is_refused(db):
    contest = builders.make_contest()
    contest.policy.percent = Decimal(96)
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "pcd_cap_percent") == [CAP_MESSAGE]


def test_rules_par2_contest_racial_percent_plus_pcd_cap_over_100_is_refused(db):
    contest = builders.make_contest()
    contest.policy.percent = Decimal(90)
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "pcd_cap_percent") == [CAP_MESSAGE]


def test_contest_registration_end_before_start_is_refused(db):
    contest = builders.make_contest()
    contest.registration_end = contest.registration_start - datetime.timedelta(days=1)
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "registration_end") == [
        "O fim das inscrições não pode ser anterior ao início."
    ]


def test_contest_homologation_before_the_edital_is_refused(db):
    contest = builders.make_contest(edital_date=D(2026, 3, 2))
    contest.homologation_date = D(2026, 3, 1)
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert _messages(raised.value, "homologation_date") == ["A homologação não pode ser anterior ao edital."]


def test_contest_pcd_defaults_follow_decreto_9508(db):
    contest = builders.make_contest()
    rule = contest.pcd_rule()
    assert (contest.pcd_percent, contest.pcd_rounding, contest.pcd_cap_percent) == (
        Decimal(5),
        "up",
        Decimal(20),
    )
    assert [rule.count(n) for n in (4, 5, 20, 21, 40, 41)] == [0, 1, 1, 2, 2, 3]


def test_contest_without_pcd_reserve_has_no_pcd_rule(db):
    assert builders.make_contest(pcd_percent=Decimal(0)).pcd_rule() is None


# Validity of the contest (CF art. 37, III) -----------------------------------------------------------------


def test_cf_art37_iii_validity_end(db):
    """Current reading: the homologation day is the first day, so 24 months end the day before."""
    contest = builders.make_contest()
    assert contest.validity_end is None
    assert not contest.is_homologated
    contest.homologation_date = D(2026, 6, 1)
    assert contest.validity_end == D(2028, 6, 1)
    contest.validity_extended = True
    assert contest.validity_end == D(2030, 6, 1)
    contest.validity_months = 12
    assert contest.validity_end == D(2028, 6, 1)


@pytest.mark.parametrize(
    ("day", "valid"),
    [(D(2026, 5, 31), False), (D(2026, 6, 1), True), (D(2028, 6, 1), True), (D(2028, 6, 2), False)],
)
def test_cf_art37_iii_is_valid_on(db, day, valid):
    contest = builders.make_contest(homologation_date=D(2026, 6, 1))
    assert contest.is_valid_on(day) is valid


def test_registrations_closed_after_the_last_day(db):
    contest = builders.make_contest(registration_end=D(2026, 4, 8))
    assert not contest.registrations_closed_on(D(2026, 4, 8))
    assert contest.registrations_closed_on(D(2026, 4, 9))


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (D(2026, 1, 31), 1, D(2026, 2, 28)),
        (D(2024, 1, 31), 1, D(2024, 2, 29)),
        (D(2026, 6, 1), 24, D(2028, 6, 1)),
        (D(2026, 11, 15), 2, D(2027, 1, 15)),
    ],
)
def test_months_run_date_to_date(day, months, expected):
    assert add_months(day, months) == expected


def test_years_on_29_february():
    assert add_years(D(2024, 2, 29), 1) == D(2025, 2, 28)
    assert add_years(D(2024, 2, 29), 4) == D(2028, 2, 29)


# Positions -----------------------------------------------------------------------------------------------


def test_position_vacancies_are_cumulative(db):
    position = builders.make_position(vacancies=2)
    VacancyOpening.objects.create(
        position=position, kind=VacancyOpening.Kind.LATER, count=1, date=D(2027, 1, 4)
    )
    assert position.vacancies == 3
    assert position.reservation().racial == 1


def test_position_code_is_validated(db):
    position = builders.make_position(code="ok")
    position.code = "não vale"
    with pytest.raises(ValidationError) as raised:
        position.full_clean()
    assert _messages(raised.value, "code") == ["Use letras, números, ponto, hífen ou sublinhado."]
