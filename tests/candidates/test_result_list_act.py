"""A result list as the act an officer signs (issue 20): "Edital nº 3/2026 – Resultado preliminar", the
authority's opening, the appeal deadline (the deadline engine, from the contest's or the policy's period)
and channel of a preliminary result, the gazette, the signature after the last list; the edital number
suggested on the publish form and refused when already used."""

import shutil
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from candidates import documents
from candidates.services.results import result_run_compute, result_run_publish
from contests.documents.services import edital_number_refusal, suggested_edital_number
from contests.models import Document
from contests.wording import date_in_full
from declarations.calendars import organization_calendar, years_for
from declarations.deadlines import Unit, deadline
from tests.builders import make_classified_position, make_contest, publish_final
from tests.pages import forms_on

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente"),
]


def words(data: bytes) -> str:
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return " ".join(out.stdout.decode().replace("\u2010\n", "").split())


def preliminary(cast, **contest):
    contest = make_contest(pcd_percent=0, **contest)
    make_classified_position(contest, code="ANSI", title="Analista")
    run = result_run_compute(contest=contest, by=cast["manager"])
    return contest, result_run_publish(run=run, kind="preliminary", by=cast["manager"])


def test_a_preliminary_list_is_titled_opened_dated_for_appeal_and_signed(cast):
    contest, run = preliminary(cast, appeal_channel="por requerimento no portal do concurso")
    document = documents.result_list_publish(
        run=run,
        by=cast["manager"],
        signer_name="Ana Souza",
        signer_office="Presidente da Câmara Municipal",
        edital_number="903/2026",
        gazette_edition="Diário Oficial do Município nº 100",
        gazette_page="3",
    )
    text = words(bytes(document.pdf))
    assert document.title == "Edital nº 903/2026 – Resultado preliminar"
    assert "EDITAL Nº 903/2026 – RESULTADO PRELIMINAR" in text
    assert (
        "O PRESIDENTE DA CÂMARA MUNICIPAL, no uso de suas atribuições legais, torna público o resultado "
        f"preliminar do Concurso Público nº {contest.number}/2026, regido pelo Edital de Abertura nº "
        f"{contest.number}/2026" in text
    )
    # The policy's appeal period (Lei 9.784 art. 59: 10 days), counted by the deadline engine.
    published = timezone.localdate(run.published_at)
    last = deadline(
        published, 10, Unit.DAYS, organization_calendar(years_for(published, 10, Unit.DAYS))
    ).last_day
    assert (
        "Do resultado preliminar caberá recurso no prazo de 10 (dez) dias, contados do dia seguinte ao da "
        f"publicação, até {date_in_full(last)}, por requerimento no portal do concurso." in text
    )
    assert "Publicado no Diário Oficial do Município nº 100, página 3." in text
    assert text.index("Lista reservada a negros") < text.index(f"{date_in_full(published)}. Ana Souza")
    assert "Ana Souza Presidente da Câmara Municipal" in text
    for leftover in ("LISTAS DE CLASSIFICAÇÃO", "PUBLICADO EM", "RULES", "(a)", "(s)"):
        assert leftover not in text


def test_the_contest_period_in_business_days_is_counted_by_the_engine(cast):
    _contest, run = preliminary(cast, result_appeal_days=2, result_appeal_business_days=True)
    published = timezone.localdate(run.published_at)
    last = deadline(
        published, 2, Unit.BUSINESS_DAYS, organization_calendar(years_for(published, 2, Unit.BUSINESS_DAYS))
    ).last_day
    assert documents.appeal_deadline(run, published) == last
    text = words(documents.render_result_list(run))
    assert (
        f"no prazo de 2 (dois) dias úteis, contados do dia seguinte ao da publicação, até {date_in_full(last)}"
        in text
    )


def test_a_final_list_states_no_appeal(cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, code="ANSI", title="Analista")
    run = publish_final(contest, cast["manager"])
    document = documents.result_list_publish(
        run=run,
        by=cast["manager"],
        signer_name="Ana Souza",
        signer_office="Presidente",
        edital_number="904/2026",
    )
    text = words(bytes(document.pdf))
    assert document.title == "Edital nº 904/2026 – Resultado final"
    assert "torna público o resultado final" in text and "caberá recurso" not in text


def test_the_edital_number_is_suggested_and_a_used_one_refused(cast):
    contest, run = preliminary(cast)
    first = suggested_edital_number(2026)
    assert first == f"{int(contest.number) + 1}/2026"  # after the contest's own opening edital
    documents.result_list_publish(run=run, by=cast["manager"], signer_name="A", signer_office="B")
    assert Document.objects.get(kind=Document.Kind.RESULT_LIST).number == first  # empty: the suggestion
    assert suggested_edital_number(2026) == f"{int(contest.number) + 2}/2026"
    other, other_run = preliminary(cast)
    refusal = edital_number_refusal(first, contest=other, kind=Document.Kind.RESULT_LIST, subject="run-x")
    assert refusal == f"O Edital nº {first} já foi publicado: informe outro número."
    assert "edital de abertura" in edital_number_refusal(
        f"{other.number}/2026", contest=other, kind=Document.Kind.RESULT_LIST, subject="run-x"
    )
    assert "formato" in edital_number_refusal("três", contest=other, kind="result_list", subject="x")
    with pytest.raises(ValidationError):
        documents.result_list_publish(
            run=other_run, by=cast["manager"], signer_name="A", signer_office="B", edital_number=first
        )


def test_the_publish_form_brings_the_next_edital_number(client, cast):
    contest = make_contest(pcd_percent=0)
    make_classified_position(contest, code="ANSI", title="Analista")
    run = result_run_compute(contest=contest, by=cast["manager"])
    client.force_login(cast["manager"])
    page = client.get(reverse("candidates:result_detail", args=[contest.slug, run.pk])).content.decode()
    form = next(f for f in forms_on(page) if "edital_number" in f.values)
    assert form.values["edital_number"] == suggested_edital_number(timezone.localdate().year)
