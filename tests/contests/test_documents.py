"""The edital and published documents: generated PDF text, publication, rectification, verification,
immutability and the PAdES signature (pdftotext from poppler-utils; CI installs it)."""

import datetime
import io
import re
import shutil
import subprocess

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from candidates.engine import schedule
from candidates.engine_params import params_for_position
from contests.documents import chapter, edital, signing
from contests.documents.models import Document
from contests.documents.services import edital_publish, edital_rectify, edital_text_save, verify_file
from contests.models import Contest
from tests import builders

pytestmark = pytest.mark.django_db
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils ausente")

SCHEDULE = (
    "02/03/2026 – Publicação do edital\n09/03/2026 a 08/04/2026 – Inscrições\n10/05/2026 – Prova objetiva"
)


def pdf_text(data: bytes) -> str:
    result = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
    return result.stdout.decode()


def words(data: bytes) -> str:
    """The PDF's words on one line, without the draft's watermark (its letters land between lines) and with
    the words hyphenated at a line's end joined again."""
    lines = [line for line in pdf_text(data).splitlines() if not re.fullmatch(r"\s*[MINUTA ]{1,12}\s*", line)]
    return " ".join(re.sub(r"\u2010\s*\n\s*", "", "\n".join(lines)).split())


def ready_contest(**overrides):
    contest = builders.make_contest(**overrides)
    builders.make_position(contest, vacancies=13, code="ANSI", title="Analista")
    builders.make_position(contest, vacancies=7, code="TLEG", title="Técnico")
    edital_text_save(
        contest=contest,
        by=None,
        data={
            "schedule": SCHEDULE,
            "exam_content": "Prova objetiva de 60 questões.",
            "signer_name": "Maria da Silva",
            "signer_office": "Presidente da Câmara",
        },
    )
    return contest


@needs_pdftotext
@pytest.mark.parametrize(
    ("slug", "organization"), [("demo-santa-maria", "santa-maria"), ("demo-angra", "angra")]
)
def test_edital_command_prints_percent_counts_and_seats(slug, organization, tmp_path):
    call_command("seed_demo", "--organization", organization, stdout=io.StringIO())
    contest = Contest.objects.get(slug=slug)
    out = tmp_path / "x.pdf"
    call_command("edital", slug, "-o", str(out), stdout=io.StringIO())
    text = words(out.read_bytes())
    assert "20% (vinte por cento)" in text and "(por cento)" not in text
    for position in contest.positions.all():
        reservation = position.reservation()
        kinds = schedule.schedule(params_for_position(position), position.vacancies)
        if reservation.racial:
            assert (
                f"{position.code} – {position.title}: {chapter.count(position.vacancies, 'vaga', 'vagas')}, "
                f"das quais {chapter.count(reservation.racial, 'reservada', 'reservadas')} a "
                f"{contest.policy.group_label}" in text
            )
        racial = [s for s, k in enumerate(kinds, 1) if k == schedule.RACIAL]
        if racial:
            assert f"{chapter.seats_in_words(racial)}, a {contest.policy.group_label}" in text
    if slug == "demo-angra":
        assert "5ª (quinta) vaga de cada grupo de 5 (cinco)" in text
        assert "a 15ª, a 20ª e a 25ª vagas" in text  # the first 25 seats: every fifth
    else:
        assert "a 3ª, a 8ª e a 13ª vagas" in text  # ANSI, 13 vacancies: proportional
    for leftover in ("RULES", "(a)", "(s)", "→", "vaga de número s"):
        assert leftover not in text


def test_check_blocks_a_placeholder_and_says_where():
    contest = ready_contest()
    edital_text_save(contest=contest, by=None, data={"exam_content": "Conteúdo:\nTaxa de R$ XX,00."})
    report = edital.check(contest)
    assert [p.where for p in report.blocking] == ["Provas, linha 2"]
    with pytest.raises(ValidationError) as error:
        edital_publish(contest=contest, by=None)
    assert "Provas, linha 2" in str(error.value)
    assert not Document.objects.exists()
    contest.refresh_from_db()
    assert contest.status == Contest.Status.DRAFT


def test_publish_rectify_verify_and_tamper():
    manager = builders.make_cast()["manager"]
    contest = ready_contest()
    first = edital_publish(contest=contest, by=manager, gazette_edition="DOM nº 100", gazette_page="3")
    contest.refresh_from_db()
    assert contest.status == Contest.Status.PUBLISHED and contest.edital_published_on == contest.edital_date
    assert first.version == 1 and first.published_by == manager and len(first.sha256) == 64
    with pytest.raises(ValidationError):
        edital_publish(contest=contest, by=manager)
    edital_text_save(contest=contest, by=None, data={"exam_content": "Prova objetiva de 50 questões."})
    second = edital_rectify(contest=contest, by=manager, summary="Número de questões da prova.")
    assert second.version == 2 and second.previous == first and second.code != first.code
    for document in (first, second):
        result = verify_file(data=bytes(document.pdf), code=document.code)
        assert result.matches and result.document == document
    tampered = bytearray(second.pdf)
    tampered[len(tampered) // 2] ^= 0xFF
    result = verify_file(data=bytes(tampered), code=second.code)
    assert not result.matches and result.document is None


def test_published_document_is_immutable_in_model_and_database():
    contest = ready_contest()
    document = edital_publish(contest=contest, by=None)
    document.title = "Outro"
    with pytest.raises(ValidationError):
        document.save()
    with pytest.raises(ValidationError):
        document.delete()
    for statement in ("UPDATE contests_document SET title = 'x'", "DELETE FROM contests_document"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert Document.objects.get().title == edital.edital_title(contest)


def make_pkcs12(path, password: bytes) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Câmara Municipal de Teste")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(True, True, False, False, False, True, False, False, False), critical=True
        )
        .sign(key, hashes.SHA256())
    )
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"teste", key, cert, None, serialization.BestAvailableEncryption(password)
        )
    )


def test_signed_pdf_validates_with_pyhanko(settings, tmp_path):
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    path = tmp_path / "org.p12"
    make_pkcs12(path, b"segredo")
    settings.DOCUMENTS_PKCS12_PATH = str(path)
    settings.DOCUMENTS_PKCS12_PASSWORD = "segredo"
    document = edital_publish(contest=ready_contest(), by=None)
    assert document.signed and "Câmara Municipal de Teste" in document.signature_subject
    data = bytes(document.pdf)
    signature = PdfFileReader(io.BytesIO(data)).embedded_signatures[0]
    signer = signing._signer(str(path), "segredo")
    status = validate_pdf_signature(signature, ValidationContext(trust_roots=[signer.signing_cert]))
    assert status.intact and status.valid and status.trusted
    report = verify_file(data=data, code=document.code).signature
    assert report.present and report.intact and report.valid and report.trusted
    assert "válida" in report.summary


def test_verification_page_is_anonymous_and_checks_an_upload(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = edital_publish(contest=ready_contest(), by=None)
    page = client.get(f"/verificar/{document.code}/")
    assert page.status_code == 200
    assert document.sha256 in page.content.decode()
    good = client.post(
        f"/verificar/{document.code}/", {"file": SimpleUploadedFile("e.pdf", bytes(document.pdf))}
    )
    assert "Autêntico" in good.content.decode()
    bad = client.post(
        f"/verificar/{document.code}/", {"file": SimpleUploadedFile("e.pdf", b"%PDF-1.7 outro")}
    )
    assert "Não confere" in bad.content.decode()
    assert client.get("/verificar/ZZZZ-ZZZZ/").status_code == 404


def test_edital_screens_access_matrix(client):
    from tests.pages import post_form

    cast = builders.make_cast()
    contest = ready_contest()
    url = f"/concursos/{contest.slug}/edital/"
    for name, status in {"clerk": 200, "manager": 200, "auditor": 200, "outsider": 403}.items():
        client.force_login(cast[name])
        assert client.get(url).status_code == status, name
    client.force_login(cast["manager"])
    assert client.post(url, {"schedule": SCHEDULE}).status_code == 403  # Gestão publishes, does not write
    client.force_login(cast["clerk"])
    assert client.get(f"/concursos/{contest.slug}/edital/publicar/").status_code == 403
    assert client.get(f"/concursos/{contest.slug}/edital/minuta.pdf")["Content-Type"] == "application/pdf"
    client.force_login(cast["manager"])
    response = post_form(client, f"/concursos/{contest.slug}/edital/publicar/", {"gazette_edition": "DOM 1"})
    document = Document.objects.get()
    # The manager stays in the staff area: the contest's page, with the message and the public link.
    assert response.status_code == 302 and response["Location"] == f"/concursos/{contest.slug}/"
    page = client.get(response["Location"]).content.decode()
    assert "Edital publicado." in page and f'href="/verificar/{document.code}/"' in page
    assert document.published_by == cast["manager"]


def test_an_unknown_upload_is_refused_by_its_hash_without_parsing_the_pdf(monkeypatch):
    """An anonymous upload that matches no published version costs a hash, never a signature check (a 50 MB
    junk file took seconds of CPU in pyHanko)."""

    def parse(*args, **kwargs):
        raise AssertionError("a file that matches nothing must not be parsed")

    monkeypatch.setattr(signing, "signature_report", parse)
    result = verify_file(data=b"%PDF-1.7 " + b"x" * 100_000)
    assert result.document is None and result.signature is None and not result.matches


def test_the_edital_is_written_published_and_rectified_through_the_fields_its_pages_render(client):
    """Each of the three edital forms shows its fields: the text (schedule and signer, which the
    pre-publication check asks for), the gazette reference, and what a rectification changes."""
    from tests.pages import forms_on, post_form

    cast = builders.make_cast()
    contest = builders.make_contest()
    builders.make_position(contest, vacancies=13, code="ANSI", title="Analista")
    client.force_login(cast["clerk"])
    url = f"/concursos/{contest.slug}/edital/"
    rendered = forms_on(client.get(url).content.decode())
    assert {"schedule", "signer_name", "signer_office"} <= set(rendered[-1].visible)
    response = post_form(
        client,
        url,
        {
            "schedule": SCHEDULE,
            "exam_content": "Prova objetiva de 60 questões.",
            "signer_name": "Maria da Silva",
            "signer_office": "Presidente da Câmara",
        },
        containing="schedule",
    )
    assert response.status_code == 302
    assert edital.check(contest).ok

    client.force_login(cast["manager"])
    publish = f"/concursos/{contest.slug}/edital/publicar/"
    response = post_form(client, publish, {"gazette_edition": "DOM 1.234", "gazette_page": "7"})
    document = Document.objects.get()
    assert response.status_code == 302
    assert (document.gazette_edition, document.gazette_page) == ("DOM 1.234", "7")

    rectify = f"/concursos/{contest.slug}/edital/retificar/"
    response = post_form(
        client, rectify, {"summary": "Corrige o cronograma.", "gazette_edition": "DOM 1.240"}
    )
    assert response.status_code == 302
    assert Document.objects.filter(version=2, rectification_summary="Corrige o cronograma.").exists()


def test_the_edital_publish_form_brings_the_signer_the_organisation_records_for_editais(client):
    """DESIGN point 11: the authority recorded for editais signs, prefilled and editable on the form."""
    from contests.models import Signatory
    from tests.pages import forms_on, post_form

    cast = builders.make_cast()
    contest = builders.make_contest()
    builders.make_position(contest, vacancies=13, code="ANSI", title="Analista")
    builders.make_signatory(Signatory.Kind.EDITAL, "Maria da Silva", "Presidente da Câmara")
    client.force_login(cast["clerk"])
    post_form(client, f"/concursos/{contest.slug}/edital/", {"schedule": SCHEDULE}, containing="schedule")
    assert edital.check(contest).ok  # the signer came from the organisation's settings
    client.force_login(cast["manager"])
    publish = f"/concursos/{contest.slug}/edital/publicar/"
    form = next(f for f in forms_on(client.get(publish).content.decode()) if "signer_name" in f.visible)
    assert (form.values["signer_name"], form.values["signer_office"]) == (
        "Maria da Silva",
        "Presidente da Câmara",
    )
    post_form(client, publish, {"signer_name": "João Souza", "signer_office": "Vice-Presidente no exercício"})
    document = Document.objects.get()
    assert (document.signer_name, document.signer_office) == ("João Souza", "Vice-Presidente no exercício")
