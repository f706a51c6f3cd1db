"""As a clerk would, in Debian's Chromium and through the real pages only.

The demo contest (``seed_demo``) receives the organiser's example file through upload → columns → preview →
commit; the Secretaria computes the lists, the Gestão publishes the final one and homologates the contest;
the clerk calls 3 nominations on TLEG (7 vacancies, Santa Maria: seat 3 racial, seat 5 PcD), reading the
preview before confirming, records a withdrawal with the signed statement, and calls again: the freed
racial seat goes to the next of the racial list (RULES §4 item 4) before a new seat is filled.

Who should be where is computed here from the CSV itself, never by asking the engine (``candidates.services.results``
sums the phases' scores weighted by ``Phase.weight``, 1 for phases an import creates; a pass mark or an
absence puts a candidate on no list), so the test fails if the engine or a screen is wrong. Screenshots
when asked for (tests/screens.py).
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.builders import EXAMPLE_CSV, PASSWORD, make_cast
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

EXAMPLE = EXAMPLE_CSV
CONTEST = "/concursos/demo-santa-maria/"
POSITION = "TLEG"
# Santa Maria for TLEG's 7 vacancies (RULES §2, §4): racial round_half_up(20% × 7) = 1, at seat 3 (20% × 3 =
# 0.6 → 1); PcD min(ceil(5% × 7), floor(20% × 7)) = 1, at seat 5 (the first s with floor(20% × s) ≥ 1).
KINDS = {1: "open", 2: "open", 3: "racial", 4: "open", 5: "pcd", 6: "open", 7: "open"}
OPEN_SEATS = sum(kind == "open" for kind in KINDS.values())  # 5
PASS_MARK = Decimal(50)  # Nota Objetiva, out of 100 (examples/README.md)
KIND_WORDS = {"open": "Ampla concorrência", "racial": "Reservada a negros", "pcd": "Reservada a pessoas com"}
TABLE_JS = "rows => rows.map(r => Array.from(r.querySelectorAll('td, th'), c => c.innerText.trim()))"


def _shot(page, name: str) -> None:
    screenshot(page, f"browser-{name}")


def _decimal(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


def _br(score: Decimal) -> str:
    return f"{score:.2f}".replace(".", ",")


def example_rows() -> list[dict]:
    with EXAMPLE.open(encoding="cp1252", newline="") as handle:
        return list(csv.DictReader(handle, delimiter=";"))


def ranked(candidates: list[dict]) -> list[dict]:
    """Places 1, 2, … in the given (score) order."""
    return [{**c, "place": place} for place, c in enumerate(candidates, start=1)]


def expected_lists(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """TLEG's general list and racial list from the file: approved candidates (objective ≥ 50, discursive
    scored and not AUSENTE), by final score = objective + discursive, descending. No tie-break is needed:
    checked."""
    approved = []
    for row in rows:
        if row["Cargo"] != POSITION:
            continue
        objective, discursive = _decimal(row["Nota Objetiva"]), row["Nota Discursiva"].strip()
        if objective < PASS_MARK or discursive in ("", "AUSENTE"):
            continue
        approved.append(
            {
                "number": row["Inscrição"],
                "name": row["Nome Social"] or row["Nome"],  # the social name is shown instead
                "score": objective + _decimal(discursive),
                "racial": row["Cota Negros"] == "S",
            }
        )
    approved.sort(key=lambda c: c["score"], reverse=True)
    scores = [c["score"] for c in approved]
    assert len(set(scores)) == len(scores), "empate na nota: o teste precisaria dos critérios de desempate"
    general = ranked(approved)
    return general, [c for c in general if c["racial"]]


def who_fills(seats: list[int], general: list[dict], racial: list[dict], taken: set[str]) -> dict[int, dict]:
    """RULES §4 for these seats, in order: an open seat takes the best of the general list not yet
    nominated; a racial seat the best of the racial list not yet nominated and placed beyond the open
    seats (SM's "projected" rule: a cotista within them is reached by an open seat). No PcD seat and no
    reversion here."""
    out = {}
    for seat in seats:
        if KINDS[seat] == "open":
            chosen = next(c for c in general if c["number"] not in taken)
        else:
            assert KINDS[seat] == "racial"
            chosen = next(c for c in racial if c["number"] not in taken and c["place"] > OPEN_SEATS)
        taken.add(chosen["number"])
        out[seat] = chosen
    return out


def login(page, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state()


def watch(page, problems: list[str]) -> None:
    """Console errors (a CSP violation, a failed request) and uncaught errors fail the test; confirmation
    dialogs (``data-confirm``) are accepted, as the clerk would."""
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())


def assert_strip(page, holders: dict[int, dict], free: tuple[int, ...] = ()) -> None:
    """Each seat's number and kind in words; the holder's name and inscription, visible, on filled seats
    (the name also in the tooltip), "livre" on freed ones, "prevista" on the others."""
    seats = page.locator("section[aria-labelledby='vagas-faixa'] dl > div").evaluate_all(
        "boxes => boxes.map(b => [b.querySelector('dt').innerText, b.querySelector('dd').innerText, b.title])"
    )
    assert len(seats) == len(KINDS), seats
    for (number, kind), (label, state, title) in zip(KINDS.items(), seats, strict=True):
        assert label.startswith(f"{number}ª vaga") and KIND_WORDS[kind] in label, (number, label)
        if number in holders:
            assert holders[number]["number"] in state and holders[number]["name"] in state, (number, state)
            assert holders[number]["name"] in title, (number, title)
            assert "ocupada" in state, (number, state)
        else:
            assert ("livre" if number in free else "prevista") in state, (number, state)


def preview_call(page, count: int, act: str, expected: dict[int, dict]) -> None:
    """Ask who would be called; the preview must name, for each seat in order, its kind, who and why."""
    page.get_by_role("link", name="Convocar próximas vagas").click()
    page.get_by_label("Vagas a preencher").fill(str(count))
    page.get_by_label("Número do ato de nomeação").fill(act)
    page.get_by_role("button", name="Ver quem será convocado").click()
    items = page.locator("aside .preview ol > li")
    items.first.wait_for()
    shown = items.evaluate_all("items => items.map(i => [i.innerText, i.querySelector('.muted').innerText])")
    assert len(shown) == len(expected), shown
    for (text, why), (seat, candidate) in zip(shown, expected.items(), strict=True):
        assert text.startswith(f"{seat}ª vaga · {KIND_WORDS[KINDS[seat]]}"), text
        assert not why.startswith(f"{seat}ª vaga"), why  # the seat is in bold above: not repeated
        assert f"inscrição {candidate['number']}, {candidate['name']}" in text, text
        # The place the published list gives, and today's beside it when people ahead have left the list.
        place, published = candidate["place"], candidate.get("published", candidate["place"])
        words = (
            f"{place}º da lista geral"
            if published == place
            else f"{published}º da lista geral publicada ({place}º na lista de hoje)"
        )
        assert words in why, why
        if KINDS[seat] == "racial":  # why the racial seat passes over cotistas placed higher
            assert f"além das {OPEN_SEATS} vagas de ampla concorrência" in why, why


def test_clerk_imports_publishes_calls_records_a_withdrawal_and_calls_again(
    browser, page, live_server, settings, tmp_path
):
    if not EXAMPLE.exists():
        pytest.skip(f"Arquivo de exemplo ausente: {EXAMPLE} (shared/examples ao lado do repositório)")
    settings.MEDIA_ROOT = tmp_path
    make_cast()
    call_command("seed_demo", stdout=io.StringIO())
    rows = example_rows()
    general, racial = expected_lists(rows)
    base = live_server.url
    problems: list[str] = []
    watch(page, problems)

    # 1. Secretaria imports the file: upload → columns (the suggestion) → preview, with the objective
    #    exam's maximum 100 and pass mark 50 (examples/README.md) → commit.
    login(page, base + CONTEST, "clerk")
    page.get_by_role("link", name="Importar inscrições").first.click()
    page.get_by_label("Arquivo da organizadora (CSV ou XLSX)").set_input_files(EXAMPLE)
    page.get_by_role("button", name="Enviar e conferir as colunas").click()
    page.get_by_role("heading", name="Conferir as colunas").wait_for()
    _shot(page, "1-mapping")
    page.get_by_role("button", name="Ver a prévia").click()
    page.get_by_role("heading", name="Prévia da importação").wait_for()
    # The demo contest already has the example's phases (objective out of 100, pass mark 50): the
    # preview asks nothing about them.
    expect_no_phase_questions = page.get_by_label("Nota Objetiva: nota máxima")
    assert expect_no_phase_questions.count() == 0
    _shot(page, "2-import-preview")
    figures = page.locator("dl.figures").inner_text()
    assert re.search(rf"Inscrições novas\s+{len(rows)}\b", figures), figures
    assert re.search(r"Problemas\s+0\b", figures), figures
    page.get_by_role("button", name="Importar", exact=True).click()
    page.get_by_text(f"Importação concluída: {len(rows)} inscrições criadas").wait_for()

    # 2. Secretaria computes the lists (but may not publish them); Gestão, in its own session, publishes
    #    them as final and homologates the contest.
    page.goto(base + CONTEST)
    page.get_by_role("link", name="Listas de classificação").first.click()
    page.get_by_role("button", name="Calcular").click()
    page.get_by_text("Revise-a antes de publicar").wait_for()
    assert page.get_by_role("button", name="Publicar lista").count() == 0
    run_url = page.url
    context = browser.new_context(
        locale="pt-BR", timezone_id="America/Sao_Paulo", viewport={"width": 1280, "height": 900}
    )
    try:
        manager = context.new_page()
        manager.set_default_timeout(15_000)
        watch(manager, problems)
        login(manager, run_url, "manager")
        manager.get_by_label("Final").check()
        manager.get_by_role("button", name="Publicar lista").click()
        manager.get_by_text("Lista publicada:").wait_for()
        manager.goto(base + CONTEST)
        manager.get_by_role("link", name="Homologar").click()
        manager.get_by_label("Ato de homologação").fill("Portaria nº 123/2026")
        _shot(manager, "3-homologation")
        manager.get_by_role("button", name="Continuar").click()
        manager.get_by_role("button", name="Confirmar a homologação").click()
        manager.get_by_text("Concurso homologado").wait_for()
    finally:
        context.close()

    # The published lists of TLEG: the general one in score order, the racial one in the same order with
    # each cotista's place in the general list.
    page.goto(run_url)
    page.get_by_role("link", name=re.compile(rf"^{POSITION} ")).click()
    page.get_by_role(
        "heading", name="Lista geral (ampla concorrência, cotistas incluídos)", level=3
    ).wait_for()
    _shot(page, "4-general-list")
    shown = page.locator("table tbody tr").evaluate_all(TABLE_JS)
    assert [cells[:4] for cells in shown] == [
        [f"{c['place']}º", c["number"], c["name"], _br(c["score"])] for c in general
    ]
    page.get_by_role("link", name=re.compile("^Lista reservada a negros")).click()
    page.get_by_role("heading", name=re.compile("^Lista reservada a negros"), level=3).wait_for()
    shown = page.locator("table tbody tr").evaluate_all(TABLE_JS)
    assert [cells[:5] for cells in shown] == [
        [f"{j}º", c["number"], c["name"], _br(c["score"]), f"{c['place']}º"]
        for j, c in enumerate(racial, start=1)
    ]

    # 3. The clerk calls 3 nominations on TLEG, seeing who and why before confirming.
    page.goto(base + CONTEST)
    page.get_by_role("link", name="Técnico Legislativo").click()
    page.get_by_role("link", name="Nomeações").click()
    page.get_by_role("heading", name=re.compile("^Nomeações: TLEG")).wait_for()
    assert_strip(page, {})
    taken: set[str] = set()
    first = who_fills([1, 2, 3], general, racial, taken)
    preview_call(page, 3, "Portaria nº 45/2026", first)
    _shot(page, "5-call-preview")
    page.get_by_role("button", name="Confirmar 3 nomeações").click()
    page.get_by_text("3 nomeações registradas").wait_for()
    _shot(page, "6-after-first-call")
    assert_strip(page, first)

    # 4. The racial seat's nominee withdraws, with the signed statement attached.
    withdrawn = first[3]
    page.locator("section[aria-labelledby='vagas-faixa']").get_by_role(
        "link", name=withdrawn["number"]
    ).click()
    page.get_by_role("link", name="Registrar desistência").click()
    page.get_by_label("Data da desistência").fill(timezone.localdate().strftime("%d/%m/%Y"))
    page.get_by_label("Termo de desistência assinado").set_input_files(
        {"name": "termo.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n% termo assinado\n%%EOF\n"}
    )
    _shot(page, "7-withdrawal-form")
    page.get_by_role("button", name="Registrar desistência").click()
    page.get_by_text("Desistência registrada: a 3ª vaga será preenchida na próxima chamada").wait_for()
    _shot(page, "8-after-withdrawal")
    holders = {seat: c for seat, c in first.items() if seat != 3}
    assert_strip(page, holders, free=(3,))

    # 5. Calling again: the freed seat 3 first, to the next of the racial list beyond the open seats (the
    #    withdrawn candidate is off every list, so places below them move up), then the new seat 4.
    published = {c["number"]: c["place"] for c in general}
    general = [
        {**c, "published": published[c["number"]]}
        for c in ranked([c for c in general if c["number"] != withdrawn["number"]])
    ]
    racial = [c for c in general if c["racial"]]
    second = who_fills([3, 4], general, racial, taken)
    preview_call(page, 2, "Portaria nº 52/2026", second)
    assert (
        "desistência de inscrição " + withdrawn["number"]
        in page.locator("aside .preview ol > li").first.inner_text()
    )
    _shot(page, "9-second-preview")
    page.get_by_role("button", name="Confirmar 2 nomeações").click()
    page.get_by_text("2 nomeações registradas").wait_for()
    _shot(page, "10-after-second-call")
    assert_strip(page, {**holders, **second})

    # The nominations in the order made, the withdrawal kept on record.
    made = [(1, first[1]), (2, first[2]), (3, withdrawn), (3, second[3]), (4, second[4])]
    shown = page.locator(".table-wrap[aria-labelledby='nomeacoes'] tbody tr").evaluate_all(TABLE_JS)
    # Order, seat, kind, inscription, name, act, deadline, status.
    assert [(row[0], row[1], row[3], row[4]) for row in shown] == [
        (f"{order}ª", f"{seat}ª", c["number"], c["name"]) for order, (seat, c) in enumerate(made, start=1)
    ]
    assert [row[7] == "Desistente" for row in shown] == [False, False, True, False, False], shown
    # The deadline to take office only for nominations still waiting for it.
    assert [row[6].startswith("—") for row in shown] == [False, False, True, False, False], shown
    assert all(re.fullmatch(r"\d\d/\d\d/\d{4}", row[6]) for i, row in enumerate(shown) if i != 2), shown
    assert [row[7] for row in shown if row[7] != "Desistente"] == ["Nomeação ativa (aguardando posse)"] * 4
    assert problems == []
