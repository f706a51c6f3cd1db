"""No annulment against the candidate without hearing them first (CF art. 5º LV; Lei 9.784 art. 53; STF RE
594.296, Tema 138; art. 64 sole paragraph's logic): annulling a decision or revision that does not find
falsity (dismissed) waits for a notice of the intended annulment that took effect, then for the candidate's
answer or the end of the five business days to answer (art. 62's, counted from the notice's effect by the
deadline engine). An annulment of a decision of falsity favours the candidate: no prior hearing.
The pure rule (``finality``), the services, and the rendered pages (the case page, the notice's form, the
candidate's page, the annulment's confirmation)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from candidates.services.nominations import nominations_call
from declarations import links
from declarations.models import ProcedureLink
from declarations.procedure import finality as f
from declarations.procedure import rules as p
from declarations.procedure import services
from declarations.procedure.rules import Act, ActRecord, Outcome, Period
from declarations.procedure.selectors import case_state
from tests.builders import make_classified_position, make_contest, publish_final
from tests.declarations.test_confirmations import submit
from tests.declarations.test_finality_services import decided
from tests.pages import post_form

D = datetime.date
POLICY = p.Policy()
TODAY = D(2026, 9, 1)


def acts(*items) -> tuple[ActRecord, ...]:
    return tuple(ActRecord(item[0], item[1], item[2] if len(item) > 2 else None) for item in items)


def final_case(outcome: Outcome) -> tuple[ActRecord, ...]:
    return acts(
        (Act.OPENING, D(2026, 3, 2)),
        (Act.NOTICE, D(2026, 3, 6)),
        (Act.DEFENCE, D(2026, 3, 10)),
        (Act.INSTRUCTION_CLOSED, D(2026, 3, 20)),
        (Act.REPORT, D(2026, 3, 31)),
        (Act.DECISION, D(2026, 4, 6), outcome),
        (Act.DECISION_NOTICE, D(2026, 4, 8)),
        (Act.FINAL, D(2026, 4, 20)),
    )


FINAL_DISMISSED = final_case(Outcome.DISMISSED)
FINAL_FALSITY = final_case(Outcome.FALSITY)
NOTIFIED = FINAL_DISMISSED + acts((Act.ANNULMENT_NOTICE, TODAY))
ANSWER_END = D(2026, 9, 9)  # five business days from 01/09/2026 (07/09 a national holiday)
ENDS = {Period.ANNULMENT_ANSWER: ANSWER_END}


def refusal(kind, records, today=TODAY, ends=None, has_reasons=True):
    return p.refusal(kind, records, POLICY, today=today, ends=ends or {}, has_reasons=has_reasons)


# The pure rule ----------------------------------------------------------------------------------------------


def test_tema138_an_annulment_that_worsens_is_refused_without_a_prior_notice():
    message = refusal(Act.ANNULMENT, FINAL_DISMISSED)
    assert message == f.ANNULMENT_NEEDS_HEARING.format(days=5)
    assert "CF art. 5º LV" in message and "art. 53" in message and "Tema 138" in message
    # The case offers the notice of the intended annulment instead of the annulment.
    allowed = p.allowed(FINAL_DISMISSED, POLICY, today=TODAY, ends={})
    assert Act.ANNULMENT_NOTICE in allowed and Act.ANNULMENT not in allowed
    # A notice still awaiting its effect does not count (art. 26).
    awaiting = FINAL_DISMISSED + acts((Act.ANNULMENT_NOTICE, None))
    assert refusal(Act.ANNULMENT, awaiting) == message
    # Nor does an annulment of a revision to dismissed (it too stands for the candidate).
    revised = FINAL_FALSITY + acts((Act.REVISION, TODAY, Outcome.DISMISSED), (Act.AFTER_FINAL_NOTICE, TODAY))
    assert refusal(Act.ANNULMENT, revised) == message


def test_tema138_an_annulment_that_worsens_is_refused_while_the_answer_period_runs():
    start = p.running_periods(NOTIFIED, POLICY)[Period.ANNULMENT_ANSWER]
    assert (start.start, start.amount, start.unit) == (TODAY, 5, "business-days") and start.candidate_files
    assert not p.period_done(start, NOTIFIED)  # it runs after the final decision
    message = refusal(Act.ANNULMENT, NOTIFIED, today=ANSWER_END, ends=ENDS)
    assert message == f.ANNULMENT_ANSWER_PENDING.format(day="09/09/2026")
    assert "Tema 138" in message and "CF art. 5º LV" in message
    assert refusal(Act.ANNULMENT_NOTICE, NOTIFIED, ends=ENDS) == f.ANNULMENT_NOTICE_DONE


def test_tema138_the_annulment_is_allowed_after_the_answer_or_after_the_period():
    answered = NOTIFIED + acts((Act.ANNULMENT_ANSWER, D(2026, 9, 2)))
    assert refusal(Act.ANNULMENT_ANSWER, NOTIFIED, today=ANSWER_END, ends=ENDS) == ""
    assert refusal(Act.ANNULMENT, answered, today=D(2026, 9, 2), ends=ENDS) == ""
    assert refusal(Act.ANNULMENT_ANSWER, answered, ends=ENDS) == f.ANNULMENT_ANSWER_ONCE
    after = D(2026, 9, 10)
    assert refusal(Act.ANNULMENT, NOTIFIED, today=after, ends=ENDS) == ""
    assert "09/09/2026" in refusal(Act.ANNULMENT_ANSWER, NOTIFIED, today=after, ends=ENDS)  # late
    assert refusal(Act.ANNULMENT, answered, ends=ENDS, has_reasons=False) == f.ANNULMENT_NEEDS_REASONS


def test_tema138_a_favourable_annulment_needs_no_prior_hearing():
    assert refusal(Act.ANNULMENT, FINAL_FALSITY) == ""
    assert refusal(Act.ANNULMENT_NOTICE, FINAL_FALSITY) == f.ANNULMENT_NOTICE_NOT_NEEDED
    assert refusal(Act.ANNULMENT_ANSWER, FINAL_FALSITY) == f.NO_ANNULMENT_NOTICE
    # A revision that kept the sanction (in answer to a request) is annulled in the candidate's favour too.
    kept = FINAL_FALSITY + acts(
        (Act.REVISION_REQUEST, TODAY), (Act.REVISION, TODAY, Outcome.FALSITY), (Act.AFTER_FINAL_NOTICE, TODAY)
    )
    assert refusal(Act.ANNULMENT, kept) == ""


def test_tema138_the_notice_of_the_intended_annulment_states_its_reasons_and_waits_its_turn():
    assert (
        refusal(Act.ANNULMENT_NOTICE, FINAL_DISMISSED, has_reasons=False) == f.ANNULMENT_NOTICE_NEEDS_REASONS
    )
    # Before the final decision there is nothing to annul (the decision changes by appeal).
    assert refusal(Act.ANNULMENT_NOTICE, FINAL_DISMISSED[:-1]) == p.ONLY_AFTER_FINAL
    # A revision not yet notified is notified first (art. 26).
    revised = FINAL_FALSITY + acts((Act.REVISION, TODAY, Outcome.DISMISSED))
    assert refusal(Act.ANNULMENT_NOTICE, revised).startswith("A revisão ainda não foi intimada")


# Through the services and the deadline engine -------------------------------------------------------------


@pytest.fixture
def nominated(cast):
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    return position


def closed_dismissed(nominated, legal):
    case, record = decided(nominated.registrations.get(number="N2"), legal, outcome="dismissed")
    record("final", D(2026, 7, 28))
    return case, record


def annul(case, legal, day):
    return services.act_record(procedure=case, kind="annulment", by=legal, today=day, text="Vício de forma.")


@pytest.mark.django_db
def test_tema138_the_services_refuse_without_notice_and_while_the_period_runs_then_allow(nominated, cast):
    legal = cast["legal"]
    case, _record = closed_dismissed(nominated, legal)
    with pytest.raises(ValidationError, match="Tema 138"):
        annul(case, legal, D(2026, 8, 4))
    with pytest.raises(ValidationError, match="vício de legalidade"):  # the notice says what is answered
        services.notice_send(
            procedure=case, by=legal, today=D(2026, 8, 4), means="in_person", kind="annulment_notice"
        )
    notice = services.notice_send(
        procedure=case,
        by=legal,
        today=D(2026, 8, 4),
        means="in_person",
        kind="annulment_notice",
        text="A decisão foi assinada por autoridade incompetente.",
    )
    assert notice.document is not None  # its PDF, like every notice
    running = case_state(case, today=D(2026, 8, 4)).running_for(Period.ANNULMENT_ANSWER)
    assert running is not None and running.deadline.last_day == D(2026, 8, 11)  # 5 business days (art. 66)
    with pytest.raises(ValidationError, match="11/08/2026"):
        annul(case, legal, D(2026, 8, 11))
    assert not case.acts.filter(kind="annulment").exists()
    annul(case, legal, D(2026, 8, 12))  # the period over without an answer
    case.refresh_from_db()
    assert case.outcome == "" and case.acts.filter(kind="annulment").exists()


@pytest.mark.django_db
def test_tema138_the_candidates_answer_through_the_link_allows_the_annulment_at_once(nominated, cast):
    legal = cast["legal"]
    case, _record = closed_dismissed(nominated, legal)
    services.notice_send(
        procedure=case,
        by=legal,
        today=D(2026, 8, 4),
        means="in_person",
        kind="annulment_notice",
        text="Vício.",
    )
    link, _token = links.link_issue(
        procedure=case, holder=ProcedureLink.Holder.CANDIDATE, name="N2", by=legal, now=timezone.now()
    )
    now = timezone.make_aware(datetime.datetime.combine(D(2026, 8, 5), datetime.time(10)))
    answer = services.candidate_file(
        link=link, kind="annulment_answer", text="A decisão é válida.", uploads=(), now=now
    )
    assert answer.receipt is not None  # a protocol receipt, like every filing
    annul(case, legal, D(2026, 8, 5))


# Through the rendered pages ------------------------------------------------------------------------------


def act_url(case, kind):
    return reverse("declarations:act", args=[case.year, case.number, kind])


def notify_url(case, kind):
    return reverse("declarations:notify_kind", args=[case.year, case.number, kind])


@pytest.mark.django_db
def test_tema138_through_the_pages_the_notice_is_offered_the_annulment_refused_then_confirmed(
    client_for, nominated, cast, monkeypatch
):
    case, _record = closed_dismissed(nominated, cast["legal"])
    day = [D(2026, 8, 4)]
    monkeypatch.setattr(timezone, "localdate", lambda *a: day[0])
    client = client_for("legal")
    page = client.get(case.get_absolute_url()).content.decode()
    # "Próximos atos" offers the notice of the intended annulment, not the annulment.
    assert (
        notify_url(case, "annulment_notice") in page and "Intimar: intimação da anulação pretendida" in page
    )
    assert act_url(case, "annulment") not in page
    # The annulment's own form says why, and its summary step refuses with the same reason.
    form_page = client.get(act_url(case, "annulment")).content.decode()
    assert "Tema 138" in form_page and "CF art. 5º LV" in form_page
    response = post_form(client, act_url(case, "annulment"), {"text": "Vício de competência."})
    assert response.status_code == 200 and "Confirmar: Anulação" not in response.content.decode()
    assert "Tema 138" in response.content.decode()
    # The notice, through its form (in person: in effect today).
    done = post_form(
        client,
        notify_url(case, "annulment_notice"),
        {"means": "in_person", "text": "A decisão foi assinada por autoridade incompetente."},
    )
    assert done.status_code == 302, done.content.decode()[:3000]
    notice = case.acts.get(kind="annulment_notice")
    assert notice.on == D(2026, 8, 4) and notice.document is not None
    # While the five business days run, the annulment is refused with the period's last day.
    page = client.get(case.get_absolute_url()).content.decode()
    assert act_url(case, "annulment") not in page and "11/08/2026" in page
    response = post_form(client, act_url(case, "annulment"), {"text": "Vício de competência."})
    assert "11/08/2026" in response.content.decode() and not case.acts.filter(kind="annulment").exists()
    # After the period: offered, summarised, confirmed.
    day[0] = D(2026, 8, 12)
    assert act_url(case, "annulment") in client.get(case.get_absolute_url()).content.decode()
    response = post_form(client, act_url(case, "annulment"), {"text": "Vício de competência."})
    assert response.status_code == 200 and "Confirmar: Anulação" in response.content.decode()
    assert submit(client, response, "confirm").status_code == 302
    case.refresh_from_db()
    assert case.outcome == "" and case.acts.filter(kind="annulment").exists()


@pytest.mark.django_db
def test_tema138_through_the_candidates_page_the_answer_is_filed_and_the_annulment_follows(
    client, client_for, nominated, cast, monkeypatch
):
    case, _record = closed_dismissed(nominated, cast["legal"])
    monkeypatch.setattr(timezone, "localdate", lambda *a: D(2026, 8, 5))
    services.notice_send(
        procedure=case,
        by=cast["legal"],
        today=D(2026, 8, 4),
        means="in_person",
        kind="annulment_notice",
        text="Vício.",
    )
    _link, token = links.link_issue(
        procedure=case, holder=ProcedureLink.Holder.CANDIDATE, name="N2", by=cast["legal"], now=timezone.now()
    )
    portal = reverse("declarations:portal", args=[token])
    page = client.get(portal).content.decode()
    assert "Alegações sobre a anulação pretendida" in page and "11/08/2026" in page
    filed = post_form(
        client, portal, {"kind": "annulment_answer", "text": "A decisão é válida."}, containing="kind"
    )
    assert filed.status_code == 302
    assert case.acts.filter(kind="annulment_answer").exists()
    staff = client_for("legal")
    assert act_url(case, "annulment") in staff.get(case.get_absolute_url()).content.decode()
    response = post_form(staff, act_url(case, "annulment"), {"text": "Vício de competência."})
    assert "Confirmar: Anulação" in response.content.decode()


@pytest.mark.django_db
def test_tema138_an_emailed_notice_of_the_intended_annulment_takes_effect_on_the_candidates_acknowledgement(
    nominated, cast
):
    """After the final decision the candidate still acknowledges this notice through the link (art. 26): the
    five business days run from that day."""
    legal = cast["legal"]
    case, _record = closed_dismissed(nominated, legal)
    notice = services.notice_send(
        procedure=case,
        by=legal,
        today=D(2026, 8, 3),
        means="email",
        recipient="n2@example.org",
        kind="annulment_notice",
        text="Vício.",
    )
    with pytest.raises(ValidationError, match="Tema 138"):
        annul(case, legal, D(2026, 8, 20))  # never acknowledged: no effect, no period
    services.notice_acknowledge(act=notice, on=D(2026, 8, 4), by=None)
    running = case_state(case, today=D(2026, 8, 4)).running_for(Period.ANNULMENT_ANSWER)
    assert running is not None and running.deadline.last_day == D(2026, 8, 11)
