"""People are told (issue 22): a held, released or reinstated candidate gets a personal e-mail, through the
task queue, saying what changed, what they must do and by when, with their private page and code."""

from __future__ import annotations

from django.core import mail
from django.urls import reverse
from django.utils import timezone

from candidates.models import Nomination, Registration
from candidates.services.registrations import registration_set_status
from contests.wording import date_in_full
from declarations.courts import services
from tests.builders import make_contest, make_position, make_registration
from tests.declarations.courts_world import make_court_order
from tests.declarations.test_courts_comply import confirm, nominated

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def with_email(registration, address):
    registration.candidate.email = address
    registration.candidate.save()
    return registration


def test_the_held_candidate_is_told_then_told_when_released_and_by_when_to_take_office(
    client_for, cast, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE
    position = nominated(cast)
    n2 = with_email(position.registrations.get(number="N2"), "n2@example.org")
    order = make_court_order(position.contest, cast["legal"], [n2])
    client = client_for("legal")
    page = client.get(reverse("declarations:court_order_comply", args=[order.pk]))
    assert not mail.outbox  # the rehearsal sends nothing
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, page)
    (held,) = mail.outbox
    assert held.to == ["n2@example.org"]
    assert held.subject.startswith("Vaga reservada por ordem judicial – inscrição N2")
    assert "fica reservada até o julgamento (sub judice)" in held.body
    assert "o prazo para a posse fica suspenso" in held.body
    today = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        services.court_order_status(
            order=order, status="confirmed", decided_on=today, note="Sentença.", by=cast["legal"], today=today
        )
    released = mail.outbox[-1]
    nomination = Nomination.objects.get(registration=n2)
    assert nomination.status == Nomination.Status.ACTIVE
    assert released.subject.startswith("Fim da reserva judicial: posse – inscrição N2")
    assert f"até {date_in_full(nomination.office_deadline)}" in released.body
    assert "sub judice até o trânsito em julgado" in released.body


def test_the_reinstated_candidate_is_told_what_to_do(
    client_for, cast, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = IMMEDIATE
    position = make_position(make_contest())
    registration = with_email(make_registration(position), "r@example.org")
    registration_set_status(
        registration=registration, status=Registration.Status.ELIMINATED, by=cast["legal"], reason="PA."
    )
    order = make_court_order(
        position.contest, cast["legal"], [registration], effect="reinclude_lists", scope="candidate"
    )
    client = client_for("legal")
    page = client.get(reverse("declarations:court_order_comply", args=[order.pk]))
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, page)
    (notice,) = mail.outbox
    assert notice.subject.startswith(f"Reintegração – inscrição {registration.number}")
    assert "foi reintegrada" in notice.body and "O que fazer agora" in notice.body
    assert order.case_number in notice.body


def test_the_clerk_prints_the_held_and_released_letters_from_the_registration_screen(
    client_for, cast, settings, tmp_path
):
    """The letter says what the e-mail says, on paper, with the private link and the access code."""
    from candidates import access
    from tests.candidates.test_nomination_act import pdf_text

    position = nominated(cast)
    n2 = position.registrations.get(number="N2")
    order = make_court_order(position.contest, cast["legal"], [n2])
    confirm(
        client_for("legal"),
        client_for("legal").get(reverse("declarations:court_order_comply", args=[order.pk])),
    )
    today = timezone.localdate()
    services.court_order_status(
        order=order, status="confirmed", decided_on=today, note="Sentença.", by=cast["legal"], today=today
    )
    clerk = client_for("clerk")
    screen = clerk.get(reverse("candidates:registration_detail", args=[position.contest.slug, n2.pk]))
    html = screen.content.decode()
    assert "Comunicações sobre a vaga" in html
    texts = {}
    for label in (
        "Carta: vaga reservada por ordem judicial (PDF)",
        "Carta: fim da reserva judicial: posse (PDF)",
    ):
        start = html.index(label)
        href = html[html.rindex('href="', 0, start) + 6 :].split('"', 1)[0]
        response = clerk.get(href)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        pdf = response.content
        (tmp_path / f"{len(texts)}.pdf").write_bytes(pdf)
        texts[label] = " ".join(pdf_text(pdf).split())
    held, released = texts.values()
    assert "reservada até o julgamento" in held and "prazo para a posse fica suspenso" in held
    nomination = Nomination.objects.get(registration=n2)
    assert f"até {date_in_full(nomination.office_deadline)}" in released
    assert access.code_for(Registration.objects.get(pk=n2.pk)) in released
    # Not for Jurídico: the letter carries the code (Secretaria prints and sends it).
    assert client_for("legal").get(href).status_code == 403
