"""The edital as a legal officer reads it (issue 20): the preamble with the authority that acts, the law as
enacted (or plainly the bill), chapters and clauses, numbers and percentages in words, dates written out,
one preamble, and the signature block. Rendered for the demo and read back with pdftotext."""

import datetime
import io
import shutil

import pytest
from django.core.management import call_command

from contests.documents import edital, heading
from contests.documents.services import edital_publish, edital_rectify, edital_text_save
from contests.models import Contest, Policy
from contests.wording import date_in_full
from tests.contests.test_documents import ready_contest, words

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente"),
]


@pytest.fixture
def demo():
    call_command("seed_demo", stdout=io.StringIO())
    return Contest.objects.select_related("policy").get(slug="demo-santa-maria")


def test_the_demo_edital_has_the_structure_of_an_act(demo):
    text = words(edital.render_edital(demo))
    preamble = text.split("1. DOS CARGOS E DAS VAGAS")[0]
    assert (
        "O PRESIDENTE DA CÂMARA MUNICIPAL DE VEREADORES DE SANTA MARIA, no uso das atribuições que lhe confere a "
        "Lei Orgânica do Município de Santa Maria, torna pública a "
        "abertura das inscrições do Concurso Público nº 2/" in preamble
    )
    assert "destinado ao provimento de 22 (vinte e duas) vagas" in preamble
    # The demo's policy records the bill only: the edital says so plainly.
    assert (
        "pela lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"
        in preamble
    )
    assert "que reserva a negros 20% (vinte por cento) das vagas" in preamble
    chapters = ["1. DOS CARGOS E DAS VAGAS", "2. DA RESERVA DE VAGAS A NEGROS", "3. DA RESERVA DE VAGAS A"]
    positions = [text.index(c) for c in chapters]
    assert positions == sorted(positions)
    assert "2.1 Ficam reservadas a negros 20% (vinte por cento) das vagas" in text
    assert "3.1 Ficam reservadas a pessoas com deficiência 5% (cinco por cento)" in text
    assert f"As inscrições ficarão abertas de {date_in_full(demo.registration_start)}" in text
    closing = (
        f"Santa Maria, {date_in_full(demo.edital_date)}. Ricardo Almeida Prates Presidente da "
        "Câmara Municipal de Vereadores de Santa Maria Lei Orgânica do Município de Santa Maria"
    )
    assert closing in text
    assert "Do resultado preliminar caberá recurso no prazo de 10 (dez) dias" in text
    for leftover in (
        "RULES",
        "(por cento)",
        "(a)",
        "(s)",
        "→",
        "vaga de número s",
        "indígena",
        "pelo sistema",
    ):
        assert leftover not in text


def test_the_edital_cites_the_law_as_enacted_and_the_check_warns_of_a_bill(demo):
    warnings = [p.where for p in edital.check(demo).warnings]
    assert "Lei citada" in warnings
    Policy.objects.filter(pk=demo.policy_id).update(
        act_kind=Policy.ActKind.LEI, act_number="6.123/2021", publication_date=datetime.date(2021, 12, 1)
    )
    demo.refresh_from_db()
    text = words(edital.render_edital(demo))
    assert "pela Lei Municipal nº 6.123, de 1º de dezembro de 2021, que reserva a negros" in text
    assert "nos termos do art. 1º da Lei Municipal nº 6.123, de 1º de dezembro de 2021" in text
    assert "Projeto de Lei" not in text
    assert "Lei citada" not in [p.where for p in edital.check(demo).warnings]


def test_the_free_preamble_is_folded_into_the_one_preamble(demo):
    edital_text_save(
        contest=demo,
        by=None,
        data={"preamble_extra": "considerando o Ato da Mesa nº 5/2026, que autoriza o concurso"},
    )
    text = words(edital.render_edital(demo))
    assert (
        "no uso das atribuições que lhe confere a Lei Orgânica do Município de Santa Maria, considerando o Ato da "
        "Mesa nº 5/2026, que autoriza o concurso, "
        "torna pública a abertura" in text
    )
    edital_text_save(
        contest=demo, by=None, data={"preamble_extra": "A entidade realizadora é a Fundação Exemplo"}
    )
    text = words(edital.render_edital(demo))
    assert (
        "quanto à reserva a pessoas com deficiência. A entidade realizadora é a Fundação Exemplo. 1. DOS"
        in text
    )
    assert text.count("torna pública") == 1


def test_a_rectification_says_which_it_is_what_it_changes_and_is_dated_that_day():
    contest = ready_contest()
    edital_publish(contest=contest, by=None)
    edital_text_save(contest=contest, by=None, data={"exam_content": "Prova objetiva de 50 questões."})
    document = edital_rectify(contest=contest, by=None, summary="Número de questões da prova")
    text = words(bytes(document.pdf))
    assert "torna pública a Retificação nº 1 do Edital de Abertura nº" in text
    assert (
        "que altera o seguinte: Número de questões da prova. O edital passa a vigorar com a redação" in text
    )
    assert "Texto consolidado pela Retificação nº 1, de" in text


@pytest.mark.parametrize(
    ("office", "organization", "municipality", "expected"),
    [
        (
            "Presidente da Câmara Municipal",
            "Câmara Municipal de Santa Maria",
            "Santa Maria",
            "O PRESIDENTE DA CÂMARA MUNICIPAL DE SANTA MARIA",
        ),
        (
            "Prefeito de Angra dos Reis",
            "Prefeitura Municipal de Angra dos Reis",
            "Angra dos Reis",
            "O PREFEITO DE ANGRA DOS REIS",
        ),
        (
            "Prefeita Municipal",
            "Prefeitura Municipal de Angra dos Reis",
            "Angra dos Reis",
            "A PREFEITA MUNICIPAL DE ANGRA DOS REIS",
        ),
        (
            "Diretor-Geral",
            "Câmara Municipal de Santa Maria",
            "Santa Maria",
            "O DIRETOR-GERAL DA CÂMARA MUNICIPAL DE SANTA MARIA",
        ),
        ("", "Câmara Municipal de Santa Maria", "Santa Maria", "A CÂMARA MUNICIPAL DE SANTA MARIA"),
    ],
)
def test_the_authority_heading(office, organization, municipality, expected):
    assert (
        heading.authority_heading(office, organization_name=organization, municipality=municipality)
        == expected
    )


@pytest.mark.parametrize(
    ("kind", "number", "published", "expected"),
    [
        (
            "lei",
            "6.123/2021",
            datetime.date(2021, 12, 1),
            "Lei Municipal nº 6.123, de 1º de dezembro de 2021",
        ),
        (
            "lei_complementar",
            "12",
            datetime.date(2022, 3, 15),
            "Lei Complementar Municipal nº 12, de 15 de março de 2022",
        ),
        (
            "projeto_de_lei",
            "9247/2021",
            None,
            "lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)",
        ),
        ("lei", "6.123", None, "Lei Municipal nº 6.123"),
    ],
)
def test_the_law_citation(kind, number, published, expected):
    assert heading.law_citation(kind, number, published) == expected
