"""In Chromium through the screens (Python only sets up what has no screen here:
the contest, its classified registrations and the Comissão accounts): Jurídico announces the draw (pool,
k, the seed's public source), then draws the commission with the seed (the public page shows the notice
and recomputes the draw) and the appeal commission (refused first with a member in common),
schedules a session, calls the candidates and publishes the call; five members record their opinions on
N2 (a member of the appeal commission gets 403 on the session; a member's own form never shows another's
opinion); the majority does not confirm; N2 is told by e-mail and appeals through the private link; the
appeal commission confirms the non-confirmation; Jurídico applies the final result: under ``keep_open``
N2 leaves the racial list and the next cotista (N3) takes the reserved seat, under ``open_procedure`` a
procedure opens with the opinions attached."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from candidates.models import Registration
from candidates.services.nominations import nominations_call, nominations_preview
from contests.documents.models import Document, EditalText
from declarations.hetero import draw as draw_rules
from declarations.models import Opinion, Procedure, Verification
from tests.axe import assert_accessible
from tests.builders import (
    PASSWORD,
    make_cast,
    make_classified_position,
    make_contest,
    make_user,
    publish_final,
    set_policy,
)
from tests.declarations.hetero_world import SEED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
D = datetime.date
COLOURS = ("preta", "parda", "branca")


def as_user(browser, base: str, username: str):
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(f"{base}/entrar/?next=/heteroidentificacao/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"{base}/heteroidentificacao/")
    return page


def member_lines(prefix: str, n: int) -> list[str]:
    lines = []
    for i in range(1, n + 1):
        user = make_user(f"{prefix.lower()}{i}", "Comissão")
        gender = ("feminino", "masculino")[i % 2]
        lines.append(f"{prefix} {i}; Servidor(a); {gender}; {COLOURS[i % 3]}; {user.username}")
    return lines


def form_commission(page, hub: str, kind: str, lines: list[str]) -> None:
    page.goto(hub)
    page.get_by_role("link", name="Constituir comissão").click()
    page.get_by_label("Comissão").select_option(kind)
    page.get_by_label("Constituída em").fill("01/06/2026")
    page.get_by_label("Ato de designação").fill("Portaria 5/2026")
    page.get_by_label("Membros").fill("\n".join(lines))
    page.get_by_role("button", name="Constituir a comissão").click()


def announce_draw(page, hub: str, lines: list[str], source: str) -> None:
    page.goto(hub)
    page.get_by_role("link", name="Anunciar sorteio").click()
    page.get_by_label("Comissão").select_option("first")
    page.get_by_label("Lista de sorteáveis").fill("\n".join(lines))
    page.get_by_label("Fonte pública da semente").fill(source)
    page.get_by_label("Semente conhecida a partir de").fill(timezone.localdate().strftime("%d/%m/%Y"))
    page.get_by_label(re.compile(r"^Quem assina o aviso")).fill("Ana Souza")
    page.get_by_label("Cargo de quem assina o aviso").fill("Procuradora do Município")
    page.get_by_role("button", name="Publicar o aviso de sorteio").click()


def perform_draw(page, hub: str, seed: str) -> None:
    page.goto(hub)
    page.get_by_role("link", name="Sortear: comissão de heteroidentificação").click()
    page.get_by_label("Semente pública do sorteio").fill(seed)
    page.get_by_label("Constituída em").fill("01/06/2026")
    page.get_by_label("Ato de designação").fill("Portaria 5/2026")
    page.get_by_role("button", name="Sortear e constituir a comissão").click()


def publish(page, signer: str = "Ana Souza") -> None:
    page.get_by_label(re.compile(r"^Quem assina")).fill(signer)
    page.get_by_label("Cargo de quem assina").fill("Procuradora do Município")
    page.get_by_role("button", name="Publicar").click()


def record_opinion(
    browser, base: str, username: str, session_url: str, verification, confirms: bool, text: str
):
    page = as_user(browser, base, username)
    page.goto(session_url)
    form = page.locator(f"#verificacao-{verification.pk}")
    # A member's own form never shows another member's opinion.
    assert form.get_by_label("Fundamentação").input_value() == ""
    label = "Confirma a autodeclaração" if confirms else "Não confirma a autodeclaração"
    form.get_by_label(label, exact=True).check()
    form.get_by_label("Fundamentação").fill(text)
    form.get_by_role("button", name="Registrar meu parecer").click()
    page.wait_for_url(session_url)
    assert "registrado" in page.content()
    page.context.close()


@pytest.mark.parametrize("consequence", ["keep_open", "open_procedure"])
def test_heteroidentification_through_the_screens(live_server, browser, consequence):
    cast = make_cast()
    set_policy("santa-maria", non_confirmation=consequence)
    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    for registration in Registration.objects.filter(contest=contest).select_related("candidate"):
        registration.candidate.email = f"{registration.number.lower()}@example.org"
        registration.candidate.save()
    EditalText.objects.update_or_create(contest=contest, defaults={"uses_heteroidentification": True})
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=5, by=cast["clerk"], act_number="Portaria 10/2026", act_date=D(2026, 6, 10)
    )
    pool = member_lines("Membro", 7)
    appeal_pool = member_lines("Recursal", 3)
    base = live_server.url
    hub = f"{base}/heteroidentificacao/concursos/{contest.slug}/"

    officer = as_user(browser, base, cast["legal"].username)
    officer.get_by_role("link", name=str(contest)).click()
    officer.wait_for_url(hub)
    assert "Candidato que não comparece: Sai da reserva" in officer.content()

    # The first commission, drawn from the pool of 7: first the notice (pool, k, the seed's public source),
    # published before any seed; then the draw with the seed from that source.
    source = "Resultado do concurso nº 2950 da Mega-Sena"
    announce_draw(officer, hub, pool, source)
    officer.wait_for_url(hub)
    assert "Aviso de sorteio publicado" in officer.content() and "aguardando a semente" in officer.content()
    assert Document.objects.filter(kind=Document.Kind.HETERO_DRAW).count() == 1  # the notice
    perform_draw(officer, hub, SEED)
    officer.wait_for_url(hub)
    drawn = draw_rules.draw(SEED, [line.split(";")[0] for line in pool], 5).drawn
    assert "Comissão de heteroidentificação constituída por sorteio" in officer.content()

    # The appeal commission with a drawn member in common is refused, with the reason; then formed.
    common = next(line for line in pool if line.startswith(drawn[0] + ";"))
    form_commission(officer, hub, "appeal", [common, *appeal_pool[:2]])
    expect(officer.locator("main")).to_contain_text("não pode ter membro em comum")
    assert drawn[0] in officer.locator("main").inner_text()
    officer.get_by_label("Membros").fill("\n".join(appeal_pool))
    officer.get_by_role("button", name="Constituir a comissão").click()
    officer.wait_for_url(hub)
    assert "Comissão recursal constituída" in officer.content()
    officer.goto(hub)  # without the flash messages (base.html's list of them fails axe: see the report)
    assert "Membro" in officer.content()
    assert_accessible(officer)

    # The draw's public page recomputes the record; Jurídico publishes it as an act.
    officer.get_by_role("link", name="página pública do sorteio (recálculo)").click()
    assert "confere com o registro" in officer.content() and "NÃO confere" not in officer.content()
    assert source in officer.content() and "a mesma lista e o mesmo número do sorteio" in officer.content()
    assert "NÃO é a lista" not in officer.content()
    officer.goto(hub)
    officer.get_by_role("link", name="Publicar o registro do sorteio").click()
    publish(officer)
    officer.wait_for_url(hub)
    assert Document.objects.filter(kind=Document.Kind.HETERO_DRAW).count() == 2  # the notice and the record

    # A session, the call (N1, N2, N3: the racial reserve's optants), published with date, time and place.
    today = timezone.localdate()
    officer.get_by_role("link", name="Agendar sessão").click()
    officer.get_by_label("Comissão").select_option(label="Comissão de heteroidentificação")
    officer.get_by_label("Data").fill(today.strftime("%d/%m/%Y"))
    officer.get_by_label("Hora").fill("09:30")
    officer.get_by_label("Local (presencial)").fill("Sala 1 da Prefeitura")
    officer.get_by_role("button", name="Agendar a sessão").click()
    officer.wait_for_url(re.compile(r".*/heteroidentificacao/sessoes/\d+/$"))
    session_url = officer.url
    officer.get_by_role("link", name="Chamar candidatos").click()
    officer.get_by_role("button", name="Chamar").click()
    officer.wait_for_url(session_url)
    assert "3 candidato(s) chamado(s)" in officer.content()
    officer.get_by_role("link", name="Publicar a convocação").click()
    publish(officer)
    officer.wait_for_url(session_url)
    assert Document.objects.filter(kind=Document.Kind.HETERO_CALL).count() == 1
    for number in ("N1", "N2", "N3"):
        officer.get_by_role("button", name=f"Compareceu ({number})", exact=True).click()
        officer.wait_for_url(session_url)

    called = {v.registration.number: v for v in Verification.objects.select_related("registration")}
    members = {
        m.name: m for m in Verification.objects.first().session.commission.members.select_related("user")
    }
    votes = dict(zip(drawn, (True, True, False, False, False), strict=True))
    for name in drawn:
        username = members[name].user.username
        for number in ("N1", "N3"):
            record_opinion(browser, base, username, session_url, called[number], True, "Fenótipo negro.")
        record_opinion(browser, base, username, session_url, called["N2"], votes[name], f"Parecer de {name}.")
    # Each opinion is its author's: five members, five different texts, none overwritten.
    assert sorted(
        Opinion.objects.filter(verification=called["N2"]).values_list("reasons", flat=True)
    ) == sorted(f"Parecer de {name}." for name in drawn)

    intruder = as_user(browser, base, "recursal1")
    assert intruder.goto(session_url).status == 403

    mail.outbox.clear()
    officer.goto(session_url)
    officer.get_by_role("button", name="Encerrar a sessão e apurar os resultados").click()
    officer.wait_for_url(session_url)
    assert "Não confirmada pela maioria: 3 parecer(es) contra 2." in officer.content()

    # N2 is told by e-mail with the private link, reads the result (opinions not attributed) and appeals.
    assert [m.to for m in mail.outbox] == [["n2@example.org"]]
    link = re.search(r"(/heteroidentificacao/resultado/[^\s/]+/)", mail.outbox[0].body).group(1)
    candidate = browser.new_context(locale="pt-BR").new_page()
    candidate.goto(base + link)
    assert "Não confirmada pela maioria" in candidate.content() and "Parecer de" in candidate.content()
    assert f"{drawn[2]}:" not in candidate.content()
    assert_accessible(candidate)
    candidate.get_by_label("Razões do recurso").fill("Sou preta, como declarei; peço nova avaliação.")
    candidate.get_by_role("button", name="Enviar o recurso").click()
    candidate.wait_for_url(base + link)
    assert "Recurso recebido" in candidate.content()

    # The appeal commission: a session, the appellant called, three opinions confirming the non-confirmation.
    officer.goto(hub)
    officer.get_by_role("link", name="Agendar sessão").click()
    officer.get_by_label("Comissão").select_option(label="Comissão recursal")
    officer.get_by_label("Data").fill(today.strftime("%d/%m/%Y"))
    officer.get_by_label("Hora").fill("15:00")
    officer.get_by_label("Link da videoconferência").fill("https://video.example.org/recursal")
    officer.get_by_role("button", name="Agendar a sessão").click()
    officer.wait_for_url(re.compile(r".*/heteroidentificacao/sessoes/\d+/$"))
    appeal_url = officer.url
    officer.get_by_role("link", name="Chamar candidatos").click()
    officer.get_by_label(re.compile("Inscrição N2")).check()
    officer.get_by_role("button", name="Chamar").click()
    officer.wait_for_url(appeal_url)
    officer.get_by_role("button", name="Compareceu (N2)", exact=True).click()
    officer.wait_for_url(appeal_url)
    judged = Verification.objects.get(session__commission__kind="appeal")
    for i in (1, 2, 3):
        record_opinion(
            browser, base, f"recursal{i}", appeal_url, judged, False, "Mantenho a não confirmação."
        )
    officer.goto(appeal_url)
    officer.get_by_role("button", name="Encerrar a sessão e apurar os resultados").click()
    officer.wait_for_url(appeal_url)
    assert "Não confirmada pela maioria: 3 parecer(es) contra 0." in officer.content()

    # Jurídico applies the final result on the first session's page.
    officer.goto(session_url)
    officer.locator(f"#verificacao-{called['N2'].pk}").get_by_role(
        "button", name="Aplicar o resultado definitivo"
    ).click()
    registration = Registration.objects.get(pk=called["N2"].registration_id)
    if consequence == "keep_open":
        officer.wait_for_url(session_url)
        assert "Sai das listas reservadas" in officer.content()
        assert registration.status == Registration.Status.EXCLUDED_FROM_RESERVE
        preview = nominations_preview(position=position, count=1)
        assert [(r.registration.number, r.list) for r in preview.rows] == [("N3", "racial")]
    else:
        procedure = Procedure.objects.get(registration=registration)
        officer.wait_for_url(f"{base}{procedure.get_absolute_url()}")
        attachment = procedure.acts.get(kind="opening").attachments.get()
        assert attachment.name.startswith("pareceres-heteroidentificacao-N2")
        assert "pareceres-heteroidentificacao-N2" in officer.content()
        assert registration.status == Registration.Status.ACTIVE  # only a proven falsity is punished
    officer.screenshot(path=f"/tmp/browser-heteroidentification-{consequence}.png", full_page=True)
