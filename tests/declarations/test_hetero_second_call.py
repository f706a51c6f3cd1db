"""The second call of a candidate absent from the commission's session for a justified reason, where the
edital provides it (``ProcedureLaw.hetero_second_call``, off by default): Jurídico records the
justification through the page and calls them to a later session; refused when the policy does not
provide it or without a justification; the final result is the second call's, applied once."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from declarations.hetero import rules, selectors
from declarations.hetero import services as hs
from declarations.models import ProcedureLaw, SecondCall, Verification
from tests.declarations.hetero_world import at
from tests.declarations.test_hetero_screens import _close_with, _formed_and_called
from tests.declarations.test_hetero_screens import contest as screens_contest
from tests.pages import post_form

pytestmark = pytest.mark.django_db

contest = pytest.fixture(screens_contest.__wrapped__, name="contest")  # type: ignore[attr-defined]


def _absent(client, cast, contest, *, allowed: bool):
    """N1 confirmed, N2 and N3 absent from the session of 20/06/2026; a later session on 27/06/2026."""
    law = ProcedureLaw.objects.get(policy=contest.policy)
    law.hetero_second_call = allowed
    law.save()
    session = _formed_and_called(client, cast, contest)
    _close_with(session, cast["legal"], {"N1": (True,) * 5})
    later = hs.session_schedule(
        commission=session.commission,
        starts_at=at(datetime.date(2026, 6, 27)),
        place="Sala 3",
        by=cast["legal"],
    )
    absent = Verification.objects.get(session=session, registration__number="N2")
    return session, later, absent


def test_rules_s5_the_law_field_is_off_by_default_and_on_the_policy_screen():
    field = ProcedureLaw._meta.get_field("hetero_second_call")
    assert field.default is False and "justificad" in field.help_text
    from declarations.law import LAW_FIELDS

    assert "hetero_second_call" in LAW_FIELDS


def test_rules_s5_a_justified_absence_is_called_again_through_the_page_and_the_second_call_decides(
    client, cast, contest
):
    session, later, absent = _absent(client, cast, contest, allowed=True)
    page = client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    url = reverse("declarations:hetero_second_call", args=[absent.pk])
    assert url in page
    response = post_form(
        client, url, {"justification": "Internado em 20/06/2026: atestado médico anexado ao protocolo 12/2026.",
                      "session": str(later.pk)}, follow=True
    )  # fmt: skip
    assert "segunda chamada" in response.content.decode()
    record = SecondCall.objects.get(absent=absent)
    assert record.verification.session == later and record.verification.registration == absent.registration
    assert record.history.count() == 1 and "atestado" in record.justification
    today = timezone.localdate()
    assert selectors.final_state(absent, today=today) is None  # waits for the second call
    with pytest.raises(ValidationError, match="segunda chamada"):
        hs.result_apply(verification=absent, by=cast["legal"], today=today)
    _close_with(later, cast["legal"], {"N2": (True,) * 5})
    absent.refresh_from_db()
    assert selectors.final_state(absent, today=today) == rules.Outcome.CONFIRMED
    assert [v.registration.number for v in selectors.confirmed(contest, today=today)] == ["N1", "N2"]
    assert [v.pk for v, _ in selectors.results_to_apply(session, today=today)] == [
        v.pk
        for v in session.verifications.filter(registration__number__in=["N1", "N3"]).order_by(
            "registration__number"
        )
    ]
    applied = hs.result_apply(verification=record.verification, by=cast["legal"], today=today)
    assert applied.outcome == rules.Outcome.CONFIRMED and applied.consequence == rules.Consequence.NONE


def test_rules_s5_no_second_call_when_the_edital_does_not_provide_it(client, cast, contest):
    session, later, absent = _absent(client, cast, contest, allowed=False)
    url = reverse("declarations:hetero_second_call", args=[absent.pk])
    assert url not in client.get(reverse("declarations:hetero_session", args=[session.pk])).content.decode()
    response = post_form(client, url, {"justification": "Atestado médico.", "session": str(later.pk)})
    assert response.status_code == 200 and "não prevê segunda chamada" in response.content.decode()
    assert not SecondCall.objects.exists() and not later.verifications.exists()
    assert selectors.final_state(absent, today=timezone.localdate()) == rules.Outcome.ABSENT


def test_rules_s5_no_second_call_without_a_justification(client, cast, contest):
    _, later, absent = _absent(client, cast, contest, allowed=True)
    url = reverse("declarations:hetero_second_call", args=[absent.pk])
    response = post_form(client, url, {"justification": "   ", "session": str(later.pk)})
    assert response.status_code == 200 and "obrigatório" in response.content.decode().lower()
    with pytest.raises(ValidationError, match="justificativa"):
        from declarations.hetero.second_call import second_call

        second_call(absent=absent, session=later, justification=" ", by=cast["legal"], now=timezone.now())
    assert not SecondCall.objects.exists()


def test_rules_s5_the_second_call_is_given_once(client, cast, contest):
    _, later, absent = _absent(client, cast, contest, allowed=True)
    from declarations.hetero.second_call import second_call

    record = second_call(
        absent=absent, session=later, justification="Atestado.", by=cast["legal"], now=timezone.now()
    )
    _close_with(later, cast["legal"], {})  # absent again
    third = hs.session_schedule(
        commission=later.commission, starts_at=at(datetime.date(2026, 7, 4)), place="Sala 3", by=cast["legal"]
    )
    with pytest.raises(ValidationError, match="única"):
        second_call(
            absent=record.verification,
            session=third,
            justification="Outro atestado.",
            by=cast["legal"],
            now=timezone.now(),
        )
    absent.refresh_from_db()
    assert selectors.final_state(absent, today=timezone.localdate()) == rules.Outcome.ABSENT
