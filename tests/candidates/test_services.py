"""Writes to the candidates app through its services: the rules they enforce and the history they leave.

Plain functions with the ``db`` fixture; dates are passed in.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from candidates.models import Candidate, ImportMapping, Registration, SelfDeclaration, TieBreakCriterion
from candidates.services import registrations as services
from contests.models import AccessLog
from tests import builders

OPEN_DAY = datetime.date(2026, 4, 1)  # make_contest: registrations 2026-03-09 to 2026-04-08
AFTER_CLOSE = datetime.date(2026, 4, 9)


@pytest.fixture
def clerk(db):
    return builders.make_user("secretaria", "Secretaria")


def register(clerk, position=None, racial_category=None, **data):
    position = position or builders.make_position()
    n = Candidate.objects.count() + 1
    return services.registration_register(
        contest=position.contest,
        by=clerk,
        candidate_data={"full_name": f"Pessoa {n}", "cpf": builders.make_cpf(5000 + n)},
        data={"position": position, "number": str(7000 + n), "registered_on": OPEN_DAY, **data},
        racial_category=racial_category,
    )


def test_registration_with_the_declaration_in_one_transaction(clerk):
    registration = register(clerk, racial_category="parda")
    declaration = registration.self_declaration
    assert (registration.racial_reserve, declaration.category, declaration.declared_on) == (
        True,
        "parda",
        OPEN_DAY,
    )
    assert declaration.history.get().history_user == clerk
    assert registration.history.get().history_change_reason == "Inscrição registrada"


def test_registration_dated_after_the_close_is_refused(clerk):
    with pytest.raises(ValidationError, match="posterior ao fim das inscrições"):
        register(clerk, registered_on=AFTER_CLOSE)
    assert Registration.objects.count() == 0


def test_category_outside_the_policy_refused_and_nothing_kept(clerk):
    with pytest.raises(ValidationError, match="não é beneficiária"):
        register(clerk, racial_category="quilombola")
    assert Registration.objects.count() == 0


def test_the_same_cpf_is_the_same_candidate(clerk):
    first = register(clerk)
    contest = builders.make_contest()
    second = services.registration_register(
        contest=contest,
        by=clerk,
        candidate_data={"full_name": "Outro Nome", "cpf": first.candidate.cpf},
        data={"position": builders.make_position(contest), "number": "1"},
    )
    assert second.candidate == first.candidate
    assert Candidate.objects.get().full_name == "Outro Nome"


def test_option_added_while_registrations_are_open(clerk):
    registration = register(clerk)
    services.self_declaration_add(registration=registration, category="preta", declared_on=OPEN_DAY, by=clerk)
    registration.refresh_from_db()
    assert registration.racial_reserve
    assert registration.self_declaration.category == "preta"


def test_option_cannot_be_added_after_registrations_close(clerk):
    registration = register(clerk)
    with pytest.raises(ValidationError, match="não pode ser acrescentada depois do fim das inscrições"):
        services.self_declaration_add(
            registration=registration, category="preta", declared_on=AFTER_CLOSE, by=clerk
        )
    assert not SelfDeclaration.objects.exists()


def test_candidate_gives_up_and_stays_in_open_competition(clerk):
    registration = register(clerk, racial_category="parda", pcd_reserve=True, preferred_reserve="racial")
    services.self_declaration_give_up(
        registration=registration, by=clerk, on=AFTER_CLOSE, reason="pedido escrito"
    )
    registration.refresh_from_db()
    declaration = registration.self_declaration
    assert (declaration.status, declaration.ended_on) == (SelfDeclaration.Status.GIVEN_UP, AFTER_CLOSE)
    assert (registration.racial_reserve, registration.preferred_reserve, registration.status) == (
        False,
        "",
        "active",
    )
    assert declaration.history.first().history_change_reason == "Renúncia à reserva racial: pedido escrito"


def test_clerk_corrects_a_typing_error_with_a_justification(clerk):
    registration = register(clerk)
    with pytest.raises(ValidationError, match="Justifique"):
        services.self_declaration_correct(
            registration=registration,
            by=clerk,
            justification="erro",
            on=AFTER_CLOSE,
            racial=True,
            category="parda",
        )
    justification = "Ficha de inscrição assinada marca a opção; digitada errada"
    services.self_declaration_correct(
        registration=registration, by=clerk, justification=justification, on=AFTER_CLOSE, racial=True,
        category="parda",
    )  # fmt: skip
    registration.refresh_from_db()
    assert registration.racial_reserve
    assert registration.self_declaration.justification == justification
    reason = f"Correção de erro de digitação: {justification}"
    assert registration.history.first().history_change_reason == reason
    services.self_declaration_correct(
        registration=registration, by=clerk, justification=justification, on=AFTER_CLOSE, racial=False
    )
    registration.refresh_from_db()
    assert not registration.racial_reserve
    assert registration.self_declaration.status == SelfDeclaration.Status.CORRECTED


def test_status_change_needs_a_reason_and_records_it(clerk):
    registration = register(clerk)
    with pytest.raises(ValidationError, match="motivo"):
        services.registration_set_status(registration=registration, status="withdrawn", by=clerk, reason=" ")
    services.registration_set_status(
        registration=registration, status="withdrawn", by=clerk, reason="Requerimento 12"
    )
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN
    assert registration.history.first().history_change_reason == "Desistente: Requerimento 12"


def test_sensitive_details_only_with_permission_and_logged(clerk):
    registration = register(clerk, racial_category="preta", pcd_reserve=True)
    commission = builders.make_user("comissao", "Comissão")
    with pytest.raises(PermissionDenied):
        services.registration_sensitive_details(registration=registration, user=commission)
    details = services.registration_sensitive_details(registration=registration, user=clerk)
    assert (details.racial_reserve, details.category, details.pcd_reserve) == (True, "Preta", True)
    log = AccessLog.objects.get()
    assert (log.user, log.action, log.object_id) == (clerk, "view_sensitive", str(registration.pk))


def test_scores_and_absence(clerk):
    registration = register(clerk)
    phase = services.phase_create(
        contest=registration.contest, by=clerk, data={"name": "Objetiva", "max_score": 100}
    )
    with pytest.raises(ValidationError, match="nota máxima"):
        services.phase_result_set(registration=registration, phase=phase, by=clerk, score=Decimal("100.01"))
    services.phase_result_set(registration=registration, phase=phase, by=clerk, absent=True)
    registration.refresh_from_db()
    assert registration.absent
    result = services.phase_result_set(registration=registration, phase=phase, by=clerk, score=Decimal("70"))
    registration.refresh_from_db()
    assert (result.score, registration.absent) == (Decimal(70), False)
    assert result.history.count() == 2


def test_tie_break_elderly_first_inscription_number_last(clerk):
    contest = builders.make_contest()
    phase = builders.make_phase(contest, name="Objetiva")
    assert services.tie_break_criteria(contest) == [("elderly", None), ("inscription_number", None)]
    services.tie_break_criteria_set(
        contest=contest, by=clerk, criteria=[("phase_score", phase), ("jury_service", None), ("older", None)]
    )
    assert services.tie_break_criteria(contest) == [
        ("elderly", None),
        ("phase_score", phase.pk),
        ("jury_service", None),
        ("older", None),
        ("inscription_number", None),
    ]
    services.tie_break_criteria_set(contest=contest, by=clerk, criteria=[("older", None)])
    assert TieBreakCriterion.objects.filter(contest=contest).count() == 3
    with pytest.raises(ValidationError, match="Indique a fase"):
        services.tie_break_criteria_set(contest=contest, by=clerk, criteria=[("phase_score", None)])


def test_import_mapping_merges_headers_of_every_file(clerk):
    contest = builders.make_contest()
    services.import_mapping_save(contest=contest, by=clerk, columns={"CPF": "cpf", "Nota": "phase:Objetiva"})
    services.import_mapping_save(contest=contest, by=clerk, columns={"Nota": "", "Inscrição": "number"})
    mapping = ImportMapping.objects.get(contest=contest)
    assert mapping.columns == {"CPF": "cpf", "Nota": "", "Inscrição": "number"}
    assert mapping.history.count() == 2
    services.import_mapping_save(contest=contest, by=clerk, columns={"CPF": "cpf"})
    assert mapping.history.count() == 2  # nothing new, no history row
