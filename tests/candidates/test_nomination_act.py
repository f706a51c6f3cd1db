"""The Portaria de nomeação as a legal officer reads it (heading, ementa, the authority's preamble, one
article per position, the deadline to take office, entry into force, place and date, signature) and the
letter that tells a nominee of it. Read from the PDF with pdftotext."""

import datetime
import re
import shutil
import subprocess
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from candidates import documents
from candidates.acts import ActName, article_label, by, with_article
from candidates.models import Nomination, Registration
from candidates.services.nominations import nomination_withdraw, nominations_call
from candidates.tasks import nomination_message
from contests.documents.signatures import signatory_for
from contests.models import Contest, Organization, Position, Signatory
from contests.services import vacancy_opening_create
from tests.builders import make_classified_position, make_contest, make_signatory, publish_final

pytestmark = pytest.mark.django_db
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")

DAY = datetime.date(2026, 12, 1)
PRESIDENT = "Presidente da Câmara Municipal de Vereadores de Santa Maria"
# What no act prints: an internal reference, a "(a)"/"(s)" plural, the old form of the act.
FORBIDDEN = re.compile(r"RULES|\((?:a|s|as|os|es)\)|RESOLVE NOMEAR|ATO DE NOMEAÇÃO")


def pdf_text(data: bytes) -> str:
    result = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    # A word hyphenated at the end of a line (U+2010, then the line break) is read whole.
    return " ".join(result.stdout.decode().replace("\u2010\n", "").split())


def in_order(text: str, *parts: str) -> None:
    """Each of ``parts`` is in ``text``, each after the one before."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} missing after position {at}: {text[at : at + 300]!r}"
        at = found + len(part)


@pytest.fixture
def santa_maria(cast):
    Organization.objects.create(
        name="Câmara Municipal de Vereadores de Santa Maria", municipality="Santa Maria", state="RS"
    )
    contest = make_contest(
        number="1",
        pcd_percent=0,
        office_place="Setor de Pessoal da Câmara\nRua da Demonstração, 100, 2º andar\n(55) 3000-0002",
        office_requirements="Carteira de identidade e CPF\n- Comprovante de escolaridade\n\n"
        "Atestado de saúde ocupacional (exame médico admissional)",
    )
    position = make_classified_position(contest, code="ANSI", title="Analista")
    publish_final(contest, cast["manager"])
    return Contest.objects.get(pk=contest.pk), position


def call(position, cast, count, act_number, **extra):
    return nominations_call(
        position=position, count=count, by=cast["clerk"], act_number=act_number, act_date=DAY, **extra
    )


def publish(contest, cast, act_number):
    return documents.nomination_act_publish(
        contest=contest,
        act_number=act_number,
        by=cast["manager"],
        signer_name="Ana Souza",
        signer_office=PRESIDENT,
    )


@needs_pdftotext
def test_collective_portaria_reads_heading_ementa_preamble_articles_deadline_and_signature(santa_maria, cast):
    contest, position = santa_maria
    call(position, cast, 3, "Portaria nº 50/2026")
    text = pdf_text(bytes(publish(contest, cast, "Portaria nº 50/2026").pdf))
    # The builders number their candidates from a database sequence: the names are read back.
    first, third = (
        Registration.objects.get(contest=contest, number=number).candidate.full_name.upper()
        for number in ("A", "N2")
    )
    in_order(
        text,
        "PORTARIA Nº 50/2026, DE 1º DE DEZEMBRO DE 2026",
        "Nomeia candidatos aprovados no Concurso Público nº 1/2026, regido pelo Edital de Abertura nº 1/2026.",
        "O PRESIDENTE DA CÂMARA MUNICIPAL DE VEREADORES DE SANTA MARIA, no uso de suas atribuições legais, "
        "e tendo em vista o resultado final do Concurso Público nº 1/2026, homologado "
        f"{by(contest.homologation_act)}, de 1º de junho de 2026,",
        "RESOLVE:",
        "Art. 1º Nomear, para o cargo de provimento efetivo de Analista, sob o regime jurídico estatutário, em "
        "virtude de aprovação no Concurso Público nº 1/2026, regido pelo Edital de Abertura nº 1/2026, nas "
        "classificações, nas listas e nas vagas indicadas, observada a ordem de nomeação prevista no art. 5º",
        f"I – {first}, inscrição nº A, 1º lugar na lista geral (ampla concorrência, cotistas incluídos), para "
        "a 1ª vaga do cargo (ampla concorrência), vaga prevista no Edital de Abertura nº 1/2026;",
        "II – ",
        f"III – {third}, inscrição nº N2, 2º lugar na lista reservada a negros, para a 3ª vaga do cargo "
        "(reservada a negros), vaga prevista no Edital de Abertura nº 1/2026.",
        "Art. 2º O prazo para a posse é de 30 (trinta) dias, contados da publicação desta Portaria, nos termos do "
        "Estatuto dos Servidores do Município.",
        "Parágrafo único. A posse depende de prévia inspeção médica oficial",
        "Art. 3º Esta Portaria entra em vigor na data de sua publicação.",
        "Santa Maria/RS, 1º de dezembro de 2026.",
        "Ana Souza",
        PRESIDENT,
    )
    assert not FORBIDDEN.search(text)


@needs_pdftotext
def test_a_portaria_of_one_nominee_names_the_cause_of_a_reopened_seat(santa_maria, cast):
    contest, position = santa_maria
    called = call(position, cast, 2, "Portaria nº 50/2026")
    statement = SimpleUploadedFile("termo.pdf", b"%PDF-1.4 termo", content_type="application/pdf")
    nomination_withdraw(nomination=called[1], statement_file=statement, by=cast["clerk"], date=DAY)
    call(position, cast, 1, "Portaria nº 51/2026")
    withdrawn = called[1].registration.candidate.display_name.upper()
    text = pdf_text(bytes(publish(contest, cast, "Portaria nº 51/2026").pdf))
    in_order(
        text,
        "PORTARIA Nº 51/2026",
        "Nomeia, para o cargo de provimento efetivo de Analista, em virtude de aprovação no Concurso Público "
        "nº 1/2026, regido pelo Edital de Abertura nº 1/2026.",
        "RESOLVE:",
        "na classificação, na lista e na vaga indicadas",
        f"para a 2ª vaga do cargo (ampla concorrência), em decorrência da desistência de {withdrawn}.",
        "Art. 2º O prazo para a posse",
    )
    assert "I – " in text and "II – " not in text
    assert not FORBIDDEN.search(text)


@needs_pdftotext
def test_a_vacancy_opened_during_the_validity_is_named_with_its_act(santa_maria, cast):
    contest, position = santa_maria
    call(position, cast, 5, "Portaria nº 50/2026")  # the edital's five vacancies
    vacancy_opening_create(
        position=position,
        by=cast["clerk"],
        data={"kind": "later", "count": 1, "date": datetime.date(2026, 11, 20), "act": "Lei nº 100/2026"},
    )
    call(position, cast, 1, "Portaria nº 51/2026")
    text = pdf_text(documents.render_nomination_act(contest, "Portaria nº 51/2026"))
    in_order(
        text,
        "para a 6ª vaga do cargo (",
        "), vaga aberta durante a validade do concurso pela Lei nº 100/2026, em 20 de novembro de 2026.",
    )


@needs_pdftotext
def test_regime_post_kind_deadline_and_its_basis_come_from_the_contest_and_the_position(santa_maria, cast):
    contest, position = santa_maria
    Position.objects.filter(pk=position.pk).update(
        post_kind=Position.PostKind.EMPREGO_PUBLICO,
        legal_regime="celetista (Consolidação das Leis do Trabalho)",
    )
    Contest.objects.filter(pk=contest.pk).update(
        office_deadline_days=15,
        office_deadline_basis="do art. 13 da Lei Complementar nº 90/2012",
        office_requirements="",
    )
    call(position, cast, 1, "Decreto 7/2026")
    text = pdf_text(documents.render_nomination_act(Contest.objects.get(pk=contest.pk), "Decreto 7/2026"))
    in_order(
        text,
        "DECRETO Nº 7/2026",
        "Nomear, para o emprego público de Analista, sob o regime jurídico celetista (Consolidação das Leis do "
        "Trabalho),",
        "O prazo para a posse é de 15 (quinze) dias, contados da publicação deste Decreto, nos termos do art. 13 "
        "da Lei Complementar nº 90/2012.",
        "Este Decreto entra em vigor na data de sua publicação.",
    )
    assert "Parágrafo único" not in text  # no documents recorded: the act announces none


@needs_pdftotext
def test_the_draft_is_signed_by_the_authority_recorded_for_nomination_acts(santa_maria, cast):
    contest, position = santa_maria
    make_signatory(Signatory.Kind.NOMINATION_ACT, "Bruno Lima", "Prefeita em exercício")
    call(position, cast, 1, "Portaria nº 50/2026")
    text = pdf_text(documents.render_nomination_act(contest, "Portaria nº 50/2026"))
    in_order(
        text,
        "A PREFEITA EM EXERCÍCIO",
        "no uso de suas atribuições legais",
        "RESOLVE:",
        "Bruno Lima",
        "Prefeita em exercício",
    )
    assert "MINUTA" in text


@pytest.mark.parametrize(
    ("typed", "heading", "this", "of_this"),
    [
        ("50/2026", "PORTARIA Nº 50/2026", "Esta Portaria", "desta Portaria"),
        ("Portaria 10/2026", "PORTARIA Nº 10/2026", "Esta Portaria", "desta Portaria"),
        ("Portaria nº 50/2026", "PORTARIA Nº 50/2026", "Esta Portaria", "desta Portaria"),
        ("portaria n.º 50/2026", "PORTARIA Nº 50/2026", "Esta portaria", "desta portaria"),
        ("Ato da Mesa 7", "ATO DA MESA Nº 7", "Este Ato da Mesa", "deste Ato da Mesa"),
        ("Decreto 12", "DECRETO Nº 12", "Este Decreto", "deste Decreto"),
    ],
)
def test_the_act_names_itself_from_the_number_typed(typed, heading, this, of_this):
    name = ActName.parse(typed)
    assert (name.heading, name.this, name.of_this) == (heading, this, of_this)


def test_acts_take_their_article_and_number_their_articles_as_lc_95_asks():
    assert with_article("Lei Orgânica do Município, art. 35") == "a Lei Orgânica do Município, art. 35"
    assert with_article("Portaria nº 12/2025 (delegação de competência)").startswith("a Portaria")
    assert by("Ato da Mesa nº 7/2026") == "pelo Ato da Mesa nº 7/2026"
    assert by("Resolução nº 3") == "pela Resolução nº 3"
    assert [article_label(n) for n in (1, 9, 10, 11)] == ["Art. 1º", "Art. 9º", "Art. 10.", "Art. 11."]


# The letter ------------------------------------------------------------------------------------------------


@needs_pdftotext
def test_the_letter_lists_documents_examination_place_and_deadline_and_claims_the_portal_only_once_published(
    santa_maria, cast
):
    contest, position = santa_maria
    (nomination,) = call(position, cast, 1, "Portaria nº 50/2026", gazette_edition="Diário Oficial nº 431")
    draft = pdf_text(documents.render_nomination_letter(nomination))
    in_order(
        draft,
        "Comunicamos a sua nomeação para o cargo de provimento efetivo de Analista (código ANSI), em virtude de "
        "aprovação no Concurso Público nº 1/2026, em 1º lugar na lista geral",
        "pela Portaria nº 50/2026, de 1º de dezembro de 2026, publicada no Diário Oficial nº 431.",
        "PRAZO PARA A POSSE",
        "até 31 de dezembro de 2026, 30 (trinta) dias contados da publicação",
        "DOCUMENTOS E EXAMES PARA A POSSE",
        "Carteira de identidade e CPF;",
        "Comprovante de escolaridade;",
        "Atestado de saúde ocupacional (exame médico admissional).",
        "prévia inspeção médica oficial (exame médico admissional)",
        "ONDE SE APRESENTAR",
        "Setor de Pessoal da Câmara Rua da Demonstração, 100, 2º andar (55) 3000-0002",
        "Santa Maria/RS, 1º de dezembro de 2026.",
    )
    assert "pode ser conferida no portal" not in draft
    email = nomination_message(nomination).body
    in_order(
        email, "Comunicamos a sua nomeação", "Carteira de identidade e CPF", "Setor de Pessoal da Câmara"
    )
    assert not FORBIDDEN.search(email) and "Prezado" not in email
    assert not FORBIDDEN.search(draft) and "Sr(a)" not in draft and "Prezado" not in draft
    document = publish(contest, cast, "Portaria nº 50/2026")
    published = pdf_text(documents.render_nomination_letter(Nomination.objects.get(pk=nomination.pk)))
    assert (
        f"A Portaria nº 50/2026 foi publicada e pode ser conferida no portal do concurso, com o código de "
        f"verificação {document.code}" in published
    )


# The demo --------------------------------------------------------------------------------------------------


@needs_pdftotext
def test_the_demo_portaria_names_one_article_per_position_and_its_signer(settings):
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    contest = Contest.objects.get(slug="demo-santa-maria-concluido")
    act_number = Nomination.objects.filter(position__contest=contest).values_list("act_number", flat=True)[0]
    block = signatory_for(Signatory.Kind.NOMINATION_ACT, on=timezone.localdate())
    name, office = block.name, block.office
    text = pdf_text(documents.render_nomination_act(contest, act_number))
    in_order(
        text,
        ActName.parse(act_number).heading,
        "Nomeia candidatos aprovados no Concurso Público nº 1/",
        f"{office.upper()}, no uso das atribuições que lhe confere",
        "RESOLVE:",
        "Art. 1º Nomear, para o cargo de provimento efetivo de Auxiliar Administrativo, sob o regime jurídico "
        "estatutário",
        "I – ",
        "Art. 2º Nomear, para o cargo de provimento efetivo de Motorista",
        "Art. 3º O prazo para a posse é de 30 (trinta) dias",
        "Art. 4º Esta Portaria entra em vigor na data de sua publicação.",
        "Santa Maria/RS,",
        name,
        office,
    )
    assert not FORBIDDEN.search(text)
    letter = pdf_text(
        documents.render_nomination_letter(Nomination.objects.filter(position__contest=contest)[0])
    )
    in_order(
        letter, "DOCUMENTOS E EXAMES PARA A POSSE", "Carteira de identidade e CPF;", "ONDE SE APRESENTAR"
    )


def test_a_nomination_under_a_court_order_cites_the_case_precariously(cast):
    """Issue 22 (STF Tema 476): a nomination held under a court order in force says so in the act; once the
    order is revoked the act no longer cites it."""
    import datetime

    from django.utils import timezone

    from candidates.services.nominations import nominations_call
    from declarations.courts import services as court_services
    from tests.builders import make_classified_position, make_contest, publish_final
    from tests.declarations.courts_world import CASE_NUMBER, make_court_order

    contest = make_contest(pcd_percent=0)
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position,
        count=3,
        by=cast["clerk"],
        act_number="Portaria 60/2026",
        act_date=timezone.localdate() - datetime.timedelta(days=5),
    )
    order = make_court_order(contest, cast["legal"], [position.registrations.get(number="N2")])
    text = " ".join(pdf_text(documents.render_nomination_act(contest, "Portaria 60/2026")).split())
    cited = f"em cumprimento à decisão proferida nos autos nº {CASE_NUMBER}, precariamente"
    assert text.count(cited) == 1
    today = timezone.localdate()
    court_services.court_order_status(
        order=order, status="revoked", decided_on=today, note="Revogada.", by=cast["legal"], today=today
    )
    text = " ".join(pdf_text(documents.render_nomination_act(contest, "Portaria 60/2026")).split())
    assert "precariamente" not in text
