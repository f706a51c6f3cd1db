"""The contest's lifecycle through every door (services, pages, admin) and the locks that rest on its dates.

A published contest never returns to draft, a homologation is never
undone, and the policy lock, the policy-version lock and the edital-vacancy deletion guard hold even when
the status column is forced back to draft, because they read the permanent dates, never the status.
"""

from __future__ import annotations

import datetime
import importlib
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from contests import lifecycle, services
from contests.models import Contest, Policy, VacancyOpening
from tests.builders import final_result, make_contest, make_position, policy

D = datetime.date
EDITAL_OUT_ON = D(2026, 3, 2)


def _messages(error: ValidationError) -> list[str]:
    return list(error.messages)


@pytest.fixture
def clerk(cast):
    return cast["clerk"]


@pytest.fixture
def manager(cast):
    return cast["manager"]


def published(clerk, status=Contest.Status.PUBLISHED, on=EDITAL_OUT_ON) -> Contest:
    """A draft with a position of 3 edital vacancies, moved to ``status`` through the service."""
    contest = make_contest()
    make_position(contest, vacancies=3)
    return services.contest_set_status(contest=contest, status=status, by=clerk, on=on)


def homologated(clerk, manager) -> Contest:
    contest = published(clerk, Contest.Status.IN_PROGRESS)
    final_result(contest)
    return services.contest_homologate(contest=contest, by=manager, date=D(2026, 7, 1), act="Portaria 1/2026")


def force_status(contest: Contest, status: str) -> Contest:
    """What a repair in the database could do: the status column alone, no service, no history."""
    Contest.objects.filter(pk=contest.pk).update(status=status)
    return Contest.objects.get(pk=contest.pk)


# The services record the permanent facts ----------------------------------------------------------------


def test_leaving_draft_records_the_publication_once_and_history_names_who(clerk):
    contest = published(clerk, on=D(2026, 3, 2))
    assert (contest.status, contest.edital_published_on) == (Contest.Status.PUBLISHED, D(2026, 3, 2))
    record = contest.history.first()
    assert (record.history_user, record.history_change_reason) == (clerk, "Situação: Edital publicado")
    contest = services.contest_set_status(
        contest=contest, status=Contest.Status.REGISTRATION, by=clerk, on=D(2026, 3, 9)
    )
    assert contest.edital_published_on == D(2026, 3, 2)


def test_publication_date_defaults_to_today(clerk):
    contest = services.contest_set_status(contest=make_contest(), status=Contest.Status.IN_PROGRESS, by=clerk)
    assert contest.edital_published_on == timezone.localdate()


def test_cancelling_a_draft_publishes_nothing(clerk):
    contest = services.contest_set_status(contest=make_contest(), status=Contest.Status.CANCELLED, by=clerk)
    assert contest.edital_published_on is None
    assert not contest.edital_published


def test_lifecycle_dates_cannot_be_set_through_create_or_update(clerk):
    contest = make_contest()
    for data in (
        {"status": "published"},
        {"edital_published_on": None},
        {"homologation_date": D(2026, 7, 1)},
    ):
        with pytest.raises(ValidationError) as raised:
            services.contest_update(contest=contest, by=clerk, data=data)
        assert "mudam pelos seus próprios formulários" in _messages(raised.value)[0]
    with pytest.raises(ValidationError):
        services.contest_create(by=clerk, data={"status": "homologated"})
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT


def test_homologation_needs_the_edital_published(clerk, manager):
    contest = make_contest()
    final_result(contest)
    with pytest.raises(ValidationError) as raised:
        services.contest_homologate(contest=contest, by=manager, date=D(2026, 7, 1), act="Portaria")
    assert _messages(raised.value) == [lifecycle.HOMOLOGATION_NEEDS_EDITAL]
    assert Contest.objects.get(pk=contest.pk).homologation_date is None


def test_database_refuses_a_homologation_without_a_publication(db):
    contest = make_contest()
    contest.homologation_date = D(2026, 7, 1)
    with pytest.raises(ValidationError) as raised:
        contest.full_clean()
    assert raised.value.message_dict["__all__"] == ["Só se homologa um concurso com edital publicado."]


# A published contest never returns to draft: service, page, admin ------------------------------------------


@pytest.mark.parametrize(
    "status", [Contest.Status.PUBLISHED, Contest.Status.REGISTRATION, Contest.Status.IN_PROGRESS]
)
def test_service_refuses_a_published_contest_back_to_draft_and_says_why(clerk, status):
    contest = published(clerk, status)
    before = contest.history.count()
    with pytest.raises(ValidationError) as raised:
        services.contest_set_status(contest=contest, status=Contest.Status.DRAFT, by=clerk)
    assert _messages(raised.value) == [lifecycle.NO_RETURN_TO_DRAFT]
    contest.refresh_from_db()
    assert (contest.status, contest.edital_published_on) == (status, D(2026, 3, 2))
    assert contest.history.count() == before


def test_status_page_refuses_draft_and_shows_the_reason(client_for, clerk):
    contest = published(clerk)
    client = client_for("clerk")
    response = client.post(reverse("contests:status", args=[contest.slug]), {"status": "draft"}, follow=True)
    assert response.status_code == 200
    assert "Um concurso com edital publicado não volta a rascunho" in response.content.decode()
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.PUBLISHED


def test_status_form_offers_only_the_lawful_moves(client_for, clerk):
    contest = published(clerk, Contest.Status.REGISTRATION)
    form = client_for("clerk").get(contest.get_absolute_url()).context["status_form"]
    offered = [value for value, _ in form.fields["status"].widget.choices if value]
    assert offered == ["in_progress", "cancelled"]
    page = client_for("clerk").get(contest.get_absolute_url()).content.decode()
    assert 'value="draft"' not in page and 'value="published"' not in page


def test_status_page_of_a_cancelled_contest_offers_nothing(client_for, clerk):
    contest = services.contest_set_status(contest=make_contest(), status=Contest.Status.CANCELLED, by=clerk)
    response = client_for("clerk").get(contest.get_absolute_url())
    assert not response.context["status_form"].moves
    assert "Um concurso cancelado não muda mais de situação." in response.content.decode()


def test_status_page_unknown_status_is_a_message_not_a_500(client_for):
    contest = make_contest()
    response = client_for("clerk").post(
        reverse("contests:status", args=[contest.slug]), {"status": "nada"}, follow=True
    )
    assert response.status_code == 200
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.DRAFT


def _superuser_client(client):
    root = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    return client, root


def _admin_post_data(contest: Contest, root: User, **overrides) -> dict:
    """What the admin's change form posts for ``contest`` (its read-only fields are not in the form)."""
    request = RequestFactory().get("/")
    request.user = root
    form = admin.site._registry[Contest].get_form(request, contest)(instance=contest)
    data: dict = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value.isoformat() if isinstance(value, D) else str(value)
    for key, value in {
        "TOTAL_FORMS": 0,
        "INITIAL_FORMS": 0,
        "MIN_NUM_FORMS": 0,
        "MAX_NUM_FORMS": 1000,
    }.items():
        data[f"positions-{key}"] = str(value)
    data.update(overrides)
    return data


def test_admin_shows_status_policy_and_slug_read_only_once_published(client, clerk):
    client, _ = _superuser_client(client)
    contest = published(clerk)
    page = client.get(reverse("admin:contests_contest_change", args=[contest.pk])).content.decode()
    for name in ("status", "policy", "slug", "edital_published_on", "homologation_date"):
        assert f'name="{name}"' not in page
    draft = make_contest()
    page = client.get(reverse("admin:contests_contest_change", args=[draft.pk])).content.decode()
    assert 'name="policy"' in page and 'name="status"' not in page


def test_admin_cannot_move_a_published_contest_back_to_draft(client, clerk):
    client, root = _superuser_client(client)
    contest = published(clerk)
    angra = policy("angra-dos-reis")
    data = _admin_post_data(contest, root, status="draft", policy=str(angra.pk), slug="outro", title="Novo")
    response = client.post(reverse("admin:contests_contest_change", args=[contest.pk]), data)
    assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.title == "Novo"  # what the admin may repair is saved
    assert (contest.status, contest.edital_published_on) == (Contest.Status.PUBLISHED, D(2026, 3, 2))
    assert (contest.policy.slug, contest.slug) == ("santa-maria", contest.slug)
    assert contest.slug != "outro"


def test_admin_history_revert_keeps_the_lifecycle(client, clerk):
    client, root = _superuser_client(client)
    contest = published(clerk)
    draft_record = contest.history.order_by("history_date").first()
    assert draft_record.status == Contest.Status.DRAFT
    url = reverse("admin:contests_contest_simple_history", args=[contest.pk, draft_record.history_id])
    response = client.post(url, _admin_post_data(draft_record.instance, root), follow=True)
    assert response.status_code == 200
    assert "foram mantidas como estavam" in response.content.decode()
    contest.refresh_from_db()
    assert (contest.status, contest.edital_published_on) == (Contest.Status.PUBLISHED, D(2026, 3, 2))


def test_admin_cannot_delete_a_published_contest_nor_its_vacancies(client, clerk):
    client, _ = _superuser_client(client)
    contest = published(clerk)
    opening = VacancyOpening.objects.get(position__contest=contest)
    assert client.get(reverse("admin:contests_contest_delete", args=[contest.pk])).status_code == 403
    assert client.get(reverse("admin:contests_vacancyopening_delete", args=[opening.pk])).status_code == 403
    assert Contest.objects.filter(pk=contest.pk).exists()


# A homologation is never undone ----------------------------------------------------


@pytest.mark.parametrize(
    "status",
    [Contest.Status.DRAFT, Contest.Status.PUBLISHED, Contest.Status.REGISTRATION, Contest.Status.IN_PROGRESS],
)
def test_cf_art37_iii_homologated_contest_cannot_be_set_back(clerk, manager, status):
    contest = homologated(clerk, manager)
    with pytest.raises(ValidationError) as raised:
        services.contest_set_status(contest=contest, status=status, by=manager)
    assert _messages(raised.value) == [lifecycle.HOMOLOGATION_IS_FINAL]
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.HOMOLOGATED


@pytest.mark.parametrize("who", ["clerk", "manager"])
def test_defect3_after_an_attempted_undo_the_policy_and_the_law_stay_fixed(client_for, cast, who):
    """Secretaria or Gestão tries to set a homologated contest back to draft, then to edit its policy in
    place and to move the contest to another municipality's law: every step is refused and says why."""
    contest = homologated(cast["clerk"], cast["manager"])
    client = client_for(who)
    response = client.post(reverse("contests:status", args=[contest.slug]), {"status": "draft"}, follow=True)
    if who == "manager":  # Gestão changes no contest data at all
        assert response.status_code == 403
    else:
        assert "A homologação não se desfaz" in response.content.decode()
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.HOMOLOGATED
    sm = policy()
    with pytest.raises(ValidationError):
        services.policy_update(policy=sm, by=cast["manager"], data={"percent": Decimal(30)})
    with pytest.raises(ValidationError) as raised:
        services.contest_update(contest=contest, by=cast["clerk"], data={"policy": policy("angra-dos-reis")})
    assert raised.value.message_dict["policy"] == [
        "A política de um concurso com edital publicado não pode ser trocada."
    ]
    contest.refresh_from_db()
    assert (contest.policy.slug, sm.percent) == ("santa-maria", Decimal(20))


# The guards rest on the dates: they hold with the status column forced back to draft -------------------------


@pytest.mark.parametrize("homologate", [False, True], ids=["published", "homologated"])
def test_guards_hold_when_the_status_is_forced_back_to_draft(clerk, manager, homologate):
    contest = homologated(clerk, manager) if homologate else published(clerk)
    contest = force_status(contest, Contest.Status.DRAFT)
    assert contest.edital_published
    # The policy and the address of the contest.
    with pytest.raises(ValidationError) as raised:
        services.contest_update(contest=contest, by=clerk, data={"policy": policy("angra-dos-reis")})
    assert "policy" in raised.value.message_dict
    with pytest.raises(ValidationError) as raised:
        services.contest_update(contest=contest, by=clerk, data={"slug": "outro-endereco"})
    assert "slug" in raised.value.message_dict
    # The policy's version lock.
    sm = policy()
    assert sm.is_used_by_published_contest()
    with pytest.raises(ValidationError) as raised:
        services.policy_update(policy=sm, by=manager, data={"threshold": 2})
    assert "crie uma nova versão" in _messages(raised.value)[0]
    # The edital vacancies.
    opening = VacancyOpening.objects.get(position__contest=contest, kind=VacancyOpening.Kind.EDITAL)
    with pytest.raises(ValidationError) as raised:
        services.vacancy_opening_delete(opening=opening, by=clerk)
    assert "antes da publicação do edital" in _messages(raised.value)[0]
    assert VacancyOpening.objects.filter(pk=opening.pk).exists()
    contest.refresh_from_db()
    assert (contest.policy.slug, contest.slug) == ("santa-maria", Contest.objects.get(pk=contest.pk).slug)
    assert Policy.objects.get(pk=sm.pk).threshold == 3
    # And the status itself goes no further back, nor undoes the homologation.
    with pytest.raises(ValidationError):
        services.contest_set_status(contest=contest, status=Contest.Status.DRAFT, by=clerk)
    if homologate:
        with pytest.raises(ValidationError) as raised:
            services.contest_set_status(contest=contest, status=Contest.Status.PUBLISHED, by=clerk)
        assert _messages(raised.value) == [lifecycle.HOMOLOGATION_IS_FINAL]


def test_pages_read_the_dates_when_the_status_is_forced_back(client_for, clerk):
    contest = force_status(published(clerk), Contest.Status.DRAFT)
    sm = policy()
    # The policy list counts the contest as published; the policy page sends to a new version.
    client = client_for("manager")
    listing = client.get(reverse("contests:policy_list"))
    assert next(p for p in listing.context["policies"] if p.pk == sm.pk).published_count == 1
    response = client.get(reverse("contests:policy_edit", args=[sm.slug]))
    assert response.url == reverse("contests:policy_new_version", args=[sm.slug])
    # The position page offers no deletion of the edital's vacancies.
    position = contest.positions.get()
    page = client_for("clerk").get(position.get_absolute_url())
    assert not page.context["edital_editable"]
    # The contest's edit page refuses another law.
    data = {
        "title": contest.title,
        "number": contest.number,
        "year": "2026",
        "slug": contest.slug,
        "edital_date": "02/03/2026",
        "policy": str(policy("angra-dos-reis").pk),
        "registration_start": "09/03/2026",
        "registration_end": "08/04/2026",
        "pcd_percent": "5",
        "pcd_rounding": "up",
        "pcd_cap_percent": "20",
        "pcd_threshold": "1",
        "office_deadline_days": "30",
        "notes": "",
    }
    response = client_for("clerk").post(reverse("contests:edit", args=[contest.slug]), data)
    assert response.status_code == 200
    assert "não pode ser trocada" in response.content.decode()
    assert Contest.objects.get(pk=contest.pk).policy.slug == "santa-maria"


# The data migration keeps the locks of existing contests -----------------------------------------------------


def test_migration_fills_the_publication_of_contests_already_beyond_draft(clerk):
    fill = importlib.import_module("contests.migrations.0005_fill_edital_published_on").fill
    through_history = published(clerk, Contest.Status.REGISTRATION)
    no_history = make_contest(status=Contest.Status.IN_PROGRESS, edital_date=D(2026, 2, 2))
    no_history.history.all().delete()
    draft = make_contest()
    # (A homologated contest set back to draft is filled too, but the constraint added after the backfill,
    # contests_contest_homologated_after_publication, no longer lets a test build one without the date.)
    Contest.objects.update(edital_published_on=None)

    fill(apps, None)

    day = {c.pk: c.edital_published_on for c in Contest.objects.all()}
    record = through_history.history.exclude(status="draft").order_by("history_date").first()
    assert day[through_history.pk] == timezone.localdate(record.history_date)
    assert day[no_history.pk] == D(2026, 2, 2)  # no history: the edital's date
    assert day[draft.pk] is None
