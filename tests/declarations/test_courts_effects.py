"""A court order's effects through the candidates' services (issue 22; RULES §4 items 7–8): complying with
an order that reincludes a candidate reinstates them; its revocation applies the removal again, from the
start (STF Tema 476)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from candidates.models import Registration
from candidates.services.registrations import registration_set_status
from declarations.courts import effects, services
from tests.builders import make_contest, make_position, make_registration
from tests.declarations.courts_world import make_court_order


def eliminated(position, by):
    registration = make_registration(position)
    return registration_set_status(
        registration=registration, status=Registration.Status.ELIMINATED, by=by, reason="Eliminação no PA."
    )


def test_rules_4_7_reinclusion_reinstates_and_revocation_eliminates_again(cast):
    position = make_position(make_contest())
    legal = cast["legal"]
    registration = eliminated(position, legal)
    order = make_court_order(
        position.contest, legal, [registration], effect="reinclude_lists", scope="candidate"
    )
    today = timezone.localdate()
    assert effects.can_apply(order)
    effects.order_effects_apply(order=order, by=legal, today=today)
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ACTIVE
    record = order.effects.get()
    assert (record.removed_by, record.events) == ("eliminated", ["reinstate"])
    assert not effects.can_apply(order)
    services.court_order_status(
        order=order, status="revoked", decided_on=today, note="Liminar revogada.", by=legal, today=today
    )
    registration.refresh_from_db()
    assert registration.status == Registration.Status.ELIMINATED
    record.refresh_from_db()
    assert record.events == ["reinstate", "eliminate"]
    assert "Tema 476" in registration.history.order_by("-history_date").first().history_change_reason


def test_effects_complied_with_elsewhere_are_refused_here(cast):
    position = make_position(make_contest())
    order = make_court_order(position.contest, cast["legal"])  # suspend an act, on the whole contest
    assert not effects.can_apply(order)
    with pytest.raises(ValidationError, match="tela própria"):
        effects.order_effects_apply(order=order, by=cast["legal"], today=timezone.localdate())
