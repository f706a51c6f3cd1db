"""pdf.css parsed once per thread and given to WeasyPrint in place of the document's <link>
(contests/documents/render.py): the same bytes as WeasyPrint reading the link itself, and a changed file read
again."""

from __future__ import annotations

import os

from django.conf import settings
from weasyprint import HTML

from contests.documents import render
from tests import conftest

BODY = (
    "<body><h1>Edital de Abertura nº 1/2026</h1><p>Texto com <strong>negrito</strong>, <em>itálico</em> e "
    "<code>0001</code>.</p><table><tr><th>Classif.</th><td>1</td></tr></table></body>"
)


def page() -> str:
    return f"<!doctype html><html lang='pt-BR'><head>{render._stylesheet_link()}</head>{BODY}</html>"


def weasyprint_reads_the_link(html: str) -> bytes:
    return bytes(
        HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf(font_config=render._font_config())
    )


def pdf_from_html(html: str) -> bytes:
    """The product's function, not the session's cache of its PDFs (tests/rendered_pdfs.py)."""
    assert conftest.PDFS is not None
    return conftest.PDFS.render_pdf(html)


def test_a_document_comes_out_byte_for_byte_as_weasyprint_makes_it_from_the_link():
    html = page()
    assert render._stylesheet_link() in html
    assert pdf_from_html(html) == weasyprint_reads_the_link(html)
    kept = render._stylesheet(render._font_config())
    assert pdf_from_html(html) == weasyprint_reads_the_link(html)  # the kept stylesheet, the second time
    assert render._stylesheet(render._font_config()) is kept  # parsed once, not for each PDF


def test_the_stylesheet_is_read_again_when_it_changes(monkeypatch, tmp_path):
    copy = tmp_path / "pdf.css"
    copy.write_text(render.STYLESHEET.read_text())
    monkeypatch.setattr(render, "STYLESHEET", copy)
    html = page()
    before = pdf_from_html(html)
    stat = copy.stat()
    copy.write_text(copy.read_text() + "\nh1 { font-size: 30pt; }\n")
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    after = pdf_from_html(html)
    assert after != before
    assert after == weasyprint_reads_the_link(html)


def test_a_page_without_the_link_is_left_as_it_is():
    html = f"<!doctype html><html><head></head>{BODY}</html>"
    assert pdf_from_html(html) == weasyprint_reads_the_link(html)
