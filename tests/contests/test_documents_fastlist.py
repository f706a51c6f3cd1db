"""Long lists' middle pages written by ``contests.documents.fastlist`` (issue 24): the same words, in the same
places, as WeasyPrint's pages of the same list, with the frame (the verification code and address) and
"Página n de N" on every page."""

import io
import re

import pypdfium2 as pdfium
import pytest
import segno
from PIL import ImageChops
from pypdf import PdfReader

from candidates import documents
from contests.documents import fastlist, render
from contests.documents.models import Document
from contests.documents.services import document_publish, signing_certificate_replace, verify_file
from contests.documents.signatures import SignatureBlock
from tests.builders import make_contest
from tests.contests.icp_chain import PASSWORD, chain

pytestmark = pytest.mark.django_db
CODE = "7KQ4-M2XD"
LONG_NAME = "Maria Aparecida dos Santos Oliveira de Albuquerque Cavalcanti e Souza Ferreira Lima Neto"
CONTEXT = {
    "heading": "Concurso Público nº 1/2026 – Teste",
    "opening": "A PRESIDENTE, no uso de suas atribuições legais, torna público o resultado final.",
    "place_date": "Santa Maria, 1º de dezembro de 2026.",
    "signature": SignatureBlock("Gestora Exemplo", "Presidente da Câmara"),
}


def rows(count: int, *, start: int = 1) -> list[tuple[int, str, str, str]]:
    names = ["João Conceição", "Ana Lúcia Ávila", "Pedro Vitória", LONG_NAME, "Tânia Yara Wolff"]
    return [
        (i, f"2026{i:06d}", names[i % len(names)] + f" {i}", f"{90 - i / 10:.2f}".replace(".", ","))
        for i in range(start, start + count)
    ]


def blocks() -> list[render.Block]:
    """A general list over several pages, an empty reserve, and a reserve with a title long enough to wrap
    that starts in the middle of a page (no "fi" in the titles: WeasyPrint sets it as a ligature)."""
    return [
        render.Block("ANSI – Analista: Lista geral (ampla concorrência, cotistas incluídos)", rows(230)),
        render.Block("ANSI – Analista: Lista reservada a pessoas com deficiência", []),
        render.Block(
            "ANSI – Analista de Tecnologia da Informação e Comunicação da Secretaria Municipal de Saúde "
            "Pública: Lista reservada a negros",
            rows(120),
        ),
    ]


def render_list(stamp: render.Stamp) -> bytes:
    return render.render_blocks(
        "pdf/result_list.html",
        CONTEXT,
        blocks(),
        stamp,
        title="Edital nº 5/2026 – Resultado final",
        closing_height=documents.CLOSING_HEIGHT,
    )


def test_every_row_in_order_and_the_footer_and_page_number_on_every_page():
    pdf = render_list(render.Stamp(code=CODE, draft=False))
    reader = PdfReader(io.BytesIO(pdf))
    total = len(reader.pages)
    pages = render.paginate(blocks(), closing_height=documents.CLOSING_HEIGHT)
    assert total == len(pages) >= 6
    # WeasyPrint's version (transparency needs 1.4), title and language kept.
    assert pdf.startswith(b"%PDF-1.7") and reader.metadata.title == "Edital nº 5/2026 – Resultado final"
    assert reader.root_object["/Lang"] == "pt-BR"
    texts = [page.extract_text() for page in reader.pages]
    for number, text in enumerate(texts, start=1):
        assert f"Página {number} de {total}" in text
        assert f"Código de verificação: {CODE}" in text
        assert render.verification_url(CODE) in text
    # The pages between the first and the last were written by fastlist, the frame over each stored once.
    frames = {
        page["/Resources"]["/XObject"].raw_get(fastlist.FRAME_NAME).idnum for page in reader.pages[1:-1]
    }
    assert len(frames) == 1
    text = "\n".join(texts)
    cursor = 0
    for block in blocks():
        cursor = text.index(block.title.split(":")[1].strip(), cursor)
        if not block.rows:
            cursor = text.index("Nenhum candidato nesta lista.", cursor)
        for rank, number, name, score in block.rows:
            # One line: rank, number, the name (or as much of it as fits), the score; the rest of a long
            # name on the lines right after it.
            row = re.compile(rf"^ *{rank}º +{number} +(.+?) +{re.escape(score)}$", re.MULTILINE)
            found = row.search(text, cursor)
            assert found is not None, f"linha {rank} ({name}) fora de ordem ou ausente"
            cursor = found.end()
            rest = name.removeprefix(found.group(1))
            assert rest != name, f"linha {rank}: {found.group(1)!r}"
            if rest.strip():
                following = " ".join(text[cursor:].split())
                assert following.startswith(rest.strip()), f"linha {rank}: {rest!r} não continua"
    assert text.index("Gestora Exemplo") > cursor
    assert texts[1].startswith(
        "ANSI – Analista: Lista geral (ampla concorrência, cotistas incluídos) (continuação)"
    )


def test_the_side_panel_lists_the_document_and_each_list_on_its_first_page():
    """The bookmarks WeasyPrint makes of the headings (the document's title, then each list's) are kept
    when the pages are drawn as forms: a reader of 263 pages jumps to the list reserved to Black
    candidates from the side panel. Each points at the page where the list's title is, once (not at each
    "(continuação)")."""
    reader = PdfReader(io.BytesIO(render_list(render.Stamp(code=CODE, draft=False))))
    heading, children = reader.outline
    assert heading.title == "Edital nº 5/2026 – Resultado final"
    assert reader.get_destination_page_number(heading) == 0
    assert [child.title for child in children] == [block.title for block in blocks()]
    for block, child in zip(blocks(), children, strict=True):
        text = " ".join(reader.pages[reader.get_destination_page_number(child)].extract_text().split())
        assert f"{block.title} (continuação)" not in text
        assert " ".join(block.title.split()) in text
    # The reserve starting mid-document is on a written page, not on WeasyPrint's first or last.
    assert 0 < reader.get_destination_page_number(children[2]) < len(reader.pages) - 1


def characters(pdf: bytes, index: int) -> list[tuple[str, tuple[float, ...]]]:
    page = pdfium.PdfDocument(pdf)[index]
    textpage = page.get_textpage()
    return [
        (textpage.get_text_range(k, 1), textpage.get_charbox(k))
        for k in range(textpage.count_chars())
        if textpage.get_text_range(k, 1).strip()
    ]


@pytest.mark.parametrize("draft", [False, True])
def test_a_written_page_has_weasyprint_s_words_in_weasyprint_s_places(monkeypatch, draft):
    """Each middle page as fastlist writes it and as WeasyPrint renders it (every page left to WeasyPrint):
    the same characters, each within a twentieth of a point; the same pixels but for anti-aliasing."""
    stamp = render.Stamp() if draft else render.Stamp(code=CODE, draft=False)
    written = render_list(stamp)
    monkeypatch.setattr(fastlist, "drawable", lambda parts: False)
    rendered = render_list(stamp)
    count = render.page_count(written)
    assert render.page_count(rendered) == count
    for index in range(1, count - 1):
        ours, theirs = characters(written, index), characters(rendered, index)
        assert "".join(c for c, _ in ours) == "".join(c for c, _ in theirs)
        for (char, box), (_, expected) in zip(ours, theirs, strict=True):
            assert max(abs(a - b) for a, b in zip(box, expected, strict=True)) < 0.05, (index, char)
        ours_image = pdfium.PdfDocument(written)[index].render(scale=1.5).to_pil().convert("L")
        their_image = pdfium.PdfDocument(rendered)[index].render(scale=1.5).to_pil().convert("L")
        differing = sum(ImageChops.difference(ours_image, their_image).histogram()[97:])
        assert differing < 0.002 * ours_image.width * ours_image.height, (index, differing)


def test_a_page_in_another_script_is_left_to_weasyprint():
    """Hebrew is in the bundled fonts, but set right to left: that page is WeasyPrint's (as is one with a
    character the fonts lack, which WeasyPrint takes from the system's fonts)."""
    names = rows(200)
    names[60] = (61, "2026000061", "Cohen שלום", "84,00")
    listed = [render.Block("ANSI – Analista: Lista geral (ampla concorrência, cotistas incluídos)", names)]
    pages = render.paginate(listed)
    assert [fastlist.drawable(page) for page in pages[1:-1]] == [False, True, True]
    assert fastlist.drawable([render.PagePart("Lista", False, "Classif.", ["1º  李"])]) is False
    pdf = render.render_blocks("pdf/result_list.html", CONTEXT, listed, render.Stamp(), title="Lista")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == len(pages)
    texts = [page.extract_text() for page in reader.pages]
    assert "2026000061  Cohen" in texts[1] and "Página 2 de 5" in texts[1]
    assert pages[2][0].lines[-1] in texts[2] and "Página 3 de 5" in texts[2]


def test_a_long_list_is_published_signed_and_verified_by_its_code(settings):
    """The written pages go through publication as WeasyPrint's did: hashed, signed (PAdES, pyHanko) and
    found again by /verificar/'s check of the file."""
    settings.DOCUMENTS_PKCS12_PATH = ""
    signing_certificate_replace(data=chain().pkcs12, password=PASSWORD, by=None)
    document = document_publish(
        contest=make_contest(),
        kind=Document.Kind.RESULT_LIST,
        subject="run-longa",
        title="Edital nº 5/2026 – Resultado final",
        render=render_list,
        by=None,
        signer_name="Gestora Exemplo",
        signer_office="Presidente da Câmara",
    )
    pdf = bytes(document.pdf)
    assert document.signed and render.page_count(pdf) >= 6
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
    assert all(document.code in text for text in texts)
    verification = verify_file(data=pdf, code=document.code)
    assert verification.matches
    assert verification.signature is not None
    assert verification.signature.intact and verification.signature.valid
    assert verification.signature.covers_whole_file


def test_a_stamp_s_qr_code_is_segno_s_for_its_address_made_once():
    stamp = render.Stamp(code=CODE, draft=False)
    expected = str(segno.make(stamp.url, error="m").png_data_uri(scale=6, border=0))
    render.qr_data_uri.cache_clear()
    assert stamp.qr == expected and stamp.qr == expected  # the page footer asks twice
    assert render.qr_data_uri.cache_info().misses == 1
    assert render.Stamp(code=CODE).qr == ""  # a draft has nothing to verify
