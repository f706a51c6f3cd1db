"""``manage.py seed_demo``: idempotent demo data; demo users with known passwords only with DEBUG on.

Plain functions with the ``db`` fixture; DEBUG is set per test through the ``settings`` fixture
(pytest-django runs tests with DEBUG off). The tests of a first run with DEBUG on share one run
(``seeded``, built once for the module: tests/module_data.py); each test's own changes are rolled back.
"""

from __future__ import annotations

import csv
import datetime
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from contests import audit, services
from contests.models import Contest, Holiday, Organization, Position, VacancyOpening
from declarations.models import (
    Commission,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Procedure,
    ProcedureAct,
    Session,
)
from declarations.procedure import rules
from tests.builders import EXAMPLE_CSV
from tests.conftest import FAST_HASHERS
from tests.module_data import built_once
from workspace.management.commands.seed_demo import DEMO_PASSWORD

AUDITED = (
    Organization,
    Holiday,
    Contest,
    Position,
    VacancyOpening,
    DrawAnnouncement,
    MemberDraw,
    Commission,
    CommissionMember,
    Session,
    Procedure,
    ProcedureAct,
)


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def snapshot() -> dict[str, int]:
    """Rows and history rows of every model the command writes."""
    counts = {model.__name__: model.objects.count() for model in AUDITED}
    counts.update({f"history {model.__name__}": model.history.count() for model in AUDITED})
    counts["users"] = User.objects.count()
    return counts


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


def _first_run_with_debug(settings, media) -> str:
    settings.PASSWORD_HASHERS = FAST_HASHERS  # as every test's (tests/conftest.py)
    settings.MEDIA_ROOT = media  # the emblem the demo copies there
    with override_settings(DEBUG=True):
        return seed()


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker, tmp_path_factory):
    """What the first ``seed_demo`` with DEBUG on printed; its rows are in the database of every test that
    asks for it."""
    media = tmp_path_factory.mktemp("media")
    yield from built_once(django_db_blocker, lambda settings: _first_run_with_debug(settings, media))


def _reserved(slug: str) -> dict[str, tuple[int, int, int, int]]:
    """code → (vacancies, racial, pcd, open) for the positions of a demo contest."""
    result = {}
    for position in Position.objects.filter(contest__slug=slug).order_by("pk"):
        reservation = position.reservation()
        result[position.code] = (position.vacancies, reservation.racial, reservation.pcd, reservation.open)
    return result


def test_seed_demo_santa_maria_reserved_counts(db, debug, seeded):
    from django.utils import timezone

    contest = Contest.objects.get(slug="demo-santa-maria")
    assert contest.policy.slug == "santa-maria"
    assert contest.status == Contest.Status.IN_PROGRESS
    # Counted from the day the demo is created: registrations closed some weeks ago, ready for the import.
    today = timezone.localdate()
    assert contest.edital_date == today - datetime.timedelta(days=75)
    assert contest.registration_start == today - datetime.timedelta(days=68)
    assert contest.registration_end == today - datetime.timedelta(days=39)
    assert contest.year == contest.edital_date.year
    assert _reserved("demo-santa-maria") == {
        "ALEG": (2, 0, 0, 2),  # below SM's threshold of 3 (art. 1 §2); PcD capped at 20% of 2 → 0
        "TLEG": (7, 1, 1, 5),  # 1,4 → 1
        "ANSI": (13, 3, 1, 9),  # 2,6 → 3
    }
    titles = dict(contest.positions.values_list("code", "title"))
    assert titles == {
        "ALEG": "Assistente Legislativo",
        "TLEG": "Técnico Legislativo",
        "ANSI": "Analista de Sistemas",
    }


def test_seed_demo_the_organisation_lists_only_its_own_contests(db, debug, seeded):
    assert Organization.objects.count() == 1
    slugs = set(Contest.objects.values_list("slug", flat=True))
    assert slugs == {"demo-santa-maria", "demo-santa-maria-concluido"}
    assert set(Contest.objects.values_list("policy__slug", flat=True)) == {"santa-maria"}


def test_seed_demo_another_organisation_in_the_same_database_is_refused(db, debug, seeded):
    from django.core.management import CommandError

    before = snapshot()
    with pytest.raises(CommandError, match="uma instalação serve uma só organização"):
        call_command("seed_demo", "--organization", "angra", stdout=StringIO())
    assert snapshot() == before


def test_seed_demo_no_deadline_has_ended(db, debug, seeded):
    """The Secretaria's home opens on deadlines that are running, not on deadlines ended months ago."""
    from django.utils import timezone

    from candidates.models import Nomination

    today = timezone.localdate()
    deadlines = list(Nomination.objects.values_list("office_deadline", flat=True))
    assert deadlines and all(deadline >= today for deadline in deadlines)
    assert set(Nomination.objects.values_list("act_date", flat=True)) == {today}


def test_seed_demo_positions_match_the_example_file(db, debug, seeded):
    if not EXAMPLE_CSV.exists():
        pytest.skip("arquivo de exemplo ausente")
    with EXAMPLE_CSV.open(encoding="cp1252", newline="") as handle:
        codes = {row["Cargo"] for row in csv.DictReader(handle, delimiter=";")}
    assert (
        set(Position.objects.filter(contest__slug="demo-santa-maria").values_list("code", flat=True)) == codes
    )


def test_seed_demo_organization_and_holidays(db, debug, seeded):
    organization = Organization.current()
    assert organization.name == "Câmara Municipal de Santa Maria"
    assert (organization.municipality, organization.state) == ("Santa Maria", "RS")
    assert organization.dpo_email.endswith(".example")
    assert organization.email.endswith(".example")
    recurring = Holiday.objects.filter(recurring=True, kind=Holiday.Kind.HOLIDAY)
    assert recurring.count() >= 2
    assert Holiday.objects.filter(date__month=5, date__day=17, recurring=True).exists()


def test_seed_demo_users_one_per_role_with_debug(db, debug, seeded):
    output = seeded
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    roles = {
        "secretaria": "Secretaria",
        "juridico": "Jurídico",
        "comissao": "Comissão",
        "gestao": "Gestão",
        "auditoria": "Auditoria",
    }
    for username, group in roles.items():
        user = User.objects.get(username=username)
        assert list(user.groups.values_list("name", flat=True)) == [group]
        assert not user.is_superuser
        assert user.check_password(DEMO_PASSWORD)
        assert username in output
    assert DEMO_PASSWORD in output


def test_seed_demo_history_names_the_admin(db, debug, seeded):
    admin = User.objects.get(username="admin")
    for model in AUDITED:
        history = model.history.all()
        if model is ProcedureAct:
            # What the candidate files through their private link is theirs, not a staff user's.
            history = history.exclude(history_user=None, kind__in=rules.CANDIDATE_ACTS)
        users = set(history.values_list("history_user", flat=True))
        assert users == {admin.pk}, model.__name__
    contest = Contest.objects.get(slug="demo-santa-maria")
    assert contest.history.first().history_change_reason == "Situação: Em andamento"


def test_seed_demo_is_idempotent_and_says_so(db, debug, seeded):
    first = seeded
    assert "Dados de demonstração criados" in first
    before = snapshot()
    second = seed()
    assert snapshot() == before
    assert "Nada a fazer: os dados de demonstração já existem e nada foi alterado." in second
    assert "+ " not in second


def test_seed_demo_keeps_what_the_users_changed(db, debug, seeded):
    """A second run creates only what is missing and never reverts a change."""
    admin = User.objects.get(username="admin")
    contest = Contest.objects.get(slug="demo-santa-maria")
    services.contest_set_status(contest=contest, status=Contest.Status.CANCELLED, by=admin)
    audit.audited_delete(contest.positions.get(code="ANSI"), by=admin)
    output = seed()
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.CANCELLED
    assert _reserved("demo-santa-maria")["ANSI"] == (13, 3, 1, 9)
    assert "cargo demo-santa-maria/ANSI" in output
    assert "Nada a fazer" not in output


def test_seed_demo_never_prints_passwords_without_debug_even_when_users_exist(db, settings, seeded):
    settings.DEBUG = False
    output = seed()
    assert DEMO_PASSWORD not in output
    assert "Nada a fazer" in output


def test_seed_demo_phases_of_the_example_file(db, debug, seeded):
    contest = Contest.objects.get(slug="demo-santa-maria")
    phases = [(p.name, p.max_score, p.pass_mark) for p in contest.phases.order_by("order")]
    assert phases == [("Nota Objetiva", 100, 50), ("Nota Discursiva", 10, None)]


def test_seed_demo_gives_the_portal_a_published_edital_result_and_nominations(db, debug, seeded):
    from candidates.models import Nomination, ResultRun
    from contests.documents.models import Document

    contest = Contest.objects.get(slug="demo-santa-maria-concluido")
    assert contest.policy.slug == "santa-maria"
    assert Document.objects.filter(contest=contest, kind=Document.Kind.EDITAL).count() == 1
    preliminary, run = ResultRun.objects.filter(contest=contest).order_by("number")
    assert preliminary.status == ResultRun.Status.PUBLISHED and preliminary.kind == ResultRun.Kind.PRELIMINARY
    assert run.status == ResultRun.Status.PUBLISHED and run.kind == ResultRun.Kind.FINAL
    assert contest.homologation_date is not None
    assert Nomination.objects.filter(position__contest=contest).count() == 7
    assert run.entries.filter(name="Carla Souza").exists()  # the social name, never the civil one
    assert not run.entries.filter(name="Carlos Henrique Souza").exists()
    # Each list and the nomination Portaria published as a signed act, by the head of the body.
    lists = Document.objects.filter(contest=contest, kind=Document.Kind.RESULT_LIST).order_by("pk")
    assert [d.subject for d in lists] == [f"run-{preliminary.pk}", f"run-{run.pk}"]
    act = Document.objects.get(contest=contest, kind=Document.Kind.NOMINATION_ACT)
    assert act.title == "Ato de nomeação – Portaria 31 (demonstração)"
    assert {(d.signer_name, d.signer_office) for d in [*lists, act]} == {
        ("Ricardo Almeida Prates", "Presidente da Câmara Municipal de Vereadores de Santa Maria")
    }


def test_seed_demo_prints_the_organisation_s_emblem_on_its_documents(db, debug, seeded):
    from contests.documents.render import Stamp, base_context

    organization = Organization.current()
    assert organization.logo.name == "organization/brasao-demo-santa-maria.png"
    assert (organization.logo.width, organization.logo.height) == (360, 440)
    assert base_context(Stamp(), title="x")["logo_uri"].endswith("organization/brasao-demo-santa-maria.png")


def test_seed_demo_publishes_an_act_of_every_kind(db, debug, seeded):
    """Every kind of document can be read without running a contest (the text of each: test_acts_text)."""
    from contests.documents.models import Document

    assert set(Document.objects.values_list("kind", flat=True)) == set(Document.Kind.values)


def test_seed_demo_holds_a_heteroidentification_session_on_the_concluded_contest(db, debug, seeded):
    from contests.documents.models import Document
    from declarations.models import Verification
    from workspace.management.commands._demo_hetero import HELD_CALLED, HELD_DAYS_AGO

    contest = Contest.objects.get(slug="demo-santa-maria-concluido")
    session = Session.objects.get(commission__contest=contest)
    assert session.closed_at is not None
    from django.utils import timezone

    held_on = timezone.localtime(session.starts_at).date()
    assert held_on == timezone.localdate() - datetime.timedelta(days=HELD_DAYS_AGO)
    outcomes = list(
        Verification.objects.filter(session=session)
        .order_by("registration__number")
        .values_list("outcome", flat=True)
    )
    assert outcomes == ["confirmed"] * (HELD_CALLED - 1) + ["absent"]
    kinds = set(Document.objects.filter(contest=contest).values_list("kind", flat=True))
    assert {"hetero_draw", "hetero_call", "hetero_minutes", "hetero_result"} <= kinds
    # The same people sit on both demo commissions, each with one account.
    accounts = CommissionMember.objects.values_list("name", "user")
    assert len(set(accounts)) == 5 and len(accounts) == 10


def test_seed_demo_draws_santa_maria_commission_with_the_comissao_user_and_a_session_ahead(db, debug, seeded):
    from django.utils import timezone

    from contests.documents.models import Document
    from declarations.hetero.selectors import draw_recompute
    from workspace.management.commands._demo_hetero import SEED, SESSION_IN_DAYS

    contest = Contest.objects.get(slug="demo-santa-maria")
    commission = Commission.objects.get(contest=contest)
    assert (commission.kind, commission.size) == (
        "first",
        contest.policy.procedure_law.hetero_commission_size,
    )
    members = list(commission.members.all())
    assert len(members) == 5
    # Formed by the announced draw with its fixed seed; the demo user Conceição is among the 5 drawn.
    draw = MemberDraw.objects.get(commission=commission)
    assert draw.seed == SEED and draw.announcement.pool_digest == draw.pool_digest
    assert list(draw_recompute(draw).drawn) == draw.result[:5]
    # Every member drawn has an account in the Comissão role (Conceição is the ``comissao`` demo user).
    assert all(m.user and m.user.groups.filter(name="Comissão").exists() for m in members)
    assert "comissao" in {m.user.username for m in members}
    assert all(m.user.check_password("cotas-demo") for m in members)
    assert len({m.gender for m in members}) == 2 and len({m.colour for m in members}) >= 3
    # The notice and the draw's result, published as acts.
    assert Document.objects.filter(contest=contest, kind=Document.Kind.HETERO_DRAW).count() == 2
    session = Session.objects.get(commission=commission)
    assert session.closed_at is None
    local = timezone.localtime(session.starts_at)
    assert local.date() == timezone.localdate() + datetime.timedelta(days=SESSION_IN_DAYS)
    assert session.present.count() == 5
    assert not session.verifications.exists()  # Santa Maria has no registrations until the file is imported


def test_seed_demo_opens_one_procedure_with_a_running_defence_deadline(db, debug, seeded):
    from django.utils import timezone

    from declarations.procedure.selectors import case_state

    procedure = Procedure.objects.get(status=Procedure.Status.OPEN)
    assert procedure.registration.contest.slug == "demo-santa-maria-concluido"
    assert procedure.registration.racial_reserve
    assert procedure.origin == Procedure.Origin.COMPLAINT
    assert procedure.opened_by.username == "admin"
    # The candidate has filed a piece of evidence through her private link (and has its protocol receipt).
    assert list(procedure.acts.order_by("pk").values_list("kind", flat=True)) == [
        "opening",
        "notice",
        "evidence",
    ]
    today = timezone.localdate()
    deadline = case_state(procedure, today=today).next_deadline
    assert deadline is not None and not deadline.overdue
    assert deadline.deadline.last_day > today  # counted from the in-person notice given today


def test_seed_demo_tells_one_procedure_to_its_end_with_the_public_act_of_its_effects(db, debug, seeded):
    from candidates.models import Registration
    from contests.documents.models import Document
    from workspace.management.commands._demo_hetero import CONCLUDED_CANDIDATE

    procedure = Procedure.objects.get(status=Procedure.Status.CLOSED)
    assert procedure.registration.candidate.full_name == CONCLUDED_CANDIDATE
    assert procedure.outcome == "falsity" and procedure.effects_applied_on is not None
    assert procedure.registration.status == Registration.Status.ELIMINATED
    assert list(procedure.acts.order_by("pk").values_list("kind", flat=True)) == [
        "opening",
        "notice",
        "defence",
        "instruction_closed",
        "closing_notice",
        "final_statement",
        "report",
        "decision",
        "decision_notice",
        "appeal",
        "reconsideration",
        "superior_decision",
        "decision_notice",
        "final",
    ]
    effects = Document.objects.get(kind=Document.Kind.PROCEDURE_EFFECTS)
    assert f"nos termos do {procedure}" in effects.title
