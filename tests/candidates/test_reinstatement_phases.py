"""People are told (issue 22): a reinstated candidate is given a new deadline, counted from the notice,
for every phase held while they were out of the lists, in the e-mail, the letter, the registration's
screen and their own page; one who missed no phase is told of none."""

from __future__ import annotations

import datetime

from django.core import mail
from django.urls import reverse
from django.utils import timezone

from candidates import access
from candidates.models import Phase, PhaseMakeUp, PhaseResult, Registration
from candidates.services.nominations import registration_reinstate
from candidates.services.registrations import registration_set_status
from declarations.calendars import organization_last_day
from tests.builders import make_contest, make_position, make_registration
from tests.candidates.test_nomination_act import pdf_text
from tests.pages import forms_on

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DAY = datetime.timedelta(days=1)


def out_and_back(cast, django_capture_on_commit_callbacks, *, out_days_ago, phases, sat=()):
    """A registration eliminated ``out_days_ago`` days ago and reinstated today, with ``phases`` (name,
    start, end) on its contest."""
    today = timezone.localdate()
    position = make_position(make_contest(status="in_progress"))
    for order, (name, starts_on, ends_on) in enumerate(phases, start=1):
        Phase.objects.create(
            contest=position.contest,
            name=name,
            order=order,
            max_score=100,
            starts_on=starts_on,
            ends_on=ends_on,
        )
    registration = make_registration(position)
    for order in sat:
        PhaseResult.objects.create(
            registration=registration,
            phase=Phase.objects.get(contest=position.contest, order=order),
            score=50,
        )
    registration.candidate.email = "r@example.org"
    registration.candidate.save()
    registration_set_status(
        registration=registration, status=Registration.Status.ELIMINATED, by=cast["legal"], reason="PA."
    )
    created, eliminated = registration.history.order_by("history_id")
    created.history_date -= 90 * DAY
    created.save()
    eliminated.history_date -= out_days_ago * DAY
    eliminated.save()
    with django_capture_on_commit_callbacks(execute=True):
        registration_reinstate(
            registration=registration,
            by=cast["legal"],
            today=today,
            reason="Provimento do recurso no PA 3/2026",
        )
    return registration


def letter_text(client, registration):
    screen = client.get(
        reverse("candidates:registration_detail", args=[registration.contest.slug, registration.pk])
    )
    html = screen.content.decode()
    start = html.index("Carta: reintegração (PDF)")
    href = html[html.rindex('href="', 0, start) + 6 :].split('"', 1)[0]
    response = client.get(href)
    assert response.status_code == 200
    return html, " ".join(pdf_text(response.content).split())


def test_issue22_a_reinstated_candidate_gets_a_new_deadline_for_each_phase_missed(
    client_for, cast, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE
    today = timezone.localdate()
    registration = out_and_back(
        cast,
        django_capture_on_commit_callbacks,
        out_days_ago=30,
        phases=[
            ("Prova objetiva", today - 60 * DAY, None),  # before the elimination: taken part in
            ("Títulos", today - 35 * DAY, today - 6 * DAY),  # 30 days, partly while out: missed
            ("Prova prática", today - 10 * DAY, None),  # one day while out: missed, 10 days at least
            ("Curso de formação", today + 10 * DAY, today + 20 * DAY),  # after: will be taken part in
        ],
    )
    # Calendar days from the notice, a last day without office hours moved on (Lei 9.784 art. 66 §1).
    titles = f"Fase 2 (Títulos): novo prazo até {organization_last_day(today, 30, False):%d/%m/%Y}"
    practical = f"Fase 3 (Prova prática): novo prazo até {organization_last_day(today, 10, False):%d/%m/%Y}"
    (notice,) = mail.outbox
    assert titles in notice.body and practical in notice.body
    assert "Fase 1" not in notice.body and "Fase 4" not in notice.body
    assert "a comissão comunicará nova data" not in notice.body  # every phase is dated
    assert [(m.phase.order, m.days) for m in PhaseMakeUp.objects.order_by("phase__order")] == [
        (2, 30),
        (3, 10),
    ]
    html, letter = letter_text(client_for("clerk"), registration)
    assert titles in letter and practical in letter and "Fase 1" not in letter
    assert access.code_for(Registration.objects.get(pk=registration.pk)) in letter
    assert titles in html and practical in html  # the registration's screen
    client = client_for("anonymous")
    form = next(
        f for f in forms_on(client.get(reverse("public:candidate")).content.decode()) if "code" in f.visible
    )
    page = client.post(
        form.action or reverse("public:candidate"),
        {
            **form.values,
            "contest": registration.contest.pk,
            "number": registration.number,
            "code": access.code_for(Registration.objects.get(pk=registration.pk)),
        },
    )
    assert titles in page.content.decode() and practical in page.content.decode()


def test_issue22_a_reinstated_candidate_who_missed_no_phase_gets_no_new_deadline(
    client_for, cast, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE
    today = timezone.localdate()
    registration = out_and_back(
        cast,
        django_capture_on_commit_callbacks,
        out_days_ago=5,
        phases=[("Prova objetiva", today - 60 * DAY, None), ("Prova prática", today + 3 * DAY, None)],
    )
    (notice,) = mail.outbox
    assert "foi reintegrada" in notice.body and "novo prazo" not in notice.body
    assert not PhaseMakeUp.objects.exists()
    html, letter = letter_text(client_for("clerk"), registration)
    assert "foi reintegrada" in letter and "novo prazo" not in letter and "novo prazo" not in html


def test_issue22_a_phase_the_candidate_sat_before_the_removal_was_recorded_is_not_given_again(
    cast, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE
    today = timezone.localdate()
    out_and_back(
        cast,
        django_capture_on_commit_callbacks,
        out_days_ago=30,
        phases=[("Prova objetiva", today - 10 * DAY, None), ("Prova prática", today - 5 * DAY, None)],
        sat=[1],
    )
    (notice,) = mail.outbox
    assert "Fase 1" not in notice.body and "Fase 2 (Prova prática): novo prazo até" in notice.body
