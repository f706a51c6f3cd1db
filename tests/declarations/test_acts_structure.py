"""The procedure's acts read as a legal officer signs them, rendered for the demo (``seed_demo``): the Portaria
de instauração (ementa, preamble naming the office, considerandos, RESOLVE, articles), the decisions in
relatório, fundamentação and dispositivo with the right to appeal, the decision on appeal naming the decision
appealed, the certificate of finality and the public act of the effects; the screen shows the PDF's words;
no internal reference, no "(a)" plural, dates written out."""

from __future__ import annotations

import datetime
import html
import io
import re
import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from contests import wording
from contests.documents.edital import law_citation
from contests.documents.signatures import SignatureBlock, signature_block
from contests.models import Contest, Policy
from declarations import deadlines
from declarations.calendars import organization_calendar
from declarations.hetero.documents import basis
from declarations.models import Procedure
from declarations.procedure import documents, services

pytestmark = pytest.mark.django_db
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")
DAY = datetime.timedelta(days=1)


def pdf_words(data: bytes) -> str:
    """The PDF's text without the page header and footer, words joined by one space, hyphenation undone."""
    out = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()
    return " ".join(out.replace("\u2010\n", "").split())


def body_words(data: bytes) -> str:
    """The PDF's words inside the page margins (A4: the running header above 34 mm and the footer below
    26 mm left out), as ``pdf_words`` joins them."""
    crop = ["-x", "0", "-y", "96", "-W", "595", "-H", "672"]
    out = subprocess.run(["pdftotext", *crop, "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(out.stdout.decode().replace("\u2010\n", "").split())


def in_order(text: str, *parts: str) -> None:
    """Each part appears in ``text``, after the one before it."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} não aparece depois da posição {at}: {text[at : at + 300]!r}"
        at = found + len(part)


CLEAN = ("RULES", "(a)", "(s)", "(por cento)", " .", "nº nº")


def assert_clean(text: str) -> None:
    for bad in CLEAN:
        assert bad not in text, bad


@pytest.fixture
def demo_case(settings):
    """The demo's procedure (opened on a complaint, notified in person), carried by the Jurídico demo user
    through defence, decision, appeal, reconsideration, the superior's decision, its notice, the certificate
    of finality and the public act of the effects."""
    settings.DEBUG = True  # the demo with its users, as `make demo` makes it
    call_command("seed_demo", stdout=io.StringIO())
    procedure = Procedure.objects.get(registration__candidate__full_name="Célia Maria Nascimento")
    legal = get_user_model().objects.get(username="juridico")
    start = procedure.acts.get(kind="notice").on

    def record(kind, days, **kw):
        return services.act_record(procedure=procedure, kind=kind, by=legal, today=start + days * DAY, **kw)

    acts = {
        "defence": record("defence", 3, text="Defesa com fotografias.", filed_by="Célia Maria Nascimento"),
        "closed": record("instruction_closed", 5),
    }
    services.notice_send(
        procedure=procedure, by=legal, today=start + 5 * DAY, kind="closing_notice", means="in_person"
    )
    acts["report"] = record("report", 19, text="Proposta: procedência.")
    acts["decision"] = record(
        "decision", 20, outcome="falsity", text="As provas dos autos não confirmam a autodeclaração."
    )
    services.notice_send(procedure=procedure, by=legal, today=start + 21 * DAY, means="in_person")
    acts["appeal"] = record("appeal", 23, text="Recorro.", filed_by="Célia Maria Nascimento")
    acts["reconsideration"] = record("reconsideration", 25, outcome="falsity", text="Mantenho a decisão.")
    acts["superior"] = record("superior_decision", 30, outcome="falsity", text="Nego provimento ao recurso.")
    services.notice_send(procedure=procedure, by=legal, today=start + 31 * DAY, means="in_person")
    acts["final"] = record("final", 45)
    acts["opening"] = procedure.acts.get(kind="opening")
    for act in acts.values():
        act.refresh_from_db()
    effects = services.effects_apply(procedure=procedure, by=legal, today=start + 45 * DAY)
    return procedure, acts, effects, legal


@needs_pdftotext
def test_the_demo_acts_have_the_form_of_acts_of_the_authority(demo_case):
    procedure, acts, effects, legal = demo_case
    # Santa Maria's demo: the President of the Câmara signs every act of the procedure, under the Lei
    # Orgânica; the clerk who records them ("juridico") signs none.
    name, office = documents.signer("opening", on=procedure.opened_on)
    who = documents.authority_preamble(signature_block(name, office, on=procedure.opened_on))
    assert who.startswith(f"O {office.upper()}, no uso das atribuições que lhe confere a Lei Orgânica")
    assert name != legal.get_full_name()
    candidate = procedure.registration.candidate.full_name
    number = procedure.registration.number

    # Portaria de instauração: heading, ementa, preamble naming the office, considerandos, articles.
    opening = pdf_words(bytes(acts["opening"].document.pdf))
    in_order(
        opening,
        f"PORTARIA Nº {procedure.number}/{procedure.year}",
        f"de {wording.date_in_full(procedure.opened_on)}",
        "Instaura processo administrativo para apurar a veracidade da autodeclaração racial prestada por "
        f"{candidate}, inscrição nº {number}",
        f"{who},",
        "CONSIDERANDO a denúncia recebida",
        "CONSIDERANDO que o art. 3º §3º da lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem "
        "número de lei registrado) prevê",
        "Lei Federal nº 9.784, de 29 de janeiro de 1999",
        "RESOLVE:",
        f"Art. 1º Instaurar o Processo Administrativo nº {procedure.number}/{procedure.year}",
        "Parágrafo único. Motivam a instauração os seguintes fatos: Denúncia fictícia",
        "Art. 2º Intime-se o candidato para, no prazo de 10 (dez) dias, contados da ciência da intimação",
        "Art. 3º Confirmada a falsidade",
        "Art. 4º Esta Portaria entra em vigor",
        f"Santa Maria/RS, {wording.date_in_full(procedure.opened_on)}.",
    )
    assert "Denunciante fictício" not in opening  # the complainant is never named (Lei 9.784 art. 46)

    # The notice for the defence: the content of Lei 9.784 art. 26 §1º, the period's last day computed by
    # the deadline engine on the organisation's calendar.
    notice = procedure.acts.get(kind="notice")
    last_day = deadlines.deadline(
        notice.on, 10, deadlines.Unit.DAYS, organization_calendar([notice.on.year, notice.on.year + 1])
    ).last_day
    in_order(
        pdf_words(bytes(notice.document.pdf)),
        "INTIMAÇÃO PARA DEFESA",
        f"Destinatário: {candidate}, inscrição nº {number}",
        f"{who}, nos termos do art. 26",
        f"dá ciência a Vossa Senhoria da instauração do Processo Administrativo nº {procedure.number}/"
        f"{procedure.year}, pela Portaria nº {procedure.number}/{procedure.year}",
        "I – Finalidade: apresentar defesa escrita",
        "II – Prazo: 10 (dez) dias, contados da ciência desta intimação",
        f"com término em {wording.date_in_full(last_day)}.",
        "III – Comparecimento:",
        "IV – Consequências:",
        "V – Fatos e fundamentos: Denúncia fictícia",
    )

    # The decision: relatório, fundamentação, dispositivo, the right to appeal, the signature.
    decision = pdf_words(bytes(acts["decision"].document.pdf))
    in_order(
        decision,
        "DECISÃO",
        f"{who}, profere a seguinte decisão",
        "I – RELATÓRIO",
        f"Em {wording.date_in_full(procedure.opened_on)}, o processo foi instaurado em razão de denúncia",
        "o candidato foi intimado da instauração pessoalmente",
        f"Em {wording.date_in_full(acts['defence'].on)}, foi apresentada defesa escrita por {candidate}.",
        "Decorrido o prazo, não foram apresentadas alegações finais.",
        "com proposta de decisão",
        "É o relatório.",
        "II – FUNDAMENTAÇÃO",
        "O art. 3º §3º da lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei "
        "registrado) prevê",
        "As provas dos autos não confirmam a autodeclaração.",
        "III – DISPOSITIVO",
        f"Ante o exposto, JULGO PROCEDENTE a apuração, para declarar a falsidade da autodeclaração racial "
        f"prestada por {candidate}, inscrição nº {number}, e determinar a sua eliminação do "
        f"{procedure.registration.contest}",
        "Os efeitos desta decisão produzem-se quando ela se tornar definitiva",
        "Intime-se o candidato",
        "Desta decisão cabe recurso, no prazo de 10 (dez) dias contados da ciência da intimação",
        "dirigido à autoridade que a proferiu",
        "no prazo de 5 (cinco) dias, o encaminhará à autoridade superior",
        f"Santa Maria/RS, {wording.date_in_full(acts['decision'].on)}.",
        name,
        office,
    )

    # The reconsideration keeps the decision and forwards the appeal; no intimation, no new appeal.
    reconsideration = pdf_words(bytes(acts["reconsideration"].document.pdf))
    decided = f"a decisão de {wording.date_in_full(acts['decision'].on)}, que julgou procedente a apuração"
    in_order(
        reconsideration,
        "JUÍZO DE RECONSIDERAÇÃO",
        f"apreciando o recurso interposto contra {decided}",
        "I – RELATÓRIO",
        f"Em {wording.date_in_full(acts['appeal'].on)}, foi interposto recurso por {candidate}.",
        "II – FUNDAMENTAÇÃO",
        "III – DISPOSITIVO",
        f"MANTENHO {decided}",
        "ENCAMINHO o recurso à autoridade superior",
    )
    assert "Intime-se" not in reconsideration

    # The decision on appeal names the decision appealed.
    superior = pdf_words(bytes(acts["superior"].document.pdf))
    in_order(
        superior,
        "DECISÃO EM GRAU DE RECURSO",
        f"{who}, apreciando o recurso interposto contra {decided}",
        "I – RELATÓRIO",
        "foi proferido o juízo de reconsideração, que julgou procedente",
        "II – FUNDAMENTAÇÃO",
        "Nego provimento ao recurso.",
        "III – DISPOSITIVO",
        f"CONHEÇO do recurso e NEGO-LHE PROVIMENTO, mantendo {decided}",
        "JULGO PROCEDENTE",
        name,
    )

    # The certificate of finality.
    final = pdf_words(bytes(acts["final"].document.pdf))
    in_order(
        final,
        "CERTIDÃO",
        "CERTIFICO, para os devidos fins, que no Processo Administrativo",
        "transitou em julgado na esfera administrativa a decisão em grau de recurso de "
        f"{wording.date_in_full(acts['superior'].on)}",
        "decorreu o prazo de 10 (dez) dias para recurso, encerrado em",
        "sem a sua interposição",
        "O referido é verdade e dou fé.",
        f"Santa Maria/RS, {wording.date_in_full(acts['final'].on)}.",
        name,
    )

    # The public act of the effects: the authority, RESOLVE, articles; nothing of the procedure's content.
    public = pdf_words(bytes(effects.document.pdf))
    in_order(
        public,
        "ATO DE ELIMINAÇÃO",
        f"{who}, tendo em vista a decisão proferida no "
        f"Processo Administrativo nº {procedure.number}/{procedure.year}",
        "RESOLVE:",
        f"Art. 1º Eliminar {candidate}, inscrição nº {number}, do {procedure.registration.contest}",
        "Art. 2º Este ato entra em vigor na data de sua publicação.",
        name,
        office,
    )
    for secret in ("Denúncia", "parda", "fotografias", "provas", procedure.registration.candidate.cpf):
        assert secret not in public

    for text in (opening, decision, reconsideration, superior, final, public):
        assert_clean(text)


@needs_pdftotext
def test_the_screen_shows_the_words_of_the_pdf(demo_case):
    _procedure, acts, _effects, _legal = demo_case
    for key in ("opening", "decision", "superior", "final"):
        act = acts[key]
        screen = re.sub(r"<[^>]+>", " ", documents.act_document(act))
        screen = " ".join(html.unescape(screen).split())
        pdf = body_words(bytes(act.document.pdf))
        # The screen opens with the organisation (the PDF's page header) and the PDF ends with the
        # restricted-access note; the act's own words are the same (headings in capitals in print).
        screen_act = screen[screen.index("Processo Administrativo nº") :]
        pdf_act = pdf[: pdf.index("Documento de acesso restrito")].strip()
        assert screen_act.casefold() == pdf_act.casefold(), key


def test_the_law_is_cited_as_enacted_and_a_bill_is_called_what_it_is():
    """The procedure's acts cite the law in the words of every other act (``heading.law_citation``)."""
    enacted = Policy(
        act_kind=Policy.ActKind.LEI, act_number="6.123/2022", publication_date=datetime.date(2022, 3, 1)
    )
    enacted.citation_falsity = "art. 3º §3º"
    assert documents.falsity_basis(enacted) == "art. 3º §3º da Lei Municipal nº 6.123, de 1º de março de 2022"
    decree = Policy(act_kind=Policy.ActKind.DECRETO, act_number="10/2023")
    assert documents.falsity_basis(decree) == "Decreto Municipal nº 10/2023"
    decree.citation_falsity = "art. 2º"
    assert documents.falsity_basis(decree) == "art. 2º do Decreto Municipal nº 10/2023"
    bill = Policy(
        act_kind=Policy.ActKind.PROJETO_DE_LEI, act_number="9247/2021", citation_falsity="art. 3º §3º"
    )
    assert documents.falsity_basis(bill) == (
        "art. 3º §3º da lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"
    )


def test_the_edital_the_procedure_and_the_commission_cite_the_law_in_the_same_words():
    """One home for the law's citation (issue 20): the edital's ``law_citation``, the procedure's
    ``falsity_basis`` and the commission's ``basis`` read it from ``heading.law_citation``."""
    for policy in (
        Policy(
            act_kind=Policy.ActKind.LEI, act_number="6.123/2022", publication_date=datetime.date(2022, 3, 1)
        ),
        Policy(act_kind=Policy.ActKind.PROJETO_DE_LEI, act_number="094/2015"),
    ):
        citation = law_citation(policy)
        assert documents.falsity_basis(policy) == citation
        contest = Contest(policy=policy, title="Concurso", number=3, year=2026)
        assert basis(contest).endswith(f" e {'da' if citation[:3].lower() == 'lei' else 'do'} {citation}")


@pytest.mark.parametrize(
    ("office", "competence", "preamble"),
    [
        (
            "Presidente da Câmara Municipal de Santa Maria",
            "",
            "O PRESIDENTE DA CÂMARA MUNICIPAL DE SANTA MARIA, no uso de suas atribuições legais",
        ),
        ("Prefeita Municipal", "Lei Orgânica do Município, art. 69", "A PREFEITA MUNICIPAL, no uso das "
         "atribuições que lhe confere a Lei Orgânica do Município, art. 69"),
        ("Secretário de Administração", "Decreto nº 5/2025 (delegação de competência)", "O SECRETÁRIO DE "
         "ADMINISTRAÇÃO, no uso das atribuições que lhe confere o Decreto nº 5/2025 (delegação de competência)"),
        ("Diretor-Geral", "Delegação nº 3", "O DIRETOR-GERAL, no uso das atribuições que lhe são conferidas "
         "por Delegação nº 3"),
    ],
)  # fmt: skip
def test_the_preamble_names_the_signers_office_and_competence(office, competence, preamble):
    assert documents.authority_preamble(SignatureBlock("Fulano", office, competence=competence)) == preamble
