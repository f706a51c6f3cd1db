"""Issue 11's acceptance, in Chromium through the real pages where they exist (forming the commissions,
the call and the appeal go through the services, whose screens are not built yet): the drawn commission's
record recomputes on its public page; Jurídico records attendance; five members record their opinions on
N2 (a member of the appeal commission gets 403 on the session); the majority does not confirm; the appeal
commission confirms the non-confirmation; under ``keep_open`` Jurídico applies the result and N2 leaves the
racial list, the next cotista taking the reserved seat."""

from __future__ import annotations

import datetime

import pytest

from candidates.models import Registration
from candidates.services.nominations import nominations_call, nominations_preview
from contests.models import Policy
from declarations import heteroidentification_services as hs
from declarations.deadlines import Calendar
from tests.builders import PASSWORD, make_cast, make_classified_position, make_contest, publish_final
from tests.declarations.hetero_world import SEED, at, people

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
D = datetime.date


def as_user(browser, base: str, username: str):
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(f"{base}/entrar/?next=/heteroidentificacao/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"{base}/heteroidentificacao/")
    return page


def test_heteroidentification_non_confirmed_under_keep_open_the_next_cotista_takes_the_seat(
    live_server, browser
):
    cast = make_cast()
    Policy.objects.filter(slug="santa-maria").update(non_confirmation="keep_open")
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    legal, base = cast["legal"], live_server.url
    first = hs.commission_form(
        contest=contest,
        kind="first",
        pool=people("Membro", 7),
        seed=SEED,
        formed_on=D(2026, 6, 1),
        by=legal,
        now=at(D(2026, 6, 1)),
    )
    appeal_commission = hs.commission_form(
        contest=contest,
        kind="appeal",
        pool=people("Recursal", 3),
        formed_on=D(2026, 6, 1),
        by=legal,
        now=at(D(2026, 6, 1)),
    ).commission
    session = hs.session_schedule(
        commission=first.commission, starts_at=at(D(2026, 6, 20)), place="Sala 1", by=legal
    )
    called = {v.registration.number: v for v in hs.candidates_call(session=session, by=legal)}
    session_url = f"{base}/heteroidentificacao/sessoes/{session.pk}/"

    # The draw's public page recomputes the record (no login).
    public = browser.new_context(locale="pt-BR").new_page()
    public.goto(f"{base}/heteroidentificacao/sorteios/{first.draw.pk}/")
    assert "confere com o registro" in public.content() and "NÃO confere" not in public.content()

    officer = as_user(browser, base, legal.username)
    officer.goto(session_url)
    for number in ("N1", "N2", "N3"):
        officer.get_by_role("button", name=f"Compareceu ({number})", exact=True).click()
        officer.wait_for_url(session_url)

    members = list(first.commission.members.order_by("pk"))
    for member in members:  # N1 and N3 are confirmed unanimously (not the point of this test)
        for number in ("N1", "N3"):
            hs.opinion_record(
                verification=called[number], user=member.user, confirms=True, reasons="Fenótipo."
            )
    n2 = called["N2"]
    for member, vote in zip(members, (True, True, False, False, False), strict=True):
        page = as_user(browser, base, member.user.username)
        page.goto(session_url)
        form = page.locator(f"#verificacao-{n2.pk}")
        form.get_by_label(
            "Confirma a autodeclaração" if vote else "Não confirma a autodeclaração", exact=True
        ).check()
        form.get_by_label("Fundamentação").fill(f"Parecer de {member.name}: fenótipo observado na sessão.")
        form.get_by_role("button", name="Registrar meu parecer").click()
        page.wait_for_url(session_url)
        assert "registrado" in page.content()
        page.context.close()

    intruder = as_user(browser, base, appeal_commission.members.first().user.username)
    assert intruder.goto(session_url).status == 403

    officer.goto(session_url)
    officer.get_by_role("button", name="Encerrar a sessão e apurar os resultados").click()
    officer.wait_for_url(session_url)
    assert "Não confirmada pela maioria: 3 parecer(es) contra 2." in officer.content()
    n2.refresh_from_db()
    assert n2.outcome == "not_confirmed"

    # The appeal (filed and judged through the services), confirmed non-confirmation by the appeal commission.
    appeal = hs.appeal_file(verification=n2, reasons="Sou parda.", now=at(n2.notified_on))
    appeal_session = hs.session_schedule(
        commission=appeal_commission, starts_at=at(n2.notified_on), place="Sala 2", by=legal
    )
    judged = hs.appeal_call(appeal=appeal, session=appeal_session, by=legal)
    hs.attendance_record(verification=judged, attended=True, by=legal)
    for member in appeal_commission.members.all():
        hs.opinion_record(verification=judged, user=member.user, confirms=False, reasons="Mantenho.")
    hs.session_close(session=appeal_session, by=legal, now=at(n2.notified_on, 18), calendar=Calendar())

    officer.goto(session_url)
    officer.locator(f"#verificacao-{n2.pk}").get_by_role(
        "button", name="Aplicar o resultado definitivo"
    ).click()
    officer.wait_for_url(session_url)
    assert "Sai das listas reservadas" in officer.content()
    officer.screenshot(path="/tmp/browser-heteroidentification.png", full_page=True)
    registration = Registration.objects.get(pk=n2.registration_id)
    assert registration.status == Registration.Status.EXCLUDED_FROM_RESERVE
    preview = nominations_preview(position=position, count=1)
    assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]
