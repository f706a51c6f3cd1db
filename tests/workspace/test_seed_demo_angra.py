"""``manage.py seed_demo --organization angra``: the other demo organisation, in a database of its own (one
installation serves one organisation), with its own contest under Angra's law, dates counted from today."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from candidates.models import Nomination, ResultRun
from contests.models import Contest, Organization
from declarations.models import Commission, Procedure, Session
from declarations.procedure.selectors import case_state
from tests.conftest import FAST_HASHERS
from tests.module_data import built_once
from tests.workspace.test_seed_demo import _reserved


def _first_run(settings, media) -> str:
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.MEDIA_ROOT = media
    out = StringIO()
    with override_settings(DEBUG=True):
        call_command("seed_demo", "--organization", "angra", stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker, tmp_path_factory):
    media = tmp_path_factory.mktemp("media")
    yield from built_once(django_db_blocker, lambda settings: _first_run(settings, media))


def test_angra_is_its_own_organisation_with_its_own_contest(db, seeded):
    organization = Organization.current()
    assert Organization.objects.count() == 1
    assert (organization.name, organization.state) == ("Prefeitura Municipal de Angra dos Reis", "RJ")
    assert list(Contest.objects.values_list("slug", flat=True)) == ["demo-angra"]
    contest = Contest.objects.get()
    assert contest.policy.slug == "angra-dos-reis"
    assert contest.status == Contest.Status.HOMOLOGATED
    assert _reserved("demo-angra") == {
        "AGAD": (10, 2, 1, 7),
        "ACS": (3, 1, 0, 2),  # no threshold in AR: 0,6 → 1
    }


def test_angra_dates_count_from_today_and_no_deadline_has_ended(db, seeded):
    today = timezone.localdate()
    contest = Contest.objects.get()
    assert contest.edital_date == today - datetime.timedelta(days=200)
    assert contest.homologation_date == today
    assert set(ResultRun.objects.filter(contest=contest).values_list("kind", "status")) == {
        (ResultRun.Kind.PRELIMINARY, ResultRun.Status.PUBLISHED),
        (ResultRun.Kind.FINAL, ResultRun.Status.PUBLISHED),
    }
    assert Nomination.objects.filter(position__contest=contest).count() == 7
    assert all(n.office_deadline >= today for n in Nomination.objects.all())


def test_angra_commission_and_procedure(db, seeded):
    commission = Commission.objects.get()
    assert commission.contest.slug == "demo-angra"
    # A session held weeks ago (its minutes and result published), and one ahead with the others called.
    held, ahead = commission.sessions.order_by("starts_at")
    assert held.closed_at is not None and ahead.closed_at is None
    assert ahead.verifications.exists()
    procedure = Procedure.objects.get(status=Procedure.Status.OPEN)
    assert procedure.registration.contest.slug == "demo-angra"
    today = timezone.localdate()
    deadline = case_state(procedure, today=today).next_deadline
    # The defence (10 days in Angra's policy) counted from the in-person notice given today.
    assert deadline is not None and deadline.deadline.last_day >= today + datetime.timedelta(days=10)


def test_angra_documents_carry_its_emblem_and_are_signed_by_its_mayor(db, seeded):
    from contests.documents.models import Document

    assert Organization.current().logo.name == "organization/brasao-demo-angra.png"
    assert set(Document.objects.values_list("kind", flat=True)) == set(Document.Kind.values)
    # The head of the body signs the lists, the nomination act and the commission's public acts; the
    # procedure's acts are the delegate's; the minutes are signed by the members present.
    heads = Document.objects.exclude(
        kind__in=[
            Document.Kind.PROCEDURE_ACT,
            Document.Kind.PROCEDURE_EFFECTS,
            Document.Kind.HETERO_MINUTES,
            Document.Kind.FILING_RECEIPT,  # the electronic protocol's, signed by no person
        ]
    )
    assert set(heads.values_list("signer_name", "signer_office")) == {
        ("Fernando Costa Jordão", "Prefeito Municipal de Angra dos Reis")
    }
    minutes = Document.objects.get(kind=Document.Kind.HETERO_MINUTES)
    assert (
        Session.objects.get(pk=int(minutes.subject.removeprefix("minutes-")))
        .present.filter(name=minutes.signer_name)
        .exists()
    )


def test_angra_again_changes_nothing(db, seeded):
    out = StringIO()
    with override_settings(DEBUG=True):
        call_command("seed_demo", "--organization", "angra", stdout=out)
    assert "Nada a fazer" in out.getvalue()


def test_angra_authorities_the_secretary_by_delegation_signs_the_procedure_the_mayor_the_rest(db, seeded):
    from contests.documents.signatures import signatory_for
    from contests.models import Signatory

    today = timezone.localdate()
    procedure = signatory_for(Signatory.Kind.PROCEDURE, on=today)
    assert procedure.name == "Luciana Mendes Barreto"
    assert procedure.office == "Secretária Municipal de Administração"
    assert procedure.competence.startswith("Por delegação de competência: Decreto nº 100/2025")
    for kind in (Signatory.Kind.PROCEDURE_APPEAL, Signatory.Kind.EDITAL, Signatory.Kind.NOMINATION_ACT):
        mayor = signatory_for(kind, on=today)
        assert (mayor.name, mayor.office) == (
            "Fernando Costa Jordão",
            "Prefeito Municipal de Angra dos Reis",
        )
    opening = Procedure.objects.order_by("pk").first().acts.get(kind="opening").document
    assert opening.signer_name == "Luciana Mendes Barreto"
    assert opening.published_by.username != opening.signer_name
