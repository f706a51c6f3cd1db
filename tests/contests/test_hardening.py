"""The contests' part: each test reproduces a defect the hostile test found."""

import datetime
import inspect
from unittest import mock

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse

from candidates import forms as candidate_forms
from contests import forms as contest_forms
from contests import services
from contests.calendar import add_months, add_years
from contests.forms import EARLIEST_DATE, LATEST_DATE, StaffFormMixin
from contests.models import Contest, Policy, VacancyOpening, add_days
from tests.builders import final_result, homologate, make_contest, make_position, policy
from tests.contests.test_views_policies import post_data

D = datetime.date
RANGE_MESSAGE = "Informe uma data entre 01/01/1900 e 31/12/2199."


# Defect 1: a far date broke pages for everyone ------------------------------------------------------


def test_date_arithmetic_past_the_calendar_never_overflows():
    assert add_days(D(9999, 12, 31), 1) is None
    assert add_days(D(1, 1, 1), -1) is None
    # Months and years are clamped to the calendar's ends (contests.calendar, the one count of months).
    assert add_months(D(9999, 12, 31), 1) == D.max
    assert add_months(D(1, 1, 1), -1) == D.min
    assert add_years(D(9999, 12, 31), 10) == D.max
    assert add_years(D(2026, 1, 31), 10) == D(2036, 1, 31)


@pytest.mark.parametrize(
    "dates",
    [
        {"revoked_on": D(1, 1, 1), "effective_date": None, "publication_date": None},
        {"effective_date": D(9999, 12, 31), "publication_date": D(9999, 12, 31), "duration_years": 10},
    ],
)
def test_policy_with_far_dates_does_not_break_the_policy_list(client_for, dates):
    law = policy()
    Policy.objects.filter(pk=law.pk).update(**dates)
    response = client_for("auditor").get(reverse("contests:policy_list"))
    assert response.status_code == 200
    assert client_for("auditor").get(law.get_absolute_url()).status_code == 200


def test_policy_revoked_on_the_first_day_of_the_calendar_is_never_in_force():
    law = Policy(publication_date=None, effective_date=None, revoked_on=D(1, 1, 1))
    assert law.end_date == D(1, 1, 1)
    assert not law.in_force_on(D(2026, 1, 1))


def test_policy_whose_duration_passes_the_calendar_has_no_end():
    law = Policy(publication_date=D(9999, 1, 1), effective_date=D(9999, 1, 1), duration_years=10)
    assert law.end_date is None
    assert law.in_force_on(D(9999, 6, 1))


def test_contest_homologated_at_the_end_of_the_calendar_does_not_break_the_list(client_for):
    contest = make_contest()
    Contest.objects.filter(pk=contest.pk).update(
        edital_published_on=contest.edital_date,
        homologation_date=D(9999, 12, 31),
        status=Contest.Status.HOMOLOGATED,
    )
    contest.refresh_from_db()
    assert contest.validity_end == D.max
    assert client_for("clerk").get(reverse("contests:list")).status_code == 200
    assert client_for("clerk").get(contest.get_absolute_url()).status_code == 200


def test_homologation_dated_9999_is_refused_with_the_range(client_for, cast):
    contest = make_contest()
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=cast["manager"])
    response = client_for("manager").post(
        reverse("contests:homologate", args=[contest.slug]),
        {"date": "31/12/9999", "act": "Decreto 1/2026", "validity_months": "24"},
    )
    assert response.status_code == 200
    assert RANGE_MESSAGE in response.content.decode()
    contest.refresh_from_db()
    assert contest.homologation_date is None


@pytest.mark.parametrize(
    ("field", "value"),
    [("revoked_on", "01/01/0001"), ("effective_date", "31/12/9999"), ("publication_date", "31/12/1899")],
)
def test_policy_form_refuses_dates_out_of_range(client_for, field, value):
    data = post_data(policy(), slug="lei-longe", name="Lei longe", **{field: value})
    response = client_for("manager").post(reverse("contests:policy_create"), data)
    assert response.status_code == 200
    assert RANGE_MESSAGE in response.content.decode()
    assert not Policy.objects.filter(slug="lei-longe").exists()


def test_the_range_admits_its_ends():
    form = contest_forms.AccessLogFilterForm({"start": "01/01/1900", "end": "31/12/2199"})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["start"], form.cleaned_data["end"]) == (EARLIEST_DATE, LATEST_DATE)
    form = contest_forms.AccessLogFilterForm({"start": "31/12/1899", "end": "01/01/2200"})
    assert not form.is_valid()
    assert form.errors == {"start": [RANGE_MESSAGE], "end": [RANGE_MESSAGE]}


def _forms_of(module):
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__
    ]


@pytest.mark.parametrize("form_class", _forms_of(contest_forms) + _forms_of(candidate_forms))
def test_every_form_with_dates_bounds_them(form_class):
    """A form with a date field (declared, or from its model) is a StaffFormMixin, which bounds them all,
    also the fields a form adds in its ``__init__`` (the mixin checks again when it cleans)."""
    if any(isinstance(field, forms.DateField) for field in form_class.base_fields.values()):
        assert issubclass(form_class, StaffFormMixin)


def test_a_date_field_added_after_init_is_bounded_too():
    class Late(StaffFormMixin, forms.Form):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["when"] = forms.DateField()

    form = Late({"when": "9999-12-31"})
    assert not form.is_valid()
    assert form.errors["when"] == [RANGE_MESSAGE]


# Every write view is atomic: a failure after the service wrote leaves nothing behind.


def test_a_write_view_failing_after_the_service_saved_rolls_back(client, cast):
    contest = make_contest()
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=cast["manager"])
    final_result(contest)
    versions = contest.history.count()
    client.raise_request_exception = False
    client.force_login(cast["manager"])
    with mock.patch("contests.views.contests.messages.success", side_effect=RuntimeError("boom")):
        response = client.post(
            reverse("contests:homologate", args=[contest.slug]),
            {"date": "01/06/2026", "act": "Decreto 1/2026", "validity_months": "24", "confirm": "1"},
        )
    assert response.status_code == 500
    contest.refresh_from_db()
    assert contest.homologation_date is None
    assert contest.history.count() == versions


# Defect 7: absurd counts (1,000,000 vacancies made a 290 MB nominations page) -------------------------


@pytest.fixture
def small_bound(settings):
    settings.MAX_VACANCIES_PER_POSITION = 10
    return 10


def test_the_bound_is_a_setting_of_what_a_municipality_can_have(settings):
    from django.conf import settings as live

    assert live.MAX_VACANCIES_PER_POSITION == 5000


def test_position_with_a_million_vacancies_is_refused_by_the_form(client_for):
    contest = make_contest()
    response = client_for("clerk").post(
        reverse("contests:position_create", args=[contest.slug]),
        {"code": "TL", "title": "Técnico", "post_kind": "cargo_efetivo", "edital_vacancies": "1000000"},
    )
    assert response.status_code == 200
    assert "no máximo 5.000 vagas" in response.content.decode()
    assert not contest.positions.exists()


def test_service_refuses_an_opening_over_the_bound(small_bound, cast):
    position = make_position(vacancies=None)
    with pytest.raises(ValidationError) as refused:
        services.vacancy_opening_create(
            position=position,
            by=cast["clerk"],
            data={"kind": VacancyOpening.Kind.EDITAL, "count": 11, "date": position.contest.edital_date},
        )
    assert "no máximo 10 vagas" in refused.value.message_dict["count"][0]
    assert not position.openings.exists()


def test_service_refuses_openings_whose_sum_passes_the_bound(small_bound, cast):
    contest = make_contest()
    position = make_position(contest, vacancies=8)
    homologate(contest, datetime.date(2026, 6, 1))
    with pytest.raises(ValidationError) as refused:
        services.vacancy_opening_create(
            position=position,
            by=cast["clerk"],
            data={
                "kind": VacancyOpening.Kind.LATER,
                "count": 3,
                "date": datetime.date(2026, 7, 1),
                "act": "L",
            },
        )
    assert "no máximo 10 vagas" in refused.value.message_dict["count"][0]
    services.vacancy_opening_create(
        position=position,
        by=cast["clerk"],
        data={"kind": VacancyOpening.Kind.LATER, "count": 2, "date": datetime.date(2026, 7, 1), "act": "L"},
    )
    assert position.vacancies == 10


def test_seat_strip_is_paged(client_for):
    position = make_position(vacancies=250)
    page_url = reverse("candidates:nomination_list", args=[position.contest.slug, position.pk])
    client = client_for("clerk")
    first = client.get(page_url).content.decode()
    assert first.count("ª vaga · ") == 100
    assert "1ª vaga · " in first and "101ª vaga · " not in first
    last = client.get(page_url, {"pagina": "3"}).content.decode()
    assert last.count("ª vaga · ") == 50
    assert "250ª vaga · " in last and "200ª vaga · " not in last
    assert "250 vagas abertas" in last


# Found by the fuzz test: a model error on a field the form does not show was a 500 (ValueError).


def test_model_error_on_a_field_outside_the_form_is_shown_on_top(client_for, cast):
    from tests.contests.test_views_contests import contest_data

    contest = make_contest()
    services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=cast["manager"])
    final_result(contest)
    services.contest_homologate(
        contest=contest, by=cast["manager"], date=D(2026, 7, 1), act="Portaria 1/2026"
    )
    response = client_for("clerk").post(
        reverse("contests:edit", args=[contest.slug]),
        contest_data(slug=contest.slug, policy=contest.policy.pk, edital_date="31/12/2100"),
    )
    assert response.status_code == 200
    assert "A homologação não pode ser anterior ao edital." in response.content.decode()
    contest.refresh_from_db()
    assert contest.edital_date != D(2100, 12, 31)


def test_reservation_preview_says_the_bound_as_the_form_will(client_for, small_bound):
    position = make_position(vacancies=8)
    url = reverse("contests:reservation_preview", args=[position.contest.slug])
    response = client_for("clerk").get(url, {"vagas": 3, "cargo": position.pk})
    assert response.status_code == 400
    assert "no máximo 10 vagas" in response.json()["error"]
    assert client_for("clerk").get(url, {"vagas": 2, "cargo": position.pk}).status_code == 200
