"""One journey per role, in Debian's Chromium, from an empty installation to the end of its tasks, clicking
only the links and buttons a person sees: the login page is the only address typed. Each step asserts
what a person would read there (texts, counts) and, with COTAS_SCREENSHOTS set, leaves
a screenshot of it (tests/screens.py).

The journeys find things by their visible text, labels and roles (never CSS), so that a screen may change
its layout and the journey still passes while a person could still do the task.

- Secretaria (with Gestão, in its own session, where Gestão must act): a contest with two of the example
  file's three positions, its edital written, checked and published, the organiser's example file imported
  (the third position's rows left out, as the preview offers) with its phases confirmed, preliminary and
  final lists, the homologation, a call, a withdrawal, a second call (the freed seat first) and a new
  vacancy opened.
- Jurídico: a procedure from its opening (on the registration's page) to the final decision and its
  effects: notice, defence, evidence, instruction closed, final statement, report, decision, its notice,
  two appeals to the last instance (the policy's three), the final decision, the elimination. (The
  decision becomes final before the appeal period ends only when the last instance has decided: a journey
  in one day cannot wait the ten days.)

Each journey is a list of steps that start from anywhere in the staff area (the menu, then the record), so
that a step can be rerun alone against a development server while the journey is written.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from tests.builders import EXAMPLE_CSV, PASSWORD, make_cast
from tests.pages import choose
from tests.screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PDF = b"%PDF-1.4\n% assinado\n%%EOF\n"


def shot(page, name: str) -> None:
    screenshot(page, f"journey-{name}")


def br(day: datetime.date) -> str:
    return day.strftime("%d/%m/%Y")


def watch(page, problems: list[str]) -> None:
    """Console errors and uncaught errors fail the journey; confirmation dialogs are accepted."""
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())


def login(page, base: str, username: str) -> None:
    """The one address typed: the login page. The journey goes on from where the login lands."""
    page.goto(base + "/entrar/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_load_state()


def see(page, text: str | re.Pattern) -> None:
    """The text is on the page, visible."""
    page.get_by_text(text).first.wait_for()


def no_errors(page) -> None:
    """No error summary, field error or error message on the page."""
    alerts = page.get_by_role("alert")
    texts = [alerts.nth(i).inner_text() for i in range(alerts.count())]
    assert not any("Não foi possível" in text or "Erro" in text for text in texts), texts


def link(page, name: str | re.Pattern, *, exact: bool = False) -> None:
    page.get_by_role("link", name=name, exact=exact).first.click()
    page.wait_for_load_state()


def button(page, name: str | re.Pattern, *, exact: bool = False) -> None:
    page.get_by_role("button", name=name, exact=exact).first.click()
    page.wait_for_load_state()


def field(page, label: str):
    """The field labelled exactly ``label`` (a required field's label ends in an asterisk)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


def fill(page, values: dict[str, str]) -> None:
    for label, value in values.items():
        field(page, label).fill(value)


def new_session(browser, problems: list[str]):
    context = browser.new_context(
        locale="pt-BR", timezone_id="America/Sao_Paulo", viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch(page, problems)
    return context, page


@pytest.fixture
def pages_seen():
    """Pages whose last state is kept after the journey (text in /tmp/journey-last-*, and a screenshot when
    asked for): where a person was when it ended, or where they were stuck."""
    seen: list = []
    yield seen
    for i, page in enumerate(seen):
        try:
            shot(page, f"last-{i}")
            with open(f"/tmp/journey-last-{i}.txt", "w") as handle:
                handle.write(page.url + "\n" + page.inner_text("body"))
        except Exception:  # a closed page has nothing to keep
            pass


class Journey:
    """What a journey carries from step to step: the browser, the live server, the person's page, the
    dates of the contest and the problems the console reported."""

    def __init__(self, browser, page, base: str) -> None:
        self.browser, self.page, self.base = browser, page, base
        self.problems: list[str] = []
        watch(page, self.problems)
        self.today = timezone.localdate()
        # The edital two months ago, registrations closed three weeks ago: the contest is where the
        # import and the lists belong.
        self.edital = self.today - datetime.timedelta(60)
        self.start = self.today - datetime.timedelta(50)
        self.end = self.today - datetime.timedelta(21)

    def as_manager(self, step) -> None:
        """Gestão, in its own session (logged in from the login page), does ``step(page)``."""
        context, manager = new_session(self.browser, self.problems)
        try:
            login(manager, self.base, "manager")
            step(manager)
        except Exception:
            shot(manager, "last-manager")
            with open("/tmp/journey-last-manager.txt", "w") as handle:
                handle.write(manager.url + "\n" + manager.inner_text("body"))
            raise
        finally:
            context.close()


CONTEST = "Concurso da jornada"


def open_contest(page) -> None:
    """From anywhere in the staff area: the menu's Concursos, then the contest."""
    link(page, "Concursos", exact=True)
    link(page, CONTEST)
    page.get_by_role("heading", name=CONTEST, level=1).wait_for()


def s1_contest(j: Journey) -> None:
    """Secretaria: a new contest, from the home."""
    page = j.page
    shot(page, "s01-home")
    link(page, "Concursos", exact=True)
    link(page, "Novo concurso")
    fill(
        page,
        {
            "Título": CONTEST,
            "Número": "7",
            "Data de publicação do edital": br(j.edital),
            "Início das inscrições": br(j.start),
            "Fim das inscrições": br(j.end),
        },
    )
    choose(field(page, "Política de reserva"), "Santa Maria")
    shot(page, "s02-contest-form")
    button(page, "Criar concurso")
    no_errors(page)
    page.get_by_role("heading", name=CONTEST, level=1).wait_for()
    see(page, "Nenhum cargo cadastrado.")
    shot(page, "s03-contest")


# The organiser's example file has three positions; the contest has two of them (TLEG, whose reserves for
# negros and PcD both exist, and ALEG, whose two vacancies reserve none): the file's third position is left
# out at the import, as a person does with a file made for several contests (issue 19).
POSITIONS = (
    ("TLEG", "Técnico Legislativo", "7"),
    ("ALEG", "Assistente Legislativo", "2"),
)
OTHER_POSITION = "ANSI"


def example_rows() -> list[tuple[int, str]]:
    """The example file's data rows as (file line, position code), read from the file itself: the header
    is line 1."""
    import csv

    with open(EXAMPLE_CSV, encoding="latin-1", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter=";"))
    return [(line, row["Cargo"]) for line, row in enumerate(rows, start=2)]


def s2_positions(j: Journey) -> None:
    """Secretaria: two positions with their vacancies; the contest shows the reserve of each."""
    page = j.page
    open_contest(page)
    link(page, "Novo cargo")
    for i, (code, title, vacancies) in enumerate(POSITIONS):
        fill(page, {"Código": code, "Denominação": title, "Vagas do edital": vacancies})
        shot(page, f"s04-position-{code}")
        last = i == len(POSITIONS) - 1
        button(page, "Criar cargo" if last else "Salvar e cadastrar outro cargo")
        no_errors(page)
    open_contest(page)
    table = page.get_by_role("region", name="Cargos e vagas")
    for _code, title, _ in POSITIONS:
        table.get_by_role("link", name=title).wait_for()
    total = table.get_by_role("row", name=re.compile("^Total"))
    # Total, open, negros, PcD. Santa Maria: 20% for negros from 3 vacancies, half up (TLEG 7 → 1, ALEG 2
    # → 0); PcD 5% up, at most 20% (TLEG 0.35 → 1, ALEG 0.1 → 1, capped at 20% of 2 = 0.4 → 0).
    cells = total.get_by_role("cell").all_inner_texts()
    assert cells[:4] == ["9", "7", "1", "1"], cells
    # Counted together, the 9 vacancies would reserve 20% of 9 = 1.8 → 2: the contest warns (STF, ADC 41).
    warning = page.get_by_text(re.compile("^Somados, os cargos reservam")).inner_text()
    assert "reservam 1 vaga a negros; as 9 vagas do concurso, contadas juntas, reservariam 2" in warning
    shot(page, "s05-positions")


def s3_edital(j: Journey) -> None:
    """Secretaria writes the edital's sections beside its preview until the check finds nothing blocking."""
    page = j.page
    open_contest(page)
    link(page, "Edital", exact=True)
    see(page, "A publicação está impedida")
    fill(
        page,
        {
            "Cronograma": f"{br(j.start)} a {br(j.end)} – Inscrições\n{br(j.end + datetime.timedelta(7))} – Prova",
            "Quem assina": "Maria da Silva",
            "Cargo de quem assina": "Presidente da Câmara",
        },
    )
    button(page, "Salvar")
    no_errors(page)
    see(page, "Texto do edital salvo.")
    see(page, "A verificação não encontrou impedimentos à publicação.")
    shot(page, "s06-edital-checked")


def s4_publish_edital(j: Journey) -> None:
    """Gestão publishes the checked edital with its gazette reference; the contest leaves "Em elaboração"."""

    def publish(page) -> None:
        shot(page, "s07-manager-home")
        open_contest(page)
        link(page, "Edital", exact=True)
        link(page, "Publicar o edital")
        see(page, "A verificação não encontrou impedimentos à publicação.")
        fill(page, {"Edição do diário oficial": "1.234", "Página": "5"})
        shot(page, "s08-edital-publish")
        button(page, "Publicar", exact=True)
        see(page, re.compile(r"[A-Z0-9]{4}-[A-Z0-9]{4}"))  # the verification code, wherever it lands
        shot(page, "s09-edital-published")

    j.as_manager(publish)
    page = j.page
    open_contest(page)
    see(page, re.compile("Publicação do edital registrada em"))
    shot(page, "s10-contest-published")


def s5_import(j: Journey) -> None:
    """Secretaria imports the organiser's example file: upload, the columns as suggested, the preview. The
    file has rows of a position the contest lacks: the preview tells them as one grouped problem and offers
    to leave them out; the person does, confirms the phases and imports the rest."""
    page = j.page
    rows = example_rows()
    other = [line for line, code in rows if code == OTHER_POSITION]
    ours = len(rows) - len(other)
    assert other and ours  # the file has both kinds of rows
    open_contest(page)
    link(page, "Importar inscrições")
    page.get_by_label(re.compile("^Arquivo da organizadora")).set_input_files(EXAMPLE_CSV)
    button(page, "Enviar e conferir as colunas")
    page.get_by_role("heading", name="Conferir as colunas").wait_for()
    shot(page, "s11-import-columns")
    button(page, "Ver a prévia")
    page.get_by_role("heading", name="Prévia da importação").wait_for()
    # The third position's rows: one problem, told once with its count and first lines, and nothing else.
    see(page, "nada será importado")
    problems = page.get_by_role("region", name=re.compile("^Problemas"))
    groups = problems.get_by_role("row").all_inner_texts()[1:]  # the header first
    shown = ", ".join(str(line) for line in other[:10])
    assert len(groups) == 1, groups
    assert f"{len(other)} linhas ({shown}, … (e mais {len(other) - 10}))" in groups[0], groups[0]
    assert f"Cargo “{OTHER_POSITION}” não existe neste concurso" in groups[0], groups[0]
    offer = page.get_by_role("region", name="O arquivo traz linhas de cargos que este concurso não tem")
    text = offer.inner_text()
    assert f"{len(other)} linhas do cargo “{OTHER_POSITION}”" in text, text
    assert f"essas {len(other)} linhas ficam de fora e as outras {ours} são conferidas" in text, text
    shot(page, "s12-import-other-position")
    offer.get_by_role("button", name="Importar só os cargos deste concurso").click()
    page.wait_for_load_state()
    page.get_by_role("heading", name="Prévia da importação").wait_for()
    no_errors(page)
    left_out = page.get_by_role("region", name="Só os cargos deste concurso").inner_text()
    assert f"{len(other)} linhas do cargo “{OTHER_POSITION}” ficam de fora" in left_out, left_out
    assert f"As outras {ours} linhas são importadas" in left_out, left_out
    figures = page.inner_text("main")
    assert re.search(rf"Inscrições novas\s+{ours}\b", figures), figures
    assert re.search(rf"Deixadas de fora \(outros cargos\)\s+{len(other)}\b", figures), figures
    see(page, f"{ours} inscrições novas")
    # The file creates the two phases: their maximum as deduced, the objective's pass mark from the
    # edital (examples/README.md: 50 of 100).
    fill(page, {"Nota Objetiva: nota mínima": "50"})
    shot(page, "s13-import-preview")
    button(page, "Confirmar as fases")
    no_errors(page)
    button(page, "Importar", exact=True)
    see(page, f"Importação concluída: {ours} inscrições criadas")
    see(page, f"{len(other)} linhas de outros cargos ficaram de fora")
    # The import lands on the contest's registrations: those of its two positions, none of the third.
    see(page, f"{ours} inscrições no concurso.")
    shot(page, "s13b-imported")


def compute(page, kind: str) -> None:
    """Secretaria computes the lists of every position (as ``kind``), and reads that Gestão publishes them."""
    open_contest(page)
    link(page, "Listas de classificação")
    choose(field(page, "Para publicar como"), kind)
    button(page, "Calcular", exact=True)
    no_errors(page)
    see(page, "Revise-a antes de publicar")
    assert page.get_by_role("button", name="Publicar lista").count() == 0


def publish_list(kind: str, name: str):
    def step(page) -> None:
        open_contest(page)
        link(page, "Listas de classificação")
        table = page.get_by_role("region", name="Listas calculadas")
        table.get_by_role("row").nth(1).get_by_role("link").click()  # the newest, on top
        page.get_by_role("radio", name=kind, exact=True).check()
        # The list and its signed document in one step; the signer comes prefilled from the organisation's
        # authority for lists (recorded by Gestão before the first publication).
        assert field(page, "Quem assina").input_value() == SIGNER[0]
        assert field(page, "Cargo de quem assina").input_value() == SIGNER[1]
        fill(page, {"Edição do diário oficial": "1.240", "Página": "3"})
        shot(page, f"{name}-publish")
        button(page, "Publicar lista")
        # The list and its document published together; the person stays in the staff area, with the
        # message and a link to the public page.
        message = page.get_by_role("status").filter(has_text="Lista publicada:").inner_text()
        assert "com o seu documento assinado. Ela não muda mais" in message, message
        assert "Código de verificação" in message, message
        page.get_by_role("link", name="Ver a página pública do documento").first.wait_for()
        shot(page, f"{name}-published")

    return step


SIGNER = ("Maria da Silva", "Presidente da Câmara")


def record_list_signer(page) -> None:
    """Gestão records, once, the authority and that it signs the lists (the menu's Organização, then
    Autoridades): each list's publication form comes with it."""
    link(page, "Organização", exact=True)
    link(page, "Autoridades e quem assina")
    link(page, "Nova autoridade")
    fill(
        page,
        {
            "Nome": SIGNER[0],
            "Cargo": SIGNER[1],
            "Ato de competência": "Lei Orgânica do Município, art. 35",
            "Em exercício desde": "01/01/2025",
        },
    )
    button(page, "Salvar", exact=True)
    no_errors(page)
    see(page, "Autoridade registrada.")
    link(page, "Designar quem assina")
    choose(field(page, "Listas de classificação"), SIGNER[0])
    shot(page, "s15-signers")
    button(page, "Salvar quem assina")
    no_errors(page)
    see(page, "Autoridades que assinam cada espécie de ato salvas.")


def s6_preliminary(j: Journey) -> None:
    """Secretaria computes the preliminary lists; Gestão records who signs lists and publishes them."""
    compute(j.page, "Preliminar")
    shot(j.page, "s14-preliminary-computed")

    def sign_and_publish(manager) -> None:
        record_list_signer(manager)
        publish_list("Preliminar", "s15-preliminary")(manager)

    j.as_manager(sign_and_publish)


def s7_final_and_homologation(j: Journey) -> None:
    """After the appeals, the final lists: Secretaria computes, Gestão publishes and homologates."""
    compute(j.page, "Final")
    page = j.page
    # TLEG's lists as computed: every TLEG row of the file, the racial list among them.
    link(page, re.compile("^TLEG"))
    see(page, "Lista geral")
    tleg = sum(1 for _line, code in example_rows() if code == "TLEG")
    main = page.inner_text("main")
    assert re.search(rf"TLEG – Técnico Legislativo\s+Inscrições\s+{tleg}\b", main), main
    shot(page, "s16-final-computed-tleg")

    def publish_and_homologate(manager) -> None:
        publish_list("Final", "s17-final")(manager)
        open_contest(manager)
        link(manager, "Homologar")
        fill(manager, {"Ato de homologação": "Portaria nº 123/2026"})
        shot(manager, "s18-homologation")
        button(manager, "Continuar")
        button(manager, "Confirmar a homologação")
        see(manager, "Concurso homologado")
        shot(manager, "s19-homologated")

    j.as_manager(publish_and_homologate)


def open_position(page, title: str) -> None:
    open_contest(page)
    page.get_by_role("region", name="Cargos e vagas").get_by_role("link", name=title).click()
    page.wait_for_load_state()


def s8_call(j: Journey) -> None:
    """Secretaria calls the first three of TLEG, reading who and why before confirming."""
    page = j.page
    open_position(page, "Técnico Legislativo")
    link(page, "Nomeações", exact=True)
    link(page, "Convocar próximas vagas")
    fill(page, {"Vagas a preencher": "3", "Número do ato de nomeação": "Portaria nº 45/2026"})
    button(page, "Ver quem será convocado")
    see(page, re.compile("1ª vaga · Ampla concorrência"))
    see(page, re.compile("3ª vaga · Reservada a negros"))
    shot(page, "s20-call-preview")
    button(page, "Confirmar 3 nomeações")
    see(page, "3 nomeações registradas")
    shot(page, "s21-called")


def s9_withdrawal(j: Journey) -> None:
    """The racial seat's nominee withdraws, with the signed statement; the seat is free for the next call."""
    page = j.page
    open_position(page, "Técnico Legislativo")
    link(page, "Nomeações", exact=True)
    strip = page.get_by_role("region", name=re.compile("Vagas"))
    seat = strip.get_by_text(re.compile("^3ª vaga")).first
    seat.locator("xpath=..").get_by_role("link").first.click()
    link(page, "Registrar desistência")
    see(page, re.compile(r"inscrição \d+: 3ª vaga \(reservada a negros\)"))
    # The server's day now, as a person types it, not the journey's first day: a CI run that crossed midnight
    # in São Paulo (03:00 UTC) waited here for the message in vain, most likely because the nomination was
    # recorded on the new day and the withdrawal typed the day before (not reproduced under faketime).
    fill(page, {"Data da desistência": br(timezone.localdate())})
    field(page, "Termo de desistência assinado").set_input_files(
        {"name": "termo.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )
    shot(page, "s22-withdrawal")
    button(page, "Registrar desistência")
    see(page, "Desistência registrada: a 3ª vaga será preenchida na próxima chamada")
    strip = page.inner_text("main")
    assert re.search(r"3ª vaga · Reservada a negros\s+—\s+livre", strip), strip
    shot(page, "s23-withdrawn")


def s9b_call_again(j: Journey) -> None:
    """Calling one more: the freed racial seat first, to the next of the racial list (RULES §4 item 4)."""
    page = j.page
    open_position(page, "Técnico Legislativo")
    link(page, "Nomeações", exact=True)
    link(page, "Convocar próximas vagas")
    fill(page, {"Vagas a preencher": "1", "Número do ato de nomeação": "Portaria nº 52/2026"})
    button(page, "Ver quem será convocado")
    see(page, re.compile("3ª vaga · Reservada a negros"))
    see(page, re.compile("desistência de inscrição"))
    shot(page, "s24-call-again-preview")
    button(page, "Confirmar 1 nomeação")
    see(page, "1 nomeação registrada (3ª vaga: inscrição")
    strip = page.inner_text("main")
    assert re.search(r"3ª vaga · Reservada a negros\s+\S.*\s+inscrição \d+\s+ocupada", strip), strip
    shot(page, "s24-called-again")


def s10_opening(j: Journey) -> None:
    """A new vacancy of TLEG opened during the validity: the position counts 8."""
    page = j.page
    open_position(page, "Técnico Legislativo")
    link(page, "Registrar abertura de vagas")
    fill(page, {"Número de vagas": "1", "Data": br(timezone.localdate()), "Ato": "Portaria nº 60/2026"})
    shot(page, "s25-opening")
    button(page, "Registrar abertura")
    no_errors(page)
    see(page, "Abertura de 1 vaga registrada.")
    see(page, "Portaria nº 60/2026")
    # 20% of 8 = 1.6 → 2 for negros: the new vacancy adds one to the reserve (RULES §2, the fraction).
    main = page.inner_text("main")
    assert re.search(r"Total de vagas\s+8\b", main), main
    assert re.search(r"Reservadas a negros\s+2\b", main), main
    shot(page, "s26-opened")


SECRETARIA = [
    s1_contest,
    s2_positions,
    s3_edital,
    s4_publish_edital,
    s5_import,
    s6_preliminary,
    s7_final_and_homologation,
    s8_call,
    s9_withdrawal,
    s9b_call_again,
    s10_opening,
]


def test_secretaria_from_an_empty_contest_to_a_new_vacancy(
    browser, page, live_server, settings, tmp_path, pages_seen
):
    settings.MEDIA_ROOT = tmp_path
    make_cast()
    pages_seen.append(page)
    journey = Journey(browser, page, live_server.url)
    login(page, journey.base, "clerk")
    for step in SECRETARIA:
        step(journey)
    assert journey.problems == []


# Jurídico -------------------------------------------------------------------------------------------------

SUSPECT = "N3"  # the worked example's third cotista (tests.builders.WORKED_EXAMPLE), not nominated


def juridico_world() -> None:
    """What Secretaria and Gestão leave behind (their journey above does it through the screens): a
    homologated contest whose final lists are published, with the worked example's candidates."""
    from tests.builders import make_classified_position, make_contest, publish_final

    cast = make_cast()
    contest = make_contest(title=CONTEST, status="published")
    make_classified_position(contest, code="TLEG", title="Técnico Legislativo")
    publish_final(contest, cast["manager"])


def j1_open(j: Journey) -> None:
    """Jurídico finds the registration from the contest and opens a procedure on its self-declaration."""
    page = j.page
    shot(page, "j01-home")
    open_contest(page)
    link(page, "Inscrições", exact=True)
    page.get_by_role("row", name=re.compile(rf"^{SUSPECT}\b")).get_by_role("link").first.click()
    shot(page, "j02-registration")
    link(page, "Instaurar processo administrativo")
    choose(field(page, "Origem"), "ofício")
    fill(page, {"Fatos": "Denúncia recebida pela ouvidoria com indícios de falsidade da autodeclaração."})
    shot(page, "j03-open")
    button(page, re.compile("^Instaurar"))
    no_errors(page)
    see(page, "Próximos atos")
    shot(page, "j04-procedure")


def next_acts(page) -> list[str]:
    return page.get_by_role("region", name="Próximos atos").get_by_role("link").all_inner_texts()


def open_procedure(page) -> None:
    """From anywhere in the staff area: the menu's Processos, then the case."""
    link(page, "Processos", exact=True)
    link(page, re.compile(r"PA nº 1.\d{4}"))
    page.get_by_role("heading", name=re.compile(r"^PA nº 1.\d{4}"), level=1).wait_for()


def j2_notice(j: Journey) -> None:
    """The candidate is notified in person (she comes to the office): the defence period starts."""
    page = j.page
    open_procedure(page)
    notify_in_person(page, "Apresente defesa no prazo legal.", "j05-notice")
    see(page, "Intimação para defesa registrada.")
    see(page, re.compile(r"Prazo de defesa \(10 dias"))


def record(page, act: str, text: str, name: str, *, outcome: str = "", attach: bool = False) -> None:
    """One of the procedure's next acts, through its button and form."""
    page.get_by_role("region", name="Próximos atos").get_by_role("link", name=act, exact=True).click()
    page.wait_for_load_state()
    page.get_by_label(re.compile(r"^(Texto|Motivação)")).fill(text)  # a decision's text is its motivation
    if outcome:  # a decision's result; the reconsideration's is its judgement (art. 56 §1º)
        choose(page.get_by_label(re.compile(r"^(Resultado|Juízo de reconsideração)( \*)?$")), outcome)
    if attach:
        field(page, "Anexos").set_input_files(
            {"name": f"{name}.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
    shot(page, f"{name}-form")
    button(page, "Registrar", exact=True)
    if outcome or act == "Decisão definitiva":  # an act that decides or ends the case: confirmed
        no_errors(page)
        shot(page, f"{name}-confirm")
        button(page, "Confirmar", exact=True)
    no_errors(page)
    see(page, re.compile(r"registrad[ao]s? no PA nº"))
    shot(page, name)


def j3_instruction(j: Journey) -> None:
    """The defence (with a document), evidence, and the instruction closed."""
    page = j.page
    open_procedure(page)
    assert next_acts(page) == ["Defesa", "Prova", "Audiência", "Diligência ou prova determinada"], next_acts(
        page
    )
    record(page, "Defesa", "A candidata se reconhece parda; junta fotografias.", "j07-defence", attach=True)
    record(page, "Prova", "Parecer da comissão de heteroidentificação.", "j08-evidence", attach=True)
    record(page, "Encerramento da instrução", "Encerrada a instrução.", "j09-instruction-closed")
    assert "Alegações finais" in next_acts(page), next_acts(page)
    record(page, "Alegações finais", "A candidata reitera a defesa.", "j10-final-statement")


def j4_decision(j: Journey) -> None:
    """The report proposes falsity; the decision confirms it."""
    page = j.page
    open_procedure(page)
    record(page, "Relatório com proposta de decisão", "Propõe-se reconhecer a falsidade.", "j11-report")
    record(
        page,
        "Decisão",
        "Reconhece-se a falsidade da autodeclaração.",
        "j12-decision",
        outcome="Falsidade da autodeclaração confirmada",
    )
    assert next_acts(page) == ["Intimar: intimação da decisão"], next_acts(page)


def notify_in_person(page, text: str, name: str) -> None:
    link(page, "Intimar")
    page.get_by_role("radio", name="Ciência pessoal no processo").check()
    fill(page, {"Texto da intimação": text})
    shot(page, f"{name}-form")
    button(page, "Registrar intimação")
    no_errors(page)
    shot(page, name)


FALSITY = "Falsidade da autodeclaração confirmada"
MAINTAIN = "Manter e encaminhar à instância superior"


def appeal_round(page, n: int) -> None:
    """An appeal: the authority reconsiders and keeps the decision, the superior instance denies it, and
    the candidate is notified of that decision."""
    record(page, "Recurso", f"Recurso nº {n} da candidata.", f"j-appeal-{n}", attach=True)
    record(
        page, "Juízo de reconsideração", "Mantém-se a decisão.", f"j-reconsideration-{n}", outcome=MAINTAIN
    )
    record(page, "Decisão da instância superior", "Nega-se provimento.", f"j-superior-{n}", outcome=FALSITY)
    notify_in_person(page, "Fica intimada da decisão do recurso.", f"j-superior-notice-{n}")


def effects_note(page) -> str:
    return page.get_by_role("region", name="Próximos atos").inner_text()


def j5_appeal(j: Journey) -> None:
    """The decision is notified; the candidate appeals; the authority keeps it, the superior instance too;
    while an appeal is possible, the effects wait (the page says until when)."""
    page = j.page
    open_procedure(page)
    notify_in_person(page, "Fica intimada da decisão; cabe recurso em 10 dias.", "j13-decision-notice")
    see(page, "Intimação da decisão registrada.")
    assert next_acts(page) == ["Recurso"], next_acts(page)
    assert "a decisão só se torna definitiva depois dele" in effects_note(page), effects_note(page)
    assert page.get_by_role("button", name="Aplicar os efeitos").is_disabled()
    appeal_round(page, 1)
    see(page, "Intimação da decisão registrada.")


def j6_final_and_effects(j: Journey) -> None:
    """The last instance (Santa Maria: three) decides the second appeal; the decision is final, its certificate
    recorded, and its effects eliminate the candidate from the lists."""
    page = j.page
    open_procedure(page)
    assert next_acts(page) == ["Recurso"], next_acts(page)
    appeal_round(page, 2)
    assert next_acts(page) == ["Decisão definitiva"], next_acts(page)
    assert "Registre a decisão definitiva." in effects_note(page), effects_note(page)
    record(page, "Decisão definitiva", "Certifica-se o trânsito em julgado administrativo.", "j20-final")
    link(page, "Aplicar os efeitos")
    see(page, "Ao confirmar")
    shot(page, "j21-effects-confirm")
    button(page, "Confirmar", exact=True)
    no_errors(page)
    message = page.get_by_role("status").filter(has_text="Efeitos aplicados.").inner_text()
    assert "Ato público publicado: Eliminação de" in message and "inscrição N3" in message, message
    see(page, re.compile("Encerrado · Falsidade da autodeclaração confirmada"))
    case = page.get_by_role("region", name="O caso").inner_text()
    assert re.search(r"Situação da inscrição\s+Eliminada", case), case
    shot(page, "j21-effects")
    # The registration says so too, where Secretaria reads it.
    open_contest(page)
    link(page, "Inscrições", exact=True)
    row = page.get_by_role("row", name=re.compile(rf"^{SUSPECT}\b"))
    assert "Eliminada" in row.inner_text(), row.inner_text()
    shot(page, "j22-registrations")


JURIDICO = [j1_open, j2_notice, j3_instruction, j4_decision, j5_appeal, j6_final_and_effects]


def test_juridico_from_the_opening_to_the_effects(browser, page, live_server, settings, tmp_path, pages_seen):
    settings.MEDIA_ROOT = tmp_path
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    juridico_world()
    pages_seen.append(page)
    journey = Journey(browser, page, live_server.url)
    login(page, journey.base, "legal")
    for step in JURIDICO:
        step(journey)
    assert journey.problems == []
