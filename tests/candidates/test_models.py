"""What the candidates models and the database guarantee: CPF, uniqueness, named constraints, roles.

Plain functions with the ``db`` fixture.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from candidates.models import Candidate, Phase, PhaseResult, Registration, SelfDeclaration, TieBreakCriterion
from candidates.validators import validate_cpf
from tests import builders


def violates(constraint: str, create) -> bool:
    """``create`` fails on ``constraint`` (SQLite names a unique constraint's columns, not the constraint)."""
    with pytest.raises(IntegrityError) as error, transaction.atomic():
        create()
    message = str(error.value)
    return constraint in message or (
        connection.vendor == "sqlite" and message.startswith("UNIQUE constraint failed")
    )


@pytest.mark.parametrize(
    ("value", "valid"),
    [("03688169077", True), ("03688169078", False), ("11111111111", False), ("036.881.690-77", False),
     ("0368816907", False)],
)  # fmt: skip
def test_cpf_stored_as_eleven_digits_with_valid_check_digits(value, valid):
    if valid:
        validate_cpf(value)
    else:
        with pytest.raises(ValidationError):
            validate_cpf(value)


def test_cpf_unique(db):
    builders.make_candidate(cpf="03688169077")
    assert violates(
        "candidates_candidate_unique_cpf",
        lambda: Candidate.objects.create(full_name="Outra", cpf="03688169077"),
    )


def test_cpf_digits_checked_by_the_database(db):
    assert violates(
        "candidates_candidate_cpf_digits", lambda: Candidate.objects.create(full_name="X", cpf="036.881.690")
    )


def test_social_name_shown_instead_of_the_civil_name(db):
    assert (
        builders.make_candidate(full_name="João Silva", social_name="Joana Silva").display_name
        == "Joana Silva"
    )
    assert str(builders.make_candidate(full_name="Maria Souza")) == "Maria Souza"


def test_inscription_number_unique_per_contest(db):
    position = builders.make_position()
    builders.make_registration(position, number="1001")
    other_contest = builders.make_position()
    builders.make_registration(other_contest, number="1001")  # another contest: allowed
    assert violates(
        "candidates_registration_unique_number_per_contest",
        lambda: builders.make_registration(position, number="1001"),
    )


def test_one_registration_per_candidate_and_position(db):
    registration = builders.make_registration()
    assert violates(
        "candidates_registration_unique_candidate_per_position",
        lambda: builders.make_registration(registration.position, candidate=registration.candidate),
    )


def test_preferred_reserve_must_be_one_chosen(db):
    registration = builders.make_registration(pcd_reserve=True)
    registration.preferred_reserve = "racial"
    with pytest.raises(ValidationError, match="reserva preferida"):
        registration.full_clean()
    assert violates("candidates_registration_preferred_reserve_chosen", registration.save)


def test_position_of_another_contest_refused(db):
    registration = builders.make_registration()
    registration.position = builders.make_position()
    with pytest.raises(ValidationError, match="não pertence a este concurso"):
        registration.full_clean()


def test_correction_needs_a_justification(db):
    declaration = builders.make_registration(racial_category="parda").self_declaration
    declaration.status = SelfDeclaration.Status.CORRECTED
    assert violates("candidates_selfdeclaration_correction_justified", declaration.save)


def test_category_the_policy_allows(db):
    santa_maria = builders.make_registration(racial_category="indigena")
    assert santa_maria.self_declaration.check_category(santa_maria.contest.policy) == (
        "A categoria indígena não é beneficiária da política do concurso (preta, parda)."
    )
    angra = builders.make_contest(policy=builders.policy("angra-dos-reis"))
    assert santa_maria.self_declaration.check_category(angra.policy) is None
    assert SelfDeclaration(category="").check_category(angra.policy) is None


def test_active_declaration_with_a_category_the_policy_does_not_cover_is_refused_by_clean(db):
    declaration = builders.make_registration(racial_category="indigena").self_declaration
    with pytest.raises(ValidationError) as raised:
        declaration.full_clean()
    assert raised.value.message_dict["category"] == [
        "A categoria indígena não é beneficiária da política do concurso (preta, parda)."
    ]
    declaration.status = SelfDeclaration.Status.GIVEN_UP  # what it said stays as it was
    declaration.full_clean()


def test_phase_pass_mark_within_maximum(db):
    contest = builders.make_contest()
    assert violates(
        "candidates_phase_pass_mark_within_max",
        lambda: Phase.objects.create(contest=contest, name="P", order=1, max_score=10, pass_mark=11),
    )


def test_phase_names_and_orders_unique_per_contest(db):
    phase = builders.make_phase(name="Objetiva")
    assert violates(
        "candidates_phase_unique_name_per_contest",
        lambda: Phase.objects.create(contest=phase.contest, name="Objetiva", order=2, max_score=10),
    )


def test_absent_candidate_has_no_score(db):
    registration = builders.make_registration()
    phase = builders.make_phase(registration.contest)
    assert violates(
        "candidates_phaseresult_absent_has_no_score",
        lambda: PhaseResult.objects.create(
            registration=registration, phase=phase, score=Decimal(5), absent=True
        ),
    )


def test_score_above_the_maximum_refused_by_validation(db):
    registration = builders.make_registration()
    phase = builders.make_phase(registration.contest, max_score=Decimal(10))
    with pytest.raises(ValidationError, match="nota máxima"):
        PhaseResult(registration=registration, phase=phase, score=Decimal("10.5")).full_clean()


def test_tie_break_phase_only_for_phase_score(db):
    phase = builders.make_phase()
    assert violates(
        "candidates_tiebreakcriterion_phase_iff_phase_score",
        lambda: TieBreakCriterion.objects.create(contest=phase.contest, order=1, kind="elderly", phase=phase),
    )


def test_every_business_model_keeps_history(db):
    registration = builders.make_registration(racial_category="preta")
    assert registration.history.count() == 1
    assert registration.candidate.history.count() == 1
    assert registration.self_declaration.history.count() == 1


@pytest.mark.parametrize(
    ("group", "has", "lacks"),
    [
        ("Secretaria", ["add_registration", "change_phaseresult", "import_registrations", "view_sensitive"],
         ["delete_registration"]),
        ("Gestão", ["view_registration", "view_selfdeclaration", "view_sensitive"], ["change_registration"]),
        ("Auditoria", ["view_candidate", "view_phaseresult", "view_sensitive"], ["add_candidate"]),
        ("Jurídico", ["view_candidate", "view_registration", "view_selfdeclaration", "view_sensitive"],
         ["view_phaseresult"]),
        # Comissão sees registrations only in its own sessions.
        ("Comissão", [], ["view_registration", "view_candidate", "view_sensitive"]),
    ],
)  # fmt: skip
def test_roles_get_the_candidates_permissions(db, group, has, lacks):
    codenames = set(
        Group.objects.get(name=group)
        .permissions.filter(content_type__app_label="candidates")
        .values_list("codename", flat=True)
    )
    assert set(has) <= codenames
    assert not set(lacks) & codenames


def test_registration_str_and_fields(db):
    registration = builders.make_registration(number="1001")
    assert str(registration) == "Inscrição 1001"
    assert registration.status == Registration.Status.ACTIVE


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite keeps no key on these columns")
def test_the_database_refuses_a_registration_whose_position_is_not_its_contests(db):
    """One foreign key, (position, contest) -> the position's (id, contest), stands for the two it replaced:
    the position exists, and is the contest's (the contest exists through the position's own key)."""
    registration = builders.make_registration()
    other = builders.make_position(builders.make_contest())
    table = connection.ops.quote_name(Registration._meta.db_table)
    for position_id in (other.pk, other.pk + 1000):
        with pytest.raises(IntegrityError) as error, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET position_id = %s WHERE id = %s", [position_id, registration.pk]
            )
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        assert "candidates_registration_position_in_contest" in str(error.value)
    with transaction.atomic(), connection.cursor() as cursor:  # the same update with its contest: accepted
        cursor.execute(
            f"UPDATE {table} SET position_id = %s, contest_id = %s WHERE id = %s",
            [other.pk, other.contest_id, registration.pk],
        )
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
